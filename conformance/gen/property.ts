// One GEN case: a fast-check property over inputs generated from the schemas and the target's catalog, run against the
// target within the budget; a failure is shrunk and reported like any case (rule, expected vs received) plus seed, replay, curl.
import fc from 'fast-check';
import { findOperation, type ApiVersion } from '../../api/operations.ts';
import type { RequestInput } from '../../api/request-builder.ts';
import { ENVELOPE_INVARIANTS } from '../checks.ts';
import { readBalance } from '../runner.ts';
import type { Fixtures } from '../../target/fixtures.ts';
import {
  SkipCase,
  StepFailed,
  type CallOptions,
  type CaseContext,
  type Check,
  type Exchange,
  type GenCoverage,
  type Failure,
  type PollOutcome,
  type ScenarioCase,
  type Severity,
} from '../types.ts';
import type { IdClass } from '../correlation-ids.ts';
import { curlLine } from '../../reports/curl.ts';
import { describeBudget, type GenOptions } from './options.ts';

/** A property of the spec over a space of inputs. */
export interface GenProperty<T> extends Pick<ScenarioCase, 'id' | 'title' | 'specSection' | 'rule' | 'api' | 'exclusive' | 'assumed'> {
  /** The input space, derived from the request schema and the target's catalog; may skip when the target lacks it. */
  arbitrary(ctx: CaseContext, fx: Fixtures): fc.Arbitrary<T> | Promise<fc.Arbitrary<T>>;
  /** One generated input against the target; failures go to `probe` (fail/check), never straight to the case. */
  run(probe: GenProbe, value: T, fx: Fixtures): Promise<void>;
  /**
   * Every item of the space the report counts (keyword breaks, credential kinds, transitions × operation); an input
   * says which it reached with `probe.cover`. Absent: the case reports no coverage.
   */
  space?(ctx: CaseContext): readonly string[];
  /** The shrunk input as the report says it (default: fast-check's own rendering). */
  show?(value: T): string;
  /** What `--replay` needs beyond seed and path (model-based sequences: the commands' replay path). */
  replayTail?(value: T): string | undefined;
}

/** A case context for one generated input that also records which items of the property's space the input reached. */
export interface GenProbe extends CaseContext {
  cover(item: string): void;
}

/** The note GEN leaves with the time to its first failing input (the proof meta-test reads it). */
export const FIRST_FAILURE_NOTE = 'GEN first failure after';

/**
 * A case context for one generated input: calls go through the case's own (so the run tracks transactions and counts
 * requests), but failures stay here until the input is judged — a property fails many inputs while it shrinks.
 */
class Probe implements GenProbe {
  readonly failures: Failure[] = [];
  readonly exchanges: Exchange[] = [];
  charging = 0;

  constructor(
    private readonly ctx: CaseContext,
    private readonly covered: Set<string>,
  ) {}

  cover(item: string): void {
    this.covered.add(item);
  }
  get caseId(): string {
    return this.ctx.caseId;
  }
  get api(): ApiVersion {
    return this.ctx.api;
  }
  get settings(): CaseContext['settings'] {
    return this.ctx.settings;
  }
  get timing(): CaseContext['timing'] {
    return this.ctx.timing;
  }
  get mapping(): CaseContext['mapping'] {
    return this.ctx.mapping;
  }
  fixtures(): Promise<Fixtures> {
    return this.ctx.fixtures();
  }
  async call(operationId: string, input: RequestInput, options: CallOptions = {}): Promise<Exchange> {
    if (findOperation(operationId)?.charges === true) this.charging += 1;
    const exchange = await this.ctx.call(operationId, input, { ...options, checkEnvelope: false });
    this.exchanges.push(exchange);
    if (options.checkEnvelope !== false) for (const check of ENVELOPE_INVARIANTS) this.check(check, exchange);
    return exchange;
  }
  check(check: Check, exchange: Exchange): boolean {
    const failure = check({ caseId: this.caseId, operationId: exchange.request.operationId, request: exchange.request }, exchange.response);
    if (failure === undefined) return true;
    this.failures.push(failure);
    return false;
  }
  fail(failure: Omit<Failure, 'caseId' | 'severity'> & { severity?: Severity }): void {
    this.failures.push({ ...failure, caseId: this.caseId, severity: failure.severity ?? 'error' });
  }
  skip(reason: string): never {
    throw new SkipCase(reason);
  }
  pollStatus(version: ApiVersion, correlationId: string, options: { submittedAt: number; deadlineMs?: number }): Promise<PollOutcome> {
    return this.ctx.pollStatus(version, correlationId, options);
  }
  balance(version: ApiVersion): Promise<number | undefined> {
    return readBalance(this, version, (failure) => this.failures.push(failure));
  }
  correlationId(length?: number, chars?: IdClass): string {
    return this.ctx.correlationId(length, chars);
  }
  sleep(ms: number): Promise<void> {
    return this.ctx.sleep(ms);
  }
  note(): void {
    // One generated input's notes would drown the case's; the report names the shrunk input instead.
  }
  errors(): Failure[] {
    return this.failures.filter((f) => f.severity === 'error');
  }
}

