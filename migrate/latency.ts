// Latency of a v1/v2 pair under the same small bounded load: requests of both versions interleaved over the same
// workers, so both see the same target conditions; p50/p95 with intervals and the v1/v2 test from compare/ (one implementation).
import type { GatewayResponse } from '../api/envelope.ts';
import { estimateQuantile, quantileTest, sampleOfValues } from '../stats/quantiles.ts';
import { DEFAULT_COMPARE_SETTINGS } from '../stats/regression-settings.ts';

export interface LatencyFigures {
  /** Milliseconds, nearest rank. */
  readonly p50: number;
  readonly p95: number;
  /** Distribution-free (1 − α) intervals (stats/quantiles.ts); a null bound: too few samples to bound it. */
  readonly p50Ci: readonly [number | null, number | null];
  readonly p95Ci: readonly [number | null, number | null];
  /** Responses measured. */
  readonly count: number;
  /** Answers that were not successful (or in progress) among them. */
  readonly failures: number;
}

export interface PairLatency {
  readonly v1: LatencyFigures;
  readonly v2: LatencyFigures;
  /** Two-sided p-value that v1 and v2 share their p95 (Mood's quantile test, as the run comparison uses). */
  readonly p95PValue: number;
}

export interface LoadSettings {
  /** Requests per version. */
  readonly requests: number;
  /** Requests in flight at once (both versions together). */
  readonly concurrency: number;
  /** No request starts after this many ms from the start of the pair's load. */
  readonly maxMs: number;
  /** No request starts once this is aborted (SIGINT/SIGTERM): the samples so far are the pair's figures. */
  readonly stop?: AbortSignal;
}

export const DEFAULT_LOAD: LoadSettings = Object.freeze({ requests: 10, concurrency: 2, maxMs: 60_000 });
export const LOAD_LIMITS = Object.freeze({ requests: 1_000, concurrency: 16 });

const round = (n: number): number => Math.round(n * 10) / 10;

function figures(samples: readonly { ms: number; ok: boolean }[]): LatencyFigures {
  // In arrival order: the time batches of the design effect are consecutive requests.
  const sample = sampleOfValues(samples.map((s) => s.ms));
  const at = (q: number): { value: number; ci: readonly [number | null, number | null] } => {
    const e = estimateQuantile(sample, q, DEFAULT_COMPARE_SETTINGS.alpha);
    return { value: round(e.value), ci: [e.low === undefined ? null : round(e.low), e.high === undefined ? null : round(e.high)] };
  };
  const p50 = at(0.5);
  const p95 = at(0.95);
  return {
    p50: p50.value,
    p95: p95.value,
    p50Ci: p50.ci,
    p95Ci: p95.ci,
    count: samples.length,
    failures: samples.filter((s) => !s.ok).length,
  };
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
    while (next < jobs.length && now() - started < settings.maxMs && settings.stop?.aborted !== true) {
      const version = jobs[next++] as 'v1' | 'v2';
      const response = await send[version]();
      const outcome = response.classification.outcome;
      samples[version].push({ ms: response.timings.totalMs, ok: outcome === 'Successful' || outcome === 'InProgress' });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(settings.concurrency, jobs.length)) }, worker));
  const p95PValue = quantileTest(sampleOfValues(samples.v1.map((s) => s.ms)), sampleOfValues(samples.v2.map((s) => s.ms)), 0.95);
  return { v1: figures(samples.v1), v2: figures(samples.v2), p95PValue };
}
