// One load run from the Node side: refuse what must not run, pick the engine, build the scenario's bundle, start the
// embedded sandbox when there is no target (or use the caller's), arm the money guard for charging scenarios (ledger,
// spend cap, reconciliation), run with progress, and collect what the run left.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as Bundling from '../../esbuild.config.mjs';
import { HarnessError } from '../../api/errors.ts';
import type { TargetConfig } from '../../api/target-config.ts';
import { addFaultCounts, createFaultTally, type FaultCounts } from '../../api/faults.ts';
import { assertChargesAllowed } from '../../ledger/guard.ts';
import type { DiskHeadroom } from '../../ledger/disk-headroom.ts';
import { encodeBundleMoney, MONEY_ENV, type MoneySettings } from '../../ledger/money-settings.ts';
import { readK6SummaryFile } from '../../reports/from-k6.ts';
import { generatorReport, mergeBySecond, type GeneratorReport } from '../../reports/generator.ts';
import type { K6SummaryData } from '../../reports/k6-summary.ts';
import { lockReportDir } from '../../reports/dir-lock.ts';
import { summaryExport } from '../../engine/summary.ts';
import { makeDirectory } from '../../reports/make-dir.ts';
import type { LedgerSection, RemoteWriteSummary } from '../../reports/model.ts';
import type { Progress } from '../../reports/progress.ts';
import type { RunInterrupt } from '../../reports/interrupt-watch.ts';
import { LOAD_SANDBOX_FUNDS } from '../../sandbox/behaviour.ts';
import type { RunningSandbox } from '../../sandbox/server.ts';
import { scenarioNameOf, scenarioOperations } from '../scenarios.ts';
import { checkScriptNetwork } from './user-script.ts';
import { selectEngine, type EngineSelection } from '../engine-select.ts';
import type { HostModule } from '../run-node-engine.ts';
import { LOAD_ENV } from '../run-settings.ts';
import { loadEnvironment } from './load-environment.ts';
import type { PayloadCheckInputs } from '../../reports/payload-checks.ts';
import { K6_DEFAULT_ENV } from './k6-process.ts';
import { finishRemoteWrite, runPrometheus } from './prometheus-output.ts';
import type { LoadFlags } from './load-options.ts';
import { checkVuMemory, runVus } from './vu-memory.ts';
import { newRunId } from '../../api/run-id.ts';
import { prepareRunFiles, type RunFiles } from './report-files.ts';
import { openLoadTarget, preflightLoadTarget, type LoadTarget } from './load-target.ts';
import { armMoney, reconcileRunLedger, type ArmedMoney, type MoneyParts } from './load-money.ts';
import { runEngineStep, type EngineEnd, type RunPrometheus } from './run-engine.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export { LOAD_SANDBOX_FUNDS };

/** Where a run with `--baseline` builds its bundle (inside its report directory: the bundle is specific to the baseline). */
export const BASELINE_BUNDLE_DIR = 'k6-bundle';

export interface LoadRunIo {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** The progress display (reports/progress.ts): the engine's output becomes a task per scenario, its other lines stay. */
  readonly progress: Progress;
  /** The engine's raw output too (tests keep it). */
  readonly onEngineOutput?: (chunk: string) => void;
  /** An embedded sandbox the caller already started (the gate): the run's target, reported as embedded. */
  readonly sandbox?: { readonly url: string; readonly profile: string };
  /** Default: a new one (`newLoadRunId`). */
  readonly runId?: string;
  /** The machine's memory (default os.totalmem()): what a run's VUs are held against (vu-memory.ts). */
  readonly totalMemoryBytes?: number;
  /** Worker threads of the Node engine (default: the engine's 'auto'); tests spread VUs over several. */
  readonly engineWorkers?: number;
  /** Free space a guarded k6 run needs in its report dir (default ledger/disk-headroom.ts DEFAULT_DISK_HEADROOM); tests use a small file system. */
  readonly diskHeadroom?: DiskHeadroom;
  /** How often (real ms) a capped run reads the balance (default ledger/balance-watch.ts BALANCE_WATCH_MS). */
  readonly balanceWatchMs?: number;
  /**
   * The command's signal watch (reports/interrupt-watch.ts): on the first signal the engine stops gracefully (k6 gets
   * the signal forwarded once) and the money still open is reconciled within INTERRUPT_RECONCILE_MS; nothing new starts.
   */
  readonly interrupt?: RunInterrupt;
  /**
   * A baseline's compiled validators (drift/baseline-validators.ts `baselineValidatorsModule`), for `--baseline`: the
   * bundle is built with them, into the report directory (it is specific to this baseline).
   */
  readonly baselineModule?: string;
  /** More modules installed in every Node engine thread (engine/protocol.ts HostModule); tests block the threads' loops with one. */
  readonly engineHostModules?: readonly HostModule[];
}

