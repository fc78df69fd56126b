// What went wrong with a response that is not a gateway answer — a client timeout, no response (reset, refused), an
// HTTP 5xx, a body that is no envelope — counted the same way by every command and engine, and a bounded retry for
// idempotent reads (catalog discovery), which must not make a whole run unusable over one faulted read. Runtime-neutral.
import type { GatewayResponse } from './envelope.ts';
import { HarnessError } from './errors.ts';

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
  // A request the harness left (its signal) got no answer because of the harness: no fault of the target's.
  if (response.transportError?.abandoned === true) return undefined;
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
  /** No attempt after it is aborted (SIGINT/SIGTERM): the answer so far is returned. */
  readonly stop?: { readonly aborted: boolean };
}

/**
 * Client timeouts of one read in a row after which it is given up, whatever its attempts: the target went silent. Each
 * costs a whole response timeout, so they bound a discovery at this many response timeouts (plus the waits); the fault
 * profiles break one answer in ten at random, so three slow answers in a row to one read are a silent target.
 */
export const SILENT_READ_TIMEOUTS = 3;

export interface SilenceWatch {
  /** Sees every answer (a client timeout counts, anything else starts the count again). */
  see(response: GatewayResponse): void;
  /** Throws GH_ERR_TARGET (exit 2) once SILENT_READ_TIMEOUTS answers in a row were client timeouts: send nothing more. */
  check(): void;
  /** Once the target went silent, the one line `check` throws (naming the phase); undefined before. */
  silence(): string | undefined;
}

/**
 * The watch of one phase's requests to a target that answered the preflight: once it went silent (SILENT_READ_TIMEOUTS
 * client timeouts in a row, and no answer at all for (SILENT_READ_TIMEOUTS - 1) client timeouts), the phase stops in one
 * line naming it instead of waiting out each request. The span matters because a phase sends requests side by side: a
 * stall of the harness's own machine (a starved CI runner, a loaded box) times several out together within one client
 * timeout, while a silent target keeps answering nothing for timeout after timeout.
 */
export function createSilenceWatch(phase: string, now: () => number = Date.now): SilenceWatch {
  let inARow = 0;
  let waitedMs = 0;
  // The preflight was answered just before the phase began.
  let lastAnswerAt = now();
  // Once tripped it stays tripped: a late answer to an old request does not reopen a phase that was given up.
  let silentLine: string | undefined;
  return {
    see(response) {
      if (silentLine !== undefined) return;
      if (!response.timedOut) {
        inARow = 0;
        lastAnswerAt = now();
        return;
      }
      inARow += 1;
      waitedMs = Math.round(response.timings.totalMs);
      const silentForMs = now() - lastAnswerAt;
      if (inARow >= SILENT_READ_TIMEOUTS && silentForMs >= (SILENT_READ_TIMEOUTS - 1) * waitedMs)
        silentLine = `${phase}: the target went silent after the preflight: ${inARow} requests in a row got no answer (the last within ${waitedMs} ms), nothing answered for ${Math.round(silentForMs)} ms`;
    },
    check() {
      if (silentLine !== undefined) throw new HarnessError('GH_ERR_TARGET', silentLine, { exitCode: 2 });
    },
    silence: () => silentLine,
  };
}

/**
 * Repeats an idempotent read (never a write: a retried write could charge twice) while its answer is a fault, at most
 * `attempts` times and at most SILENT_READ_TIMEOUTS client timeouts in a row; returns the last answer either way, so a
 * target that keeps failing (or went silent) is still reported as such.
 */
export async function retryRead<T extends { readonly response: GatewayResponse }>(read: () => Promise<T>, retry: ReadRetry): Promise<T> {
  let last = await read();
  let timeouts = last.response.timedOut ? 1 : 0;
  const stopped = (): boolean => retry.stop?.aborted === true;
  for (
    let attempt = 1;
    attempt < retry.attempts && faultKindOf(last.response) !== undefined && timeouts < SILENT_READ_TIMEOUTS;
    attempt++
  ) {
    if (stopped()) break;
    await retry.sleep(retry.waitMs);
    if (stopped()) break;
    last = await read();
    timeouts = last.response.timedOut ? timeouts + 1 : 0;
  }
  return last;
}
