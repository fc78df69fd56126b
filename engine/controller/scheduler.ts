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

export async function runSchedule(settings: ScheduleSettings): Promise<ScheduleResult> {
  const { script, threads, reporter, mode, logError } = settings;
  const { runtime, options, thresholds, abortState } = script;
  let exitCode: number = EXIT_CODES.ok;
  let thresholdAbort = false;
  // An interruption (the embedding program got a signal) stops the run like k6's Ctrl-C; it is listened to once the
  // VU threads exist, so an abort reaches every one (a thread that has not started yet starts no iteration).
  let interrupted = false;
  let resolveInterrupt: () => void = () => undefined;
  const interruptedNow = new Promise<'interrupted'>((r) => (resolveInterrupt = () => r('interrupted')));
  const onInterrupt = (): void => {
    if (interrupted) return;
    interrupted = true;
    logError('test run interrupted by a signal: stopping gracefully (teardown, thresholds and handleSummary follow)');
    threads.abortAll();
    resolveInterrupt();
  };
  if (settings.interrupt?.aborted === true) onInterrupt();
  else settings.interrupt?.addEventListener('abort', onInterrupt, { once: true });

  // ---- setup (lifecycle thread, VU 0), while the VU workers initialise ----
  const testStart = clock();
  runtime.testStartedAt = testStart;
  settings.onTestStart();
  const setup = await runSetup(
    threads.lifecycle,
    typeof script.vu0.exports.setup === 'function',
    options.setupTimeoutMs,
    interruptedNow,
    abortState,
  );
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
  if (interrupted && setupFailure === undefined) {
    // Interrupted while the VU threads were starting: no scenario runs.
    setupFailure = { exitCode: EXIT_CODES.externalAbort, text: 'test run interrupted before the scenarios started' };
    await threads.terminateVUs();
  }
  const startAt = clock() + (setupFailure === undefined ? START_DELAY_MS : 0);
  if (setupFailure === undefined) threads.start(startAt, runtime.setupDataJson);

  // vus / vus_max gauges every second, progress every 250 ms, abortOnFail thresholds every 2 s.
  const baseTags = { ...options.tags };
  const gaugeTimer = setInterval(() => {
    const v = threads.view(startAt);
    runtime.store.add('vus', v.vusActive, baseTags);
    runtime.store.add('vus_max', v.vusMax, baseTags);
  }, 1_000);
  const progressTimer = setInterval(() => reporter.update(threads.view(startAt)), mode === 'tty' ? 250 : 1_000);
  const abortable = thresholds.some((t) => t.thresholds.some((x) => x.abortOnFail));
  const thresholdTimer = abortable
    ? setInterval(() => {
        void threads.snapshots().then((snaps) => {
          const merged = new MetricStore(script.submetrics, script.customDefs);
          merged.mergeState(runtime.store.toState());
          for (const s of snaps) merged.mergeState(s.store);
          const elapsed = clock() - testStart;
          for (const set of thresholds) {
            const sink = merged.sinkOf(set.summaryName);
            if (sink === undefined) continue;
            const verdict = evaluateThresholds(set, sink.thresholdValues(elapsed, percentilesOf(set)), elapsed);
            if (verdict.abort && !thresholdAbort) {
              thresholdAbort = true;
              logError(
                `thresholds on metrics '${set.summaryName}' were crossed; at least one has abortOnFail enabled, stopping test prematurely`,
              );
              threads.abortAll();
            }
          }
        });
      }, THRESHOLD_EVAL_MS)
    : undefined;

  await threads.allDone();
  settings.interrupt?.removeEventListener('abort', onInterrupt);
  clearInterval(gaugeTimer);
  clearInterval(progressTimer);
  if (thresholdTimer !== undefined) clearInterval(thresholdTimer);
  reporter.finish(threads.view(startAt));
  const final = threads.view(startAt);
  if (setupFailure === undefined) {
    runtime.store.add('vus', 0, baseTags);
    runtime.store.add('vus_max', final.vusMax, baseTags);
  }
  await threads.terminateVUs();
  const runEnd = clock();
  if (threads.failure !== undefined) {
    logError(threads.failure);
    exitCode = EXIT_CODES.scriptException;
  }

  // ---- teardown (lifecycle thread; runs after an abort too, like k6) ----
  if (threads.lifecycle !== undefined) {
    exitCode = await runTeardown(
      threads.lifecycle,
      runtime.setupDataJson,
      { ...setup, ...(setupFailure === undefined ? {} : { failure: setupFailure }) },
      options.teardownTimeoutMs,
      exitCode,
      logError,
    );
  }
  const testRunDurationMs = setupMs + (runEnd - startAt) + (clock() - runEnd);
  return { exitCode, setupData: setup.data, testRunDurationMs, interrupted, thresholdAbort };
}
