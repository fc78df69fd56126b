// `--under-load [profile]` (gate and conformance): the suite's second pass run while the mixed scenario holds its load
// against the same target; the load starts first, the pass begins once the load holds requests in flight, every request
// of the pass waits for the load beside it (load-witness.ts), and the load runs until the pass ends (bounded by a deadline).
import type { ResolvedTargetConfig } from '../api/target-config.ts';
import type { ApiSelection } from '../conformance/plan.ts';
import type { EngineChoice } from '../load/engine-select.ts';
import { PROFILES, type ProfileName } from '../load/profiles.ts';
import type { LoadFlags } from '../load/runner/load-options.ts';
import { loadSection, runMetricsFile } from '../load/runner/load-report.ts';
import { runLoad, type LoadRun } from '../load/runner/run-load.ts';
import type { RunInterrupt } from '../reports/interrupt-watch.ts';
import type { LoadSection } from '../reports/model.ts';
import type { UnderLoadRun } from '../conformance/under-load/compare.ts';
import type { Progress, TaskSpec } from '../reports/progress.ts';
import { createLoadWitness, type LoadWitness } from './load-witness.ts';

/** The scenario that holds the load: every operation of the catalog. */
export const UNDER_LOAD_SCENARIO = 'mixed';
/** `--under-load` without a profile: expected traffic (an arrival rate that a slow target cannot slow down). */
export const UNDER_LOAD_DEFAULT_PROFILE: ProfileName = 'load';
/** The load's deadline is at least this (s), so its ramp (a share of it) is short beside the pass. */
const MIN_LOAD_SEC = 120;
/** The deadline in idle passes: the loaded pass is slower than the idle one, and the load must outlast it. */
const LOAD_DEADLINE_FACTOR = 5;
/** How long the pass waits for the load to hold requests in flight before it starts anyway (said in the notes). */
const HOLD_WAIT_MS = 120_000;
/** Where the target counts requests in flight: the load holds once it kept one in flight this long without a gap (real ms). */
const HOLD_STEADY_MS = 1_000;
/**
 * Requests of the load the target counted without ever holding: it answers faster than the load's requests overlap (the
 * faithful embedded sandbox), so the pass starts with the load sending, and its requests do not wait for one in flight.
 */
const SENDING_REQUESTS = 200;

export function parseUnderLoadProfile(value: string | true | undefined): ProfileName | undefined {
  if (value === undefined) return undefined;
  if (value === true) return UNDER_LOAD_DEFAULT_PROFILE;
  if (value in PROFILES) return value as ProfileName;
  throw new Error(`--under-load: unknown load profile '${value.slice(0, 20)}' (one of ${Object.keys(PROFILES).join(', ')})`);
}

/**
 * The load's deadline: five times the idle pass (the loaded pass is slower), at least two minutes, at most the profile's
 * duration; the load is stopped when the pass ends, so the deadline only bounds a pass that never ends. A
 * fixed-iterations profile (smoke) keeps its own bound. A case that sends a request after the load ended is not
 * verified under load (load-witness.ts).
 */
export function underLoadFlags(
  base: { readonly profile: ProfileName; readonly engine: EngineChoice; readonly api: ApiSelection; readonly reportDir: string },
  idleMs: number,
): LoadFlags {
  const shape = PROFILES[base.profile].shape;
  const flags: LoadFlags = {
    scenario: UNDER_LOAD_SCENARIO,
    profile: base.profile,
    engine: base.engine,
    api: base.api,
    reportDir: base.reportDir,
    thresholds: {},
  };
  if (shape.kind !== 'arrival') return flags;
  const durationSec = Math.min(shape.durationSec, Math.max(MIN_LOAD_SEC, Math.ceil((LOAD_DEADLINE_FACTOR * idleMs) / 1000)));
  return { ...flags, duration: `${durationSec}s`, durationSec };
}

