// One load run from the Node side: refuse what must not run, pick the engine, build the scenario's bundle, start the
// embedded sandbox when there is no target (or use the caller's), arm the money guard for charging scenarios (ledger,
// spend cap, reconciliation), run with progress, and collect what the run left.
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as Bundling from '../../esbuild.config.mjs';
import { HarnessError } from '../../api/errors.ts';
import { describeTarget, type ResolvedTargetConfig, type TargetConfig } from '../../api/target-config.ts';
import { createGatewayClient, coreSettingsFor, type GatewayClient } from '../../client/gateway-client.ts';
import { addFaultCounts, createFaultTally, type FaultCounts } from '../../api/faults.ts';
import { preflightTarget } from '../../client/target-preflight.ts';
import { BALANCE_WATCH_MS, ledgerWorstCase, watchBalance, type BalanceWatch } from '../../ledger/balance-watch.ts';
import { haltSharedBudget, SHARED_BUDGET_BYTES } from '../../ledger/budget.ts';
import { readBalance } from '../../ledger/read-prices.ts';
import { ENGINE_HOST_MODULE, type EngineMoneyData } from '../../ledger/engine-host.ts';
import { allowanceLine, assertChargesAllowed } from '../../ledger/guard.ts';
import { LEDGER_FILE } from '../../ledger/entry.ts';
import { assertHeadroom, DEFAULT_DISK_HEADROOM, type DiskHeadroom } from '../../ledger/disk-headroom.ts';
import { guardK6Ledger, type K6LedgerGuard } from '../../ledger/k6-guard.ts';
import { startRecordingGate, type RecordingGate } from '../../ledger/recording-gate.ts';
import { K6_SPOOL_FILE, tailSpool } from '../../ledger/k6-spool.ts';
import { harnessClientConfig, createMoneySession, type MoneySession } from '../../ledger/money-session.ts';
import { checkTargetFunds } from '../../ledger/funds-check.ts';
import { loadFundsPlan } from './money-plan.ts';
import { encodeBundleMoney, MONEY_ENV, toCents, type MoneySettings } from '../../ledger/money-settings.ts';
import { readK6SummaryFile } from '../../reports/from-k6.ts';
import { generatorReport, mergeBySecond, type GeneratorPoint, type GeneratorReport } from '../../reports/generator.ts';
import type { K6SummaryData } from '../../reports/k6-summary.ts';
import { DIR_LOCK_FILE, lockReportDir } from '../../reports/dir-lock.ts';
import { summaryExport } from '../../engine/summary.ts';
import { makeDirectory } from '../../reports/make-dir.ts';
import { sameFile } from '../../reports/same-file.ts';
import { REPORT_FILES, type LedgerSection } from '../../reports/model.ts';
import type { Progress } from '../../reports/progress.ts';
import type { RunInterrupt } from '../../reports/interrupt-watch.ts';
import { INTERRUPT_RECONCILE_MS, reconcileCommand, stillOpenLine } from '../../reports/interruption.ts';
import { credentialSecrets } from '../../reports/redact-report.ts';
import { LOAD_SANDBOX_FUNDS } from '../../sandbox/behaviour.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { scenarioNameOf, scenarioOperations } from '../scenarios.ts';
import { checkScriptNetwork } from './user-script.ts';
import { selectEngine, type EngineSelection } from '../engine-select.ts';
import { runNodeEngine, type HostModule } from '../run-node-engine.ts';
import { LOAD_ENV, runEnvironment } from '../run-settings.ts';
import { METRICS } from '../metric-names.ts';
import { SampleCollector, withoutSampleLines } from '../payload-samples.ts';
import type { PayloadCheckInputs } from '../../reports/payload-checks.ts';
import { K6_SUMMARY_FILE } from '../summary/handle-summary.ts';
import { engineProgress } from './engine-progress.ts';
import { startProcMonitor } from './generator-monitor.ts';
import { startGeneratorPusher } from './generator-prometheus.ts';
import { K6_DEFAULT_ENV, runK6 } from './k6-process.ts';
import { openMetricsPipe, type MetricsPipe } from './k6-metrics-pipe.ts';
import { AGGREGATES_FILE } from '../../reports/metric-aggregates.ts';
import { startAggregateThread, type AggregateThread } from './aggregate-thread.ts';
import {
  enginePrometheusConfig,
  K6PushFailures,
  k6PrometheusEnv,
  pushThresholds,
  remoteWriteSummary,
  TEST_ID_TAG,
  thresholdSeries,
} from './prometheus-output.ts';
import type { RemoteWriteSummary } from '../../reports/model.ts';
import type { LoadFlags } from './load-options.ts';
import { checkVuMemory, runVus } from './vu-memory.ts';
import { newRunId } from '../../api/run-id.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export { LOAD_SANDBOX_FUNDS };

