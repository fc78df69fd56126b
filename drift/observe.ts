// Calls every selected catalog operation with representative inputs and keeps what a baseline needs: the successful
// envelopes, the response header names, and why an operation failed or was not called. All calls go through the client core.
import { describeResponse } from '../api/describe.ts';
import { OPERATIONS, type Operation } from '../api/operations.ts';
import { isMoneyRefusal } from '../ledger/hooks.ts';
import { INTERRUPTED_REASON } from '../reports/interruption.ts';
import type { GatewayResponse } from '../api/envelope.ts';
import type { Fixtures } from '../target/fixtures.ts';
import { watchedForSilence, type TargetSession } from '../target/session.ts';
import type { SilenceWatch } from '../api/faults.ts';
import type { RequestInput } from '../api/request-builder.ts';
import {
  inPhases,
  isUnavailable,
  needsTransaction,
  readInputs,
  runInputContext,
  transactionReadInputs,
  writeBodies,
  type TransactionRef,
} from './representative-inputs.ts';

/**
 * Headers that describe the connection or the message framing, not the API: a proxy, keep-alive or chunked encoding
 * changes them on any route (RFC 9110 7.6.1 hop-by-hop fields, and the length framing of RFC 9112 6).
 */
export const TRANSPORT_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'te',
  'trailer',
  'upgrade',
  'proxy-connection',
]);

export type ObservationState = 'observed' | 'failed' | 'not-run';

export interface OperationObservation {
  readonly operationId: string;
  /** observed: at least one successful answer; failed: calls made, none successful; not-run: no call made. */
  readonly state: ObservationState;
  /** not-run: why no call was made; failed: the first failing answer, described. */
  readonly reason?: string;
  /** failed only: every failing answer was HTTP 404 or 405 (the endpoint is not there). */
  readonly gone?: boolean;
  /** Successful envelopes, whole (payLoad and any envelope-level extras). */
  readonly samples: readonly unknown[];
  /** Response header names (lower case, transport headers left out) of each successful answer. */
  readonly headerSets: readonly (readonly string[])[];
  readonly calls: number;
  /** Set when the payload came from the status endpoint because the submission was not final (gift card '852'). */
  readonly via?: 'status';
}

export interface ObserveOptions {
  readonly session: TargetSession;
  readonly fixtures: Fixtures;
  /** Operations to observe (default: the whole catalog). */
  readonly operations?: readonly Operation[];
  /** Reads in flight at once. */
  readonly concurrency?: number;
  readonly progress?: (line: string) => void;
  /** Prefix of generated correlationIds (kept short: at most 50 characters in all). */
  readonly runTag?: string;
  /** Aborted on SIGINT/SIGTERM: no operation starts after it; those left are `not-run` (INTERRUPTED_REASON). */
  readonly stop?: AbortSignal;
  /**
   * The phase's silence watch (api/faults.ts createSilenceWatch): once the target went silent no operation starts, and
   * those it cut short or kept from starting are `not-run` (NOT_RUN_SILENT); the caller reads it for the report.
   */
  readonly silence?: SilenceWatch;
}

/** Why an operation is not observed once the target went silent. */
const NOT_RUN_SILENT = 'not run: the target went silent';

/** Reads `inputs` of `op` into a collector through `client` (stops at the first request the silence watch refuses). */
async function collectReads(
  client: Pick<TargetSession['client'], 'call'>,
  op: Operation,
  inputs: readonly RequestInput[],
  silent: () => boolean,
): Promise<OperationObservation> {
  const collector = new Collector(op.id);
  try {
    for (const input of inputs) {
      const { response } = await client.call(op.id, input);
      collector.add(response, successEnvelope(response));
    }
  } catch (error) {
    if (!silent()) throw error;
  }
  return silent() ? notRun(op.id, NOT_RUN_SILENT) : collector.result();
}

export function headerNames(response: GatewayResponse): string[] {
  return Object.keys(response.headers)
    .map((h) => h.toLowerCase())
    .filter((h) => !TRANSPORT_HEADERS.has(h))
    .sort();
}

/** Collects the answers of one operation. */
class Collector {
  readonly samples: unknown[] = [];
  readonly headerSets: string[][] = [];
  calls = 0;
  firstFailure: string | undefined;
  allGone = true;
  via: 'status' | undefined;

  constructor(readonly operationId: string) {}

  add(response: GatewayResponse, envelope: unknown | undefined, via?: 'status'): void {
    this.calls += 1;
    if (envelope !== undefined) {
      this.samples.push(envelope);
      this.headerSets.push(headerNames(response));
      if (via !== undefined) this.via = via;
      return;
    }
    this.firstFailure ??= describeResponse(response);
    if (response.httpStatus !== 404 && response.httpStatus !== 405) this.allGone = false;
  }

  addFailure(reason: string): void {
    this.calls += 1;
    this.firstFailure ??= reason;
    this.allGone = false;
  }

  result(): OperationObservation {
    const base = { operationId: this.operationId, samples: this.samples, headerSets: this.headerSets, calls: this.calls };
    if (this.samples.length > 0) return { ...base, state: 'observed', ...(this.via === undefined ? {} : { via: this.via }) };
    return { ...base, state: 'failed', reason: this.firstFailure ?? 'no answer', ...(this.allGone ? { gone: true } : {}) };
  }
}