/** What a run left: the engine's exit code and the files the report is built from. */
export interface LoadRun {
  readonly runId: string;
  readonly reportDir: string;
  readonly engine: EngineSelection;
  /** 'k6 v0.48.0' (the binary's version), 'k6' when it could not be told, or 'node'. */
  readonly engineLabel: string;
  /** k6's exit code (or the engine's, with k6's meanings): 0 passed, 99 thresholds crossed, 107 script error, ... */
  readonly engineExit: number;
  readonly startedAt: number;
  readonly durationMs: number;
  readonly target: { readonly url: string; readonly embedded: boolean; readonly profile?: string };
  /** handleSummary's data (k6-summary.json), absent when the run wrote none (the engine failed before the end). */
  readonly summaryData?: K6SummaryData;
  readonly summaryFile: string;
  /** The raw NDJSON metric stream, when the user asked for one (`--out json=FILE`). */
  readonly ndjsonPath?: string;
  /** The run's per-second aggregates (reports/metric-aggregates.ts): what the report's charts, payload counts and compare read. */
  readonly aggregatesPath?: string;
  /** The money ledger of a guarded run (charging scenario on production, or --ledger), reconciled at the end. */
  readonly ledger?: LedgerSection;
  /** Why the target could not be used (the preflight's one line): nothing was run against it. */
  readonly unusable?: string;
  /**
   * Faults the harness's own reads met besides the VUs' (the preflight; the money session's price, wallet and balance
   * reads and its reconciliation): a target's fault profile serves them too, so they are part of the run's tally.
   */
  readonly harnessFaults?: FaultCounts;
  /** `gateway-harness reconcile <ledger>`, when charging requests were still open after the run's reconciliation. */
  readonly reconcile?: string;
  /** The engine did not run: the run was interrupted before it started. */
  readonly notStarted?: boolean;
  /** The Prometheus remote-write output (`--out prometheus=URL`): endpoint, trend mode, pushes and failures. */
  readonly remoteWrite?: RemoteWriteSummary;
  /** What the load section says about the payload checks besides the stream's counts: samples, baseline, promotion. */
  readonly payload: Omit<PayloadCheckInputs, 'ndjsonPath'>;
  /** The load generator measured while it ran (reports/generator.ts): CPU, run-queue wait, engine event-loop delay. */
  readonly generator?: GeneratorReport;
}

export function newLoadRunId(now = new Date()): string {
  return newRunId('load', now);
}

function usage(message: string): HarnessError {
  return new HarnessError('GH_ERR_USAGE', message);
}

/** The money settings of a run given no money flags: nothing charging on production, no ledger on a sandbox. */
export function defaultMoney(config: TargetConfig): MoneySettings {
  return { environment: config.environment, allowCharges: false, ledger: config.environment === 'production' };
}

/**
 * Refusals decided before anything starts or is sent: the production guard first (ledger/guard.ts, exit 2). Returns the
 * line a run prints first when it goes ahead with less guarded (a --script with k6/http of its own on a sandbox).
 */
