// One instance's share of a scenario when a test is split with execution segments, exactly as k6's executors take it
// (lib/executor/*.go): VU counts scaled by the instance's tuple, shared iterations and arrival-rate slots striped by the
// tuple re-segmented by VUs / maxVUs, iterationInTest mapped to the test-wide number. The worker stripe applies on top.
// Each executor module picks the rule that is its own; these are the three k6 has.
import type { ExecutionTuple } from '../execution-segment.ts';

export interface ScenarioShare {
  /** This instance's share of a VU count (k6's ExecutionTuple.ScaleInt64 on the instance's tuple). */
  vus(total: number): number;
  /** shared-iterations: this instance's iterations (0 for the other executors, which do not share a pool). */
  readonly iterations: number;
  /** The test-wide number (exec.scenario.iterationInTest) of this instance's k-th iteration (0-based). */
  iterationIndex(k: number): number;
  /** Arrival-rate executors: the test-wide slot of this instance's j-th iteration (iteration slot × period = start). */
  slot(j: number): number;
  /** False when k6 runs nothing of the scenario on this instance (its HasWork()). */
  readonly hasWork: boolean;
}

/** VU-count executors: VUs scaled by the tuple, iterations numbered by instance. */
export function vusShare(maxVUs: number, tuple: ExecutionTuple): ScenarioShare {
  const byInstance = (k: number): number => tuple.globalIndex(k);
  return {
    vus: (total) => tuple.scale(total),
    iterations: 0,
    iterationIndex: byInstance,
    slot: byInstance,
    hasWork: tuple.scale(maxVUs) > 0,
  };
}

/** shared-iterations (SharedIterationsConfig.GetIterations / SharedIterations.Init): iterations striped by the tuple re-cut by VUs. */
export function sharedIterationsShare(vus: number, iterations: number, tuple: ExecutionTuple): ScenarioShare {
  const iterTuple = tuple.forValue(vus);
  const mine = iterTuple === undefined ? 0 : iterTuple.scale(iterations);
  return {
    vus: (total) => tuple.scale(total),
    iterations: mine,
    iterationIndex: (k) => (iterTuple ?? tuple).globalIndex(k),
    slot: (k) => tuple.globalIndex(k),
    hasWork: tuple.scale(vus) > 0 && mine > 0,
  };
}

/** Arrival-rate executors (ConstantArrivalRate.Init / RampingArrivalRate.Init): iteration slots from the tuple re-cut by maxVUs. */
export function arrivalRateShare(maxVUs: number, tuple: ExecutionTuple): ScenarioShare {
  const iterTuple = tuple.forValue(maxVUs);
  const index = (k: number): number => (iterTuple ?? tuple).globalIndex(k);
  return { vus: (total) => tuple.scale(total), iterations: 0, iterationIndex: index, slot: index, hasWork: tuple.scale(maxVUs) > 0 };
}
