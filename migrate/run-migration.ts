// The v1-to-v2 migration check: for every v1/v2 pair of the catalog, the same inputs on both versions; outcomes
// (v2 must not fail where v1 succeeds), content after the declared normalizations, field correspondence, latency.
import type { GatewayResponse } from '../api/envelope.ts';
import { operationPairs, type Operation, type OperationPair } from '../api/operations.ts';
import type { Outcome } from '../api/outcome.ts';
import type { RequestInput } from '../api/request-builder.ts';
import { describeResponse } from '../api/describe.ts';
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
  type Unavailable,
} from '../drift/representative-inputs.ts';
import { discoverCatalog, watchedForSilence, type TargetSession } from '../target/session.ts';
import { isMoneyRefusal } from '../ledger/hooks.ts';
import { compareContent, type ContentDiff, type FieldCorrespondence } from './compare-content.ts';
import { DEFAULT_LOAD, measurePair, type LoadSettings, type PairLatency } from './latency.ts';
import { normalizationOf } from './normalizations.ts';
import { INTERRUPTED_REASON } from '../reports/interruption.ts';
import { createSilenceWatch, type SilenceWatch } from '../api/faults.ts';

export type PairOutcome = Outcome | 'NotRun';

export interface CallComparison {
  /** What was sent, in words (no credentials: inputs are catalog values). */
  readonly input: string;
  readonly v1: { readonly outcome: Outcome; readonly detail: string };
  readonly v2: { readonly outcome: Outcome; readonly detail: string };
}

export interface PairResult {
  readonly purpose: string;
  readonly v1: string;
  readonly v2: string;
  readonly v1Outcome: PairOutcome;
  readonly v2Outcome: PairOutcome;
  /** v2 failed (or did not finish) for an input on which v1 succeeded. */
  readonly regression: boolean;
  /** Why the pair was not run, or which input regressed. */
  readonly reason?: string;
  readonly charges: boolean;
  readonly normalization: string;
  readonly calls: readonly CallComparison[];
  readonly contentDiffs: readonly ContentDiff[];
  readonly fieldCorrespondence: readonly FieldCorrespondence[];
  readonly latency: PairLatency | null;
}

export interface MigrationOptions {
  /** Purposes to run (default: every pair of the catalog). */
  readonly pairs?: readonly string[];
  readonly load?: LoadSettings;
  readonly progress?: (line: string) => void;
  readonly runTag?: string;
  /**
   * Called once the catalog is read and before any other request, with every charging request the run will send at
   * most: the money side refuses here (throws) a plan its cap cannot cover, so no money is spent on a run that
   * cannot reach a verdict.
   */
  readonly beforeCharging?: (charges: readonly PlannedCharge[]) => void | Promise<void>;
  /**
   * Aborted on SIGINT/SIGTERM: no pair starts after it (those left are not run, INTERRUPTED_REASON) and the pair
   * running sends no more latency requests.
   */
  readonly stop?: AbortSignal;
}

/** A charging request the migration sends `count` times at most, with the body it sends (correlationId aside). */
export interface PlannedCharge {
  readonly operation: Operation;
  readonly body: Record<string, unknown>;
  readonly count: number;
}

export interface MigrationResult {
  readonly target: string;
  readonly pairs: readonly PairResult[];
  /** The target went silent during the pairs (api/faults.ts createSilenceWatch): the one line naming the phase. */
  readonly silence?: string;
}

/** Why a pair is left uncompared once the target went silent: not started, or cut short by the silence. */
const NOT_RUN_SILENT = 'not run: the target went silent';

/** Pairs that charge money or need a transaction that does (refused on a production target). */
export function chargingPairs(pairs: readonly OperationPair[]): OperationPair[] {
  return pairs.filter((p) => p.v1.charges || p.v2.charges || needsTransaction(p.v1) || needsTransaction(p.v2));
}

export function selectPairs(purposes: readonly string[] | undefined): OperationPair[] {
  const all = operationPairs();
  if (purposes === undefined) return all;
  return all.filter((p) => purposes.includes(p.purpose));
}

function describeInput(input: RequestInput): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(input.path ?? {})) parts.push(`${k}=${String(v)}`);
  for (const [k, v] of Object.entries(input.query ?? {})) if (v !== undefined) parts.push(`${k}=${String(v)}`);
  if (input.body !== undefined && input.body !== null && typeof input.body === 'object') {
    for (const [k, v] of Object.entries(input.body as Record<string, unknown>))
      if (k !== 'correlationId') parts.push(`${k}=${JSON.stringify(v)}`);
  }
  return parts.length === 0 ? '(no parameters)' : parts.join(', ');
}

