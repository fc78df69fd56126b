// One conformance run against a resolved target: the preflight (an unusable target is said once, before any case),
// then the cases with progress. Shared by `gateway-harness conformance` and the gate; reports are the caller's.
import { setTimeout as delay } from 'node:timers/promises';
import type { GatewayResponse } from '../api/envelope.ts';
import { preflight } from '../api/preflight.ts';
import { isHarnessError } from '../api/errors.ts';
import { redactUrl } from '../api/redact.ts';
import { giftcardCursorOf, type ResolvedTargetConfig } from '../api/target-config.ts';
import type { FundsPlan } from '../ledger/funds.ts';
import { checkTargetFunds, type FundsDecision } from '../ledger/funds-check.ts';
import type { RunTarget } from '../reports/model.ts';
import type { Progress } from '../reports/progress.ts';
import type { ApiSelection } from './plan.ts';
import { conformanceProgress } from './progress.ts';
import { discoverCatalogFirst, runCases } from './runner.ts';
import { DiscoveryError, type Fixtures } from '../target/fixtures.ts';
import type { ConformanceSettings } from '../target/settings.ts';
import type { ChargeLearning } from '../target/discover/charge-learning.ts';
import { createNodeConformanceTarget, timingFor, type NodeConformanceTarget } from './target.ts';
import type { ConformanceCase, RunResult } from './types.ts';
import type { RunCorrelationIds } from './correlation-ids.ts';

export interface SuiteRequest {
  readonly config: ResolvedTargetConfig;
  readonly settings: ConformanceSettings;
  readonly cases: readonly ConformanceCase[];
  readonly api: ApiSelection;
  /** Progress display; the task starts once the target proved usable, so an unusable target prints nothing. */
  readonly progress: Progress;
  /** Sees every response the suite gets (the fault tally); the cases judge them as always. */
  readonly onResponse?: (response: GatewayResponse) => void;
  /** A line said once the target proved usable (what runs against what). */
  readonly announce?: string;
  /** Aborted by an interruption: no case starts after it (runner.ts RunEnvironment.stop). */
  readonly stop?: AbortSignal;
  /**
   * The run's charging plan (the command's: the gate's holds its load too), priced against the balance once the target
   * proved usable and before any case (ledger/funds.ts): a wallet that cannot cover it throws GH_ERR_FUNDS (exit 2).
   */
  readonly funds?: FundsPlan;
  /** The run's one learned mapping: transaction-result fields learned on its first successful charges (its mapping replaces config.fieldMapping). */
  readonly learning?: ChargeLearning;
  /**
   * The cases and settings of the plan as the wallet fitted it (each elastic part of `funds` at its value: GEN's
   * charging runs, the POLL top-ups); absent: `cases` and `settings` as given.
   */
  readonly fitted?: (values: ReadonlyMap<string, number>) => {
    readonly cases: readonly ConformanceCase[];
    readonly settings: ConformanceSettings;
  };
  /** The correlationIds handed out by every pass against this target (runner.ts RunEnvironment.ids): `--under-load` shares one. */
  readonly ids?: RunCorrelationIds;
  /** Awaited before every request of a case (runner.ts RunEnvironment.beforeRequest): the pass under load's witness. */
  readonly beforeRequest?: (caseId: string) => Promise<void>;
}

/** What the report names as the suite's target: the resolved one, with its profile and catalog seed when it is the embedded sandbox. */
export function suiteTarget(
  config: ResolvedTargetConfig,
  api: ApiSelection,
  embedded: { readonly profile: string; readonly seed: number } | undefined,
): RunTarget {
  return {
    url: config.baseUrl,
    environment: config.environment,
    timeScale: config.timeScale,
    api,
    embedded: embedded !== undefined,
    ...(embedded === undefined ? {} : { profile: embedded.profile, seed: embedded.seed }),
  };
}

/** The report's target once the run is known: the harness's sandbox behind a given URL is named as one (its profile). */
export function withSimulator(target: RunTarget, simulator: string | undefined): RunTarget {
  if (simulator === undefined || target.embedded) return target;
  return { ...target, simulator: true, profile: simulator };
}

/** A run, or the one reason the target could not be used at all (nothing else was sent). */
export type SuiteOutcome =
  | { readonly kind: 'run'; readonly run: RunResult; readonly simulator?: string; readonly cuts: readonly string[] }
  | { readonly kind: 'unusable'; readonly reason: string; readonly startedAt: number; readonly durationMs: number };

/** A step that either yields its value or found the target unusable (the suite's outcome then). */
type StepResult<T> = { readonly value: T } | { readonly unusable: SuiteOutcome };

/** The conformance target, every response shown to `seen` first (the fault tally); the cases judge them as always. */
function observedTarget(config: ResolvedTargetConfig, seen: SuiteRequest['onResponse']): NodeConformanceTarget {
  const plain = createNodeConformanceTarget(config);
  if (seen === undefined) return plain;
  return {
    ...plain,
    transport: {
      send: async (built, options) => {
        const response = await plain.transport.send(built, options);
        seen(response);
        return response;
      },
    },
  };
}

