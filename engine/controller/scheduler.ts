// The schedule of a run, as k6 keeps it: setup() on the lifecycle thread while the VU workers initialise, the scenarios
// from one start time on every worker (vus/vus_max every second, progress, abortOnFail thresholds every 2 s), the
// interrupt (k6's Ctrl-C), then teardown(). Returns what the summary needs: the exit code so far, setup()'s data, durations.
import { MetricStore } from '../metrics/store.ts';
import type { ProgressMode, ProgressReporter } from '../progress.ts';
import { clock } from '../runtime.ts';
import { evaluateThresholds } from '../thresholds.ts';
import { EXIT_CODES } from './exit-codes.ts';
import { runSetup, runTeardown } from './lifecycle.ts';
import type { LoadedScript } from './load.ts';
import { percentilesOf } from './thresholds.ts';
import type { Threads } from './threads.ts';

/** How often abortOnFail thresholds are evaluated during the run (k6 uses 2 s). */
const THRESHOLD_EVAL_MS = 2_000;
/** The workers start their scenarios together this long after the start message leaves. */
const START_DELAY_MS = 20;

export interface ScheduleSettings {
  readonly script: LoadedScript;
  readonly threads: Threads;
  readonly reporter: ProgressReporter;
  readonly mode: ProgressMode;
  readonly interrupt: AbortSignal | undefined;
  readonly logError: (text: string) => void;
  /** Called when the test starts (after the threads exist, before setup()). */
  readonly onTestStart: () => void;
}

export interface ScheduleResult {
  exitCode: number;
  readonly setupData: unknown;
  /** Setup, scenarios and teardown (k6's test run duration: not bundling or thread start-up). */
  readonly testRunDurationMs: number;
  /** The run was interrupted (options.interrupt): k6's 105 whatever the thresholds say. */
  readonly interrupted: boolean;
  /** An abortOnFail threshold stopped the test (already logged). */
  readonly thresholdAbort: boolean;
}

/**
 * The run's interrupt, like k6's Ctrl-C: it stops every VU thread once, and settles `interruptedNow` (setup() waits on
 * it). It is listened to once the VU threads exist, so an abort reaches every one (a thread that has not started yet
 * starts no iteration); `stop()` stops listening at the end of the scenarios.
 */
interface InterruptWatch {
  readonly interruptedNow: Promise<'interrupted'>;
  interrupted: boolean;
  stop(): void;
}

function watchInterrupt(settings: ScheduleSettings): InterruptWatch {
  const { threads, logError, interrupt } = settings;
  let resolveInterrupt: () => void = () => undefined;
  const onInterrupt = (): void => {
    if (watch.interrupted) return;
    watch.interrupted = true;
    logError('test run interrupted by a signal: stopping gracefully (teardown, thresholds and handleSummary follow)');
    threads.abortAll();
    resolveInterrupt();
  };
  const watch: InterruptWatch = {
    interruptedNow: new Promise<'interrupted'>((r) => (resolveInterrupt = () => r('interrupted'))),
    interrupted: false,
    stop: () => interrupt?.removeEventListener('abort', onInterrupt),
  };
  if (interrupt?.aborted === true) onInterrupt();
  else interrupt?.addEventListener('abort', onInterrupt, { once: true });
  return watch;
}

/** The timers of the scenarios: vus / vus_max gauges every second, progress every 250 ms, abortOnFail thresholds every 2 s. */
interface ScenarioTimers {
  /** An abortOnFail threshold stopped the test (already logged). */
  thresholdAbort: boolean;
  stop(): void;
}

function startScenarioTimers(
  settings: ScheduleSettings,
  startAt: number,
  testStart: number,
  baseTags: Record<string, string>,
): ScenarioTimers {
  const { script, threads, reporter, mode } = settings;
  const { runtime, thresholds } = script;
  const gaugeTimer = setInterval(() => {
    const v = threads.view(startAt);
    runtime.store.add('vus', v.vusActive, baseTags);
    runtime.store.add('vus_max', v.vusMax, baseTags);
  }, 1_000);
  const progressTimer = setInterval(() => reporter.update(threads.view(startAt)), mode === 'tty' ? 250 : 1_000);
  const abortable = thresholds.some((t) => t.thresholds.some((x) => x.abortOnFail));
  const timers: ScenarioTimers = {
    thresholdAbort: false,
    stop: () => {
      clearInterval(gaugeTimer);
      clearInterval(progressTimer);
      if (thresholdTimer !== undefined) clearInterval(thresholdTimer);
    },
  };
  const thresholdTimer = abortable
    ? setInterval(() => void abortOnCrossedThresholds(settings, testStart, timers), THRESHOLD_EVAL_MS)
    : undefined;
  return timers;
}