/** The command line that runs exactly this counterexample again (conformance's options; fuzz takes the same). */
export function replayCommand(caseId: string, seed: number, path: string, tail?: string): string {
  // A commands replay path may hold characters a shell reads: quoted then.
  return `gateway-harness fuzz --grep '^${caseId} ' --replay ${tail === undefined ? `${seed}:${path}` : `'${seed}:${path}@${tail.replace(/'/g, `'\\''`)}'`}`;
}

function coverageOf(
  inputs: number,
  requests: number,
  charging: number,
  space: readonly string[],
  covered: ReadonlySet<string>,
): GenCoverage {
  return { inputs, requests, charging, space: [...space], covered: space.filter((item) => covered.has(item)) };
}

/**
 * One run of a property against the target: judges each generated input on its own probe, counts the requests and
 * charges, keeps the last failing input (the shrunk one) and the time to the first.
 */
class GenRun<T> {
  failing: { probe: Probe; value: T } | undefined;
  skipped: string | undefined;
  firstFailureMs: number | undefined;
  requests = 0;
  charging = 0;
  readonly covered = new Set<string>();
  /**
   * fast-check's time bound races a run and leaves it going: the case waits for it, so nothing it sends (a charge, a
   * balance read) overlaps the next case, an exclusive one included.
   */
  running: Promise<unknown> = Promise.resolve();
  private readonly started = Date.now();

  constructor(
    private readonly ctx: CaseContext,
    private readonly property: GenProperty<T>,
    private readonly fx: Fixtures,
  ) {}

  predicate(arbitrary: fc.Arbitrary<T>): fc.IAsyncProperty<[T]> {
    return fc.asyncProperty(arbitrary, (value) => {
      const run = this.judge(value);
      this.running = run.catch(() => undefined);
      return run;
    });
  }

  private async judge(value: T): Promise<boolean> {
    if (this.skipped !== undefined) return true;
    const probe = new Probe(this.ctx, this.covered);
    try {
      await this.property.run(probe, value, this.fx);
    } catch (error) {
      // An input the run cannot make (fast-check's precondition): skipped, neither passed nor failed.
      if (fc.PreconditionFailure.isFailure(error)) throw error;
      if (error instanceof SkipCase) {
        this.skipped = error.reason;
        return true;
      }
      if (!(error instanceof StepFailed)) {
        probe.fail({
          check: 'case-error',
          operation: '',
          message: error instanceof Error ? error.message : String(error),
          expected: 'the input runs to completion',
          received: error instanceof Error ? error.name : typeof error,
        });
      }
    } finally {
      this.requests += probe.exchanges.length;
      this.charging += probe.charging;
    }
    if (probe.errors().length === 0) return true;
    this.failing = { probe, value };
    this.firstFailureMs ??= Date.now() - this.started;
    return false;
  }
}

/** fast-check over the budget (or the replayed path), bounded within the runner's case timeout, shrinking included. */
function checkWithinCase<T>(ctx: CaseContext, options: GenOptions, predicate: fc.IAsyncProperty<[T]>): Promise<fc.RunDetails<[T]>> {
  const { seed, budget, replay } = options;
  // Within the runner's case timeout (3 poll deadlines), shrinking included, whatever the budget says.
  const caseBound = Math.floor(ctx.timing.pollDeadlineMs * 3 * 0.6);
  const timeLimitMs = Math.min(budget.timeLimitMs ?? caseBound, caseBound);
  return fc.check(predicate, {
    seed: replay?.seed ?? seed,
    numRuns: budget.runs,
    interruptAfterTimeLimit: timeLimitMs,
    markInterruptAsFailure: false,
    ...(replay === undefined ? {} : { path: replay.path, endOnFailure: true }),
  });
}

