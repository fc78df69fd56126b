// The gate: conformance, then the smoke profile of the mixed load scenario, then (when a baseline exists) the drift
// check, against one target — the embedded sandbox started once for all three when none is given — into one report.
import { OPERATIONS, type ApiVersion } from '../api/operations.ts';
import { mixOperations, scheduledOperations } from '../load/mix.ts';
import type { ResolvedTargetConfig, TargetConfig } from '../api/target-config.ts';
import type { ApiSelection } from '../conformance/plan.ts';
import { planWithGen } from '../conformance/gen/plan.ts';
import type { GenOptions } from '../conformance/gen/options.ts';
import { addFaultCounts, createFaultTally, type FaultCounts, type FaultTally } from '../api/faults.ts';
import { runConformanceSuite, suiteTarget, withSimulator, type SuiteRequest } from '../conformance/run-suite.ts';
import { RunCorrelationIds } from '../conformance/correlation-ids.ts';
import type { ProfileName } from '../load/profiles.ts';
import { loadedPass } from './under-load-gate.ts';
import { underLoadFlags } from './under-load.ts';
import { conformanceFundsPlan, fittedRun } from '../conformance/money-plan.ts';
import { LOAD_ITERATIONS, loadFundsPlan } from '../load/runner/money-plan.ts';
import { settingsForSandbox } from '../target/embedded.ts';
import type { ConformanceSettings } from '../target/settings.ts';
import { DiscoveryError } from '../target/fixtures.ts';
import type { Baseline } from '../drift/baseline-files.ts';
import { baselineValidatorsModule } from '../drift/baseline-validators.ts';
import { driftReportSection } from '../drift/report.ts';
import { checkBaseline } from '../drift/run.ts';
import { openTargetSession, type TargetSession } from '../target/session.ts';
import { isHarnessError } from '../api/errors.ts';
import { createChargeLearning, type ChargeLearning } from '../target/discover/charge-learning.ts';
import type { Finding } from '../target/discover/findings.ts';
import { renderChargeFindings } from '../target/discover/render.ts';
import type { EngineChoice } from '../load/engine-select.ts';
import {
  interruptedSection,
  loadArtifacts,
  loadFaults,
  loadInterruption,
  loadSection,
  missingSummaryMessage,
  runMetricsFile,
} from '../load/runner/load-report.ts';
import type { LoadFlags } from '../load/runner/load-options.ts';
import { runLoad, type LoadRun } from '../load/runner/run-load.ts';
import { assembleReport, type ReportInput } from '../reports/assemble.ts';
import { conformanceSection } from '../conformance/section.ts';
import type {
  ComparisonSection,
  ConformanceSection,
  DriftSection,
  LoadSection,
  RunReport,
  RunTarget,
  SkippedItem,
} from '../reports/model.ts';
import type { Progress } from '../reports/progress.ts';
import type { RunInterrupt } from '../reports/interrupt-watch.ts';
import type { ReportInterruption } from '../reports/interruption.ts';
import { LOAD_SANDBOX_FUNDS } from '../sandbox/behaviour.ts';
import { startSandbox, type RunningSandbox } from '../sandbox/server.ts';

/** The load part of every gate: the mixed scenario (every operation of the catalog) on its smoke profile. */
export const GATE_LOAD = Object.freeze({ scenario: 'mixed', profile: 'smoke' } as const);

