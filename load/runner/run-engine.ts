// Runs the chosen engine over a load run's bundle with what watches it: the progress display, the payload samples,
// the generator's own measurements, the per-second aggregates and a capped run's balance watch; k6 under the ledger
// guard (no durable record, no charge), the Node engine with the money host in every thread.
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { BALANCE_WATCH_MS, ledgerWorstCase, watchBalance, type BalanceWatch } from '../../ledger/balance-watch.ts';
import { haltSharedBudget } from '../../ledger/budget.ts';
import { assertHeadroom, DEFAULT_DISK_HEADROOM, type DiskHeadroom } from '../../ledger/disk-headroom.ts';
import { ENGINE_HOST_MODULE, type EngineMoneyData } from '../../ledger/engine-host.ts';
import { guardK6Ledger, type K6LedgerGuard } from '../../ledger/k6-guard.ts';
import { K6_SPOOL_FILE, tailSpool } from '../../ledger/k6-spool.ts';
import { readBalance } from '../../ledger/read-prices.ts';
import type { GeneratorPoint } from '../../reports/generator.ts';
import type { Progress } from '../../reports/progress.ts';
import type { RunInterrupt } from '../../reports/interrupt-watch.ts';
import type { EngineSelection } from '../engine-select.ts';
import { SampleCollector, withoutSampleLines, type PayloadSample } from '../payload-samples.ts';
import { runNodeEngine, type HostModule, type RemoteWriteConfig, type RemoteWriteStats } from '../run-node-engine.ts';
import { startAggregateThread, type AggregateThread } from './aggregate-thread.ts';
import { engineProgress } from './engine-progress.ts';
import { startProcMonitor, type ProcMonitor } from './generator-monitor.ts';
import { startGeneratorPusher, type GeneratorPusher } from './generator-prometheus.ts';
import { openMetricsPipe, type MetricsPipe } from './k6-metrics-pipe.ts';
import { runK6 } from './k6-process.ts';
import type { LoadFlags } from './load-options.ts';
import { gateDefects, type MoneyParts } from './load-money.ts';
import { K6PushFailures, k6PrometheusEnv } from './prometheus-output.ts';
import type { RunFiles } from './report-files.ts';

/** `--out prometheus=URL`: the engines' remote-write settings and the run's testid tag on every series. */
export interface RunPrometheus {
  readonly url: string;
  readonly config: RemoteWriteConfig;
  readonly tags: Readonly<Record<string, string>>;
}

/** The parts of the run's io the engine step uses (load/runner/run-load.ts LoadRunIo). */
export interface EngineIo {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly progress: Progress;
  readonly onEngineOutput?: (chunk: string) => void;
  readonly engineWorkers?: number;
  readonly diskHeadroom?: DiskHeadroom;
  readonly balanceWatchMs?: number;
  readonly interrupt?: RunInterrupt;
  readonly engineHostModules?: readonly HostModule[];
}

export interface EngineStep {
  readonly flags: LoadFlags;
  readonly io: EngineIo;
  readonly engine: EngineSelection;
  readonly bundle: string;
  readonly env: Readonly<Record<string, string>>;
  readonly runId: string;
  readonly reportDir: string;
  readonly files: RunFiles;
  readonly scenario: string;
  readonly prometheus?: RunPrometheus;
  readonly money: MoneyParts;
  readonly engineMoney?: EngineMoneyData;
}

/** What the engine step left: its exit code (-1: the engine never started) and what was measured beside it. */
export interface EngineEnd {
  readonly engineExit: number;
  readonly remoteWrite?: RemoteWriteStats;
  readonly k6PushFailures: K6PushFailures;
  readonly generatorPush?: GeneratorPusher;
  readonly loopSamples: readonly GeneratorPoint[];
  readonly procPoints: readonly GeneratorPoint[];
  /** The cores the engine may use (its CPU affinity), which the generator's shares are taken over. */
  readonly generatorCores: number;
  readonly aggregatesKept: boolean;
  readonly ledgerDefects: readonly string[];
  /** The ledger guard killed k6 (the reconciliation then gets a short deadline, as after an interruption). */
  readonly ledgerKilled: boolean;
  readonly samples: readonly PayloadSample[];
}

/** What runs beside the engine, started before it and stopped after it whatever happened. */
interface Watchers {
  readonly output: (chunk: string) => void;
  readonly display: ReturnType<typeof engineProgress>;
  readonly samples: SampleCollector;
  readonly pushFailures: K6PushFailures;
  readonly generatorPush?: GeneratorPusher;
  readonly onPoint: (point: GeneratorPoint) => void;
  readonly procMonitor: ProcMonitor;
  readonly aggregator: AggregateThread;
  readonly ledgerDefects: string[];
  /** Set by the k6 step: the balance watch stops k6 through it. */
  ledgerGuard?: K6LedgerGuard;
  metricsPipe?: MetricsPipe;
}