export function checkLoadRun(flags: LoadFlags, config: TargetConfig, money: MoneySettings = defaultMoney(config)): string | undefined {
  assertChargesAllowed(
    `load ${scenarioNameOf(flags.scenario)}`,
    scenarioOperations(flags.scenario, flags.api).filter((op) => op.charges),
    money,
  );
  const note = flags.script === undefined ? undefined : checkScriptNetwork(flags.script, config.environment);
  if (flags.funds !== undefined && config.baseUrl !== undefined) {
    throw usage("--funds sets the embedded sandbox's starting balance: drop --target / GATEWAY_BASE_URL to use it");
  }
  return note;
}

type Bundler = typeof Bundling;

/**
 * The scenario's k6 bundle, freshly built into dist/k6 (one entry takes well under a second, and a stale bundle would
 * silently test old code). Without esbuild (an install without dev dependencies) an existing bundle is used.
 */
export async function ensureBundle(scenario: string, baseline?: { readonly module: string; readonly outDir: string }): Promise<string> {
  const file = join(ROOT, 'dist', 'k6', `${scenario}.js`);
  let bundler: Bundler | undefined;
  try {
    bundler = (await import(pathToFileURL(join(ROOT, 'esbuild.config.mjs')).href)) as Bundler;
  } catch (error) {
    // A baseline's validators exist only in a fresh build: an old bundle would silently check nothing against it.
    if (existsSync(file) && baseline === undefined) return file;
    throw new HarnessError(
      'GH_ERR_CONFIG',
      `cannot build dist/k6/${scenario}.js (${error instanceof Error ? error.message : String(error)}); run \`gateway-harness build\``,
    );
  }
  const [built] = await bundler.buildK6Bundles({
    rootDir: ROOT,
    only: [scenario],
    ...(baseline === undefined ? {} : { baselineModule: baseline.module, outDir: baseline.outDir }),
  });
  if (built === undefined) throw new HarnessError('GH_ERR_INTERNAL', `no k6 entry load/${scenario}.load.ts`);
  return built.file;
}

/** 'k6 v0.48.0' from `k6 version`; plain 'k6' when the binary does not say (the report schema accepts both). */
export function k6Label(path: string): string {
  try {
    const text = execFileSync(path, ['version'], { encoding: 'utf8', timeout: 10_000, env: { ...process.env, ...K6_DEFAULT_ENV } });
    const version = /\bv\d+\.\d+\.\d+[^\s)]*/.exec(text)?.[0];
    return version === undefined ? 'k6' : `k6 ${version}`;
  } catch {
    return 'k6';
  }
}

/** `--summary-export FILE`: k6's flat summary JSON, as `k6 run --summary-export` writes it (from either engine). */
function writeSummaryExport(path: string, data: K6SummaryData): void {
  mkdirSync(dirname(path), { recursive: true });
  // The same handleSummary data the engine summarises (reports/ types root_group as optional: k6 may leave it out).
  const engineData = {
    ...data,
    root_group: data.root_group ?? { name: '', path: '', id: '', groups: [], checks: [] },
  } as unknown as Parameters<typeof summaryExport>[0];
  writeFileSync(path, `${JSON.stringify(summaryExport(engineData), null, 2)}\n`);
}

/**
 * The command's exit code: an interrupted run is 128 + the signal (k6's 105 when k6 was aborted from outside), an
 * unusable target (setup could not complete) is 2 on every k6 version; otherwise k6's own
 * code when it is not 0 (107 script error, ...: passed through; 99 thresholds crossed is the report's to say, which calls
 * a latency threshold crossed while the load generator was saturated incomplete); on 0, the report's verdict (an
 * unverified threshold or a check that never ran is "incomplete", exit 1, though k6 calls it passed); no summary data
 * at all is a failed run (1).
 */
export function exitCodeOf(engineExit: number, report: { readonly verdict: string; readonly exitCode: number } | undefined): number {
  // Interrupted: 128 + the signal (or k6's 105), whatever the engine said; never a pass.
  if (report?.verdict === 'interrupted' || report?.verdict === 'unusable') return report.exitCode;
  // 99 (thresholds crossed, by the engine's count) with a report left with no crossed threshold: the generator explained
  // them (reports/generator.ts), and the report says incomplete (or pass with --allow-skips).
  if (engineExit === 99 && (report?.verdict === 'incomplete' || report?.verdict === 'pass')) return report.exitCode;
  if (engineExit !== 0) return engineExit;
  if (report === undefined) return 1;
  return report.exitCode;
}