export interface GateRequest {
  readonly runId: string;
  readonly reportDir: string;
  /** The target's config (defaults < file < env < flags); no baseUrl: the embedded sandbox. */
  readonly config: TargetConfig;
  readonly api: ApiSelection;
  readonly allowSkips: boolean;
  /** Embedded sandbox only: behaviour profile (e.g. a planted bug) and catalog seed. */
  readonly profile: string;
  readonly seed: number;
  readonly settings: ConformanceSettings;
  /** GEN's seed and budget (conformance/gen/): the generated properties run with the hand-written cases. */
  readonly gen: GenOptions;
  /** Where the baseline is looked for (--baseline, default gateway-baseline/). */
  readonly baselineDir: string;
  /** The baseline to check drift against, read beforehand (a broken one stops the gate before anything runs); absent: none there. */
  readonly baseline?: Baseline;
  /** Engine of the load part: auto = k6 when K6_BIN or PATH has one, else the Node engine. */
  readonly engine: EngineChoice;
  /** Redacted from every report (reports/redact-report.ts credentialSecrets). */
  readonly secrets: readonly string[];
  readonly progress: Progress;
  /** --compare-with DIR: the load part compared with an earlier run (compare/, injected by the command). */
  readonly compare?: (run: LoadRun, meta: { readonly scenario: string; readonly profile: string }) => Promise<ComparisonSection>;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** The command's signal watch: the part running when a signal comes stops there, and no later part runs. */
  readonly interrupt?: RunInterrupt;
  /** --under-load [profile]: the suite runs again under the mixed scenario's load of this profile, instead of the smoke load. */
  readonly underLoad?: ProfileName;
}

/** The report, and whether the target proved unusable (the gate stopped before anything else ran). */
export interface GateOutcome {
  readonly report: RunReport;
  readonly unusable: boolean;
  /** What the run said about parts it did not run (no baseline: no drift check). */
  readonly notes: readonly string[];
  /** Transaction-result fields learned (or left open) on the run's first charges (target/discover/charge-learning.ts). */
  readonly learnedOnCharge: readonly Finding[];
  /** What ran smaller to fit the wallet, and why (ledger/funds.ts fitPlan): for the verdict line; empty when nothing. */
  readonly cuts?: readonly string[];
}

/** The embedded sandbox for all three parts: the config's credentials, time scale and write paths, funds for a load run. */
function startGateSandbox(config: TargetConfig, request: GateRequest): Promise<RunningSandbox> {
  return startSandbox({
    host: '127.0.0.1',
    port: 0,
    timeScale: config.timeScale,
    seed: request.seed,
    profile: request.profile,
    user: config.user,
    password: config.password,
    writePaths: { ...config.writePaths },
    // The load part runs on the same wallet as conformance: generous funds, or it would measure '009' refusals.
    behaviour: { initialBalance: LOAD_SANDBOX_FUNDS },
  });
}

function gateLoadFlags(request: GateRequest): LoadFlags {
  return {
    scenario: GATE_LOAD.scenario,
    profile: GATE_LOAD.profile,
    engine: request.engine,
    api: request.api,
    reportDir: request.reportDir,
    thresholds: {},
    // With a baseline, every load payload is held against it too (the drift part then checks the shapes once more).
    ...(request.baseline === undefined ? {} : { baseline: request.baseline.dir }),
  };
}

/**
 * What the gate charges, priced against the balance before its first charge: conformance's cases and the smoke load
 * (its mixed schedule counted per operation). The drift check's writes (with a baseline) are few and not counted.
 */
function gateFundsPlan(
  request: GateRequest,
  cases: Parameters<typeof conformanceFundsPlan>[1],
  settings: ConformanceSettings,
): ReturnType<typeof conformanceFundsPlan> {
  const conformance = conformanceFundsPlan('gate', cases, settings, request.gen);
  // --under-load: the suite twice and the load at its longest bound (it is stopped when the second pass ends).
  const underLoad = request.underLoad === undefined ? undefined : underLoadFlags({ ...request, profile: request.underLoad }, Infinity);
  // The smoke load is elastic: fewer iterations (down to none) when the wallet cannot cover the whole plan.
  const load = loadFundsPlan(underLoad ?? gateLoadFlags(request), underLoad === undefined);
  const twice = underLoad === undefined ? conformance.lines : [...conformance.lines, ...conformance.lines];
  return {
    ...conformance,
    lines: [...twice, ...load.lines],
    unbounded: [...conformance.unbounded, ...load.unbounded],
    elastic: [...(conformance.elastic ?? []), ...(load.elastic ?? [])],
  };
}