/** The case's note on what ran: seed (and replayed path), budget, inputs, shrinks, requests and charges. */
function runNote<T>(options: GenOptions, details: fc.RunDetails<[T]>, run: GenRun<T>): string {
  const { budget, replay } = options;
  return (
    `GEN seed ${details.seed}${replay === undefined ? '' : ` (replay of path ${replay.path})`}; budget ${describeBudget(budget)}; ${details.numRuns} generated input(s)` +
    `${details.interrupted ? ' (stopped by the time bound)' : ''}, ${details.numShrinks} shrink step(s); ${run.requests} request(s), ${run.charging} of them charging (test money)`
  );
}

export function genCase<T>(options: GenOptions, property: GenProperty<T>): ScenarioCase {
  return {
    kind: 'scenario',
    id: property.id,
    group: 'GEN',
    title: property.title,
    specSection: property.specSection,
    rule: property.rule,
    api: property.api,
    ...(property.exclusive === true ? { exclusive: true } : {}),
    assumed: [
      ...(property.assumed ?? []),
      'generated inputs (fast-check): the seed, budget and shrunk counterexample are in the notes and failures',
    ],
    async scenario(ctx) {
      const fx = await ctx.fixtures();
      const arbitrary = await property.arbitrary(ctx, fx);
      const run = new GenRun(ctx, property, fx);
      const details = await checkWithinCase(ctx, options, run.predicate(arbitrary));
      await run.running;
      const space = property.space?.(ctx);
      if (space !== undefined) ctx.genCoverage?.(coverageOf(details.numRuns, run.requests, run.charging, space, run.covered));
      ctx.note(runNote(options, details, run));
      if (run.skipped !== undefined) ctx.skip(run.skipped);
      if (!details.failed) return;
      if (run.firstFailureMs !== undefined) ctx.note(`${FIRST_FAILURE_NOTE} ${run.firstFailureMs} ms`);
      reportCounterexample(ctx, property, details, run.failing);
    },
  };
}

/** The shrunk counterexample as the case's failures: each error with the input, replay command and curl line that reproduce it. */
function reportCounterexample<T>(
  ctx: CaseContext,
  property: GenProperty<T>,
  details: fc.RunDetails<[T]>,
  failing: { probe: Probe; value: T } | undefined,
): void {
  const value = (details.counterexample?.[0] ?? failing?.value) as T;
  const shown = property.show === undefined ? fc.stringify(value) : property.show(value);
  const replayLine = replayCommand(property.id, details.seed, details.counterexamplePath ?? '0', property.replayTail?.(value));
  const errors = failing?.probe.errors() ?? [];
  // The request to reproduce: the failure's own, else the input's write (what a balance or status finding is about).
  const exchanges = failing?.probe.exchanges ?? [];
  const last = exchanges.find((e) => e.request.method !== 'GET') ?? exchanges.at(-1);
  const reproduction = (request: Exchange['request'] | undefined): string =>
    ` — shrunk input (${details.numShrinks} shrink step(s), seed ${details.seed}): ${shown}; replay: ${replayLine}` +
    (request === undefined ? '' : `; curl: ${curlLine(request)}`);
  if (errors.length === 0) {
    ctx.fail({
      check: 'gen-property',
      operation: '',
      message: `the property failed: ${details.errorInstance instanceof Error ? details.errorInstance.message : 'no reason given'}${reproduction(last?.request)}`,
      expected: 'every generated input keeps the rule',
      received: 'a counterexample',
    });
    return;
  }
  for (const failure of errors.slice(0, 3)) {
    const request = failure.request ?? last?.request;
    ctx.fail({ ...failure, message: `${failure.message}${reproduction(request)}`, ...(request === undefined ? {} : { request }) });
  }
  const first = errors[0]?.request ?? last?.request;
  if (first !== undefined) ctx.note(`reproduce: ${curlLine(first)}`);
}