/** The path relative to the report directory when it lies inside it (for `artifacts`), else undefined. */
export function insideReportDir(reportDir: string, file: string): string | undefined {
  const rel = relative(reportDir, file);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? undefined : rel;
}

/**
 * handleSummary's data, when k6 wrote it; a file k6 could not finish (a full disk, a kill) is said and left out, so
 * the run still ends with its money verdict and the reconcile command instead of a parse error.
 */
async function readSummaryIfAny(file: string, say: (line: string) => void): Promise<K6SummaryData | undefined> {
  if (!existsSync(file)) return undefined;
  try {
    return await readK6SummaryFile(file);
  } catch (error) {
    if (!(error instanceof HarnessError) || error.code !== 'GH_ERR_PARSE') throw error;
    say(`load: ${error.message}: the run has no k6 results`);
    return undefined;
  }
}

export async function runLoad(
  flags: LoadFlags,
  config: TargetConfig,
  io: LoadRunIo,
  money: MoneySettings = defaultMoney(config),
): Promise<LoadRun> {
  checkLoadRun(flags, config, money);
  const runId = io.runId ?? newLoadRunId();
  const reportDir = resolve(io.cwd, flags.reportDir ?? join('reports', 'out', runId));
  makeDirectory(reportDir);
  // One run per directory: a second one would share the ledger and the metric stream (refused with the holder's pid).
  const lock = lockReportDir(reportDir, runId);
  try {
    return await runLoadLocked(flags, config, { ...io, runId }, money, reportDir);
  } finally {
    lock.release();
  }
}

/** A run's bundle: the user's `--script`, or the scenario's, built fresh (with a `--baseline`'s validators, in the report directory). */
async function bundleOf(flags: LoadFlags, baselineModule: string | undefined, reportDir: string): Promise<string> {
  // Both engines run the same bundle: what the engine's results are compared with is exactly what k6 ran.
  return (
    flags.script?.bundle ??
    (await ensureBundle(
      scenarioNameOf(flags.scenario),
      baselineModule === undefined ? undefined : { module: baselineModule, outDir: join(reportDir, BASELINE_BUNDLE_DIR) },
    ))
  );
}

/** One run, once its directory is locked: what every step of it reads. */
interface RunPlan {
  readonly flags: LoadFlags;
  readonly config: TargetConfig;
  readonly io: LoadRunIo & { readonly runId: string };
  readonly money: MoneySettings;
  readonly reportDir: string;
  readonly engine: EngineSelection;
  readonly engineLabel: string;
  readonly files: RunFiles;
  readonly prometheus: RunPrometheus | undefined;
  readonly bundle: string;
  readonly startedAt: number;
}

/** What a run holds open until it ends, whatever happens: the sandbox it started, the money session and its client. */
interface RunHold extends MoneyParts {
  sandbox?: RunningSandbox;
}

/** Prepares the run (refusals, files, bundle), runs it on its target and closes what it opened. */
async function runLoadLocked(
  flags: LoadFlags,
  config: TargetConfig,
  io: LoadRunIo & { readonly runId: string },
  money: MoneySettings,
  reportDir: string,
): Promise<LoadRun> {
  const engine = selectEngine(flags.engine, io.env, io.cwd);
  // Refused or said before anything is built or started: what the VUs will take in memory (measured per engine).
  const memoryWarning = checkVuMemory(engine.engine, runVus(flags.profile, flags.vus), io.totalMemoryBytes ?? totalmem());
  if (memoryWarning !== undefined) io.progress.line(memoryWarning);
  const files = prepareRunFiles(reportDir, io.cwd, flags.outJson);
  const engineLabel = engine.engine === 'k6' ? k6Label(engine.k6.path) : 'node';
  const prometheus = runPrometheus(flags.prometheusUrl, io.env, io.runId);
  const bundle = await bundleOf(flags, io.baselineModule, reportDir);
  const plan: RunPlan = { flags, config, io, money, reportDir, engine, engineLabel, files, prometheus, bundle, startedAt: Date.now() };
  const hold: RunHold = {};
  try {
    return await runOnTarget(plan, hold);
  } finally {
    await hold.gate?.close();
    hold.session?.close();
    await hold.harness?.close();
    await hold.sandbox?.close();
  }
}