/** The load part's outcome: its run, or (the wallet left nothing for it) why it did not run. */
interface LoadOutcome {
  readonly run?: LoadRun;
  readonly section?: LoadSection;
  readonly error?: ReportInput['error'];
  readonly interruption?: ReportInterruption;
  readonly notVerified?: SkippedItem;
  /** A load cut to fit the wallet: which operations its iterations did not reach (said, not judged). */
  readonly note?: string;
}

/**
 * The smoke load at the iterations the funds check fitted (undefined: the profile's own): fewer when the wallet could not
 * cover the whole plan (the cut is said with the others), none when nothing was left for it: not verified, with why
 * and what to do, never a failure of the gateway.
 */
async function smokeLoad(
  part: [GateRequest, ResolvedTargetConfig, RunningSandbox | undefined, number, readonly string[]],
  iterations: number | undefined,
  cuts: readonly string[],
): Promise<LoadOutcome> {
  if (iterations !== 0) {
    const ran = await loadPart(...part, iterations);
    const versions: ApiVersion[] = part[0].api === 'both' ? ['v1', 'v2'] : [part[0].api];
    const reached = new Set(scheduledOperations(versions, iterations ?? Infinity));
    const unreached = mixOperations(versions).filter((id) => !reached.has(id));
    if (unreached.length === 0) return ran;
    const note = `load: ${iterations} iterations to fit the wallet, so ${unreached.length} operation(s) were not sent under load and have no threshold (${unreached.join(', ')})`;
    return { ...ran, note };
  }
  const why = cuts.find((cut) => cut.includes(LOAD_ITERATIONS)) ?? 'the wallet left nothing for it';
  const reason = `${GATE_LOAD.scenario}/${GATE_LOAD.profile} not run: the wallet covers conformance but leaves nothing for the load (${why}); top up the wallet or run it alone (gateway-harness load)`;
  return { notVerified: { section: 'load', id: `${GATE_LOAD.scenario}/${GATE_LOAD.profile}`, reason } };
}

async function loadPart(
  request: GateRequest,
  resolved: ResolvedTargetConfig,
  sandbox: RunningSandbox | undefined,
  startedAt: number,
  notRun: readonly string[],
  iterations?: number,
): Promise<LoadOutcome & { run: LoadRun }> {
  const flags = { ...gateLoadFlags(request), ...(iterations === undefined ? {} : { iterations }) };
  const run = await runLoad(flags, resolved, {
    cwd: request.cwd,
    env: request.env,
    progress: request.progress,
    runId: request.runId,
    ...(sandbox === undefined ? {} : { sandbox: { url: sandbox.url, profile: request.profile } }),
    ...(request.interrupt === undefined ? {} : { interrupt: request.interrupt }),
    ...(request.baseline === undefined ? {} : { baselineModule: baselineValidatorsModule(request.baseline) }),
  });
  // Interrupted (the gate's signal, or k6 aborted on its own): what was measured is reported as interrupted, never as
  // a broken run, and nothing runs after it.
  const interruption = loadInterruption(run, request.interrupt, startedAt, { notRun: [...notRun] });
  if (run.summaryData === undefined) {
    return interruption === undefined
      ? { run, error: { code: 'GH_ERR_INTERNAL', message: missingSummaryMessage(run), verdict: 'fail' } }
      : { run, interruption };
  }
  const section = await loadSection({
    summaryData: run.summaryData,
    ...GATE_LOAD,
    engine: run.engineLabel,
    ...(runMetricsFile(run) === undefined ? {} : { ndjsonPath: runMetricsFile(run) }),
    payload: run.payload,
    allowSkips: request.allowSkips,
  });
  if (interruption !== undefined) return { run, section: interruptedSection(section, interruption), interruption };
  // k6's exit codes other than 0 and 99 (script error, aborted run) mean the run itself broke: never a pass.
  const broken = run.engineExit !== 0 && run.engineExit !== 99 && section.setupCompleted !== false;
  return broken
    ? {
        run,
        section,
        error: {
          code: 'GH_ERR_INTERNAL',
          message: `load: the ${run.engineLabel === 'node' ? 'Node engine' : run.engineLabel} run ended with exit code ${run.engineExit} (see its output above)`,
          verdict: 'fail',
        },
      }
    : { run, section };
}

