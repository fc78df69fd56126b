// The six executors driven by a fake iteration (a timer, no HTTP): iteration counts, VUs over time, arrival rates on a
// healthy target and dropped iterations on a saturated one, and worker segments that add up to the whole. Assertions
// are on counts (exact by construction), never on wall-clock tightness, so a loaded 2-core box cannot flake them.
import { describe, expect, it } from 'vitest';
import { parseScenario, type ScenarioConfig } from '../options.ts';
import type { ExecutorHost } from './host.ts';
import { runScenario } from './registry.ts';
import type { Segment } from './schedule.ts';

interface FakeVU {
  id: number;
  stop?: () => void;
}

/** `clock` is the host's ms clock; a slow one models Node timers that fire before performance.now() reaches the deadline. */
function fakeHost(iterationMs: number, clock: () => number = () => performance.now()) {
  const stats = {
    iterations: 0,
    interrupted: 0,
    dropped: 0,
    vusCreated: 0,
    active: 0,
    maxActive: 0,
    timeline: [] as Array<[number, number]>,
  };
  let next = 1;
  const start = performance.now();
  const host: ExecutorHost<FakeVU> = {
    now: clock,
    signal: new AbortController().signal,
    initVU: async () => {
      stats.vusCreated++;
      return { id: next++ };
    },
    runIteration: (vu) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          stats.iterations++;
          resolve();
        }, iterationMs);
        vu.stop = () => {
          clearTimeout(timer);
          stats.interrupted++;
          resolve();
        };
      }),
    interrupt: (vu) => vu.stop?.(),
    dropped: () => {
      stats.dropped++;
    },
    activeVUs: (delta) => {
      stats.active += delta;
      stats.maxActive = Math.max(stats.maxActive, stats.active);
      stats.timeline.push([performance.now() - start, stats.active]);
    },
    initializedVUs: () => undefined,
  };
  return { host, stats };
}

async function run(raw: Record<string, unknown>, iterationMs: number, seg: Segment = { index: 0, count: 1 }, clock?: () => number) {
  const scenario: ScenarioConfig = parseScenario('s', raw);
  const { host, stats } = fakeHost(iterationMs, clock);
  await runScenario(scenario, seg, host);
  return stats;
}

describe('iteration-count executors', () => {
  it.each([
    ['shared-iterations', { executor: 'shared-iterations', vus: 4, iterations: 37 }, 37, 4],
    ['per-vu-iterations', { executor: 'per-vu-iterations', vus: 3, iterations: 5 }, 15, 3],
    ['shared-iterations, 1 VU', { executor: 'shared-iterations' }, 1, 1],
  ])('%s runs exactly its iterations on its VUs', async (_name, raw, iterations, vus) => {
    const stats = await run(raw, 2);
    expect(stats.iterations).toBe(iterations);
    expect(stats.vusCreated).toBe(vus);
    expect(stats.maxActive).toBe(vus);
    expect(stats.active).toBe(0);
  });

  it('stops at maxDuration and interrupts what outlives gracefulStop', async () => {
    // Iterations that would never end by themselves within the test (60 s): only the stop can end them, however late
    // a loaded machine fires the 200 ms timer (with 1 s iterations a stalled event loop let them finish first).
    const stats = await run({ executor: 'per-vu-iterations', vus: 2, iterations: 100, maxDuration: '200ms', gracefulStop: '0s' }, 60_000);
    expect(stats.iterations).toBe(0);
    expect(stats.interrupted).toBe(2);
  });

  it.each([
    ['per-vu-iterations', { executor: 'per-vu-iterations', vus: 2, iterations: 100, maxDuration: '200ms', gracefulStop: '0s' }],
    ['constant-vus', { executor: 'constant-vus', vus: 2, duration: '200ms', gracefulStop: '0s' }],
  ])(
    '%s starts no iteration after the stop, even when the stop timer fires before the clock reaches the end',
    async (_name, raw) => {
      // A clock at half speed: every timer fires when the host clock has reached only half its deadline, so the loops
      // still see "before the end" after the stop interrupted their iterations. Only the stop may end the run; an
      // iteration started after it would hold the run for its whole 60 s.
      const origin = performance.now();
      const stats = await run(raw, 60_000, undefined, () => (performance.now() - origin) / 2);
      expect(stats.interrupted).toBe(2);
      expect(stats.iterations).toBe(0);
    },
    10_000,
  );
});

