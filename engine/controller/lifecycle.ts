// setup() and teardown() as k6 runs them, on the lifecycle thread: setup() with its timeout (and the run's interrupt),
// teardown() after the scenarios (also after an abort), and the exit code each failure gives (100, 101, 105, 107, 108, 255).
import type { ControllerMessage } from '../protocol.ts';
import { EXIT_CODES } from './exit-codes.ts';
import type { AbortState } from './load.ts';
import type { Spawned } from './threads.ts';

/** How long a lifecycle thread still inside a timed-out setup() gets to hand over setup()'s metrics. */
const STUCK_SETUP_ANSWER_MS = 1_000;

export interface SetupOutcome {
  readonly data: unknown;
  /** k6 ends a test whose setup() failed like any other (no iterations, no teardown()) with setup()'s exit code. */
  readonly failure?: { exitCode: number; text: string };
  /** setup() may still be running on its thread (timed out, or the run was interrupted during it). */
  readonly timedOut: boolean;
}

/** Runs setup() when the script has one; `interrupted` settles when the run is interrupted. */
export async function runSetup(
  lifecycle: Spawned | undefined,
  hasSetup: boolean,
  timeoutMs: number,
  interrupted: Promise<'interrupted'>,
  abortState: AbortState,
): Promise<SetupOutcome> {
  if (lifecycle === undefined || !hasSetup) return { data: undefined, timedOut: false };
  await lifecycle.ready;
  const reply = lifecycle.next('setup-done');
  lifecycle.worker.postMessage({ type: 'setup' } satisfies ControllerMessage);
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    reply,
    interrupted,
    new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), timeoutMs))),
  ]);
  clearTimeout(timer);
  if (outcome === 'interrupted') {
    // setup() may still be running: its thread gets the short answer limit of a stuck setup.
    return {
      data: undefined,
      timedOut: true,
      failure: { exitCode: EXIT_CODES.externalAbort, text: 'test run interrupted during setup(): no scenario ran' },
    };
  }
  if (outcome === 'timeout') {
    return {
      data: undefined,
      timedOut: true,
      failure: { exitCode: EXIT_CODES.setupTimeout, text: `setup() execution timed out after ${timeoutMs / 1000} seconds` },
    };
  }
  if (abortState.byScript)
    return {
      data: undefined,
      timedOut: false,
      failure: { exitCode: EXIT_CODES.scriptAborted, text: `test aborted in setup(): ${abortState.reason ?? ''}` },
    };
  if (outcome.error !== undefined) {
    return {
      data: undefined,
      timedOut: false,
      failure: {
        exitCode: outcome.rejected === true ? EXIT_CODES.promiseRejected : EXIT_CODES.scriptException,
        text: `setup() failed: ${outcome.error}`,
      },
    };
  }
  return {
    data: outcome.type === 'setup-done' && outcome.dataJson !== undefined ? JSON.parse(outcome.dataJson) : undefined,
    timedOut: false,
  };
}

/**
 * Asks the lifecycle thread for teardown() (always, even without one: its answer carries setup()'s metrics; `skip`
 * when setup() failed) and returns the exit code it gives, `exitCode` when none.
 */
export async function runTeardown(
  lifecycle: Spawned,
  setupDataJson: string | undefined,
  setup: SetupOutcome,
  teardownTimeoutMs: number,
  exitCode: number,
  logError: (text: string) => void,
): Promise<number> {
  const reply = lifecycle.next('teardown-done');
  lifecycle.worker.postMessage({ type: 'teardown', setupDataJson, skip: setup.failure !== undefined } satisfies ControllerMessage);
  // After a setup() timeout the thread may still be inside setup(): awaiting, it answers at once; blocked (sleep, a
  // synchronous request), it cannot, and setup()'s metrics are lost with it.
  const limitMs = setup.timedOut ? STUCK_SETUP_ANSWER_MS : teardownTimeoutMs;
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([reply, new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), limitMs)))]);
  clearTimeout(timer);
  let code = exitCode;
  if (outcome === 'timeout') {
    if (setup.timedOut) logError('setup() is still blocked: its metrics are not in the summary');
    else {
      logError(`teardown() execution timed out after ${teardownTimeoutMs / 1000} seconds`);
      if (code === EXIT_CODES.ok) code = EXIT_CODES.teardownTimeout;
    }
  } else {
    if (outcome.error !== undefined) {
      logError(`teardown() failed: ${outcome.error}`);
      if (code === EXIT_CODES.ok) code = outcome.rejected === true ? EXIT_CODES.promiseRejected : EXIT_CODES.scriptException;
    }
    await lifecycle.done;
  }
  await lifecycle.worker.terminate();
  return code;
}
