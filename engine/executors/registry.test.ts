// The executor table: every k6 executor parses with k6's defaults and refusals, describes itself in k6's words, and
// plans its duration, VUs and iteration bound (the money plan's) from its own module.
import { describe, expect, it } from 'vitest';
import { OptionsError } from './config.ts';
import {
  describeScenario,
  EXECUTORS,
  iterationBound,
  iterationGoal,
  parseScenario,
  plannedVUs,
  scenarioDurationMs,
  scenarioMaxVUs,
} from './registry.ts';

const stages = [
  { duration: '10s', target: 20 },
  { duration: '5s', target: 5 },
];

describe('executor table', () => {
  it('has one module per k6 executor the engine runs', () => {
    expect([...EXECUTORS].sort()).toEqual([
      'constant-arrival-rate',
      'constant-vus',
      'per-vu-iterations',
      'ramping-arrival-rate',
      'ramping-vus',
      'shared-iterations',
    ]);
  });

  it.each([
    [{ executor: 'shared-iterations' }, '1 iterations shared among 1 VUs (maxDuration: 10m0s, gracefulStop: 30s)', 600_000, 1, 1, 1],
    [
      { executor: 'per-vu-iterations', vus: 3, iterations: 4, maxDuration: '1m30s' },
      '4 iterations for each of 3 VUs (maxDuration: 1m30s, gracefulStop: 30s)',
      90_000,
      3,
      12,
      12,
    ],
    [{ executor: 'constant-vus', vus: 10, duration: '30s', gracefulStop: '0s' }, '10 looping VUs for 30s', 30_000, 10, undefined, 0],
    [
      { executor: 'ramping-vus', startVUs: 2, stages },
      'Up to 20 looping VUs for 15s over 2 stages (gracefulRampDown: 30s, gracefulStop: 30s)',
      15_000,
      20,
      undefined,
      0,
    ],
    [
      {
        executor: 'constant-arrival-rate',
        rate: 30,
        timeUnit: '1m',
        duration: '2m',
        preAllocatedVUs: 5,
        maxVUs: 8,
        exec: 'buy',
        startTime: '5s',
      },
      '0.50 iterations/s for 2m0s (maxVUs: 5-8, exec: buy, startTime: 5s, gracefulStop: 30s)',
      120_000,
      8,
      60,
      0,
    ],
    // Bound: each stage at its higher end's rate for its whole duration (10 s × 20/s + 5 s × 20/s).
    [
      { executor: 'ramping-arrival-rate', startRate: 2, stages, preAllocatedVUs: 4 },
      'Up to 20.00 iterations/s for 15s over 2 stages (maxVUs: 4, gracefulStop: 30s)',
      15_000,
      4,
      300,
      0,
    ],
  ])('%j', (raw, description, durationMs, maxVUs, bound, goal) => {
    const scenario = parseScenario('s', raw);
    expect(describeScenario(scenario)).toBe(description);
    expect(scenarioDurationMs(scenario)).toBe(durationMs);
    expect(scenarioMaxVUs(scenario)).toBe(maxVUs);
    expect(iterationBound(scenario)).toBe(bound);
    expect(iterationGoal(scenario)).toBe(goal);
  });

  it('plans a worker segment its stripe of the VUs it initializes first', () => {
    const ramping = parseScenario('s', { executor: 'ramping-vus', startVUs: 0, stages });
    expect(
      plannedVUs(ramping, { index: 0, count: 3 }) +
        plannedVUs(ramping, { index: 1, count: 3 }) +
        plannedVUs(ramping, { index: 2, count: 3 }),
    ).toBe(20);
    const arrival = parseScenario('s', { executor: 'constant-arrival-rate', rate: 10, duration: '1s', preAllocatedVUs: 3, maxVUs: 9 });
    expect(plannedVUs(arrival, { index: 0, count: 1 })).toBe(3);
  });

  it.each([
    [
      { executor: 'shared-iterations', vus: 5, iterations: 2 },
      'scenarios.s.iterations (2) must be at least the number of VUs (5) in a shared-iterations scenario',
    ],
    [{ executor: 'constant-vus', vus: 0, duration: '1s' }, 'scenarios.s.vus must be at least 1'],
    [{ executor: 'constant-vus', vus: 1 }, 'scenarios.s.duration is required'],
    [{ executor: 'constant-vus', vus: 1, duration: '0s' }, 'scenarios.s.duration must be more than 0'],
    [{ executor: 'ramping-vus', stages: [] }, 'scenarios.s.stages must be a non-empty list of { duration, target }'],
    [
      { executor: 'ramping-vus', stages: [{ duration: '1s', target: 1.5 }] },
      'scenarios.s.stages[0].target must be a whole number, got 1.5',
    ],
    [{ executor: 'constant-arrival-rate', rate: 0, duration: '1s', preAllocatedVUs: 1 }, 'scenarios.s.rate must be more than 0'],
    [
      { executor: 'ramping-arrival-rate', stages, preAllocatedVUs: 5, maxVUs: 2 },
      'scenarios.s.maxVUs must not be less than preAllocatedVUs',
    ],
    [
      { executor: 'constant-vus', vus: 1, duration: '1m30x' },
      'scenarios.s.duration: "1m30x" is not a valid duration (use e.g. "500ms", "30s", "1m30s")',
    ],
    [
      { executor: 'externally-controlled' },
      'scenarios.s: the externally-controlled executor is not implemented by the node engine; run this script with k6',
    ],
    [
      { executor: 'constant-vu' },
      'scenarios.s.executor: unknown executor "constant-vu" (one of shared-iterations, per-vu-iterations, constant-vus, ramping-vus, constant-arrival-rate, ramping-arrival-rate)',
    ],
  ])('refuses %j as k6 does', (raw, message) => {
    expect(() => parseScenario('s', raw)).toThrow(OptionsError);
    expect(() => parseScenario('s', raw)).toThrow(message);
  });
});