/** Outcome of a version over all inputs: Successful when every call was, else the first other outcome. */
function summarize(outcomes: readonly Outcome[]): PairOutcome {
  if (outcomes.length === 0) return 'NotRun';
  return outcomes.find((o) => o !== 'Successful') ?? 'Successful';
}

interface Answer {
  readonly outcome: Outcome;
  readonly payload: unknown;
  readonly detail: string;
  /** The v1 write's final result, for the reads that need a transaction. */
  readonly ref?: TransactionRef;
}

function readAnswer(response: GatewayResponse): Answer {
  return { outcome: response.classification.outcome, payload: response.envelope?.payLoad, detail: describeResponse(response) };
}

function notRun(pair: OperationPair, reason: string): PairResult {
  return {
    purpose: pair.purpose,
    v1: pair.v1.id,
    v2: pair.v2.id,
    v1Outcome: 'NotRun',
    v2Outcome: 'NotRun',
    regression: false,
    reason,
    charges: pair.v1.charges || pair.v2.charges,
    normalization: normalizationOf(pair.purpose).note,
    calls: [],
    contentDiffs: [],
    fieldCorrespondence: [],
    latency: null,
  };
}

/**
 * Records v1 returns and v2 lost are a regression: the declared normalization (its v1 exclusions) has already taken out
 * the records it explains, so whatever is still missing is content a v2 client no longer gets.
 */
function lostRecordsReason(diffs: readonly ContentDiff[]): string | undefined {
  const lost = diffs.find((d) => d.change === 'record-missing-in-v2');
  return lost === undefined
    ? undefined
    : `v2 lost ${lost.count} of ${lost.of} records v1 returns, and no declared normalization explains them (${lost.detail})`;
}

function judge(
  pair: OperationPair,
  inputs: readonly string[],
  answers: readonly (readonly [Answer, Answer])[],
  latency: PairLatency | null,
): PairResult {
  const calls: CallComparison[] = answers.map(([a, b], i) => ({
    input: inputs[i] ?? '',
    v1: { outcome: a.outcome, detail: a.detail },
    v2: { outcome: b.outcome, detail: b.detail },
  }));
  const regressed = calls.find((c) => c.v1.outcome === 'Successful' && c.v2.outcome !== 'Successful');
  const both = answers.filter(([a, b]) => a.outcome === 'Successful' && b.outcome === 'Successful');
  const norm = normalizationOf(pair.purpose);
  const content = compareContent(
    both.map(([a]) => a.payload),
    both.map(([, b]) => b.payload),
    norm,
  );
  const reason =
    regressed !== undefined
      ? `v1 succeeded and v2 did not for ${regressed.input}: ${regressed.v2.detail}`
      : lostRecordsReason(content.contentDiffs);
  return {
    purpose: pair.purpose,
    v1: pair.v1.id,
    v2: pair.v2.id,
    v1Outcome: summarize(calls.map((c) => c.v1.outcome)),
    v2Outcome: summarize(calls.map((c) => c.v2.outcome)),
    regression: reason !== undefined,
    ...(reason === undefined ? {} : { reason }),
    charges: pair.v1.charges || pair.v2.charges,
    normalization: norm.note,
    calls,
    contentDiffs: content.contentDiffs,
    fieldCorrespondence: content.fieldCorrespondence,
    latency,
  };
}

/** What a migration sends, decided from the catalog before anything else is sent: the inputs and every charge. */
export interface MigrationPlan {
  readonly pairs: readonly OperationPair[];
  readonly ctx: InputContext;
  /** The bodies of each write pair that can run (by purpose), or why it cannot. */
  readonly writeBodies: ReadonlyMap<string, Record<string, unknown>[] | Unavailable>;
  readonly charges: readonly PlannedCharge[];
}

/**
 * The charging requests of a write pair: each body once on each version that charges, then the latency load on the
 * first body — one unmeasured warm-up and `requests` measured submissions per version (migrate/latency.ts).
 */
export function pairCharges(pair: OperationPair, bodies: readonly Record<string, unknown>[], load: LoadSettings): PlannedCharge[] {
  const out: PlannedCharge[] = [];
  for (const operation of [pair.v1, pair.v2]) {
    if (!operation.charges) continue;
    bodies.forEach((body, i) => out.push({ operation, body, count: 1 + (i === 0 ? load.requests + 1 : 0) }));
  }
  return out;
}