/** The load's stop: the command's signal (a user's SIGINT stops both) or the pass's end, whichever comes first. */
function loadInterrupt(parent: RunInterrupt | undefined, passEnded: AbortSignal): RunInterrupt {
  return {
    signal: parent === undefined ? passEnded : AbortSignal.any([parent.signal, passEnded]),
    forced: parent?.forced ?? new AbortController().signal,
    received: () => parent?.received(),
    enter: (part) => parent?.enter(part),
    interruption: (startedAt, extra) => parent?.interruption(startedAt, extra),
    onForce: (handler) => parent?.onForce(handler),
    dispose: () => undefined,
  };
}

/** The command's progress, noting when the load's task first reports progress (the engine is running its VUs). */
function watchedProgress(progress: Progress, seen: () => void): Progress {
  return {
    line: (text) => progress.line(text),
    done: () => progress.done(),
    start: (task: TaskSpec | string) => {
      const handle = progress.start(task);
      return {
        update: (update) => {
          if ((update.done ?? 0) > 0) seen();
          handle.update(update);
        },
        done: (result) => handle.done(result),
      };
    },
  };
}

export interface UnderLoadIo {
  readonly resolved: ResolvedTargetConfig;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly runId: string;
  readonly progress: Progress;
  readonly interrupt?: RunInterrupt;
  /** The embedded sandbox both passes and the load share: its counters tell when the load is sending and in flight. */
  readonly sandbox?: {
    readonly url: string;
    readonly profile: string;
    readonly inFlight: () => number;
    readonly requestsSeen: () => number;
  };
}

export interface UnderLoadOutcome<T> {
  readonly pass: T;
  readonly run: LoadRun;
  readonly passMs: number;
  readonly stoppedAtPassEnd: boolean;
  readonly notes: readonly string[];
  /** The cases that sent a request without the load beside them, with why (load-witness.ts): not verified under load. */
  readonly unwitnessed: ReadonlyMap<string, string>;
}

type LoadState = { ended: boolean; progressed: boolean };

/** What the pass found of its load before it started. */
type LoadWait = 'holding' | 'sending' | 'ended' | 'timeout';

/**
 * Polls until the load holds (the target kept a request in flight HOLD_STEADY_MS without a gap), or it is sending without
 * holding (SENDING_REQUESTS counted at the target; where it counts nothing, the load reported progress), or it has
 * ended, or the wait's bound passed; says which.
 */