/** The load run's fault counts, when it ran. */
const loadFaultsOf = (load: LoadOutcome): FaultCounts[] => (load.run === undefined ? [] : [loadFaults(load.run)]);

async function driftPart(
  request: GateRequest,
  baseline: Baseline,
  resolved: ResolvedTargetConfig,
  sandbox: RunningSandbox | undefined,
  faults: FaultTally,
): Promise<{ section?: DriftSection; error?: ReportInput['error']; silent?: boolean }> {
  const operations = OPERATIONS.filter((op) => request.api === 'both' || op.version === request.api);
  const task = request.progress.start({ label: 'drift', total: operations.length, unit: 'operations' });
  let observed = 0;
  let ok = false;
  let session: TargetSession | undefined;
  try {
    // The session runs on the gate's target (the embedded sandbox's URL when it is one): no second sandbox starts.
    session = await openTargetSession(
      { ...resolved },
      {
        settings: sandbox === undefined ? request.settings : settingsForSandbox(request.settings, sandbox),
        // Its answers are the target's too: a fault among them is counted with the gate's (the report's fault tally).
        hooks: { afterResponse: (exchange) => faults.add(exchange.response) },
      },
    );
    const result = await checkBaseline(session, baseline, {
      operations,
      progress: (line) => {
        if (/^v[12]\.[\w.-]+: /.test(line)) observed += 1;
        task.update({ done: observed, detail: line });
      },
    });
    const section = driftReportSection(result, { allowSkips: request.allowSkips });
    // Gone silent during the check: unusable naming the phase (as conformance's silence), never a pass or a fail.
    if (result.silence !== undefined)
      return { section, error: { code: 'GH_ERR_TARGET', message: `drift: ${result.silence}` }, silent: true };
    ok = section.verdict === 'pass';
    return { section };
  } catch (error) {
    // The drift session's own preflight or catalog reads found the target silent or gone: unusable, naming the phase.
    const gone = error instanceof DiscoveryError || (isHarnessError(error) && error.code === 'GH_ERR_TARGET');
    if (gone) return { error: { code: 'GH_ERR_TARGET', message: `drift: ${(error as Error).message}` }, silent: true };
    throw error;
  } finally {
    task.done({ ok });
    await session?.close();
  }
}

/** One gate run, shared by its steps: the target, the run's one learned mapping and fault tally, the report's common fields. */
interface GateRun {
  readonly request: GateRequest;
  readonly startedAt: number;
  readonly sandbox: RunningSandbox | undefined;
  readonly resolved: ResolvedTargetConfig;
  readonly learning: ChargeLearning;
  /** Responses that were no gateway answer, counted over every part (api/faults.ts); each part judges its own. */
  readonly faults: FaultTally;
  readonly notes: string[];
  /** The fields every report of the run starts from; its target names the simulator once conformance met one. */
  readonly base: { runId: string; command: string; startedAt: number; allowSkips: boolean; target: RunTarget };
  /** The smoke load's iterations as the funds check fitted them (undefined: not cut). */
  smokeIterations?: number;
}

/** Conformance as the later parts need it: its section, the request its second pass repeats, what was cut to fit. */
interface ConformanceDone {
  readonly suiteRequest: SuiteRequest;
  readonly section: ConformanceSection;
  readonly durationMs: number;
  readonly cuts: readonly string[];
}