/** Reads the catalog and decides every input; sends nothing else (the dry run prices its plan from this). */
export async function planMigration(
  session: TargetSession,
  options: Pick<MigrationOptions, 'pairs' | 'load' | 'runTag' | 'stop'> = {},
): Promise<MigrationPlan> {
  const load = options.load ?? DEFAULT_LOAD;
  const pairs = selectPairs(options.pairs);
  const fixtures = await discoverCatalog(session, options.stop);
  const ctx = runInputContext(session, fixtures, 'mig', options.runTag);
  const bodies = new Map<string, Record<string, unknown>[] | Unavailable>();
  const charges: PlannedCharge[] = [];
  for (const pair of pairs.filter((p) => p.v1.method === 'POST')) {
    const made = writeBodies(pair.v1, ctx);
    bodies.set(pair.purpose, made);
    if (!isUnavailable(made) && session.chargesAllowed) charges.push(...pairCharges(pair, made, load));
  }
  return { pairs, ctx, writeBodies: bodies, charges };
}

/** The plan, or undefined when a signal came during the catalog reads (no pair is compared then). */
async function planUnlessInterrupted(session: TargetSession, options: MigrationOptions): Promise<MigrationPlan | undefined> {
  try {
    return await planMigration(session, options);
  } catch (error) {
    if (options.stop?.aborted !== true) throw error;
    return undefined;
  }
}

/** One migration run as its phases share it: the watched client, the plan's inputs, the results so far, v1's transactions. */
interface PairRun {
  readonly session: TargetSession;
  readonly plan: MigrationPlan;
  /** The session's client under the silence watch: it sends nothing more once the target went silent. */
  readonly client: TargetSession['client'];
  readonly silence: SilenceWatch;
  readonly load: LoadSettings;
  readonly stop: AbortSignal | undefined;
  readonly progress: (line: string) => void;
  readonly results: Map<string, PairResult>;
  /** The v1 writes' final results, for the reads that need a transaction. */
  readonly refs: TransactionRef[];
}

function done(run: PairRun, result: PairResult): void {
  run.results.set(result.purpose, result);
  const lat = result.latency === null ? '' : `, p50 v1 ${result.latency.v1.p50} ms / v2 ${result.latency.v2.p50} ms`;
  run.progress(`${result.purpose}: v1 ${result.v1Outcome}, v2 ${result.v2Outcome}${result.regression ? ' REGRESSION' : ''}${lat}`);
}

/** After a signal (or the target went silent): the pair is left uncompared, silently (one line said the run stops). */
function stopped(run: PairRun, pair: OperationPair): boolean {
  const silent = run.silence.silence() !== undefined;
  if (run.stop?.aborted !== true && !silent) return false;
  run.results.set(pair.purpose, notRun(pair, silent ? NOT_RUN_SILENT : INTERRUPTED_REASON));
  return true;
}

/** Runs one pair; when the target went silent during it, the pair is not compared (its answers say nothing). */
async function guarded(run: PairRun, pair: OperationPair, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (run.silence.silence() === undefined) throw error;
  }
  if (run.silence.silence() !== undefined) run.results.set(pair.purpose, notRun(pair, NOT_RUN_SILENT));
}

/** A pair that charges (or needs a transaction that does) on a target that may not be charged: not run, saying why. */
function refused(run: PairRun, pair: OperationPair): boolean {
  if (run.session.chargesAllowed || chargingPairs([pair]).length === 0) return false;
  done(run, notRun(pair, 'charges money (or needs a transaction that does): not sent to a production target'));
  return true;
}

async function runReads(run: PairRun, pair: OperationPair, inputs: readonly RequestInput[]): Promise<void> {
  const { client } = run;
  const answers: (readonly [Answer, Answer])[] = [];
  for (const input of inputs) {
    const a = readAnswer((await client.call(pair.v1.id, input)).response);
    const b = readAnswer((await client.call(pair.v2.id, input)).response);
    answers.push([a, b]);
  }
  const first = inputs[0] as RequestInput;
  const latency = await measurePair(
    { v1: async () => (await client.call(pair.v1.id, first)).response, v2: async () => (await client.call(pair.v2.id, first)).response },
    run.load,
  );
  done(run, judge(pair, inputs.map(describeInput), answers, latency));
}

/** Read pairs, each on the inputs `inputsOf` gives it (or why it has none). */
async function runReadPairs(
  run: PairRun,
  pairs: readonly OperationPair[],
  inputsOf: (pair: OperationPair) => RequestInput[] | Unavailable,
): Promise<void> {
  for (const pair of pairs) {
    if (stopped(run, pair) || refused(run, pair)) continue;
    const inputs = inputsOf(pair);
    if (isUnavailable(inputs)) done(run, notRun(pair, inputs.unavailable));
    else await guarded(run, pair, () => runReads(run, pair, inputs));
  }
}

