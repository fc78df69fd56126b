// Runs a conformance plan: concurrent cases under a concurrency limit, a drain of their open transactions, then the
// exclusive (balance-sensitive) cases one at a time. Every case's response passes the envelope invariants; failures are typed.
import { assumedPathMissing as isAssumedPathMissing } from '../api/assumed-path.ts';
import type { ApiVersion } from '../api/operations.ts';
import { variantAuthorization } from './credential-variants.ts';
import type { Environment } from '../api/target-config.ts';
import { findOperation } from '../api/operations.ts';
import type { BuiltRequest, RequestInput, TargetConnection } from '../api/request-builder.ts';
import type { GatewayResponse } from '../api/envelope.ts';
import type { FieldMapping } from '../api/field-mapping.ts';
import type { GiftcardCursorMeaning } from '../api/giftcard-paging.ts';
import type { ChargeLearning, ResultFieldRequest, ResultFieldValue } from '../target/discover/charge-learning.ts';
import { createClientCore, type ClientCore, type ClientHooks, type CoreExchange } from '../api/client-core.ts';
import { SERVICE_TIMEOUT_MS } from '../api/spec-durations.ts';
import type { Transport } from '../api/transport.ts';
import { redactHeaders, redactText, redactUrl } from '../api/redact.ts';
import { describeResponse } from '../api/describe.ts';
import { ENVELOPE_INVARIANTS, makeFailure } from './checks.ts';
import { createSilenceWatch, retryRead } from '../api/faults.ts';
import { DiscoveryError, discoverFixtures, type Fixtures } from '../target/fixtures.ts';
import { TransactionTracker, type DrainReport } from './transactions.ts';
import { IdsExhausted, RunCorrelationIds, randomChars, type IdClass } from './correlation-ids.ts';
import type { ConformanceSettings } from '../target/settings.ts';
import type { Timing } from './timing.ts';
import {
  SkipCase,
  StepFailed,
  VariantUnavailable,
  type CallOptions,
  type CaseContext,
  type CaseResult,
  type Check,
  type ConformanceCase,
  type Exchange,
  type Failure,
  type GenCoverage,
  type PollOutcome,
  type RequestEcho,
  type RunResult,
} from './types.ts';

/** Where requests go. The command wraps the Node transport; tests may pass anything that answers like a gateway. */
export interface ConformanceTarget {
  /** Base URL without credentials, for reports. */
  readonly label: string;
  readonly connection: TargetConnection;
  readonly transport: Transport;
  /** Connect timeout of every call (real ms). */
  readonly connectTimeoutMs: number;
  /** Status codes meaning "no such transaction" (config `poll.notFoundCodes`, assumed). */
  readonly notFoundCodes: readonly string[];
  /** The configured environment; absent: a sandbox the caller started. Near-miss passwords are never sent to production. */
  readonly environment?: Environment;
}

/** What a run reports while it goes (the command's progress lines; the runner itself prints nothing). */
export type ProgressEvent =
  | { readonly type: 'phase'; readonly phase: 'concurrent' | 'exclusive'; readonly cases: number }
  /** The concurrent phase has ended with `pending` transactions not yet final: the exclusive phase waits for them. */
  | { readonly type: 'drain-start'; readonly pending: number }
  | { readonly type: 'drain-end'; readonly report: DrainReport }
  | { readonly type: 'case-start'; readonly id: string; readonly group: string }
  | { readonly type: 'case-end'; readonly result: CaseResult }
  /** A case (or the drain, caseId '') started or stopped waiting on the status endpoint for a final result. */
  | { readonly type: 'poll-start'; readonly caseId: string; readonly correlationId: string }
  | { readonly type: 'poll-end'; readonly caseId: string; readonly correlationId: string };

