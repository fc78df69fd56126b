// What went wrong with a response that is not a gateway answer — a client timeout, no response (reset, refused), an
// HTTP 5xx, a body that is no envelope — counted the same way by every command and engine, and a bounded retry for
// idempotent reads (catalog discovery), which must not make a whole run unusable over one faulted read. Runtime-neutral.
import type { GatewayResponse } from './envelope.ts';

/** The fault kinds a run counts. None of them is ever a success (api/outcome.ts: Unknown or Failed). */
export type FaultKind = 'timeout' | 'connection' | 'server-error' | 'malformed';
export const FAULT_KINDS: readonly FaultKind[] = ['timeout', 'connection', 'server-error', 'malformed'];

/** Words for reports: what the client saw. */
export const FAULT_WORDS: Readonly<Record<FaultKind, string>> = {
  timeout: 'client timeouts (Unknown)',
  connection: 'no response: reset or refused (Unknown)',
  'server-error': 'HTTP 5xx (Failed)',
  malformed: 'HTTP 200 without a readable envelope (Unknown)',
};

/**
 * The fault a response shows, if any. A 4xx is the gateway's own answer (credentials, unknown path), not a fault; a
 * parsable envelope with a failure code is a business outcome, not a fault.
 */
export function faultKindOf(response: GatewayResponse): FaultKind | undefined {
  if (response.timedOut) return 'timeout';
  if (response.httpStatus === undefined) return 'connection';
  if (response.httpStatus >= 500) return 'server-error';
  if (response.httpStatus === 200 && response.envelope === undefined) return 'malformed';
  return undefined;
}

export type FaultCounts = Record<FaultKind, number>;

export interface FaultTally {
  add(response: GatewayResponse): void;
  counts(): FaultCounts;
  total(): number;
}

export function createFaultTally(): FaultTally {
  const counts: FaultCounts = { timeout: 0, connection: 0, 'server-error': 0, malformed: 0 };
  return {
    add(response) {
      const kind = faultKindOf(response);
      if (kind !== undefined) counts[kind] += 1;
    },
    counts: () => ({ ...counts }),
    total: () => FAULT_KINDS.reduce((sum, k) => sum + counts[k], 0),
  };
}

/** The counts of several parts of a run, kind by kind. */
export function addFaultCounts(...parts: readonly FaultCounts[]): FaultCounts {
  const sum: FaultCounts = { timeout: 0, connection: 0, 'server-error': 0, malformed: 0 };
  for (const part of parts) for (const kind of FAULT_KINDS) sum[kind] += part[kind];
  return sum;
}

/** "3 client timeouts (Unknown), 1 HTTP 5xx (Failed)"; "none" when nothing went wrong. */
export function faultLine(counts: FaultCounts): string {
  const parts = FAULT_KINDS.filter((k) => counts[k] > 0).map((k) => `${counts[k]} ${FAULT_WORDS[k]}`);
  return parts.length === 0 ? 'none' : parts.join(', ');
}

export interface ReadRetry {
  /** Attempts in all (the first included). */
  readonly attempts: number;
  readonly waitMs: number;
  readonly sleep: (ms: number) => Promise<void>;
}

/**
 * Repeats an idempotent read (never a write: a retried write could charge twice) while its answer is a fault, at most
 * `attempts` times; returns the last answer either way, so a target that keeps failing is still reported as such.
 */
export async function retryRead<T extends { readonly response: GatewayResponse }>(read: () => Promise<T>, retry: ReadRetry): Promise<T> {
  let last = await read();
  for (let attempt = 1; attempt < retry.attempts && faultKindOf(last.response) !== undefined; attempt++) {
    await retry.sleep(retry.waitMs);
    last = await read();
  }
  return last;
}