type GatePart = 'conformance' | 'load';

function openGateRun(request: GateRequest, sandbox: RunningSandbox | undefined, startedAt: number): GateRun {
  const { config, api } = request;
  // The run's one learned mapping: what conformance's first charges teach, the load and the drift check read through too.
  const learning = createChargeLearning(config.fieldMapping);
  const resolved: ResolvedTargetConfig = {
    ...config,
    fieldMapping: learning.mapping,
    baseUrl: sandbox?.url ?? (config.baseUrl as string),
  };
  const target = suiteTarget(resolved, api, sandbox === undefined ? undefined : { profile: request.profile, seed: request.seed });
  const base = { runId: request.runId, command: 'gate', startedAt, allowSkips: request.allowSkips, target };
  return { request, startedAt, sandbox, resolved, learning, faults: createFaultTally(), notes: [], base };
}

/** The run's report: the common fields, its duration so far, and the parts given. */
function gateReport(run: GateRun, parts: Omit<ReportInput, keyof GateRun['base'] | 'durationMs'>): RunReport {
  return assembleReport({ ...run.base, durationMs: Date.now() - run.startedAt, ...parts });
}

function gateOutcome(run: GateRun, report: RunReport, unusable: boolean): GateOutcome {
  return { report, unusable, notes: run.notes, learnedOnCharge: run.learning.findings() };
}

/** The parts a signal in this one leaves not run. */
function laterParts(request: GateRequest, after: GatePart): string[] {
  return [...(after === 'conformance' ? ['load'] : []), ...(request.baseline === undefined ? [] : ['drift'])];
}

function stoppedIn(run: GateRun, after: GatePart): ReportInterruption | undefined {
  return run.request.interrupt?.interruption(run.startedAt, { notRun: laterParts(run.request, after) });
}

/** What runs against what, said once the target proved usable. */
function gateAnnouncement(run: GateRun, caseCount: number): string {
  const { request, resolved, sandbox } = run;
  const where =
    sandbox === undefined ? resolved.baseUrl : `embedded sandbox (${sandbox.url}, profile ${request.profile}, seed ${request.seed})`;
  const load = request.underLoad === undefined ? GATE_LOAD.profile : `${request.underLoad} under the second pass`;
  const drift = request.baseline === undefined ? 'not checked (no baseline)' : `against ${request.baseline.dir}`;
  return `gate: ${where}, time scale ${resolved.timeScale}, api ${request.api}: conformance (${caseCount} cases, GEN seed ${request.gen.seed}), load ${GATE_LOAD.scenario}/${load}, drift ${drift}; reports in ${request.reportDir}`;
}

function gateSuiteRequest(run: GateRun): SuiteRequest {
  const { request, sandbox } = run;
  const { api, interrupt } = request;
  const cases = planWithGen({ api }, request.gen);
  const settings = sandbox === undefined ? request.settings : settingsForSandbox(request.settings, sandbox);
  return {
    ...(interrupt === undefined ? {} : { stop: interrupt.signal }),
    config: run.resolved,
    settings,
    cases,
    api,
    progress: request.progress,
    onResponse: (response) => run.faults.add(response),
    funds: gateFundsPlan(request, cases, settings),
    learning: run.learning,
    // One id memory for both passes of --under-load: the loaded pass never repeats an id the idle pass sent.
    ids: new RunCorrelationIds(),
    // A wallet too small for the whole plan: GEN's charging runs and the POLL top-ups cut to fit (said in the report).
    fitted: (values) => {
      run.smokeIterations = values.get(LOAD_ITERATIONS);
      const fitted = fittedRun(values, request.gen, settings);
      return { cases: planWithGen({ api }, fitted.gen), settings: fitted.settings };
    },
    announce: gateAnnouncement(run, cases.length),
  };
}

