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
  type InputContext,
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

/** A write (or a read needing one) the target may not be sent: not run, saying why. */
function refused(run: ObservationRun, op: Operation): boolean {
  const refusal = refusalOn(run.session, op);
  if (refusal !== undefined) done(run, notRun(op.id, refusal));
  return refusal !== undefined;
}

/** One observation run as its phases share it: the (watched) client, the inputs, the results, the transactions made. */
interface ObservationRun {
  readonly session: TargetSession;
  readonly ctx: InputContext;
  readonly client: TargetSession['client'];
  readonly results: Map<string, OperationObservation>;
  /** The writes' final results, for the reads that need a transaction of the same version. */
  readonly refs: TransactionRef[];
  readonly progress: (line: string) => void;
  readonly stop: AbortSignal | undefined;
  /** The target went silent (the phase's silence watch tripped): nothing more is sent. */
  readonly silent: () => boolean;
}

type Transaction = Awaited<ReturnType<TargetSession['client']['transact']>>;

function done(run: ObservationRun, obs: OperationObservation): void {
  run.results.set(obs.operationId, obs);
  const what = obs.state === 'observed' ? `${obs.samples.length} of ${obs.calls} calls successful` : (obs.reason ?? '');
  run.progress(`${obs.operationId}: ${obs.state} (${what})`);
}

/** After a signal: the operation is left unobserved, silently (one line said the run stops). */
function stopped(run: ObservationRun, op: Operation): boolean {
  if (run.stop?.aborted !== true && !run.silent()) return false;
  run.results.set(op.id, notRun(op.id, run.silent() ? NOT_RUN_SILENT : INTERRUPTED_REASON));
  return true;
}

/** One write's answer into the collector; a successful one's transaction kept for the dependent reads. */
function collectWrite(run: ObservationRun, collector: Collector, op: Operation, body: Record<string, unknown>, result: Transaction): void {
  const final = result.finalExchange;
  if (result.outcome === 'Successful' && final !== undefined) {
    const via = final.operation.id === op.id ? undefined : 'status';
    collector.add(result.submitted.response, final.response.envelope, via);
    const correlationId = typeof body.correlationId === 'string' ? body.correlationId : undefined;
    if (correlationId !== undefined)
      run.refs.push({ version: op.version, purpose: op.purpose, correlationId, result: final.response.envelope?.payLoad });
  } else if (!result.final) {
    collector.addFailure(`not final after polling: ${result.outcome} (${describeResponse(result.submitted.response)})`);
  } else {
    collector.add((final ?? result.submitted).response, undefined);
  }
}

/** A write: one transaction per body, followed to a final outcome; the money guard's refusal stops its bodies. */
async function observeWrite(run: ObservationRun, op: Operation, bodies: readonly Record<string, unknown>[]): Promise<OperationObservation> {
  const collector = new Collector(op.id);
  let refusedBy: string | undefined;
  for (const body of bodies) {
    let result;
    try {
      result = await run.client.transact(op.id, { body });
    } catch (error) {
      if (run.silent()) break;
      // The money guard (spend cap reached, charge not bounded) did not send it.
      if (!isMoneyRefusal(error)) throw error;
      refusedBy = `not sent by the money guard: ${error.message}`;
      break;
    }
    collectWrite(run, collector, op, body, result);
  }
  if (run.silent()) return notRun(op.id, NOT_RUN_SILENT);
  return refusedBy !== undefined && collector.result().state !== 'observed' ? notRun(op.id, refusedBy) : collector.result();
}

async function observeWrites(run: ObservationRun, writes: readonly Operation[]): Promise<void> {
  for (const op of writes) {
    if (stopped(run, op) || refused(run, op)) continue;
    const bodies = writeBodies(op, run.ctx);
    if (isUnavailable(bodies)) {
      done(run, notRun(op.id, bodies.unavailable));
      continue;
    }
    done(run, await observeWrite(run, op, bodies));
  }
}

/** The reads that need a transaction: each on the transactions its own version made. */
async function observeDependent(run: ObservationRun, dependent: readonly Operation[]): Promise<void> {
  for (const op of dependent) {
    if (stopped(run, op) || refused(run, op)) continue;
    const inputs = transactionReadInputs(
      op,
      run.refs.filter((r) => r.version === op.version),
      run.ctx,
    );
    if (isUnavailable(inputs)) {
      done(run, notRun(op.id, inputs.unavailable));
      continue;
    }
    done(run, await collectReads(run.client, op, inputs, run.silent));
  }
}

/**
 * Observes the operations: reads first, then writes (one transaction per body, followed to a final outcome), then the
 * reads that need a transaction of the same version. Never throws for what the target answers.
 */
export async function observeOperations(options: ObserveOptions): Promise<Map<string, OperationObservation>> {
  const { session, fixtures } = options;
  const watch = options.silence;
  const run: ObservationRun = {
    session,
    ctx: runInputContext(session, fixtures, 'drift', options.runTag),
    client: watch === undefined ? session.client : watchedForSilence(session.client, watch),
    results: new Map(),
    refs: [],
    progress: options.progress ?? (() => undefined),
    stop: options.stop,
    silent: () => watch?.silence() !== undefined,
  };
  const { plain, writes, dependent } = inPhases(options.operations ?? OPERATIONS, (op) => op);
  await inPool(plain, options.concurrency ?? 4, async (op) => {
    if (stopped(run, op)) return;
    const inputs = readInputs(op, run.ctx);
    if (isUnavailable(inputs)) return done(run, notRun(op.id, inputs.unavailable));
    done(run, await collectReads(run.client, op, inputs, run.silent));
  });
  await observeWrites(run, writes);
  await observeDependent(run, dependent);
  return run.results;
}