interface EngineResult {
  readonly exit: number;
  readonly remoteWrite?: RemoteWriteStats;
  readonly loop?: readonly GeneratorPoint[];
}

export async function runEngineStep(step: EngineStep): Promise<EngineEnd> {
  const watchers = startWatchers(step);
  const balanceWatch = startBalanceWatch(step, watchers);
  let result: EngineResult = { exit: -1 };
  let aggregatesKept = false;
  let procPoints: readonly GeneratorPoint[] = [];
  let generatorCores = availableParallelism();
  try {
    if (step.io.interrupt?.signal.aborted === true) {
      // A signal came while the run was being prepared: no load is started (what was prepared is still closed after).
      step.io.progress.line('load: interrupted before the engine started');
    } else {
      result = step.engine.engine === 'k6' ? await runK6Step(step, watchers, step.engine.k6.path) : await runNodeStep(step, watchers);
    }
  } finally {
    await balanceWatch?.stop();
    await watchers.metricsPipe?.close();
    aggregatesKept = await closeAggregates(watchers.aggregator, (line) => step.io.progress.line(line));
    procPoints = watchers.procMonitor.stop();
    generatorCores = watchers.procMonitor.cores();
    watchers.display.finish({ ok: result.exit === 0, ...(result.exit > 0 ? { detail: `engine exit ${result.exit}` } : {}) });
  }
  watchers.samples.flush();
  return {
    engineExit: result.exit,
    ...(result.remoteWrite === undefined ? {} : { remoteWrite: result.remoteWrite }),
    k6PushFailures: watchers.pushFailures,
    ...(watchers.generatorPush === undefined ? {} : { generatorPush: watchers.generatorPush }),
    loopSamples: result.loop ?? [],
    procPoints,
    generatorCores,
    aggregatesKept,
    ledgerDefects: watchers.ledgerDefects,
    ledgerKilled: watchers.ledgerGuard?.kill.aborted === true,
    samples: watchers.samples.samples,
  };
}

function startWatchers(step: EngineStep): Watchers {
  const { io, engine, prometheus } = step;
  const pushFailures = new K6PushFailures();
  // Violation samples come out of the VUs as console lines (load/payload-samples.ts): kept for the report, not shown.
  const samples = new SampleCollector();
  const display = engineProgress(io.progress, (scenario) => `load ${scenario}/${step.flags.profile}`, [step.scenario]);
  const output = (chunk: string): void => {
    if (prometheus !== undefined && engine.engine === 'k6') pushFailures.write(chunk);
    samples.write(chunk);
    display.write(withoutSampleLines(chunk));
    io.onEngineOutput?.(chunk);
  };
  // The generator measured all the time: k6's process once spawned, or this one (the Node engine's threads run here).
  // With --out prometheus they are pushed as they come (gateway_harness_generator_*, generator-prometheus.ts).
  const generatorPush =
    prometheus === undefined ? undefined : startGeneratorPusher(prometheus.config, step.runId, engine.engine === 'k6' ? 'k6' : 'node');
  const onPoint = (point: GeneratorPoint): void => generatorPush?.add(point);
  const procMonitor = startProcMonitor({ ...(engine.engine === 'k6' ? {} : { pid: process.pid }), onPoint });
  // Both engines' NDJSON lines, kept per second as they come (reports/metric-aggregates.ts, on its own thread).
  const aggregator = startAggregateThread(step.files.aggregatesPath);
  return {
    output,
    display,
    samples,
    pushFailures,
    ...(generatorPush === undefined ? {} : { generatorPush }),
    onPoint,
    procMonitor,
    aggregator,
    ledgerDefects: [],
  };
}

/** A capped run's last line of defence: the wallet losing more than the ledger holds stops every charge at once. */
function startBalanceWatch(step: EngineStep, watchers: Watchers): BalanceWatch | undefined {
  const { session, harness } = step.money;
  const before = session?.balanceBefore;
  if (session?.ledgerPath === undefined || harness === undefined || before === undefined) return undefined;
  return watchBalance({
    before,
    read: () => readBalance(harness, step.flags.api === 'v1' ? 'v1' : 'v2'),
    ledgerHolds: ledgerWorstCase(session.ledgerPath, step.runId),
    intervalMs: step.io.balanceWatchMs ?? BALANCE_WATCH_MS,
    trip: (why) => {
      step.io.progress.line(`gateway-harness: GH_ERR_SPEND_CAP: ${why}: charging stops now`);
      watchers.ledgerDefects.push(`balance watch: ${why}`);
      if (step.engineMoney?.cells !== undefined) haltSharedBudget(step.engineMoney.cells);
      watchers.ledgerGuard?.stop(why);
    },
  });
}