export interface RunEnvironment {
  readonly target: ConformanceTarget;
  readonly settings: ConformanceSettings;
  readonly timing: Timing;
  readonly mapping: FieldMapping;
  /** Learns transaction-result fields on the run's first successful charge; its mapping is `mapping` (run-suite.ts). */
  readonly learning?: ChargeLearning;
  /** The config's paging.giftcardCursor (absent: the spec's definition). */
  readonly giftcardCursor?: GiftcardCursorMeaning;
  readonly onProgress?: (event: ProgressEvent) => void;
  /** Stop waiting for a case after this long (real ms); default: 3 polling deadlines. */
  readonly caseTimeoutMs?: number;
  /**
   * The run was interrupted (a signal): no case starts after it aborts (each is reported skipped, "not run"), the
   * drain and the exclusive phase do not run; cases already running finish.
   */
  readonly stop?: AbortSignal;
  /** The catalog discovered before the run (`discoverCatalogFirst`): the cases use it instead of discovering again. */
  readonly fixtures?: Fixtures;
  /** The correlationIds already handed out to this target (`--under-load`: the idle pass's, so the loaded pass never repeats one). */
  readonly ids?: RunCorrelationIds;
  /** Awaited before every request a case sends (not the drain's): `--under-load` waits there for its load to be in flight. */
  readonly beforeRequest?: (caseId: string) => Promise<void>;
}

/** Why a case not started before an interruption is skipped (never counted as passed). */
export const NOT_RUN_INTERRUPTED = 'not run: the run was interrupted';

/** Why a case is skipped once the target went silent (createSilenceWatch): not started, or cut short by the silence. */
const NOT_RUN_SILENT = 'not run: the target went silent';

/** The phase the cases' silence watch names (the reports' unusable line). */
const CASES_PHASE = 'conformance cases';

/** The wallet balance through a case context, or undefined after handing `record` why it could not be read. */
export async function readBalance(
  ctx: Pick<CaseContext, 'call' | 'caseId'>,
  version: ApiVersion,
  record: (failure: Failure) => void,
): Promise<number | undefined> {
  const exchange = await ctx.call(`${version}.account.balance`, {});
  const value = exchange.response.envelope?.payLoad;
  if (exchange.response.classification.outcome === 'Successful' && typeof value === 'number') return value;
  record(
    makeFailure({ caseId: ctx.caseId, operationId: exchange.request.operationId, request: exchange.request }, 'balance-readable', {
      message: 'the balance could not be read (spec: Balance payLoad is a number)',
      expected: "HTTP 200, '000', payLoad number",
      received: describeResponse(exchange.response),
    }),
  );
  return undefined;
}

/** Thrown into a case's later requests once the case has timed out, so it cannot send anything into a later phase. */
class CaseCancelled extends Error {
  constructor(caseId: string) {
    super(`case ${caseId} timed out; its remaining requests are not sent`);
    this.name = 'CaseCancelled';
  }
}

/** Shared per run: fixtures discovered once, unique correlationIds, the redaction secrets, open transactions. */
class RunState {
  readonly ids: RunCorrelationIds;
  private fixtures?: Promise<Fixtures>;
  readonly secrets: string[];
  readonly wrongConnection: TargetConnection;
  readonly transactions: TransactionTracker;
  /** Sees every answer of the run's cases: once the target went silent, nothing more is sent and no case starts. */
  readonly silence = createSilenceWatch(CASES_PHASE);
  /** Cases that got a client timeout: once the target went silent (even after they ended) they are not judged. */
  readonly timedOutCases = new Set<string>();
  /** Cases left not verified because a request got no answer in time (unansweredResult): a silent target says more. */
  readonly unansweredCases = new Set<string>();

  constructor(readonly env: RunEnvironment) {
    this.ids = env.ids ?? new RunCorrelationIds();
    const c = env.target.connection;
    const other = env.settings.otherEnvironment;
    this.secrets = [c.password, c.user, ...(other === undefined ? [] : [other.password, other.user])].filter((s) => s.length >= 3);
    // A password that differs from the real one in every case (never a prefix or suffix of it).
    this.wrongConnection = { ...c, password: `wrong-${randomChars(12)}` };
    this.transactions = new TransactionTracker(this.statusPolicy());
  }

  statusPolicy(): { serviceTimeoutMs: number; notFoundCodes: readonly string[]; now: () => number } {
    return {
      serviceTimeoutMs: this.env.timing.scaled(SERVICE_TIMEOUT_MS),
      notFoundCodes: this.env.target.notFoundCodes,
      now: () => Date.now(),
    };
  }

