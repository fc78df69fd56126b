// `--under-load [profile]` (gate and conformance): the suite's second pass run while the mixed scenario holds its load
// against the same target; the load starts first, the pass begins once the load is sending, and the load stops when the pass ends.
import type { ResolvedTargetConfig } from '../api/target-config.ts';
import type { ApiSelection } from '../conformance/plan.ts';
import type { EngineChoice } from '../load/engine-select.ts';
import { PROFILES, type ProfileName } from '../load/profiles.ts';
import type { LoadFlags } from '../load/runner/load-options.ts';
import { loadSection, runMetricsFile } from '../load/runner/load-report.ts';
import { runLoad, type LoadRun } from '../load/runner/run-load.ts';
import type { RunInterrupt } from '../reports/interrupt-watch.ts';
import type { LoadSection, UnderLoadComparison } from '../reports/model.ts';
import type { Progress, TaskSpec } from '../reports/progress.ts';

/** The scenario that holds the load: every operation of the catalog. */
export const UNDER_LOAD_SCENARIO = 'mixed';
/** `--under-load` without a profile: expected traffic (an arrival rate that a slow target cannot slow down). */
export const UNDER_LOAD_DEFAULT_PROFILE: ProfileName = 'load';
/** The load never runs shorter than this (s), so its ramp is over before the pass's late, exclusive cases. */
const MIN_LOAD_SEC = 60;
/** How long the pass waits for the load to be sending before it starts anyway (said in the notes). */
const HOLD_WAIT_MS = 60_000;
/** Requests the target must have seen from the load before the pass starts (embedded sandbox: counted there). */
const HOLD_REQUESTS = 10;

export function parseUnderLoadProfile(value: string | true | undefined): ProfileName | undefined {
  if (value === undefined) return undefined;
  if (value === true) return UNDER_LOAD_DEFAULT_PROFILE;
  if (value in PROFILES) return value as ProfileName;
  throw new Error(`--under-load: unknown load profile '${value.slice(0, 20)}' (one of ${Object.keys(PROFILES).join(', ')})`);
}

/**
 * The load's own bound: three times the idle pass (the loaded pass is slower), at least a minute, at most the profile's
 * duration; the load is stopped as soon as the pass ends. A fixed-iterations profile (smoke) keeps its own bound.
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
  const durationSec = Math.min(shape.durationSec, Math.max(MIN_LOAD_SEC, Math.ceil((3 * idleMs) / 1000)));
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
  /** The embedded sandbox both passes and the load share: its request counter tells when the load is sending. */
  readonly sandbox?: { readonly url: string; readonly profile: string; readonly requestsSeen: () => number };
}

export interface UnderLoadOutcome<T> {
  readonly pass: T;
  readonly run: LoadRun;
  readonly passMs: number;
  readonly stoppedAtPassEnd: boolean;
  readonly notes: readonly string[];
}

/** Polls (50 ms) until the load is sending, has ended, or the wait's bound passed; says which. */
async function waitForLoad(state: { ended: boolean; progressed: boolean }, requestsSeen: (() => number) | undefined): Promise<string> {
  const start = requestsSeen?.() ?? 0;
  const deadline = Date.now() + HOLD_WAIT_MS;
  for (;;) {
    if (state.ended) return 'ended';
    if (state.progressed || (requestsSeen !== undefined && requestsSeen() - start >= HOLD_REQUESTS)) return 'holding';
    if (Date.now() > deadline) return 'timeout';
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts the load, runs `pass` once the load is sending, stops the load when the pass ends, and returns both. */
export async function runUnderLoad<T>(flags: LoadFlags, io: UnderLoadIo, pass: () => Promise<T>): Promise<UnderLoadOutcome<T>> {
  const passEnded = new AbortController();
  const state = { ended: false, progressed: false };
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
  const waited = await waitForLoad(state, io.sandbox?.requestsSeen);
  if (waited === 'ended') notes.push('the load ended before it was sending: the second pass ran without load');
  if (waited === 'timeout') notes.push(`the load showed no progress within ${HOLD_WAIT_MS / 1000} s: the second pass started anyway`);
  io.progress.line(`conformance: the second pass, under load ${UNDER_LOAD_SCENARIO}/${flags.profile}`);
  const passStarted = Date.now();
  let result: T;
  try {
    result = await pass();
  } finally {
    passEnded.abort();
  }
  const passMs = Date.now() - passStarted;
  const stoppedAtPassEnd = !state.ended;
  const run = await loading;
  if (!stoppedAtPassEnd && waited === 'holding')
    notes.push(
      `the load reached its own bound (${flags.duration ?? 'its iterations'}) before the pass ended: the pass's last cases ran without load`,
    );
  return { pass: result, run, passMs, stoppedAtPassEnd, notes };
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

/** The comparison's load part and notes, from the outcome. */
export function underLoadRun(outcome: UnderLoadOutcome<unknown>, profile: string): Pick<UnderLoadComparison, 'load' | 'passMs' | 'notes'> {
  return {
    load: { scenario: UNDER_LOAD_SCENARIO, profile, durationMs: outcome.run.durationMs, stoppedAtPassEnd: outcome.stoppedAtPassEnd },
    passMs: outcome.passMs,
    notes: [...outcome.notes],
  };
}
