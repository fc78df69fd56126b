// The engine's command: runEngine() loads a k6 script for Node (controller/load.ts), starts its threads
// (controller/threads.ts) and outputs, runs k6's schedule (controller/scheduler.ts: setup, scenarios, teardown),
// evaluates thresholds on the exactly merged metrics, writes the summaries and returns k6's exit code with the summary data.
import { resolve } from 'node:path';
import { EXIT_CODES, type EarlyFailure } from './controller/exit-codes.ts';
import { loadScript, type LoadedScript } from './controller/load.ts';
import { RunOutputs } from './controller/outputs.ts';
import { runSchedule, type ScheduleResult } from './controller/scheduler.ts';
import { writeSummaries } from './controller/summary-outputs.ts';
import { evaluateFinalThresholds } from './controller/thresholds.ts';
import { Threads, workerCount } from './controller/threads.ts';
import { mergeLoopSamples, type LoopSample } from './loop-monitor.ts';
import { GroupTree } from './metrics/groups.ts';
import { OptionsError, type RunOverrides } from './options.ts';
import { ProgressReporter, type ProgressMode } from './progress.ts';
import type { HostModule } from './protocol.ts';
import type { RemoteWriteConfig } from './remote-write/config.ts';
import type { RemoteWriteStats } from './remote-write/output.ts';
import { buildSummaryData, type K6SummaryData } from './summary.ts';

export type { K6SummaryData } from './summary.ts';
export { EXIT_CODES } from './controller/exit-codes.ts';

export interface EngineRunOptions {
  /** Path to a `.load.ts` entry or a k6 `.js` script (relative to cwd). */
  script: string;
  /** Becomes __ENV, merged over the process environment like `k6 run -e`. */
  env?: Record<string, string>;
  /** `--out json=FILE`: k6's NDJSON metric points (gzip when the name ends in .gz). */
  outJson?: string;
  /** The same NDJSON lines as text, as they are made (the load runner keeps them as per-second aggregates). */
  jsonLines?: (text: string) => void;
  /** `--out experimental-prometheus-rw`: k6's Prometheus remote-write output (engine/remote-write/). */
  remoteWrite?: RemoteWriteConfig;
  /** `--summary-export=FILE`: k6's flat summary JSON. */
  summaryExport?: string;
  /** Worker threads; 'auto' (default): one per 6 VUs, at most one per core of the machine. */
  workers?: number | 'auto';
  progress?: 'auto' | 'tty' | 'plain' | 'none';
  cwd?: string;
  /** Like k6's --vus/--duration/--iterations/--execution-segment/--execution-segment-sequence flags. */
  overrides?: RunOverrides;
  /** Where 'stdout'/'stderr' of handleSummary and the text summary go (tests capture them). Default the process's. */
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  /**
   * Modules every engine thread (VU workers and the setup/teardown thread) imports and calls `install(data)` of before
   * it compiles the script: how an embedding program gives the script's threads something of its own (the harness's
   * money host: ledger appends and a spend counter in shared memory). The controller's init run does not get them.
   */
  hostModules?: ReadonlyArray<HostModule>;
  /** Each VU thread's second of event-loop delay and utilization as it arrives (engine/loop-monitor.ts). */
  onLoop?: (sample: LoopSample) => void;
  /**
   * Like Ctrl-C to k6: when it aborts, the run stops gracefully (no new iteration, running ones interrupted, teardown,
   * thresholds and handleSummary over what was measured) and ends with k6's 105. The embedding program owns the signals.
   */
  interrupt?: AbortSignal;
}

export interface EngineRunResult {
  /** k6's codes (EXIT_CODES): 0 passed, 99 thresholds crossed (also when abortOnFail stopped the test, like k6),
   * 100/101 setup/teardown timed out, 104 invalid options, 107 script error (load/init/setup/teardown threw),
   * 105 interrupted (options.interrupt), 108 exec.test.abort(), 255 setup()/teardown() returned a promise that rejected. */
  exitCode: number;
  summary: K6SummaryData;
  /** What the remote-write output did (pushes, failures, series), when it was on. */
  remoteWrite?: RemoteWriteStats;
  /** The VU threads' event loops per second, the busiest thread for each (engine/loop-monitor.ts). */
  loop?: LoopSample[];
}

function emptySummary(): K6SummaryData {
  return {
    root_group: new GroupTree().toK6(),
    options: { summaryTrendStats: [], summaryTimeUnit: '', noColor: false },
    state: { isStdOutTTY: false, isStdErrTTY: false, testRunDurationMs: 0 },
    metrics: {},
  };
}

function progressMode(mode: EngineRunOptions['progress'], stderr: NodeJS.WritableStream): ProgressMode {
  if (mode === 'tty' || mode === 'plain' || mode === 'none') return mode;
  return (stderr as { isTTY?: boolean }).isTTY === true ? 'tty' : 'plain';
}