  /** A client core on the run's target; `hooks` see every request (transactions are tracked for every core). */
  core(options: { credentials: 'valid' | 'none' | 'wrong'; caseId: string; hooks?: ClientHooks; countsSilence?: boolean }): ClientCore {
    const { target, timing } = this.env;
    const hooks = options.hooks;
    return createClientCore({
      target: options.credentials === 'wrong' ? this.wrongConnection : target.connection,
      transport: target.transport,
      timings: {
        connectTimeoutMs: target.connectTimeoutMs,
        responseTimeoutMs: timing.requestTimeoutMs,
        pollIntervalMs: timing.pollIntervalMs,
        pollDeadlineMs: timing.pollDeadlineMs,
      },
      status: { serviceTimeoutMs: timing.scaled(SERVICE_TIMEOUT_MS), notFoundCodes: target.notFoundCodes },
      now: () => Date.now(),
      sleep: (ms) => sleep(ms),
      hooks: {
        beforeSend: async (request) => {
          this.silence.check();
          if (options.caseId !== '') await this.env.beforeRequest?.(options.caseId);
          await hooks?.beforeSend?.(request);
          this.transactions.beforeSend(request, options.caseId);
        },
        afterResponse: async (exchange) => {
          // A request a case sent with a timeout of its own (a delay it provokes) says nothing of a silent target.
          if (options.countsSilence !== false) this.silence.see(exchange.response);
          this.transactions.afterResponse(exchange);
          await hooks?.afterResponse?.(exchange);
        },
      },
    });
  }

  /**
   * Follows every transaction of the concurrent phase that is not final yet to a final status, each bounded by the
   * poll deadline counted from its submission, then waits until the service-side timeout of every transaction that
   * was not final on submission has passed: the exclusive phase reads balances nothing else is moving.
   */
  async drain(onProgress: RunEnvironment['onProgress'], exclusiveFollows: boolean): Promise<DrainReport> {
    const started = Date.now();
    const pending = this.transactions.pending();
    const submitted = this.transactions.submittedCount;
    if (pending.length > 0) {
      onProgress?.({ type: 'drain-start', pending: pending.length });
      const core = this.core({ credentials: 'valid', caseId: '' });
      const { pollDeadlineMs, pollIntervalMs } = this.env.timing;
      await mapWithLimit(pending, this.env.settings.concurrency, async (tx) => {
        onProgress?.({ type: 'poll-start', caseId: '', correlationId: tx.correlationId });
        try {
          await core.pollStatus(tx.version, tx.correlationId, {
            submittedAt: tx.submittedAt,
            deadlineMs: Math.max(pollIntervalMs, tx.submittedAt + pollDeadlineMs - Date.now()),
          });
        } finally {
          onProgress?.({ type: 'poll-end', caseId: '', correlationId: tx.correlationId });
        }
      });
    }
    // A transaction that was not final when submitted may still move money until its service-side timeout has
    // passed, whatever its status said (a wrong status answer must not turn into a false "balance changed").
    const endedBy = exclusiveFollows ? this.transactions.serviceSideEndedBy(this.env.timing.pollIntervalMs) : 0;
    const serviceWait = Math.max(0, endedBy - Date.now());
    if (serviceWait > 0) {
      if (pending.length === 0) onProgress?.({ type: 'drain-start', pending: 0 });
      await sleep(serviceWait);
    }
    const report: DrainReport = {
      submitted,
      pendingAtBoundary: pending.length,
      unresolved: this.transactions.unresolved(),
      waitedMs: Date.now() - started,
      serviceTimeoutWaitMs: serviceWait,
    };
    if (pending.length > 0 || serviceWait > 0) onProgress?.({ type: 'drain-end', report });
    return report;
  }

  toExchange(exchange: CoreExchange): Exchange {
    return { request: this.echo(exchange.built), response: exchange.response };
  }

  echo(built: BuiltRequest): RequestEcho {
    let body: unknown;
    if (built.body !== undefined) {
      try {
        body = JSON.parse(built.body);
      } catch {
        body = redactText(built.body, this.secrets);
      }
    }
    return {
      operationId: built.operationId,
      method: built.method,
      url: redactUrl(redactText(built.url, this.secrets)),
      headers: redactHeaders(built.headers),
      ...(body === undefined ? {} : { body }),
    };
  }