describe('constant-vus and ramping-vus', () => {
  it('constant-vus keeps its VUs busy for the duration', async () => {
    const stats = await run({ executor: 'constant-vus', vus: 3, duration: '300ms', gracefulStop: '5s' }, 10);
    expect(stats.maxActive).toBe(3);
    expect(stats.iterations).toBeGreaterThanOrEqual(3);
    expect(stats.interrupted).toBe(0); // 10 ms iterations finish within the graceful stop
    expect(stats.active).toBe(0);
  });

  it('ramping-vus goes up to the stage target and back to zero', async () => {
    const stats = await run(
      {
        executor: 'ramping-vus',
        startVUs: 0,
        stages: [
          { duration: '200ms', target: 4 },
          { duration: '300ms', target: 4 },
          { duration: '200ms', target: 0 },
        ],
        gracefulRampDown: '0s',
      },
      5,
    );
    expect(stats.maxActive).toBe(4);
    expect(stats.vusCreated).toBe(4);
    const counts = stats.timeline.map(([, n]) => n);
    // Up one VU at a time, then down: the timeline rises to 4 before it falls.
    const peak = counts.indexOf(4);
    expect(counts.slice(0, peak + 1)).toEqual([...counts.slice(0, peak + 1)].sort((a, b) => a - b));
    expect(stats.active).toBe(0);
  });

  it('interrupts a ramped-down VU after gracefulRampDown', async () => {
    const stats = await run(
      {
        executor: 'ramping-vus',
        startVUs: 2,
        stages: [
          { duration: '100ms', target: 0 },
          { duration: '300ms', target: 0 },
        ],
        gracefulRampDown: '50ms',
      },
      10_000,
    );
    expect(stats.interrupted).toBe(2);
    expect(stats.iterations).toBe(0);
  });
});

describe('arrival-rate executors (open model)', () => {
  it.each([
    [
      'constant-arrival-rate',
      { executor: 'constant-arrival-rate', rate: 200, timeUnit: '1s', duration: '1s', preAllocatedVUs: 100, maxVUs: 200 },
      200,
    ],
    [
      'ramping-arrival-rate',
      {
        executor: 'ramping-arrival-rate',
        startRate: 0,
        timeUnit: '1s',
        preAllocatedVUs: 100,
        maxVUs: 200,
        stages: [
          { duration: '1s', target: 200 },
          { duration: '500ms', target: 200 },
        ],
      },
      199,
    ],
  ])(
    '%s starts every scheduled iteration on a healthy target (within 2 percent; VUs to spare, so only a stall of ~0.5 s could drop one)',
    async (_name, raw, scheduled) => {
      const stats = await run(raw, 2);
      expect(stats.iterations + stats.dropped).toBe(scheduled);
      expect(stats.dropped).toBeLessThanOrEqual(scheduled * 0.02);
    },
  );

  it('drops what it cannot start on a saturated target, without slowing the start rate', async () => {
    // 2 VUs, 300 ms per iteration: at most ~2 × (1 s / 300 ms) + 2 can start; the rest of the 100 are dropped.
    const stats = await run(
      { executor: 'constant-arrival-rate', rate: 100, timeUnit: '1s', duration: '1s', preAllocatedVUs: 2, maxVUs: 2, gracefulStop: '2s' },
      300,
    );
    expect(stats.iterations + stats.dropped).toBe(100);
    expect(stats.dropped).toBeGreaterThanOrEqual(80);
    expect(stats.vusCreated).toBe(2);
  });

  it('grows the pool up to maxVUs when the preallocated VUs are busy', async () => {
    const stats = await run(
      { executor: 'constant-arrival-rate', rate: 50, timeUnit: '1s', duration: '1s', preAllocatedVUs: 1, maxVUs: 6, gracefulStop: '2s' },
      250,
    );
    expect(stats.vusCreated).toBeGreaterThan(1);
    expect(stats.vusCreated).toBeLessThanOrEqual(6);
    expect(stats.iterations + stats.dropped).toBe(50);
  });

  it('worker segments split the rate exactly', async () => {
    const raw = { executor: 'constant-arrival-rate', rate: 90, timeUnit: '1s', duration: '1s', preAllocatedVUs: 6, maxVUs: 6 };
    const parts = await Promise.all([0, 1, 2].map((index) => run(raw, 2, { index, count: 3 })));
    expect(parts.reduce((sum, s) => sum + s.iterations + s.dropped, 0)).toBe(90);
    expect(parts.map((s) => s.vusCreated)).toEqual([2, 2, 2]);
  });
});

describe('an aborted test (Ctrl-C, abortOnFail, exec.test.abort)', () => {
  it.each(['constant-vus', 'per-vu-iterations'])(
    '%s: running iterations are interrupted at once, not left to their gracefulStop or their end',
    async (executor) => {
      // Iterations of 60 s with a 30 s gracefulStop: only an immediate interruption ends the scenario within the bound.
      const { host, stats } = fakeHost(60_000);
      const abort = new AbortController();
      const raw =
        executor === 'constant-vus'
          ? { executor, vus: 3, duration: '10m', gracefulStop: '30s' }
          : { executor, vus: 3, iterations: 5, maxDuration: '10m', gracefulStop: '30s' };
      const running = runScenario(parseScenario('s', raw), { index: 0, count: 1 }, { ...host, signal: abort.signal });
      // The abort comes once every VU is in an iteration (a state, not a sleep).
      while (stats.maxActive < 3) await new Promise((r) => setTimeout(r, 5));
      const abortedAt = performance.now();
      abort.abort();
      await running;
      expect(stats.interrupted).toBe(3);
      expect(stats.iterations).toBe(0);
      expect(performance.now() - abortedAt).toBeLessThan(10_000);
    },
    20_000,
  );
});