/** 1. Conformance. Its preflight says first whether the target can be used at all; if not, nothing else runs. */
async function conformancePart(run: GateRun): Promise<ConformanceDone | { readonly stopped: GateOutcome }> {
  const { request, learning } = run;
  const suiteRequest = gateSuiteRequest(run);
  request.interrupt?.enter('conformance');
  const suite = await runConformanceSuite(suiteRequest);
  if (suite.kind === 'unusable') {
    const stopped = stoppedIn(run, 'conformance');
    const report = gateReport(run, {
      error: { code: 'GH_ERR_TARGET', message: suite.reason },
      ...(stopped === undefined ? {} : { interruption: stopped }),
    });
    return { stopped: gateOutcome(run, report, stopped === undefined) };
  }
  for (const line of renderChargeFindings(learning.findings())) request.progress.line(line);
  const section = conformanceSection(suite.run, { allowSkips: request.allowSkips, secrets: request.secrets });
  run.notes.push(...suite.cuts.map((cut) => `money: ran smaller to fit the wallet (${cut}); every case still ran`));
  // A given URL that answered as the harness's own sandbox is named so on every line (reports/assemble.ts).
  run.base.target = withSimulator(run.base.target, suite.simulator);
  const stopped = stoppedAfterConformance(run, section, suite.run.silence);
  return stopped ?? { suiteRequest, section, durationMs: suite.run.durationMs, cuts: suite.cuts };
}

/** A signal in (or right after) conformance, or a target gone silent in its cases: the report so far; load and drift do not run. */
function stoppedAfterConformance(
  run: GateRun,
  conformance: ConformanceSection,
  silence: string | undefined,
): { readonly stopped: GateOutcome } | undefined {
  const inConformance = stoppedIn(run, 'conformance');
  if (inConformance !== undefined) {
    // Its cases up to the signal are reported.
    const report = gateReport(run, {
      conformance: { ...conformance, verdict: 'interrupted' as const },
      faults: run.faults.counts(),
      interruption: inConformance,
    });
    return { stopped: gateOutcome(run, report, false) };
  }
  if (silence === undefined) return undefined;
  // Gone silent: unusable, naming the phase.
  const report = gateReport(run, { conformance, faults: run.faults.counts(), error: { code: 'GH_ERR_TARGET', message: silence } });
  return { stopped: gateOutcome(run, report, true) };
}

/**
 * 2. Load: the mixed scenario's smoke profile, whatever conformance found (one verdict over every part); with
 * --under-load, the suite's second pass under the mixed scenario's load instead (gate/under-load-gate.ts, #33).
 */
async function loadStep(run: GateRun, done: ConformanceDone): Promise<{ conformance: ConformanceSection; load: LoadOutcome }> {
  const { request, resolved, sandbox, startedAt } = run;
  request.interrupt?.enter('load');
  const underLoad =
    request.underLoad === undefined
      ? undefined
      : await loadedPass({
          ...request,
          profile: request.underLoad,
          sandboxProfile: request.profile,
          resolved,
          ...(sandbox === undefined ? {} : { sandbox }),
          suite: done.suiteRequest,
          idle: done.section,
          idleMs: done.durationMs,
          startedAt,
          notRun: laterParts(request, 'load'),
        });
  const conformance = underLoad?.conformance ?? done.section;
  const load: LoadOutcome =
    underLoad?.load ??
    (await smokeLoad([request, resolved, sandbox, startedAt, laterParts(request, 'load')], run.smokeIterations, done.cuts));
  return { conformance, load };
}

/** A signal during the load: what it measured, reported as interrupted; drift does not run. */
function interruptedInLoad(
  run: GateRun,
  conformance: ConformanceSection,
  load: LoadOutcome,
  interruption: ReportInterruption,
): GateOutcome {
  const report = gateReport(run, {
    conformance,
    ...(load.section === undefined ? {} : { load: load.section }),
    faults: addFaultCounts(run.faults.counts(), ...loadFaultsOf(load)),
    artifacts: load.run === undefined ? {} : loadArtifacts(load.run),
    interruption,
  });
  return gateOutcome(run, report, false);
}