  getFixtures(read: (op: string, input: RequestInput) => Promise<GatewayResponse>): Promise<Fixtures> {
    const known = this.env.fixtures;
    this.fixtures ??=
      known === undefined ? discoverFixtures({ read, mapping: this.env.mapping, settings: this.env.settings }) : Promise.resolve(known);
    return this.fixtures;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

class Context implements CaseContext {
  readonly failures: Failure[] = [];
  readonly notes: string[] = [];
  requests = 0;
  /** A GEN case's reach (conformance/gen/property.ts), kept for the report. */
  gen: GenCoverage | undefined;
  /** An answer of this case was a client timeout: once the target went silent, the case is not judged. */
  timedOut = false;
  /**
   * Requests of this case sent with the ordinary timeout (not a delay trigger's deliberately short one) that got no
   * answer in time: what they would have shown is unknown, so a failure of this case is not the gateway's (below).
   */
  unanswered = 0;
  private cancelled = false;

  /** Present when the run learns result fields on its charges; the probes are reads of this case (invariants checked, counted). */
  readonly resultValue?: (request: Omit<ResultFieldRequest, 'probe'>) => Promise<ResultFieldValue>;

  constructor(
    private readonly run: RunState,
    private readonly testCase: ConformanceCase,
  ) {
    const learning = run.env.learning;
    if (learning !== undefined)
      this.resultValue = (request) =>
        learning.resultValue({ ...request, probe: async (operationId, input) => (await this.call(operationId, input)).response });
  }

  get caseId(): string {
    return this.testCase.id;
  }
  get api(): ApiVersion {
    return this.testCase.api;
  }
  get settings(): ConformanceSettings {
    return this.run.env.settings;
  }
  get timing(): Timing {
    return this.run.env.timing;
  }
  get mapping(): FieldMapping {
    return this.run.env.mapping;
  }
  get giftcardCursor(): GiftcardCursorMeaning | undefined {
    return this.run.env.giftcardCursor;
  }

  fixtures(): Promise<Fixtures> {
    // Discovery is shared by the run: its responses are checked by the ENV cases of the same operations.
    const discovery = this.core('valid', false);
    // A faulted read is retried a few times (api/faults.ts): one reset must not leave every case without fixtures.
    const retry = { attempts: 5, waitMs: this.timing.pollIntervalMs, sleep };
    return this.run.getFixtures(async (op, input) => (await retryRead(() => discovery.call(op, input), retry)).response);
  }

  call(operationId: string, input: RequestInput, options: CallOptions = {}): Promise<Exchange> {
    const credentials = options.credentials ?? 'valid';
    if (typeof credentials === 'object' && this.run.env.target.environment === 'production') {
      // A near-miss password can lock an agent out: the authentication space is a sandbox's only.
      throw new VariantUnavailable('varied credentials are never sent to production');
    }
    const variant =
      typeof credentials === 'object'
        ? variantAuthorization(credentials, this.run.env.target.connection, this.settings.otherEnvironment)
        : undefined;
    const core = this.core(
      typeof credentials === 'object' ? 'valid' : credentials,
      options.checkEnvelope !== false,
      options.timeoutMs === undefined,
    );
    const sent =
      credentials === 'none' ? { ...input, omitAuthorization: true } : variant === undefined ? input : { ...input, authorization: variant };
    return core
      .call(operationId, sent, { responseTimeoutMs: options.timeoutMs ?? this.timing.requestTimeoutMs })
      .then((exchange) => this.run.toExchange(exchange));
  }

  /** After a case timeout: nothing more of this case is sent (its pending work may still be running). */
  cancel(): void {
    this.cancelled = true;
  }

  /**
   * A client core for this case: every response it receives passes the envelope invariants (unless it serves catalog
   * discovery or is a reference request, `checkEnvelope: false`) and counts as a request of the case. Cheap: a few closures over the run's shared transport.
   */
  private core(credentials: 'valid' | 'none' | 'wrong', invariants: boolean, countsSilence = true): ClientCore {
    return this.run.core({
      credentials,
      caseId: this.caseId,
      countsSilence,
      hooks: {
        beforeSend: () => {
          if (this.cancelled) throw new CaseCancelled(this.caseId);
        },
        afterResponse: (exchange) => {
          this.requests += 1;
          if (exchange.response.timedOut) {
            this.timedOut = true;
            this.run.timedOutCases.add(this.caseId);
            if (countsSilence) this.unanswered += 1;
          }
          if (invariants) {
            const echoed = this.run.toExchange(exchange);
            for (const check of ENVELOPE_INVARIANTS) this.check(check, echoed);
          }
        },
      },
    });
  }

  check(check: Check, exchange: Exchange): boolean {
    const failure = check({ caseId: this.caseId, operationId: exchange.request.operationId, request: exchange.request }, exchange.response);
    if (failure === undefined) return true;
    this.failures.push(failure);
    return false;
  }

  fail(failure: Omit<Failure, 'caseId' | 'severity'> & { severity?: Failure['severity'] }): void {
    this.failures.push({ ...failure, caseId: this.caseId, severity: failure.severity ?? 'error' });
  }

  skip(reason: string): never {
    throw new SkipCase(reason);
  }

  async pollStatus(
    version: ApiVersion,
    correlationId: string,
    options: { submittedAt: number; deadlineMs?: number },
  ): Promise<PollOutcome> {
    const progress = this.run.env.onProgress;
    progress?.({ type: 'poll-start', caseId: this.caseId, correlationId });
    let result;
    try {
      result = await this.core('valid', true).pollStatus(version, correlationId, {
        deadlineMs: options.deadlineMs ?? this.timing.pollDeadlineMs,
        submittedAt: options.submittedAt,
      });
    } finally {
      progress?.({ type: 'poll-end', caseId: this.caseId, correlationId });
    }
    const last = this.run.toExchange(result.last.exchange);
    const code = last.response.envelope?.responseCode;
    return {
      final: result.final,
      outcome: result.outcome,
      attempts: result.attempts,
      elapsedMs: result.elapsedMs,
      ...(code === undefined ? {} : { responseCode: code }),
      last,
    };
  }

  async balance(version: ApiVersion): Promise<number | undefined> {
    return readBalance(this, version, (failure) => this.failures.push(failure));
  }

  correlationId(length = 36, chars?: IdClass): string {
    return this.run.ids.next(length, chars);
  }

  sleep(ms: number): Promise<void> {
    return sleep(ms);
  }

  genCoverage(coverage: GenCoverage): void {
    this.gen = coverage;
  }
  note(text: string): void {
    this.notes.push(redactText(text, this.run.secrets));
  }
}

/** A case's own work: a request case's one exchange and its checks, or a scenario. */
async function runCaseBody(ctx: Context, testCase: ConformanceCase): Promise<void> {
  if (testCase.kind === 'request') {
    const input = await testCase.input(await ctx.fixtures(), ctx);
    const exchange = await ctx.call(testCase.operationId, input, { credentials: testCase.credentials ?? 'valid' });
    for (const check of testCase.expect) ctx.check(check, exchange);
  } else {
    await testCase.scenario(ctx);
  }
}

/** Runs a case's body against its time limit: past it, the case is cancelled and fails (its body left to end on its own). */
async function runWithinTimeout(ctx: Context, timeoutMs: number, start: () => Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const body = start();
    const first = await Promise.race([body.then(() => 'done' as const), timeout]);
    if (first === 'timeout') {
      ctx.cancel();
      body.catch(() => undefined);
      ctx.fail({
        check: 'case-timeout',
        operation: '',
        message: `the case did not finish within ${timeoutMs} ms`,
        expected: 'the case completes',
        received: 'still running',
      });
    }
  } finally {
    clearTimeout(timer);
  }
}

/** What a case's exception means: a skip (its reason), or a failure, put on record here unless it already is. */
function skipReasonOf(run: RunState, ctx: Context, error: unknown): string | undefined {
  if (error instanceof SkipCase) return error.reason;
  // Every id of the shape the case needs was sent already (a short id, two passes): the harness's gap, not a failure.
  if (error instanceof IdsExhausted) return `not verified: ${error.message}`;
  // The failed step is already on record.
  if (error instanceof StepFailed && ctx.failures.length > 0) return undefined;
  const discovery = error instanceof DiscoveryError;
  ctx.fail({
    check: discovery ? 'fixture-discovery' : 'case-error',
    operation: '',
    message: redactText(error instanceof Error ? error.message : String(error), run.secrets),
    expected: discovery ? 'the catalog can be read' : 'the case runs to completion',
    received: error instanceof Error ? error.name : typeof error,
  });
  return undefined;
}

/** The case's verdict from what it recorded: not run when the target went silent, not verified when requests went unanswered. */
function judgeCase(run: RunState, testCase: ConformanceCase, ctx: Context, startedAt: number, skipReason: string | undefined): CaseResult {
  if (cutBySilence(run, ctx)) {
    // The target went silent while the case ran: what it saw says nothing of the gateway's rules.
    return caseResult(testCase, {
      status: 'skipped',
      skipReason: NOT_RUN_SILENT,
      failures: [],
      notes: ctx.notes,
      requests: ctx.requests,
      ...(ctx.gen === undefined ? {} : { gen: ctx.gen }),
      startedAt,
      durationMs: Date.now() - startedAt,
    });
  }
  if (ctx.unanswered > 0 && ctx.failures.some((f) => f.severity === 'error')) return unansweredResult(run, testCase, ctx, startedAt);
  const errors = ctx.failures.some((f) => f.severity === 'error');
  const status = errors ? 'failed' : skipReason !== undefined ? 'skipped' : 'passed';
  return caseResult(testCase, {
    status,
    ...(skipReason === undefined || errors ? {} : { skipReason }),
    failures: ctx.failures,
    notes: ctx.notes,
    requests: ctx.requests,
    ...(ctx.gen === undefined ? {} : { gen: ctx.gen }),
    startedAt,
    durationMs: Date.now() - startedAt,
  });
}

async function executeCase(run: RunState, testCase: ConformanceCase): Promise<CaseResult> {
  const ctx = new Context(run, testCase);
  const startedAt = Date.now();
  let skipReason: string | undefined;
  const timeoutMs = run.env.caseTimeoutMs ?? run.env.timing.pollDeadlineMs * 3;
  try {
    await runWithinTimeout(ctx, timeoutMs, () => runCaseBody(ctx, testCase));
  } catch (error) {
    skipReason = skipReasonOf(run, ctx, error);
  }
  return judgeCase(run, testCase, ctx, startedAt, skipReason);
}

/**
 * A case that failed while some of its requests got no answer within the client timeout: the spec says "If the client
 * times out, do not assume failure", and a loaded machine can miss a timeout as well as a slow gateway can. The case is
 * not verified, saying why and how to give it more time; what it saw is kept among its notes.
 */
/** The words of a case left not verified for want of answers: the planted-bug meta-test runs such a profile again. */
export const UNANSWERED = 'got no answer within the client timeout';

function unansweredResult(run: RunState, testCase: ConformanceCase, ctx: Context, startedAt: number): CaseResult {
  const timing = run.env.timing;
  const seen = ctx.failures.filter((f) => f.severity === 'error').map((f) => `seen before the timeout: [${f.check}] ${f.message}`);
  run.unansweredCases.add(testCase.id);
  return caseResult(testCase, {
    status: 'skipped',
    skipReason:
      `not verified: ${ctx.unanswered} request(s) ${UNANSWERED} (${timing.requestTimeoutMs} ms), so what ` +
      'they would have shown is unknown; rerun on a less loaded machine, or raise timeouts.responseMs / poll.deadlineMs in the target config',
    failures: [],
    notes: [...ctx.notes, ...seen],
    requests: ctx.requests,
    ...(ctx.gen === undefined ? {} : { gen: ctx.gen }),
    startedAt,
    durationMs: Date.now() - startedAt,
  });
}

/** The target went silent and this case saw it: a timed-out answer, or a request the silence watch refused to send. */
function cutBySilence(run: RunState, ctx: Context): boolean {
  return (
    run.silence.silence() !== undefined &&
    (ctx.timedOut || ctx.failures.some((f) => f.check === 'case-error' || f.check === 'case-timeout'))
  );
}

/** A case's result: what the case is (from its definition) and how it went. */
function caseResult(
  testCase: ConformanceCase,
  how: Pick<CaseResult, 'status' | 'skipReason' | 'failures' | 'notes' | 'requests' | 'gen' | 'startedAt' | 'durationMs'>,
): CaseResult {
  return {
    id: testCase.id,
    group: testCase.group,
    title: testCase.title,
    api: testCase.api,
    specSection: testCase.specSection,
    rule: testCase.rule,
    assumed: testCase.assumed ?? [],
    exclusive: testCase.exclusive === true,
    ...how,
  };
}

/** Runs `items` through `worker` with at most `limit` at a time; results keep the input order. */
export async function mapWithLimit<T, R>(items: readonly T[], limit: number, worker: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await worker(items[index] as T);
    }
  });
  await Promise.all(lanes);
  return results;
}

