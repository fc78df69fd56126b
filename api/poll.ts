// Polls for a transaction's final outcome (spec: States and transitions, "Poll again until final"), bounded by a
// deadline and an attempt count. Runtime-neutral: the clock and sleep are injected, so tests run without real time.
import type { Classification } from './outcome.ts';
import type { GatewayResponse } from './envelope.ts';

export interface PollOptions<T extends Classification> {
  /** One status check; its classification decides whether polling goes on. */
  readonly check: () => Promise<T>;
  /** Wait between checks (real ms). */
  readonly intervalMs: number;
  /** Total time budget from the first check (real ms); no sleep runs past it. */
  readonly deadlineMs: number;
  /** Hard cap on checks, whatever the clock says (a frozen or fake clock cannot make the loop unbounded). */
  readonly maxAttempts?: number;
  /** Stop early without a final outcome (e.g. the status endpoint rejects the credentials: polling cannot help). */
  readonly giveUp?: (last: T) => boolean;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
}

export interface PollResult<T extends Classification> {
  /** True when a check returned a final outcome (Successful or Failed). */
  readonly final: boolean;
  /** The last check's outcome: when not final, InProgress or Unknown (never assume failure: the account may be charged). */
  readonly outcome: Classification['outcome'];
  readonly attempts: number;
  readonly elapsedMs: number;
  /** Why polling ended. */
  readonly stoppedBy: 'final' | 'deadline' | 'max-attempts' | 'gave-up';
  readonly last: T;
}

/** Upper bound on the default attempt cap, for tiny intervals. */
const MAX_DEFAULT_ATTEMPTS = 10_000;

export function defaultMaxAttempts(intervalMs: number, deadlineMs: number): number {
  if (intervalMs <= 0) return MAX_DEFAULT_ATTEMPTS;
  return Math.min(MAX_DEFAULT_ATTEMPTS, Math.ceil(deadlineMs / intervalMs) + 2);
}

export async function pollUntilFinal<T extends Classification>(options: PollOptions<T>): Promise<PollResult<T>> {
  if (!(options.intervalMs >= 0) || !(options.deadlineMs >= 0)) {
    throw new RangeError('pollUntilFinal: intervalMs and deadlineMs must be numbers >= 0');
  }
  const maxAttempts = Math.max(1, options.maxAttempts ?? defaultMaxAttempts(options.intervalMs, options.deadlineMs));
  const start = options.now();
  let attempts = 0;
  const finish = (last: T, stoppedBy: PollResult<T>['stoppedBy']): PollResult<T> => ({
    final: last.final,
    outcome: last.outcome,
    attempts,
    elapsedMs: options.now() - start,
    stoppedBy,
    last,
  });

  while (true) {
    attempts++;
    const last = await options.check();
    if (last.final) return finish(last, 'final');
    if (options.giveUp?.(last) === true) return finish(last, 'gave-up');
    if (attempts >= maxAttempts) return finish(last, 'max-attempts');
    const remaining = options.deadlineMs - (options.now() - start);
    if (remaining <= 0) return finish(last, 'deadline');
    // The last sleep is cut to the deadline so one more check lands right at it.
    await options.sleep(Math.min(options.intervalMs, remaining));
  }
}

/** HTTP statuses on a status check that polling cannot fix (credentials); the poll stops early, still not final. */
const HOPELESS_STATUS = new Set([401, 403]);

/**
 * What a status answer of "no such transaction" means depends on time (spec: "If the client times out, do not assume
 * failure (the account may be charged)"; "Service-side transaction timeout is 2 minutes"). Until the service-side
 * timeout has passed since submission the gateway may still be processing a request it has not recorded yet, so
 * such an answer leaves the transaction Unknown. Which codes mean "not found" the spec does not say (assumed, config).
 */
export interface StatusPolicy {
  /** Epoch ms when the transaction was submitted (sent), if this client submitted it. */
  readonly submittedAt?: number;
  /** The service-side transaction timeout in real ms (2 minutes, scaled by the target's time scale). */
  readonly serviceTimeoutMs: number;
  /** Status codes that mean "no record of this correlationId" (assumed; default '027', the embedded sandbox's). */
  readonly notFoundCodes: readonly string[];
  readonly now: () => number;
  /**
   * False for money records (a production ledger): "not found" after the service-side timeout stays Unknown and not
   * final (rule `not-found-at-target`), since a gateway that never received the request — or another gateway than the
   * one that did — answers exactly that. Default true: the spec's "any other responseCode" row, Failed.
   */
  readonly notFoundFinal?: boolean;
}

/**
 * Classification of one status-check response (spec rows "Unknown / In progress | Status check"): '852' in
 * progress, '000' successful, any other responseCode failed. A status check that itself got no envelope (timeout,
 * reset, HTTP error, unparsable body) says nothing about the transaction, so it stays Unknown and not final; its
 * `rule` still names what the check saw. With a policy, "not found" before the service-side timeout is Unknown too.
 */
export function classifyStatusCheck(response: GatewayResponse, policy?: StatusPolicy): Classification {
  const seen = response.classification;
  if (response.httpStatus !== 200 || response.envelope === undefined) return { outcome: 'Unknown', rule: seen.rule, final: false };
  if (policy !== undefined && policy.notFoundCodes.includes(response.envelope.responseCode)) {
    const since = policy.submittedAt === undefined ? Number.POSITIVE_INFINITY : policy.now() - policy.submittedAt;
    if (since < policy.serviceTimeoutMs) return { outcome: 'Unknown', rule: 'not-found-before-service-timeout', final: false };
    if (policy.notFoundFinal === false) return { outcome: 'Unknown', rule: 'not-found-at-target', final: false };
  }
  return seen;
}

/**
 * True when polling again cannot help: the status endpoint refuses the credentials, or (money records) the target
 * still has no record of the transaction after the service-side timeout.
 */
export function statusCheckHopeless(response: GatewayResponse, classification?: Classification): boolean {
  return (response.httpStatus !== undefined && HOPELESS_STATUS.has(response.httpStatus)) || classification?.rule === 'not-found-at-target';
}