interface DriftStep {
  readonly drift: Awaited<ReturnType<typeof driftPart>>;
  readonly notRun: { part: string; reason: string }[];
  readonly inDrift?: ReportInterruption;
}

/** 3. Drift, when there is a baseline to check against; without one, the report says how to record one. */
async function driftStep(run: GateRun): Promise<DriftStep> {
  const { request } = run;
  let drift: DriftStep['drift'] = {};
  const notRun: { part: string; reason: string }[] = [];
  if (request.baseline === undefined) {
    const reason = `no baseline in ${request.baselineDir} (record one with \`gateway-harness baseline record --out-dir ${request.baselineDir}\` and commit it)`;
    run.notes.push(`drift: not checked, ${reason}`);
    notRun.push({ part: 'drift', reason });
  } else {
    request.interrupt?.enter('drift');
    drift = await driftPart(request, request.baseline, run.resolved, run.sandbox, run.faults);
  }
  // A signal during the drift check: it finishes its operation list (a few requests each), and says it was interrupted.
  const inDrift = request.interrupt?.interruption(run.startedAt);
  if (inDrift !== undefined && drift.section !== undefined) drift = { ...drift, section: { ...drift.section, verdict: 'interrupted' } };
  return { drift, notRun, ...(inDrift === undefined ? {} : { inDrift }) };
}

/** The whole run's report: every part, one early-stop error (the worst: an unusable target outranks a broken run). */
function finalOutcome(
  run: GateRun,
  parts: { conformance: ConformanceSection; load: LoadOutcome; comparison?: ComparisonSection; cuts: readonly string[] },
  { drift, notRun, inDrift }: DriftStep,
): GateOutcome {
  const { conformance, load, comparison } = parts;
  const errors = [load.error, drift.error].filter((e): e is NonNullable<ReportInput['error']> => e !== undefined);
  const report = gateReport(run, {
    conformance,
    ...(load.section === undefined ? {} : { load: load.section }),
    ...(comparison === undefined ? {} : { comparison }),
    ...(drift.section === undefined ? {} : { drift: drift.section }),
    faults: addFaultCounts(run.faults.counts(), ...loadFaultsOf(load)),
    artifacts: load.run === undefined ? {} : loadArtifacts(load.run),
    ...(load.notVerified === undefined ? {} : { notVerified: [load.notVerified] }),
    ...(errors.length === 0
      ? {}
      : { error: errors.find((e) => e.code === 'GH_ERR_TARGET') ?? (errors[0] as NonNullable<ReportInput['error']>) }),
    ...(inDrift === undefined ? {} : { interruption: inDrift }),
    notRun,
  });
  return { ...gateOutcome(run, report, drift.silent === true && inDrift === undefined), cuts: parts.cuts };
}

export async function runGate(request: GateRequest): Promise<GateOutcome> {
  const startedAt = Date.now();
  const sandbox = request.config.baseUrl === undefined ? await startGateSandbox(request.config, request) : undefined;
  try {
    const run = openGateRun(request, sandbox, startedAt);
    const done = await conformancePart(run);
    if ('stopped' in done) return done.stopped;
    const { conformance, load } = await loadStep(run, done);
    if (load.interruption !== undefined) return interruptedInLoad(run, conformance, load, load.interruption);
    if (load.note !== undefined) run.notes.push(load.note);
    const comparison =
      request.compare === undefined || load.run === undefined || load.section === undefined
        ? undefined
        : await request.compare(load.run, GATE_LOAD);
    const drift = await driftStep(run);
    return finalOutcome(run, { conformance, load, ...(comparison === undefined ? {} : { comparison }), cuts: done.cuts }, drift);
  } finally {
    await sandbox?.close();
  }
}