async function waitForLoad(state: LoadState, sandbox: UnderLoadIo['sandbox']): Promise<LoadWait> {
  const deadline = Date.now() + HOLD_WAIT_MS;
  const start = sandbox?.requestsSeen() ?? 0;
  let steadySince: number | undefined;
  for (;;) {
    if (state.ended) return 'ended';
    if (sandbox === undefined) {
      if (state.progressed) return 'sending';
    } else if (sandbox.inFlight() === 0) {
      steadySince = undefined;
      if (sandbox.requestsSeen() - start >= SENDING_REQUESTS) return 'sending';
    } else if (Date.now() - (steadySince ??= Date.now()) >= HOLD_STEADY_MS) return 'holding';
    if (Date.now() > deadline) return 'timeout';
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The notes a wait leaves in the comparison. */
function loadWaitNotes(waited: LoadWait, embedded: boolean): string[] {
  if (waited === 'ended') return ['the load ended before it was sending: the second pass ran without load'];
  if (waited === 'timeout') return [`the load was not sending within ${HOLD_WAIT_MS / 1000} s: the second pass started anyway`];
  if (waited === 'sending' && embedded)
    return [
      `the target answered faster than the load's requests overlap (none stayed in flight ${HOLD_STEADY_MS / 1000} s): each case ran while the load was sending, with no request of it provably in flight beside the case's`,
    ];
  return [];
}

/**
 * Starts the load, runs `pass` once the load holds requests in flight (the pass gets the witness each of its requests
 * waits on), stops the load when the pass ends, and returns both.
 */
export async function runUnderLoad<T>(
  flags: LoadFlags,
  io: UnderLoadIo,
  pass: (witness: LoadWitness) => Promise<T>,
): Promise<UnderLoadOutcome<T>> {
  const passEnded = new AbortController();
  const state: LoadState = { ended: false, progressed: false };
  const notes: string[] = [];
  const loading = runLoad(flags, io.resolved, {
    cwd: io.cwd,
    env: io.env,
    progress: watchedProgress(io.progress, () => (state.progressed = true)),
    runId: io.runId,
    interrupt: loadInterrupt(io.interrupt, passEnded.signal),
    ...(io.sandbox === undefined ? {} : { sandbox: { url: io.sandbox.url, profile: io.sandbox.profile } }),
  }).finally(() => (state.ended = true));
  // A load that fails to start rejects here; it is awaited below, after the pass (no unhandled rejection meanwhile).
  loading.catch(() => undefined);
  const waited = await waitForLoad(state, io.sandbox);
  notes.push(...loadWaitNotes(waited, io.sandbox !== undefined));
  io.progress.line(`conformance: the second pass, under load ${UNDER_LOAD_SCENARIO}/${flags.profile}`);
  // A load that holds requests in flight: each request of the pass waits for one beside it (load-witness.ts).
  const inFlight = waited === 'holding' ? io.sandbox?.inFlight : undefined;
  const witness = createLoadWitness({ running: () => !state.ended, ...(inFlight === undefined ? {} : { inFlight }) });
  const passStarted = Date.now();
  let result: T;
  try {
    result = await pass(witness);
  } finally {
    passEnded.abort();
  }
  const passMs = Date.now() - passStarted;
  const stoppedAtPassEnd = !state.ended;
  const run = await loading;
  if (!stoppedAtPassEnd && (waited === 'holding' || waited === 'sending'))
    notes.push(
      `the load reached its deadline (${flags.duration ?? 'its iterations'}) before the pass ended: later cases are not verified under load`,
    );
  return { pass: result, run, passMs, stoppedAtPassEnd, notes, unwitnessed: witness.unwitnessed };
}

/** The load section of the run beside the loaded pass (its thresholds judged as usual), or why there is none. */
export async function underLoadSection(
  run: LoadRun,
  flags: LoadFlags,
  allowSkips: boolean,
): Promise<{ readonly section?: LoadSection; readonly error?: string }> {
  if (run.unusable !== undefined) return { error: `load: ${run.unusable}` };
  if (run.summaryData === undefined) return { error: `load: the ${run.engineLabel} run wrote no summary (exit ${run.engineExit})` };
  const metrics = runMetricsFile(run);
  const section = await loadSection({
    summaryData: run.summaryData,
    scenario: UNDER_LOAD_SCENARIO,
    profile: flags.profile,
    engine: run.engineLabel,
    ...(metrics === undefined ? {} : { ndjsonPath: metrics }),
    payload: run.payload,
    allowSkips,
  });
  // 105: stopped from outside (here: when the pass ended), not a broken run; anything else but 0 and 99 is.
  const broken = ![0, 99, 105].includes(run.engineExit) && section.setupCompleted !== false;
  return broken ? { section, error: `load: the ${run.engineLabel} run ended with exit code ${run.engineExit}` } : { section };
}

/** What the comparison needs of the outcome: the load, the pass's time, the notes, and the cases not witnessed beside the load. */
export function underLoadRun(outcome: UnderLoadOutcome<unknown>, profile: string): UnderLoadRun {
  return {
    load: { scenario: UNDER_LOAD_SCENARIO, profile, durationMs: outcome.run.durationMs, stoppedAtPassEnd: outcome.stoppedAtPassEnd },
    passMs: outcome.passMs,
    notes: [...outcome.notes],
    unwitnessed: outcome.unwitnessed,
  };
}