export const notRun = (operationId: string, reason: string): OperationObservation => ({
  operationId,
  state: 'not-run',
  reason,
  samples: [],
  headerSets: [],
  calls: 0,
});

function successEnvelope(response: GatewayResponse): unknown | undefined {
  return response.classification.outcome === 'Successful' ? response.envelope : undefined;
}

async function inPool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  });
  await Promise.all(runners);
}

/** Why a target that may not be charged (production without --allow-charges, or --reads-only) gets no call of this operation. */
export function productionRefusal(op: Operation, where = 'a production target'): string | undefined {
  if (op.charges) return `charges money: not sent to ${where}`;
  if (needsTransaction(op)) return `needs an earlier transaction, which charges money: not made on ${where}`;
  return undefined;
}

/** The refusal that applies to an operation on this session, if any. */
function refusalOn(session: TargetSession, op: Operation): string | undefined {
  if (session.chargesAllowed) return undefined;
  return productionRefusal(op, session.production ? 'a production target' : 'this run (--reads-only)');
}

/**
 * Observes the operations: reads first, then writes (one transaction per body, followed to a final outcome), then the
 * reads that need a transaction of the same version. Never throws for what the target answers.
 */
export async function observeOperations(options: ObserveOptions): Promise<Map<string, OperationObservation>> {
  const { session, fixtures } = options;
  const operations = options.operations ?? OPERATIONS;
  const progress = options.progress ?? (() => undefined);
  const ctx = runInputContext(session, fixtures, 'drift', options.runTag);
  const results = new Map<string, OperationObservation>();
  const refs: TransactionRef[] = [];
  const watch = options.silence;
  const silent = (): boolean => watch?.silence() !== undefined;
  const client = watch === undefined ? session.client : watchedForSilence(session.client, watch);
  const done = (obs: OperationObservation): void => {
    results.set(obs.operationId, obs);
    const what = obs.state === 'observed' ? `${obs.samples.length} of ${obs.calls} calls successful` : (obs.reason ?? '');
    progress(`${obs.operationId}: ${obs.state} (${what})`);
  };
  /** After a signal: the operation is left unobserved, silently (one line said the run stops). */
  const stopped = (op: Operation): boolean => {
    if (options.stop?.aborted !== true && !silent()) return false;
    results.set(op.id, notRun(op.id, silent() ? NOT_RUN_SILENT : INTERRUPTED_REASON));
    return true;
  };
  /** A write (or a read needing one) the target may not be sent: not run, saying why. */
  const refused = (op: Operation): boolean => {
    const refusal = refusalOn(session, op);
    if (refusal !== undefined) done(notRun(op.id, refusal));
    return refusal !== undefined;
  };

  const { plain, writes, dependent } = inPhases(operations, (op) => op);

  await inPool(plain, options.concurrency ?? 4, async (op) => {
    if (stopped(op)) return;
    const inputs = readInputs(op, ctx);
    if (isUnavailable(inputs)) return done(notRun(op.id, inputs.unavailable));
    done(await collectReads(client, op, inputs, silent));
  });

  for (const op of writes) {
    if (stopped(op) || refused(op)) continue;
    const bodies = writeBodies(op, ctx);
    if (isUnavailable(bodies)) {
      done(notRun(op.id, bodies.unavailable));
      continue;
    }
    const collector = new Collector(op.id);
    let refusedBy: string | undefined;
    for (const body of bodies) {
      let result;
      try {
        result = await client.transact(op.id, { body });
      } catch (error) {
        if (silent()) break;
        // The money guard (spend cap reached, charge not bounded) did not send it.
        if (!isMoneyRefusal(error)) throw error;
        refusedBy = `not sent by the money guard: ${error.message}`;
        break;
      }
      const final = result.finalExchange;
      if (result.outcome === 'Successful' && final !== undefined) {
        const via = final.operation.id === op.id ? undefined : 'status';
        collector.add(result.submitted.response, final.response.envelope, via);
        const correlationId = typeof body.correlationId === 'string' ? body.correlationId : undefined;
        if (correlationId !== undefined)
          refs.push({ version: op.version, purpose: op.purpose, correlationId, result: final.response.envelope?.payLoad });
      } else if (!result.final) {
        collector.addFailure(`not final after polling: ${result.outcome} (${describeResponse(result.submitted.response)})`);
      } else {
        collector.add((final ?? result.submitted).response, undefined);
      }
    }
    if (silent()) done(notRun(op.id, NOT_RUN_SILENT));
    else done(refusedBy !== undefined && collector.result().state !== 'observed' ? notRun(op.id, refusedBy) : collector.result());
  }

  for (const op of dependent) {
    if (stopped(op) || refused(op)) continue;
    const inputs = transactionReadInputs(
      op,
      refs.filter((r) => r.version === op.version),
      ctx,
    );
    if (isUnavailable(inputs)) {
      done(notRun(op.id, inputs.unavailable));
      continue;
    }
    done(await collectReads(client, op, inputs, silent));
  }
  return results;
}
