// The narrow interface an executor drives: time, VUs and iterations come from an ExecutorHost, so the engine's workers
// run the executors for real and tests drive them with a fake iteration.
import type { ScenarioBase } from './config.ts';

/** Any executor's config: the host needs only what every scenario has (its name, exec, env and tags). */
type ScenarioConfig = ScenarioBase & { executor: string };

export interface ExecutorHost<V> {
  /** Monotonic ms. */
  now(): number;
  /** Creates and initializes a VU for the scenario (runs the init context). */
  initVU(scenario: ScenarioConfig): Promise<V>;
  /** Runs one iteration; must resolve (never reject) when it ends or is interrupted. */
  runIteration(vu: V, scenario: ScenarioConfig): Promise<void>;
  /** Interrupts the VU's running iteration (gracefulStop / gracefulRampDown ran out). */
  interrupt(vu: V): void;
  /** Counts one iteration an arrival-rate executor could not start. */
  dropped(scenario: ScenarioConfig): void;
  /** Active VUs changed by delta (the `vus` gauge). */
  activeVUs(delta: number): void;
  /** VUs initialized changed by delta (the `vus_max` gauge). */
  initializedVUs(delta: number): void;
  /** Claims the next index of a shared-iterations pool shared by every worker; undefined means "use a local count". */
  claimShared?(scenario: ScenarioConfig): number;
  /** Aborted test (threshold abortOnFail, exec.test.abort, Ctrl-C): stop starting iterations, interrupt at once. */
  readonly signal: AbortSignal;
}