/** The target found unusable after the preflight (which began at `checkedAt`): said with its redacted URL. */
function unusableAfter(config: ResolvedTargetConfig, reason: string, checkedAt: number): { readonly unusable: SuiteOutcome } {
  return {
    unusable: {
      kind: 'unusable',
      reason: `${redactUrl(config.baseUrl)}: ${reason}`,
      startedAt: checkedAt,
      durationMs: Date.now() - checkedAt,
    },
  };
}

/** What the cases run with, for the given settings: the target, its timing, the mapping (learned into), the cursor meaning. */
function caseEnvironment(request: SuiteRequest, target: NodeConformanceTarget, settings: ConformanceSettings) {
  const { config, learning } = request;
  return {
    target,
    settings,
    timing: timingFor(config, settings),
    mapping: learning?.mapping ?? config.fieldMapping,
    giftcardCursor: giftcardCursorOf(config),
    ...(learning === undefined ? {} : { learning }),
  };
}

/** The catalog first (reads only): the funds check then prices the SKUs of the countries the cases have numbers for. */
async function catalogFirst(request: SuiteRequest, target: NodeConformanceTarget, checkedAt: number): Promise<StepResult<Fixtures>> {
  try {
    const env = caseEnvironment(request, target, request.settings);
    return { value: await discoverCatalogFirst({ ...env, ...(request.stop === undefined ? {} : { stop: request.stop }) }) };
  } catch (error) {
    // No catalog, a target gone silent, or a signal (the reports then say INTERRUPTED): unusable, said in the reports.
    const silent = isHarnessError(error) && error.code === 'GH_ERR_TARGET';
    if (!(error instanceof DiscoveryError) && !silent && request.stop?.aborted !== true) throw error;
    const reason = request.stop?.aborted === true && !silent ? 'interrupted during catalog discovery' : (error as Error).message;
    return unusableAfter(request.config, reason, checkedAt);
  }
}

/** The run's charging plan priced against the balance before any case (none given: nothing to check). */
async function fundsFirst(request: SuiteRequest, fixtures: Fixtures, checkedAt: number): Promise<StepResult<FundsDecision | undefined>> {
  const { config, api } = request;
  if (request.funds === undefined) return { value: undefined };
  const plan = { ...request.funds, numbered: (code: string) => fixtures.plan(code) !== undefined };
  try {
    const money = await checkTargetFunds(config, plan, api === 'v1' ? 'v1' : 'v2', request.onResponse, request.stop);
    request.progress.line(money.line);
    return { value: money };
  } catch (error) {
    // Interrupted during the check, or the target went silent there: unusable, said in the reports (the
    // interruption, when one came, makes them INTERRUPTED). A wallet that cannot cover the plan stays GH_ERR_FUNDS.
    const silent = isHarnessError(error) && error.code === 'GH_ERR_TARGET';
    if (request.stop?.aborted !== true && !silent) throw error;
    const reason = silent ? (error as Error).message : 'interrupted during the funds check';
    return unusableAfter(config, reason, checkedAt);
  }
}

/** The cases (as the wallet fitted them) with progress by group. */
async function runSelectedCases(
  request: SuiteRequest,
  target: NodeConformanceTarget,
  fixtures: Fixtures,
  money: FundsDecision | undefined,
): Promise<{ run: RunResult; cuts: readonly string[] }> {
  const { cases, settings } = money !== undefined && request.fitted !== undefined ? request.fitted(money.values) : request;
  if (request.announce !== undefined) request.progress.line(request.announce);
  const groups = new Map<string, number>();
  for (const c of cases) groups.set(c.group, (groups.get(c.group) ?? 0) + 1);
  const progress = conformanceProgress(request.progress, { groups });
  try {
    const ran = await runCases(cases, {
      ...caseEnvironment(request, target, settings),
      fixtures,
      onProgress: (event) => progress.onEvent(event),
      ...(request.stop === undefined ? {} : { stop: request.stop }),
      ...(request.beforeRequest === undefined ? {} : { beforeRequest: request.beforeRequest }),
      ...(request.ids === undefined ? {} : { ids: request.ids }),
    });
    // A target gone silent during the cases is named in the one line the reports give (runner.ts RunResult.silence).
    const run = ran.silence === undefined ? ran : { ...ran, silence: `${redactUrl(request.config.baseUrl)}: ${ran.silence}` };
    return { run, cuts: money?.cuts ?? [] };
  } finally {
    progress.finish();
  }
}

export async function runConformanceSuite(request: SuiteRequest): Promise<SuiteOutcome> {
  const target = observedTarget(request.config, request.onResponse);
  try {
    const checkedAt = Date.now();
    const check = await preflight({ ...target, now: () => Date.now(), sleep: (ms) => delay(ms) }, request.api === 'v1' ? 'v1' : 'v2');
    if (!check.usable) return { kind: 'unusable', reason: check.reason, startedAt: checkedAt, durationMs: Date.now() - checkedAt };
    const catalog = await catalogFirst(request, target, checkedAt);
    if ('unusable' in catalog) return catalog.unusable;
    const funds = await fundsFirst(request, catalog.value, checkedAt);
    if ('unusable' in funds) return funds.unusable;
    const { run, cuts } = await runSelectedCases(request, target, catalog.value, funds.value);
    return { kind: 'run', run, cuts, ...(check.simulator === undefined ? {} : { simulator: check.simulator }) };
  } finally {
    await target.close();
  }
}