/**
 * Runs the cases. Results come back in plan order, and `onProgress` reports each case as it ends. Cases that
 * wait on long delays run side by side, so the wall time is about the longest delay plus polling, not the sum.
 * Between the phases every transaction the concurrent cases submitted is followed to a final status (the drain),
 * so no pending top-up can move the balance under an exclusive case.
 */
export async function runCases(cases: readonly ConformanceCase[], env: RunEnvironment): Promise<RunResult> {
  const startedAt = Date.now();
  const run = new RunState(env);
  const ids = new Set<string>();
  for (const c of cases) {
    if (ids.has(c.id)) throw new Error(`duplicate conformance case id '${c.id}'`);
    ids.add(c.id);
  }
  const byId = new Map<string, CaseResult>();
  const silent = (): boolean => run.silence.silence() !== undefined;
  const stopped = (): boolean => env.stop?.aborted === true || silent();
  const exec = async (c: ConformanceCase): Promise<CaseResult> => {
    env.onProgress?.({ type: 'case-start', id: c.id, group: c.group });
    const result = stopped() ? notRun(c, silent() ? NOT_RUN_SILENT : NOT_RUN_INTERRUPTED) : await executeCase(run, c);
    byId.set(c.id, result);
    env.onProgress?.({ type: 'case-end', result });
    return result;
  };
  const concurrent = cases.filter((c) => c.exclusive !== true);
  const exclusive = cases.filter((c) => c.exclusive === true);
  env.onProgress?.({ type: 'phase', phase: 'concurrent', cases: concurrent.length });
  // Long-waiting cases (delay triggers, load, gift cards) start first so their waits overlap everything else.
  const ordered = [...concurrent].sort((a, b) => waitRank(b) - waitRank(a));
  await mapWithLimit(ordered, env.settings.concurrency, exec);
  const drain = stopped() ? undefined : await run.drain(env.onProgress, exclusive.length > 0);
  env.onProgress?.({ type: 'phase', phase: 'exclusive', cases: exclusive.length });
  for (const c of exclusive) await exec(c);
  const silence = run.silence.silence();
  return {
    startedAt,
    durationMs: Date.now() - startedAt,
    cases: cases.map((c) => {
      const result = byId.get(c.id) as CaseResult;
      // A silent target: what a case that met a timeout saw says nothing of the gateway's rules.
      const judged = result.status !== 'skipped' || run.unansweredCases.has(c.id);
      return silence !== undefined && judged && run.timedOutCases.has(c.id)
        ? { ...result, status: 'skipped', skipReason: NOT_RUN_SILENT, failures: [] }
        : result;
    }),
    ...(drain === undefined ? {} : { drain }),
    ...(silence === undefined ? {} : { silence }),
  };
}

