// One instance's share of a scenario when a test is split with execution segments, exactly as k6's executors take it
// (lib/executor/*.go): VU counts scaled by the instance's tuple, shared iterations and arrival-rate slots striped by the
// tuple re-segmented by VUs / maxVUs, iterationInTest mapped to the test-wide number. The worker stripe applies on top.
import { WHOLE_TUPLE, type ExecutionTuple } from '../execution-segment.ts';
import type { ScenarioConfig } from '../options.ts';

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

function maxVUsOf(scenario: ScenarioConfig): number {
  switch (scenario.executor) {
    case 'shared-iterations':
    case 'per-vu-iterations':
    case 'constant-vus':
      return scenario.vus;
    case 'ramping-vus':
      return Math.max(scenario.startVUs, ...scenario.stages.map((s) => s.target));
    case 'constant-arrival-rate':
    case 'ramping-arrival-rate':
      return scenario.maxVUs;
  }
}

/** The share of `scenario` that the instance described by `tuple` runs (the whole scenario for an unsplit test). */
export function scenarioShare(scenario: ScenarioConfig, tuple: ExecutionTuple = WHOLE_TUPLE): ScenarioShare {
  const vus = (total: number): number => tuple.scale(total);
  const byInstance = (k: number): number => tuple.globalIndex(k);
  switch (scenario.executor) {
    case 'shared-iterations': {
      // SharedIterationsConfig.GetIterations / SharedIterations.Init: iterations are striped by the tuple re-cut by VUs.
      const iterTuple = tuple.forValue(scenario.vus);
      const iterations = iterTuple === undefined ? 0 : iterTuple.scale(scenario.iterations);
      return {
        vus,
        iterations,
        iterationIndex: (k) => (iterTuple ?? tuple).globalIndex(k),
        slot: byInstance,
        hasWork: vus(scenario.vus) > 0 && iterations > 0,
      };
    }
    case 'constant-arrival-rate':
    case 'ramping-arrival-rate': {
      // ConstantArrivalRate.Init / RampingArrivalRate.Init: iteration slots come from the tuple re-cut by maxVUs.
      const iterTuple = tuple.forValue(scenario.maxVUs);
      const index = (k: number): number => (iterTuple ?? tuple).globalIndex(k);
      return { vus, iterations: 0, iterationIndex: index, slot: index, hasWork: vus(scenario.maxVUs) > 0 };
    }
    default:
      return { vus, iterations: 0, iterationIndex: byInstance, slot: byInstance, hasWork: vus(maxVUsOf(scenario)) > 0 };
  }
}