/** One write body sent through one version to a final outcome; v1's successful transactions are kept for the dependent reads. */
async function sendWrite(run: PairRun, pair: OperationPair, op: Operation, body: Record<string, unknown>): Promise<Answer> {
  const sent = { ...body, correlationId: run.plan.ctx.newCorrelationId() };
  const result = await run.client.transact(op.id, { body: sent });
  const final = result.finalExchange?.response ?? result.submitted.response;
  const payload = result.outcome === 'Successful' ? final.envelope?.payLoad : undefined;
  if (op.version === 'v1' && result.outcome === 'Successful')
    run.refs.push({ version: 'v1', purpose: pair.purpose, correlationId: sent.correlationId, result: payload });
  return {
    outcome: result.outcome,
    payload,
    detail: result.final ? describeResponse(final) : `not final after polling (${describeResponse(result.submitted.response)})`,
  };
}

async function runWrites(run: PairRun, pair: OperationPair): Promise<void> {
  if (refused(run, pair)) return;
  const { ctx } = run.plan;
  const bodies = run.plan.writeBodies.get(pair.purpose) ?? writeBodies(pair.v1, ctx);
  if (isUnavailable(bodies)) {
    done(run, notRun(pair, bodies.unavailable));
    return;
  }
  const answers: (readonly [Answer, Answer])[] = [];
  for (const body of bodies) answers.push([await sendWrite(run, pair, pair.v1, body), await sendWrite(run, pair, pair.v2, body)]);
  // Latency of the submissions themselves (the time to a final outcome of slow products is the gateway's processing time).
  const first = bodies[0] as Record<string, unknown>;
  const submit = (id: string) => async () =>
    (await run.client.call(id, { body: { ...first, correlationId: ctx.newCorrelationId() } })).response;
  const latency = await measurePair({ v1: submit(pair.v1.id), v2: submit(pair.v2.id) }, run.load);
  done(
    run,
    judge(
      pair,
      bodies.map((b) => describeInput({ body: b })),
      answers,
      latency,
    ),
  );
}

async function runWritePairs(run: PairRun, pairs: readonly OperationPair[]): Promise<void> {
  for (const pair of pairs) {
    if (stopped(run, pair)) continue;
    try {
      await guarded(run, pair, () => runWrites(run, pair));
    } catch (error) {
      // The money guard (spend cap reached, charge not bounded) sent nothing more for this pair: not compared.
      if (!isMoneyRefusal(error)) throw error;
      done(run, notRun(pair, `not sent by the money guard: ${error.message}`));
    }
  }
}

/** Runs the selected pairs: plain reads, then writes (v1 transactions feed the reads that need one), then those reads. */
export async function runMigration(session: TargetSession, options: MigrationOptions = {}): Promise<MigrationResult> {
  const progress = options.progress ?? (() => undefined);
  const load: LoadSettings = { ...(options.load ?? DEFAULT_LOAD), ...(options.stop === undefined ? {} : { stop: options.stop }) };
  progress(`reading the catalog of ${session.label}`);
  const plan = await planUnlessInterrupted(session, options);
  if (plan === undefined)
    return { target: session.label, pairs: selectPairs(options.pairs).map((pair) => notRun(pair, INTERRUPTED_REASON)) };
  await options.beforeCharging?.(plan.charges);
  // Once the target went silent (3 answers in a row timed out) no pair starts, and the one running is not compared.
  const silence = createSilenceWatch('migrate pairs');
  const client = watchedForSilence(session.client, silence);
  const run: PairRun = { session, plan, client, silence, load, stop: options.stop, progress, results: new Map(), refs: [] };
  const { plain, writes, dependent } = inPhases(plan.pairs, (p) => p.v1);
  await runReadPairs(run, plain, (pair) => readInputs(pair.v1, plan.ctx));
  await runWritePairs(run, writes);
  // The same transaction (made through v1) read on both versions: what a client meets on the day it switches.
  await runReadPairs(run, dependent, (pair) => transactionReadInputs(pair.v1, run.refs, plan.ctx));
  const silent = silence.silence();
  return {
    target: session.label,
    pairs: plan.pairs.map((p) => run.results.get(p.purpose) as PairResult),
    ...(silent === undefined ? {} : { silence: `${session.label}: ${silent}` }),
  };
}