/** The result of a case an interruption or a silent target kept from starting (`reason`): skipped, nothing sent. */
function notRun(testCase: ConformanceCase, reason: string): CaseResult {
  return caseResult(testCase, {
    status: 'skipped',
    skipReason: reason,
    failures: [],
    notes: [],
    requests: 0,
    startedAt: Date.now(),
    durationMs: 0,
  });
}

const SLOW_GROUPS = new Set(['TRG', 'POLL', 'GIFT', 'ENV']);

function waitRank(c: ConformanceCase): number {
  if (c.group === 'POLL') return 3;
  if (c.group === 'TRG') return 2;
  return SLOW_GROUPS.has(c.group) ? 1 : 0;
}

/**
 * The target's catalog, read once before any case as the cases would read it. A DiscoveryError here means there is no
 * catalog the harness can use (none answered, or no record it can read): the run is unusable, said once, rather than
 * every case failing on the same gap (#31 item 2).
 */
export function discoverCatalogFirst(env: RunEnvironment): Promise<Fixtures> {
  const run = new RunState(env);
  const core = run.core({ credentials: 'valid', caseId: 'catalog discovery' });
  // An interruption abandons the reads in flight (the discovery then fails, and the caller sees its stop aborted).
  const stop = env.stop;
  const retry = { attempts: 5, waitMs: env.timing.pollIntervalMs, sleep, ...(stop === undefined ? {} : { stop }) };
  return run.getFixtures(
    async (op, input) => (await retryRead(() => core.call(op, input, stop === undefined ? {} : { signal: stop }), retry)).response,
  );
}

/** True when an operation's path is assumed and the target answered 404 without an envelope (api/assumed-path.ts). */
export function assumedPathMissing(exchange: Exchange): boolean {
  const op = findOperation(exchange.request.operationId);
  return op !== undefined && isAssumedPathMissing(op, exchange.response);
}