/** The price book a capped run hands its VUs (ledger/price-book.ts), beside the reports. */
const PRICES_FILE = 'prices.json';

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

/** Refusals decided before anything starts or is sent: the production guard first (ledger/guard.ts, exit 2). */
export function checkLoadRun(flags: LoadFlags, config: TargetConfig, money: MoneySettings = defaultMoney(config)): void {
  assertChargesAllowed(
    `load ${scenarioNameOf(flags.scenario)}`,
    scenarioOperations(flags.scenario, flags.api).filter((op) => op.charges),
    money,
  );
  if (flags.script !== undefined) checkScriptNetwork(flags.script, config.environment);
  if (flags.funds !== undefined && config.baseUrl !== undefined) {
    throw usage("--funds sets the embedded sandbox's starting balance: drop --target / GATEWAY_BASE_URL to use it");
  }
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

/**
 * The command's exit code: an interrupted run is 128 + the signal (k6's 105 when k6 was aborted from outside), an
 * unusable target (setup could not complete) is 2 on every k6 version; otherwise k6's own
 * code when it is not 0 (107 script error, ...: passed through; 99 thresholds crossed is the report's to say, which calls
 * a latency threshold crossed while the load generator was saturated incomplete); on 0, the report's verdict (an
 * unverified threshold or a check that never ran is "incomplete", exit 1, though k6 calls it passed); no summary data
 * at all is a failed run (1).
 */
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

/** The balance watch of a capped run (ledger/balance-watch.ts); undefined when the run has no balance read before it. */
function startBalanceWatch(options: {
  readonly session: MoneySession | undefined;
  readonly harness: GatewayClient | undefined;
  readonly runId: string;
  readonly version: 'v1' | 'v2';
  readonly intervalMs: number | undefined;
  readonly trip: (why: string) => void;
}): BalanceWatch | undefined {
  const { session, harness } = options;
  const before = session?.balanceBefore;
  if (session?.ledgerPath === undefined || harness === undefined || before === undefined) return undefined;
  return watchBalance({
    before,
    read: () => readBalance(harness, options.version),
    ledgerHolds: ledgerWorstCase(session.ledgerPath, options.runId),
    intervalMs: options.intervalMs ?? BALANCE_WATCH_MS,
    trip: options.trip,
  });
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

/** Closes the per-second aggregates; false (said) when they could not be written whole (a full disk). */
async function closeAggregates(aggregator: AggregateThread, say: (line: string) => void): Promise<boolean> {
  try {
    await aggregator.close();
    return true;
  } catch (error) {
    say(`load: ${error instanceof Error ? error.message : String(error)}: the report has no time series`);
    return false;
  }
}

/** The modules every Node engine thread installs: the money host of a guarded run, then the caller's. */
/** What the ledger section must show of the gate's refusals: charging requests not sent, their lines not durable. */
function gateDefects(gate: RecordingGate | undefined): string[] {
  const refused = gate?.refused() ?? 0;
  return refused === 0 ? [] : [`${refused} charging request(s) not sent: their ledger line could not be written (${gate?.refusedWhy()})`];
}

function hostModulesOf(money: EngineMoneyData | undefined, extra: readonly HostModule[] = []): { hostModules?: HostModule[] } {
  const modules = [...(money === undefined ? [] : [{ module: ENGINE_HOST_MODULE, data: money }]), ...extra];
  return modules.length === 0 ? {} : { hostModules: modules };
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
  const runId = io.runId;
  const summaryFile = join(reportDir, K6_SUMMARY_FILE);
  // The raw stream only when asked for (`--out json=FILE`): the report reads the per-second aggregates, whose size grows
  // with the run's duration, not its request count.
  const ndjsonPath = flags.outJson === undefined ? undefined : resolve(io.cwd, flags.outJson);
  const aggregatesPath = join(reportDir, AGGREGATES_FILE);
  // The stream would be overwritten by (or overwrite) a file the run itself writes there: refused before anything
  // starts. Compared as files, links followed (a symlinked directory or a hard link is the same file).
  const ownFiles = [
    ...Object.values(REPORT_FILES),
    K6_SUMMARY_FILE,
    LEDGER_FILE,
    PRICES_FILE,
    K6_SPOOL_FILE,
    DIR_LOCK_FILE,
    AGGREGATES_FILE,
  ];
  const collision = ndjsonPath === undefined ? undefined : ownFiles.find((file) => sameFile(join(reportDir, file), ndjsonPath));
  if (collision !== undefined)
    throw usage(
      `--out json=${flags.outJson ?? ''}: ${collision} in the report directory is a file the run writes itself; name another file for the metric stream`,
    );
  // Results are read from these files: leftovers of an earlier run in the same directory must not pass for this one's.
  for (const file of [...Object.values(REPORT_FILES), K6_SUMMARY_FILE, AGGREGATES_FILE]) rmSync(join(reportDir, file), { force: true });
  if (ndjsonPath !== undefined) rmSync(ndjsonPath, { force: true });
  const engineLabel = engine.engine === 'k6' ? k6Label(engine.k6.path) : 'node';
  let prometheus;
  try {
    prometheus = flags.prometheusUrl === undefined ? undefined : enginePrometheusConfig(flags.prometheusUrl, io.env);
  } catch (error) {
    throw usage(`--out prometheus: ${error instanceof Error ? error.message : String(error)}`);
  }
  // Every series of the run carries its id, so runs sharing one Prometheus stay apart (k6's dashboards filter on testid).
  const runTags = prometheus === undefined ? undefined : { [TEST_ID_TAG]: runId };
  const pushFailures = new K6PushFailures();

  // Both engines run the same bundle: what the engine's results are compared with is exactly what k6 ran.
  const bundle =
    flags.script?.bundle ??
    (await ensureBundle(
      scenarioNameOf(flags.scenario),
      io.baselineModule === undefined ? undefined : { module: io.baselineModule, outDir: join(reportDir, BASELINE_BUNDLE_DIR) },
    ));
  const interrupted = (): boolean => io.interrupt?.signal.aborted === true;
  let sandbox: RunningSandbox | undefined;
  let harness: GatewayClient | undefined;
  let session: MoneySession | undefined;
  let gate: RecordingGate | undefined;
  const startedAt = Date.now();
  try {
    let target: LoadRun['target'];
    let targetLabel: string;
    if (io.sandbox !== undefined) {
      target = { url: io.sandbox.url, embedded: true, profile: io.sandbox.profile };
      targetLabel = `embedded sandbox (${io.sandbox.url})`;
    } else if (config.baseUrl === undefined) {
      const funds = flags.funds ?? LOAD_SANDBOX_FUNDS;
      const profile = config.sandbox.profile ?? 'faithful';
      sandbox = await startSandbox({
        host: '127.0.0.1',
        port: 0,
        timeScale: config.timeScale,
        seed: config.sandbox.seed,
        profile,
        user: config.user,
        password: config.password,
        writePaths: { ...config.writePaths },
        behaviour: { initialBalance: funds },
      });
      target = { url: sandbox.url, embedded: true, profile };
      targetLabel = `embedded sandbox (${sandbox.url})`;
      io.progress.line(`load: embedded sandbox on ${sandbox.url} (time scale ${config.timeScale}, funds ${funds} USD)`);
    } else {
      target = { url: config.baseUrl, embedded: false };
      targetLabel = describeTarget(config);
    }
    const resolved: ResolvedTargetConfig = { ...config, baseUrl: target.url };
    const harnessFaults = createFaultTally();
    let preflightFaults: FaultCounts | undefined;
    if (!target.embedded) {
      // One short, bounded balance read before any VU starts: a silent, refusing or non-gateway target is said in
      // seconds, as what it is, instead of a progress bar at 0% and a report built on no answer.
      const check = await preflightTarget(resolved, flags.api === 'v1' ? 'v1' : 'v2');
      preflightFaults = check.faults;
      if (!check.usable) {
        return {
          runId,
          reportDir,
          engine,
          engineLabel,
          engineExit: -1,
          startedAt,
          durationMs: Date.now() - startedAt,
          target,
          summaryFile,
          unusable: check.reason,
          payload: {},
          harnessFaults: preflightFaults,
        };
      }
    }
    const charging = scenarioOperations(flags.scenario, flags.api).some((op) => op.charges);
    // Before the first charge: the plan priced against the balance; a wallet that cannot cover it stops here (exit 2).
    if (charging)
      io.progress.line(
        (
          await checkTargetFunds(
            resolved,
            loadFundsPlan(flags),
            flags.api === 'v1' ? 'v1' : 'v2',
            (response) => harnessFaults.add(response),
            io.interrupt?.signal,
          )
        ).line,
      );
    const guarded = charging && (money.ledger || money.cap !== undefined);
    const secrets = credentialSecrets(config.user, config.password);
    let pricesFile: string | undefined;
    let engineMoney: EngineMoneyData | undefined;
    let ledgerGuard: K6LedgerGuard | undefined;
    const ledgerDefects: string[] = [];
    if (guarded) {
      // The harness half of money safety: the ledger file, the price book and balance read before the run, the
      // reconciliation after it. The bundle's half is ledger/hooks.ts in every VU.
      harness = createGatewayClient(harnessClientConfig(resolved), {
        hooks: { afterResponse: (exchange) => harnessFaults.add(exchange.response) },
      });
      session = createMoneySession({
        settings: money,
        command: 'load',
        runId,
        reportDir,
        secrets,
        balanceVersion: flags.api === 'v1' ? 'v1' : 'v2',
        info: (line) => io.progress.line(line),
      });
      await session.prepare(harness, { label: targetLabel, mapping: config.fieldMapping, status: coreSettingsFor(resolved).status });
      // Said once the allowance is known to hold (prepare refuses a cap in another currency than the wallet's).
      const line = allowanceLine(money);
      if (line !== undefined) io.progress.line(line);
      // The price book (with a cap) and the wallet currency (always) for every VU's hooks.
      pricesFile = join(reportDir, PRICES_FILE);
      writeFileSync(pricesFile, JSON.stringify(session.prices));
      engineMoney = {
        ...(session.ledgerPath === undefined ? {} : { ledgerPath: session.ledgerPath }),
        ...(money.cap === undefined ? {} : { cells: new SharedArrayBuffer(SHARED_BUDGET_BYTES), capCents: toCents(money.cap.amount) }),
        secrets,
      };
      // k6 cannot wait for its line to be durable, so its charging requests go through a gate here that writes and
      // fsyncs the line before forwarding, and refuses (stopping k6) when it cannot (ledger/recording-gate.ts).
      if (engine.engine === 'k6' && session.writer !== undefined)
        gate = await startRecordingGate({
          origin: new URL(target.url).origin,
          writer: session.writer,
          timeoutMs: config.timeouts.connectMs + config.timeouts.responseMs,
          onRefused: (why) => ledgerGuard?.stop(why),
        });
    }
    const env = {
      // -e KEY=VALUE first: the harness's own settings (GATEWAY_*, refused as -e keys) are never the user's to change here.
      ...flags.envVars,
      ...runEnvironment({
        baseUrl: target.url,
        user: config.user,
        password: config.password,
        environment: config.environment,
        timeScale: config.timeScale,
        profile: flags.profile,
        api: flags.api,
        ...(flags.vus === undefined ? {} : { vus: flags.vus }),
        ...(flags.duration === undefined ? {} : { duration: flags.duration }),
        ...(flags.rate === undefined ? {} : { rate: flags.rate }),
        ...(flags.iterations === undefined ? {} : { iterations: flags.iterations }),
        thresholds: flags.thresholds,
        ...(flags.promoteObserved === true ? { promoteObserved: true } : {}),
        config: {
          timeouts: config.timeouts,
          poll: config.poll,
          writePaths: config.writePaths,
          fieldMapping: config.fieldMapping,
          ...(config.paging === undefined ? {} : { paging: config.paging }),
        },
        targetLabel,
        runId,
        reportDir,
      }),
      [LOAD_ENV.engine]: engineLabel,
      // Always set, never inherited: only this harness run decides what its bundle may charge.
      [MONEY_ENV]: encodeBundleMoney({
        ...money,
        ...(pricesFile === undefined ? {} : { pricesFile }),
        ...(engine.engine === 'k6' && guarded ? { capture: true } : {}),
        ...(gate === undefined ? {} : { recorder: gate.url }),
      }),
    };
    io.progress.line(
      `load: ${scenarioNameOf(flags.scenario)} (${flags.profile}) on ${engine.engine === 'k6' ? `${engineLabel} ${engine.k6.path} (from ${engine.k6.source})` : 'the Node engine (no k6 found: set K6_BIN or put k6 on PATH to use k6)'}`,
    );
    // Violation samples come out of the VUs as console lines (load/payload-samples.ts): kept for the report, not shown.
    const sampleCollector = new SampleCollector();
    const display = engineProgress(io.progress, (scenario) => `load ${scenario}/${flags.profile}`, [scenarioNameOf(flags.scenario)]);
    const output = (chunk: string): void => {
      if (prometheus !== undefined && engine.engine === 'k6') pushFailures.write(chunk);
      sampleCollector.write(chunk);
      display.write(withoutSampleLines(chunk));
      io.onEngineOutput?.(chunk);
    };
    let engineExit = -1;
    // The generator measured all the time: k6's process once spawned, or this one (the Node engine's threads run here).
    // With --out prometheus they are pushed as they come (gateway_harness_generator_*, generator-prometheus.ts).
    const generatorPush =
      prometheus === undefined ? undefined : startGeneratorPusher(prometheus, runId, engine.engine === 'k6' ? 'k6' : 'node');
    const onPoint = (point: GeneratorPoint): void => generatorPush?.add(point);
    const procMonitor = startProcMonitor({ ...(engine.engine === 'k6' ? {} : { pid: process.pid }), onPoint });
    let loopSamples: readonly GeneratorPoint[] = [];
    let procPoints: readonly GeneratorPoint[] = [];
    let engineRemoteWrite: { pushes: number; failedPushes: number; series: number; lastError?: string } | undefined;
    // Both engines' NDJSON lines, kept per second as they come (reports/metric-aggregates.ts, on its own thread).
    const aggregator = startAggregateThread(aggregatesPath);
    let metricsPipe: MetricsPipe | undefined;
    let aggregatesKept = false;
    // A capped run's last line of defence: the wallet losing more than the ledger holds stops every charge at once.
    const balanceWatch = startBalanceWatch({
      session,
      harness,
      runId,
      version: flags.api === 'v1' ? 'v1' : 'v2',
      intervalMs: io.balanceWatchMs,
      trip: (why) => {
        io.progress.line(`gateway-harness: GH_ERR_SPEND_CAP: ${why}: charging stops now`);
        ledgerDefects.push(`balance watch: ${why}`);
        if (engineMoney?.cells !== undefined) haltSharedBudget(engineMoney.cells);
        ledgerGuard?.stop(why);
      },
    });
    try {
      if (interrupted()) {
        // A signal came while the run was being prepared: no load is started (what was prepared is still closed below).
        io.progress.line('load: interrupted before the engine started');
      } else if (engine.engine === 'k6') {
        const writer = session?.writer;
        // Guarded runs: k6's stderr is a file in the report dir (the spool), tailed here; see ledger/k6-spool.ts.
        const spoolPath = writer === undefined ? undefined : join(reportDir, K6_SPOOL_FILE);
        // k6 cannot wait for a line to be durable: no start without free space for the ledger (refused, exit 2), and
        // k6 is killed the moment a line cannot be written or the free space falls under the floor (ledger/k6-guard.ts).
        if (writer !== undefined) assertHeadroom(reportDir, io.diskHeadroom ?? DEFAULT_DISK_HEADROOM);
        ledgerGuard =
          writer === undefined
            ? undefined
            : guardK6Ledger({
                dir: reportDir,
                writer,
                ...(io.diskHeadroom === undefined ? {} : { headroom: io.diskHeadroom }),
                say: (line) => io.progress.line(line),
              });
        const spoolFd = spoolPath === undefined ? undefined : openSync(spoolPath, 'a');
        metricsPipe = openMetricsPipe((text) => aggregator.addText(text));
        const tail =
          ledgerGuard === undefined || spoolPath === undefined
            ? undefined
            : tailSpool(spoolPath, { persist: ledgerGuard.persist, forward: output });
        let result;
        try {
          result = await runK6({
            k6: engine.k6.path,
            bundle,
            env: {
              ...env,
              ...(prometheus === undefined || flags.prometheusUrl === undefined ? {} : k6PrometheusEnv(flags.prometheusUrl, io.env)),
            },
            cwd: io.cwd,
            ...(ndjsonPath === undefined ? {} : { outJson: ndjsonPath }),
            metricsPipe: metricsPipe.path,
            ...(prometheus === undefined ? {} : { prometheus: true, tags: runTags }),
            stdio: 'pipe',
            onOutput: output,
            ...(spoolFd === undefined ? {} : { stderrFd: spoolFd }),
            onSpawn: (pid) => procMonitor.watch(pid),
            ...(io.interrupt === undefined ? {} : { interrupt: io.interrupt }),
            ...(ledgerGuard === undefined ? {} : { kill: ledgerGuard.kill }),
          });
        } finally {
          // Every request the gate took is forwarded and answered first: its line is in the ledger, its charge at the target.
          await gate?.close();
          if (spoolFd !== undefined) closeSync(spoolFd);
          tail?.stop();
          ledgerDefects.push(...(ledgerGuard?.finish() ?? []), ...gateDefects(gate));
        }
        engineExit = result.exitCode;
        if (result.signal !== undefined) io.progress.line(`load: k6 ended by ${result.signal}`);
      } else {
        const result = await runNodeEngine({
          script: bundle,
          env,
          cwd: io.cwd,
          ...(ndjsonPath === undefined ? {} : { outJson: ndjsonPath }),
          jsonLines: (text) => aggregator.addText(text),
          output,
          ...(prometheus === undefined ? {} : { remoteWrite: prometheus, overrides: { tags: runTags } }),
          ...hostModulesOf(engineMoney, io.engineHostModules),
          ...(io.engineWorkers === undefined ? {} : { workers: io.engineWorkers }),
          ...(io.interrupt === undefined ? {} : { interrupt: io.interrupt.signal }),
          onLoop: onPoint,
        });
        engineExit = result.exitCode;
        engineRemoteWrite = result.remoteWrite;
        loopSamples = result.loop ?? [];
      }
    } finally {
      await balanceWatch?.stop();
      await metricsPipe?.close();
      aggregatesKept = await closeAggregates(aggregator, (line) => io.progress.line(line));
      procPoints = procMonitor.stop();
      display.finish({ ok: engineExit === 0, ...(engineExit > 0 ? { detail: `engine exit ${engineExit}` } : {}) });
    }
    sampleCollector.flush();
    const summaryData = await readSummaryIfAny(summaryFile, (line) => io.progress.line(line));
    if (flags.summaryExport !== undefined && summaryData !== undefined)
      writeSummaryExport(resolve(io.cwd, flags.summaryExport), summaryData);
    let remoteWrite: RemoteWriteSummary | undefined;
    const generatorPushes = await generatorPush?.finish();
    if (prometheus !== undefined) {
      // The threshold results, once at the end (neither engine knows them before): one more push, counted like the others.
      const thresholdError = summaryData === undefined ? undefined : await pushThresholds(prometheus, summaryData, runId);
      const thresholdCount = summaryData === undefined ? 0 : thresholdSeries(summaryData, runId, 0).length;
      const failed =
        (engine.engine === 'k6' ? pushFailures.end() : (engineRemoteWrite?.failedPushes ?? 0)) +
        (thresholdError === undefined ? 0 : 1) +
        (generatorPushes?.failed ?? 0);
      const lastError = thresholdError ?? generatorPushes?.lastError ?? engineRemoteWrite?.lastError;
      if (failed > 0)
        io.progress.line(
          `load: ${failed} push(es) to Prometheus failed (the run went on)${lastError === undefined ? '' : `; last: ${lastError}`}`,
        );
      remoteWrite = remoteWriteSummary(prometheus, {
        failedPushes: failed,
        thresholdSeries: thresholdCount,
        ...(engineRemoteWrite === undefined
          ? {}
          : {
              pushes: engineRemoteWrite.pushes + (thresholdCount > 0 ? 1 : 0) + (generatorPushes?.pushes ?? 0),
              series: engineRemoteWrite.series,
            }),
        ...(lastError === undefined ? {} : { lastError }),
      });
    }
    let ledger: LedgerSection | undefined;
    let reconcile: string | undefined;
    if (session !== undefined && harness !== undefined) {
      // Every transaction not final is polled until final or the deadline; what stays open is listed, and the run is incomplete.
      const refused = summaryData?.metrics[METRICS.chargesRefused]?.values.count ?? 0;
      // Interrupted: each open one is polled for a short bounded time; what stays open gets the command that finishes it.
      const finish = await session.finish(harness, {
        allowSkips: false,
        refused,
        defects: ledgerDefects,
        ...(interrupted() || ledgerGuard?.kill.aborted === true ? { deadlineMs: INTERRUPT_RECONCILE_MS } : {}),
      });
      // A ledger worth reporting: something was recorded or refused (a read-only production run has none).
      ledger =
        finish.section !== undefined && (finish.section.entries > 0 || (finish.section.refused ?? 0) > 0) ? finish.section : undefined;
      if (ledger !== undefined) for (const line of finish.lines) io.progress.line(line);
      if (ledger !== undefined && ledger.unresolved.length > 0 && session.ledgerPath !== undefined) {
        reconcile = reconcileCommand(session.ledgerPath);
        io.progress.line(stillOpenLine(ledger.unresolved.length, reconcile));
      }
    }
    return {
      runId,
      reportDir,
      engine,
      engineLabel,
      engineExit,
      startedAt,
      durationMs: Date.now() - startedAt,
      target,
      summaryFile,
      ...(summaryData === undefined ? {} : { summaryData }),
      ...(ndjsonPath !== undefined && existsSync(ndjsonPath) ? { ndjsonPath } : {}),
      // An engine that never started left nothing to chart (as no stream at all did before).
      ...(aggregatesKept && engineExit !== -1 ? { aggregatesPath } : {}),
      ...(ledger === undefined ? {} : { ledger }),
      ...(reconcile === undefined ? {} : { reconcile }),
      harnessFaults: addFaultCounts(harnessFaults.counts(), ...(preflightFaults === undefined ? [] : [preflightFaults])),
      ...(engineExit === -1 ? { notStarted: true } : {}),
      ...(remoteWrite === undefined ? {} : { remoteWrite }),
      ...(engineExit === -1
        ? {}
        : {
            generator: generatorReport(
              engine.engine === 'k6' ? 'k6' : 'node',
              availableParallelism(),
              mergeBySecond(procPoints, loopSamples),
            ),
          }),
      payload: {
        samples: sampleCollector.samples,
        ...(flags.baseline === undefined || io.baselineModule === undefined ? {} : { baselineDir: resolve(io.cwd, flags.baseline) }),
        ...(flags.promoteObserved === true ? { promoteObserved: true } : {}),
      },
    };
  } finally {
    await gate?.close();
    session?.close();
    await harness?.close();
    await sandbox?.close();
  }
}