/** The target opened and checked, the money armed, the engine run, and what it left collected. */
async function runOnTarget(plan: RunPlan, hold: RunHold): Promise<LoadRun> {
  const { flags, config, io } = plan;
  const say = (line: string): void => io.progress.line(line);
  const loadTarget = await openLoadTarget(flags, config, io.sandbox, io.progress);
  if (loadTarget.sandbox !== undefined) hold.sandbox = loadTarget.sandbox;
  const harnessFaults = createFaultTally();
  const preflight = await preflightLoadTarget(loadTarget, flags.api);
  if (preflight.reason !== undefined) return unusableRun(plan, loadTarget.target, preflight.reason, preflight.faults);
  const armed = await armMoney(
    {
      flags,
      config,
      resolved: loadTarget.resolved,
      money: plan.money,
      runId: io.runId,
      reportDir: plan.reportDir,
      targetLabel: loadTarget.label,
      harnessFaults,
      say,
      ...(io.interrupt === undefined ? {} : { signal: io.interrupt.signal }),
      engine: plan.engine.engine === 'k6' ? 'k6' : 'node',
    },
    hold,
  );
  const env = engineEnvironment(plan, loadTarget, armed);
  say(startLine(plan));
  const end = await runEngineStep({
    flags,
    io,
    engine: plan.engine,
    bundle: plan.bundle,
    env,
    runId: io.runId,
    reportDir: plan.reportDir,
    files: plan.files,
    scenario: scenarioNameOf(flags.scenario),
    ...(plan.prometheus === undefined ? {} : { prometheus: plan.prometheus }),
    money: hold,
    ...(armed.engineMoney === undefined ? {} : { engineMoney: armed.engineMoney }),
  });
  // Counted once collectRun's reconcile is done: its status and balance reads go through the same tally.
  const harnessCounts = (): FaultCounts =>
    addFaultCounts(harnessFaults.counts(), ...(preflight.faults === undefined ? [] : [preflight.faults]));
  return await collectRun(plan, hold, { target: loadTarget.target, end, harnessFaults: harnessCounts });
}

/** The run's result when the preflight found the target unusable: nothing was run against it. */
function unusableRun(plan: RunPlan, target: LoadRun['target'], reason: string, faults: FaultCounts | undefined): LoadRun {
  return {
    runId: plan.io.runId,
    reportDir: plan.reportDir,
    engine: plan.engine,
    engineLabel: plan.engineLabel,
    engineExit: -1,
    startedAt: plan.startedAt,
    durationMs: Date.now() - plan.startedAt,
    target,
    summaryFile: plan.files.summaryFile,
    unusable: reason,
    payload: {},
    ...(faults === undefined ? {} : { harnessFaults: faults }),
  };
}

/** The bundle's environment (load-environment.ts, as k6-operator's pods get it), the engine and the money. */
function engineEnvironment(plan: RunPlan, loadTarget: LoadTarget, armed: ArmedMoney): Record<string, string> {
  const { flags, config, money } = plan;
  return {
    ...loadEnvironment(flags, config, {
      baseUrl: loadTarget.target.url,
      targetLabel: loadTarget.label,
      runId: plan.io.runId,
      reportDir: plan.reportDir,
    }),
    [LOAD_ENV.engine]: plan.engineLabel,
    // Always set, never inherited: only this harness run decides what its bundle may charge.
    [MONEY_ENV]: encodeBundleMoney({
      ...money,
      ...(armed.pricesFile === undefined ? {} : { pricesFile: armed.pricesFile }),
      ...(plan.engine.engine === 'k6' && armed.guarded ? { capture: true } : {}),
      ...(armed.recorder === undefined ? {} : { recorder: armed.recorder }),
    }),
  };
}