function isTTY(stream: NodeJS.WritableStream): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}

/** k6's error line on stderr (logfmt, as k6 writes it). */
function errorLogger(stderr: NodeJS.WritableStream): (text: string) => void {
  return (text) => {
    stderr.write(`time="${new Date().toISOString()}" level=error msg=${JSON.stringify(text)}\n`);
  };
}

/** The VU threads and their workers; a worker count the options cannot have is k6's invalid-options failure (104). */
function threadsFor(
  options: EngineRunOptions,
  script: LoadedScript,
  outputs: RunOutputs,
  stdout: NodeJS.WritableStream,
  stderr: NodeJS.WritableStream,
): Threads | EarlyFailure {
  let count: number;
  try {
    count = workerCount(options.workers ?? 'auto', script.options);
  } catch (error) {
    if (error instanceof OptionsError) return { exitCode: EXIT_CODES.invalidConfig, text: error.message };
    throw error;
  }
  return new Threads({
    script,
    count,
    pointsWanted: outputs.pointsWanted,
    hostModules: options.hostModules,
    stdout,
    stderr,
    onPoints: outputs.deliver,
    ...(options.onLoop === undefined ? {} : { onLoop: options.onLoop }),
  });
}

/** The thresholds on the merged metrics, the summary data, and k6's exit code for how the run ended. */
function judgeRun(
  script: LoadedScript,
  schedule: ScheduleResult,
  stdout: NodeJS.WritableStream,
  stderr: NodeJS.WritableStream,
  logError: (text: string) => void,
): { exitCode: number; summary: K6SummaryData } {
  const { runtime, options: consolidated, thresholds, abortState } = script;
  let { exitCode } = schedule;
  const verdicts = evaluateFinalThresholds(runtime.store, thresholds, schedule.testRunDurationMs);
  const summary = buildSummaryData({
    store: runtime.store,
    rootGroup: runtime.groups.toK6(),
    thresholds,
    thresholdResults: verdicts.results,
    trendStats: consolidated.summaryTrendStats,
    summaryTimeUnit: consolidated.summaryTimeUnit,
    testRunDurationMs: schedule.testRunDurationMs,
    setupData: schedule.setupData,
    isStdOutTTY: isTTY(stdout),
    isStdErrTTY: isTTY(stderr),
  });
  if (!verdicts.passed) {
    if (!schedule.thresholdAbort) logError(`thresholds on metrics '${verdicts.crossed.join("', '")}' have been crossed`);
    if (exitCode === EXIT_CODES.ok) exitCode = EXIT_CODES.thresholdsFailed;
  }
  // k6 ends an interrupted run with 105 whatever its thresholds say: the run did not finish.
  if (schedule.interrupted && exitCode !== EXIT_CODES.scriptException) exitCode = EXIT_CODES.externalAbort;
  if (abortState.byScript && exitCode === EXIT_CODES.ok) {
    logError(`test aborted: ${abortState.reason ?? ''}`);
    exitCode = EXIT_CODES.scriptAborted;
  }
  return { exitCode, summary };
}

export async function runEngine(options: EngineRunOptions): Promise<EngineRunResult> {
  const cwd = options.cwd ?? process.cwd();
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const logError = errorLogger(stderr);
  const fail = (failure: EarlyFailure): EngineRunResult => {
    logError(failure.text);
    return { exitCode: failure.exitCode, summary: emptySummary() };
  };

  const script = await loadScript(resolve(cwd, options.script), options.env, options.overrides);
  if ('exitCode' in script) return fail(script);
  const { runtime, options: consolidated, thresholds } = script;
  const outputs = new RunOutputs(runtime, thresholds, cwd, options.outJson, options.remoteWrite, logError, options.jsonLines);
  const threads = threadsFor(options, script, outputs, stdout, stderr);
  if (!(threads instanceof Threads)) return fail(threads);

  const mode = progressMode(options.progress, stderr);
  const schedule = await runSchedule({
    script,
    threads,
    reporter: new ProgressReporter(mode, consolidated.scenarios, stderr),
    mode,
    interrupt: options.interrupt,
    logError,
    onTestStart: () => outputs.start(),
  });
  const { exitCode, summary } = judgeRun(script, schedule, stdout, stderr, logError);

  const remoteWriteStats = await outputs.close();
  runtime.phase = 'summary';
  await writeSummaries(summary, script.vu0.exports.handleSummary, { cwd, stdout, stderr, summaryExport: options.summaryExport, logError });
  await runtime.close();
  return {
    exitCode,
    summary,
    loop: mergeLoopSamples(threads.loopSamples),
    ...(remoteWriteStats === undefined ? {} : { remoteWrite: remoteWriteStats }),
  };
}