/** Evaluates the thresholds over every thread's metrics so far; a crossed abortOnFail one stops the test (once). */
async function abortOnCrossedThresholds(settings: ScheduleSettings, testStart: number, timers: ScenarioTimers): Promise<void> {
  const { script, threads, logError } = settings;
  const snaps = await threads.snapshots();
  const merged = new MetricStore(script.submetrics, script.customDefs);
  merged.mergeState(script.runtime.store.toState());
  for (const s of snaps) merged.mergeState(s.store);
  const elapsed = clock() - testStart;
  for (const set of script.thresholds) {
    const sink = merged.sinkOf(set.summaryName);
    if (sink === undefined) continue;
    const verdict = evaluateThresholds(set, sink.thresholdValues(elapsed, percentilesOf(set)), elapsed);
    if (verdict.abort && !timers.thresholdAbort) {
      timers.thresholdAbort = true;
      logError(`thresholds on metrics '${set.summaryName}' were crossed; at least one has abortOnFail enabled, stopping test prematurely`);
      threads.abortAll();
    }
  }
}

/** The scenarios ended: timers and the interrupt stopped, the progress line's last state, the final vus / vus_max points. */
function scenariosEnded(
  settings: ScheduleSettings,
  interrupt: InterruptWatch,
  timers: ScenarioTimers,
  startAt: number,
  ran: boolean,
  baseTags: Record<string, string>,
): void {
  const { threads, script } = settings;
  interrupt.stop();
  timers.stop();
  settings.reporter.finish(threads.view(startAt));
  const final = threads.view(startAt);
  if (ran) {
    script.runtime.store.add('vus', 0, baseTags);
    script.runtime.store.add('vus_max', final.vusMax, baseTags);
  }
}

/** setup(), the scenarios, teardown(): the steps are plain functions, so every await here is one of the run's phases. */
export async function runSchedule(settings: ScheduleSettings): Promise<ScheduleResult> {
  const { script, threads, logError } = settings;
  const { runtime, options } = script;
  let exitCode: number = EXIT_CODES.ok;
  const interrupt = watchInterrupt(settings);

  // ---- setup (lifecycle thread, VU 0), while the VU workers initialise ----
  const testStart = clock();
  runtime.testStartedAt = testStart;
  settings.onTestStart();
  const hasSetup = typeof script.vu0.exports.setup === 'function';
  const setup = await runSetup(threads.lifecycle, hasSetup, options.setupTimeoutMs, interrupt.interruptedNow, script.abortState);
  let setupFailure = setup.failure;
  const setupMs = clock() - testStart;
  runtime.setupDataJson = setup.data === undefined ? undefined : JSON.stringify(setup.data);
  if (setupFailure !== undefined) {
    logError(setupFailure.text);
    exitCode = setupFailure.exitCode;
    // No scenario runs: the VU threads go now (their `ready` and `done` settle when they exit).
    await threads.terminateVUs();
  }

  // ---- the scenarios ----
  await threads.allReady();
  runtime.phase = 'vu';
  if (interrupt.interrupted && setupFailure === undefined) {
    // Interrupted while the VU threads were starting: no scenario runs.
    setupFailure = { exitCode: EXIT_CODES.externalAbort, text: 'test run interrupted before the scenarios started' };
    await threads.terminateVUs();
  }
  const startAt = clock() + (setupFailure === undefined ? START_DELAY_MS : 0);
  if (setupFailure === undefined) threads.start(startAt, runtime.setupDataJson);
  const baseTags = { ...options.tags };
  const timers = startScenarioTimers(settings, startAt, testStart, baseTags);
  await threads.allDone();
  scenariosEnded(settings, interrupt, timers, startAt, setupFailure === undefined, baseTags);
  await threads.terminateVUs();
  const runEnd = clock();
  if (threads.failure !== undefined) {
    logError(threads.failure);
    exitCode = EXIT_CODES.scriptException;
  }

  // ---- teardown (lifecycle thread; runs after an abort too, like k6) ----
  if (threads.lifecycle !== undefined) {
    const outcome = { ...setup, ...(setupFailure === undefined ? {} : { failure: setupFailure }) };
    exitCode = await runTeardown(threads.lifecycle, runtime.setupDataJson, outcome, options.teardownTimeoutMs, exitCode, logError);
  }
  const testRunDurationMs = setupMs + (runEnd - startAt) + (clock() - runEnd);
  return { exitCode, setupData: setup.data, testRunDurationMs, interrupted: interrupt.interrupted, thresholdAbort: timers.thresholdAbort };
}