/** The line that says what runs on what. */
function startLine(plan: RunPlan): string {
  const { flags, engine } = plan;
  const on =
    engine.engine === 'k6'
      ? `${plan.engineLabel} ${engine.k6.path} (from ${engine.k6.source})`
      : 'the Node engine (no k6 found: set K6_BIN or put k6 on PATH to use k6)';
  return `load: ${scenarioNameOf(flags.scenario)} (${flags.profile}) on ${on}`;
}

/** What the run left, read after the engine: the summary, the Prometheus account, the reconciled ledger. */
async function collectRun(
  plan: RunPlan,
  hold: RunHold,
  ran: { readonly target: LoadRun['target']; readonly end: EngineEnd; readonly harnessFaults: () => FaultCounts },
): Promise<LoadRun> {
  const { flags, io } = plan;
  const { end } = ran;
  const say = (line: string): void => io.progress.line(line);
  const summaryData = await readSummaryIfAny(plan.files.summaryFile, say);
  if (flags.summaryExport !== undefined && summaryData !== undefined) writeSummaryExport(resolve(io.cwd, flags.summaryExport), summaryData);
  const generatorPushes = await end.generatorPush?.finish();
  const remoteWrite =
    plan.prometheus === undefined
      ? undefined
      : await finishRemoteWrite(
          plan.prometheus.config,
          summaryData,
          io.runId,
          {
            ...(plan.engine.engine === 'k6' ? { k6Failures: end.k6PushFailures } : {}),
            ...(end.remoteWrite === undefined ? {} : { engine: end.remoteWrite }),
            ...(generatorPushes === undefined ? {} : { generator: generatorPushes }),
          },
          say,
        );
  // Interrupted (or k6 killed by the ledger guard): each open transaction is polled for a short bounded time.
  const cutShort = io.interrupt?.signal.aborted === true || end.ledgerKilled;
  const money = await reconcileRunLedger(hold, { summaryData, defects: end.ledgerDefects, cutShort, say });
  return {
    ...loadRunOf(plan, { ...ran, harnessFaults: ran.harnessFaults() }, summaryData),
    ...(money.ledger === undefined ? {} : { ledger: money.ledger }),
    ...(money.reconcile === undefined ? {} : { reconcile: money.reconcile }),
    ...(remoteWrite === undefined ? {} : { remoteWrite }),
  };
}

/** The run's result from what the engine step left and the summary it wrote. */
function loadRunOf(
  plan: RunPlan,
  ran: { readonly target: LoadRun['target']; readonly end: EngineEnd; readonly harnessFaults: FaultCounts },
  summaryData: K6SummaryData | undefined,
): LoadRun {
  const { flags, io, files } = plan;
  const { engineExit } = ran.end;
  return {
    runId: io.runId,
    reportDir: plan.reportDir,
    engine: plan.engine,
    engineLabel: plan.engineLabel,
    engineExit,
    startedAt: plan.startedAt,
    durationMs: Date.now() - plan.startedAt,
    target: ran.target,
    summaryFile: files.summaryFile,
    ...(summaryData === undefined ? {} : { summaryData }),
    ...(files.ndjsonPath !== undefined && existsSync(files.ndjsonPath) ? { ndjsonPath: files.ndjsonPath } : {}),
    // An engine that never started left nothing to chart (as no stream at all did before).
    ...(ran.end.aggregatesKept && engineExit !== -1 ? { aggregatesPath: files.aggregatesPath } : {}),
    harnessFaults: ran.harnessFaults,
    ...(engineExit === -1 ? { notStarted: true } : {}),
    ...(engineExit === -1
      ? {}
      : {
          generator: generatorReport(
            plan.engine.engine === 'k6' ? 'k6' : 'node',
            ran.end.generatorCores,
            mergeBySecond(ran.end.procPoints, ran.end.loopSamples),
          ),
        }),
    payload: {
      samples: ran.end.samples,
      ...(flags.baseline === undefined || io.baselineModule === undefined ? {} : { baselineDir: resolve(io.cwd, flags.baseline) }),
      ...(flags.promoteObserved === true ? { promoteObserved: true } : {}),
    },
  };
}
