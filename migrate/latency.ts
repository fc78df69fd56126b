// Latency of a v1/v2 pair under the same small bounded load: requests of both versions interleaved over the same
// workers, so both see the same target conditions; nearest-rank p50/p95 of each version's response times.
import type { GatewayResponse } from '../api/envelope.ts';

export interface LatencyFigures {
  /** Milliseconds, nearest rank. */
  readonly p50: number;
  readonly p95: number;
  /** Responses measured. */
  readonly count: number;
  /** Answers that were not successful (or in progress) among them. */
  readonly failures: number;
}

export interface PairLatency {
  readonly v1: LatencyFigures;
  readonly v2: LatencyFigures;
}

export interface LoadSettings {
  /** Requests per version. */
  readonly requests: number;
  /** Requests in flight at once (both versions together). */
  readonly concurrency: number;
  /** No request starts after this many ms from the start of the pair's load. */
  readonly maxMs: number;
}

export const DEFAULT_LOAD: LoadSettings = Object.freeze({ requests: 10, concurrency: 2, maxMs: 60_000 });
export const LOAD_LIMITS = Object.freeze({ requests: 1_000, concurrency: 16 });

/** Nearest-rank percentile of ascending values (0 when empty). */
export function percentile(ascending: readonly number[], p: number): number {
  if (ascending.length === 0) return 0;
  const rank = Math.min(ascending.length, Math.max(1, Math.ceil((p / 100) * ascending.length)));
  return ascending[rank - 1] as number;
}

function figures(samples: readonly { ms: number; ok: boolean }[]): LatencyFigures {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const round = (n: number): number => Math.round(n * 10) / 10;
  return { p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)), count: samples.length, failures: samples.filter((s) => !s.ok).length };
}

/**
 * Sends `requests` of each version (after one unmeasured warm-up request each), v1 and v2 alternating in one queue
 * served by `concurrency` workers. Bounded in count and in time (nothing starts after maxMs). Each sender call is one request.
 */
export async function measurePair(
  send: { readonly v1: () => Promise<GatewayResponse>; readonly v2: () => Promise<GatewayResponse> },
  settings: LoadSettings,
  now: () => number = () => performance.now(),
): Promise<PairLatency> {
  const jobs: ('v1' | 'v2')[] = [];
  for (let i = 0; i < settings.requests; i++) jobs.push(i % 2 === 0 ? 'v1' : 'v2', i % 2 === 0 ? 'v2' : 'v1');
  const samples: Record<'v1' | 'v2', { ms: number; ok: boolean }[]> = { v1: [], v2: [] };
  // One unmeasured request per version first: the first request of a run pays for connections and cold code paths.
  await send.v1();
  await send.v2();
  const started = now();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length && now() - started < settings.maxMs) {
      const version = jobs[next++] as 'v1' | 'v2';
      const response = await send[version]();
      const outcome = response.classification.outcome;
      samples[version].push({ ms: response.timings.totalMs, ok: outcome === 'Successful' || outcome === 'InProgress' });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(settings.concurrency, jobs.length)) }, worker));
  return { v1: figures(samples.v1), v2: figures(samples.v2) };
}