/**
 * k6 cannot wait for a ledger line to be durable: a guarded run does not start without free space for the ledger
 * (refused, exit 2), and k6 is killed the moment a line cannot be written or the free space falls under the floor
 * (ledger/k6-guard.ts). Its stderr is then a file in the report dir (the spool), tailed here; see ledger/k6-spool.ts.
 */
async function runK6Step(step: EngineStep, watchers: Watchers, k6: string): Promise<EngineResult> {
  const { io, prometheus } = step;
  const writer = step.money.session?.writer;
  const spoolPath = writer === undefined ? undefined : join(step.reportDir, K6_SPOOL_FILE);
  if (writer !== undefined) assertHeadroom(step.reportDir, io.diskHeadroom ?? DEFAULT_DISK_HEADROOM);
  const guard =
    writer === undefined
      ? undefined
      : guardK6Ledger({
          dir: step.reportDir,
          writer,
          ...(io.diskHeadroom === undefined ? {} : { headroom: io.diskHeadroom }),
          say: (line) => io.progress.line(line),
        });
  if (guard !== undefined) {
    watchers.ledgerGuard = guard;
    step.money.onGateRefused = (why) => guard.stop(why);
  }
  const spoolFd = spoolPath === undefined ? undefined : openSync(spoolPath, 'a');
  const metricsPipe = openMetricsPipe((text) => watchers.aggregator.addText(text));
  watchers.metricsPipe = metricsPipe;
  const tail =
    guard === undefined || spoolPath === undefined ? undefined : tailSpool(spoolPath, { persist: guard.persist, forward: watchers.output });
  let result;
  try {
    result = await runK6({
      k6,
      bundle: step.bundle,
      env: { ...step.env, ...(prometheus === undefined ? {} : k6PrometheusEnv(prometheus.url, io.env)) },
      cwd: io.cwd,
      ...(step.files.ndjsonPath === undefined ? {} : { outJson: step.files.ndjsonPath }),
      metricsPipe: metricsPipe.path,
      ...(prometheus === undefined ? {} : { prometheus: true, tags: prometheus.tags }),
      stdio: 'pipe',
      onOutput: watchers.output,
      ...(spoolFd === undefined ? {} : { stderrFd: spoolFd }),
      onSpawn: (pid) => watchers.procMonitor.watch(pid),
      ...(io.interrupt === undefined ? {} : { interrupt: io.interrupt }),
      ...(guard === undefined ? {} : { kill: guard.kill }),
    });
  } finally {
    // Every request the gate took is forwarded and answered first: its line is in the ledger, its charge at the target.
    await step.money.gate?.close();
    if (spoolFd !== undefined) closeSync(spoolFd);
    tail?.stop();
    watchers.ledgerDefects.push(...(guard?.finish() ?? []), ...gateDefects(step.money.gate));
  }
  if (result.signal !== undefined) io.progress.line(`load: k6 ended by ${result.signal}`);
  return { exit: result.exitCode };
}

async function runNodeStep(step: EngineStep, watchers: Watchers): Promise<EngineResult> {
  const { io, prometheus } = step;
  const result = await runNodeEngine({
    script: step.bundle,
    env: step.env,
    cwd: io.cwd,
    ...(step.files.ndjsonPath === undefined ? {} : { outJson: step.files.ndjsonPath }),
    jsonLines: (text) => watchers.aggregator.addText(text),
    output: watchers.output,
    ...(prometheus === undefined ? {} : { remoteWrite: prometheus.config, overrides: { tags: prometheus.tags } }),
    ...hostModulesOf(step.engineMoney, io.engineHostModules),
    ...(io.engineWorkers === undefined ? {} : { workers: io.engineWorkers }),
    ...(io.interrupt === undefined ? {} : { interrupt: io.interrupt.signal }),
    onLoop: watchers.onPoint,
  });
  return {
    exit: result.exitCode,
    ...(result.remoteWrite === undefined ? {} : { remoteWrite: result.remoteWrite }),
    ...(result.loop === undefined ? {} : { loop: result.loop }),
  };
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
function hostModulesOf(money: EngineMoneyData | undefined, extra: readonly HostModule[] = []): { hostModules?: HostModule[] } {
  const modules = [...(money === undefined ? [] : [{ module: ENGINE_HOST_MODULE, data: money }]), ...extra];
  return modules.length === 0 ? {} : { hostModules: modules };
}
