// The saturation judge over synthetic generator series: which seconds make a window, what the window can explain, and
// the load verdict that follows (a latency threshold crossed only by the generator is incomplete, never crossed).
import { describe, expect, it } from 'vitest';
import {
  accuracyOf,
  carriedOutside,
  generatorBoundThresholds,
  generatorReport,
  mergeBySecond,
  requestShareInWindows,
  saturatedWindows,
  type GeneratorPoint,
} from './generator.ts';
import { accuracyText, loadLine, loadVerdict } from './sections.ts';
import type { LoadSection } from './model.ts';

const T0 = Date.UTC(2026, 10, 27, 1, 0, 0);
const second = (i: number, figures: Omit<GeneratorPoint, 't'>): GeneratorPoint => ({ t: T0 + (i + 1) * 1000, ...figures });
const nodeSeries = (delays: readonly number[]): GeneratorPoint[] => delays.map((d, i) => second(i, { loopDelayP99Ms: d, cpuShare: 0.99 }));

function section(thresholds: LoadSection['thresholds'], points: readonly GeneratorPoint[], source: 'node' | 'k6' = 'node'): LoadSection {
  const base: LoadSection = {
    verdict: 'pass',
    scenario: 'catalog-browse',
    profile: 'smoke',
    engine: source === 'node' ? 'node' : 'k6 v0.48.0',
    durationMs: 10_000,
    requests: { count: 100, rate: 10 },
    thresholds,
    checks: [{ name: 'http status is 200', path: '::http status is 200', passes: 100, fails: 0 }],
    metrics: {},
  };
  const generator = generatorReport(source, 2, points);
  const latencyBound = generatorBoundThresholds(thresholds, generator);
  return { ...base, generator: { ...generator, ...(latencyBound.length === 0 ? {} : { latencyBound }) } };
}

const p95 = (observed: number, limit = 50): LoadSection['thresholds'][number] => ({
  metric: 'http_req_duration',
  expression: `p(95)<${limit}`,
  ok: observed < limit,
  observed,
});

describe('saturatedWindows', () => {
  it('joins consecutive saturated seconds into a window; a lone second (a GC pause) is none', () => {
    const windows = saturatedWindows(nodeSeries([2, 300, 3, 4, 120, 240, 90, 5]));
    expect(windows).toEqual([
      {
        startMs: T0 + 4000,
        endMs: T0 + 7000,
        reason: 'event-loop delay p99 240 ms',
        peakLoopDelayP99Ms: 240,
        peakCpuShare: 0.99,
        explainsMs: 240,
      },
    ]);
  });

  it("judges the Node engine by its threads' loop delay alone: the process's CPU includes the embedded sandbox's", () => {
    expect(saturatedWindows(nodeSeries([5, 5, 5, 5]))).toEqual([]);
    // Seconds before the threads report (setup) have the process's figures only: they say nothing on the Node engine.
    const setup = [second(0, { cpuShare: 0.99, runQueueShare: 1.5 }), second(1, { cpuShare: 0.99, runQueueShare: 1.5 })];
    expect(generatorReport('node', 2, setup).windows).toEqual([]);
    expect(generatorReport('k6', 2, setup).windows).toHaveLength(1);
  });

  it('judges k6 by its CPU (no bound on what it added) and by its run-queue wait (bounded by the wait per wake-up)', () => {
    const cpu = saturatedWindows([0.95, 0.97, 0.4].map((c, i) => second(i, { cpuShare: c, runQueueShare: 0.05, waitPerSliceMs: 0.2 })));
    expect(cpu).toHaveLength(1);
    expect(cpu[0]?.explainsMs).toBeUndefined();
    expect(cpu[0]?.reason).toBe('CPU 95 % of the cores');
    // A light k6 queued now and then (it wanted under 90 % of its cores): what it added is its wait per wake-up.
    const queued = saturatedWindows([0.6, 0.7, 0.1].map((q, i) => second(i, { cpuShare: 0.1, runQueueShare: q, waitPerSliceMs: 4 + i })));
    expect(queued).toEqual([
      expect.objectContaining({ explainsMs: 5, reason: "threads waiting for a CPU 60 % of the cores' time (4.0 ms per wake-up)" }),
    ]);
  });

  it('a k6 starved by a hog (low CPU, its threads waiting for the rest of its cores) is saturated with no bound', () => {
    // Measured beside two busy loops pinned to k6's one CPU (load/k6-generator-hog.test.ts): CPU ~0.3, wait ~1.0 of it.
    // Before, the window's bound was the wait per wake-up (~2.5 ms), too small to excuse any crossed threshold.
    const starved = saturatedWindows([1.2, 1.0, 0.1].map((q, i) => second(i, { cpuShare: 0.3, runQueueShare: q, waitPerSliceMs: 2.5 })));
    expect(starved).toHaveLength(1);
    expect(starved[0]?.explainsMs).toBeUndefined();
    expect(starved[0]?.reason).toBe(
      "CPU-starved: wanted 150 % of the cores it may use, got 30 % (its threads waited for a CPU 120 % of the cores' time)",
    );
    const points = [1.0, 1.1].map((q, i) => second(i, { cpuShare: 0.3, runQueueShare: q, waitPerSliceMs: 2.5 }));
    expect(loadVerdict(section([p95(143)], points, 'k6'))).toBe('incomplete');
  });

  it("an idle k6 (little CPU, little wait) has no window: a slow gateway stays the gateway's", () => {
    const idle = [0.02, 0.03, 0.02].map((c, i) => second(i, { cpuShare: c, runQueueShare: 0.01, waitPerSliceMs: 0.3 }));
    expect(saturatedWindows(idle)).toEqual([]);
    expect(loadVerdict(section([p95(900)], idle, 'k6'))).toBe('thresholds');
  });
});

describe('the load verdict with the generator measured', () => {
  it('a latency threshold crossed while the generator was saturated is incomplete (exit 1), accepted with --allow-skips', () => {
    const s = section([p95(180)], nodeSeries([250, 260, 240]));
    expect(s.generator?.latencyBound).toEqual(['http_req_duration p(95)<50']);
    expect(loadVerdict(s)).toBe('incomplete');
    expect(loadVerdict(s, { allowSkips: true })).toBe('pass');
    expect(loadLine(s)).toMatch(
      /incomplete: the load generator was saturated \(01:00:00–01:00:03 UTC, event-loop delay p99 260 ms\).*1 latency threshold crossed then measured the generator, not the gateway \(http_req_duration p\(95\)<50, observed 180/,
    );
    expect(loadLine(s, true)).toMatch(/\(accepted with --allow-skips\)$/);
  });

  it('a gateway slower than anything the generator can have added still crosses (99)', () => {
    const s = section([p95(900)], nodeSeries([250, 260, 240]));
    expect(s.generator?.latencyBound).toBeUndefined();
    expect(loadVerdict(s)).toBe('thresholds');
    expect(loadLine(s)).toMatch(
      /crossed \(http_req_duration p\(95\)<50, observed .*\) while the load generator was saturated \(01:00:00–01:00:03 UTC, event-loop delay p99 260 ms\), by more than the 260 ms a request it can have added$/,
    );
  });

  it('an idle generator leaves a crossed latency threshold crossed', () => {
    expect(loadVerdict(section([p95(180)], nodeSeries([3, 4, 2])))).toBe('thresholds');
  });

  it('counts and rates keep their own verdict while the generator is saturated', () => {
    const s = section(
      [{ metric: 'gateway_failed', expression: 'rate<0.01', ok: false, observed: 0.2 }, p95(180)],
      nodeSeries([250, 260, 240]),
    );
    expect(loadVerdict(s, { allowSkips: true })).toBe('thresholds');
  });

  it('k6 using every core explains any excess', () => {
    const points = [0.96, 0.99].map((c, i) => second(i, { cpuShare: c }));
    expect(loadVerdict(section([p95(5_000)], points, 'k6'))).toBe('incomplete');
  });
});

describe('a window explains only the statistics its requests can have set', () => {
  const series = (requests: readonly number[]) =>
    ({ intervalMs: 1000, startTime: T0, buckets: requests.length, requests }) as unknown as LoadSection['series'];
  // k6 starved for its first 2 s (its init on a loaded box), idle for the 18 s after: 2 % of the requests inside.
  const starvedAtStart = [0, 1].map((i) => second(i, { cpuShare: 0.4, runQueueShare: 0.9 }));
  const run = series([5, 5, ...Array<number>(18).fill(25)]);

  it('measures the share of the requests inside the windows from the load series', () => {
    const windows = saturatedWindows(starvedAtStart);
    expect(requestShareInWindows(windows, run)).toBeCloseTo(10 / 460, 6);
    expect(requestShareInWindows(windows, undefined)).toBeUndefined();
  });

  it("a p(95) crossed with 2 % of the requests inside is the gateway's; a max crossed then is the generator's", () => {
    const generator = generatorReport('k6', 1, starvedAtStart);
    const share = requestShareInWindows(generator.windows, run);
    const max = { metric: 'http_req_duration', expression: 'max<100', ok: false, observed: 900 };
    expect(generatorBoundThresholds([p95(900), max], generator, share)).toEqual(['http_req_duration max<100']);
    // Before the share was weighed, the start's window excused the p(95) too.
    expect(generatorBoundThresholds([p95(900)], generator)).toEqual(['http_req_duration p(95)<50']);
    // Starved throughout: every statistic is the generator's.
    expect(generatorBoundThresholds([p95(900), { ...max, expression: 'med<40' }], generator, 1)).toHaveLength(2);
    expect(generatorBoundThresholds([p95(900)], generator, 0.06)).toHaveLength(1);
    expect(generatorBoundThresholds([{ ...max, expression: 'med<40' }], generator, 0.4)).toEqual([]);
  });

  it('the verdict line says how few requests the windows held when they do not excuse a crossed threshold', () => {
    const s = section([p95(900)], starvedAtStart, 'k6');
    const judged = { ...s, generator: { ...s.generator!, requestShareInWindows: 0.02 } };
    delete judged.generator.latencyBound;
    expect(loadVerdict(judged)).toBe('thresholds');
    expect(loadLine(judged)).toMatch(
      /while the load generator was saturated \(01:00:00–01:00:02 UTC, CPU-starved: .*; 2\.0 % of the requests measured then\): too few to set it$/,
    );
  });
});

describe("accuracyOf: the latency figures within +3 ms + 5 % by the generator's own measurements", () => {
  it('is within the goal when every judged second added at most 3 ms, and says the most it added', () => {
    const accuracy = accuracyOf('node', nodeSeries([1.2, 3, 2.4]));
    expect(accuracy).toEqual({ marginMs: 3, withinGoal: true, judgedSeconds: 3, secondsPastMargin: 0, addedUpToMs: 3 });
    expect(accuracyText(accuracy)).toBe(
      'latency within +3 ms + 5 % of what the gateway served: the generator added at most 3.00 ms in any of its 3 measured seconds',
    );
  });

  it('a lone second 3-20 ms late (no window, no verdict changed) puts the figures outside the goal, and says by how much', () => {
    const points = nodeSeries([1, 17.2, 2, 2]);
    expect(generatorReport('node', 2, points).windows).toEqual([]);
    const accuracy = accuracyOf('node', points);
    expect(accuracy).toMatchObject({ withinGoal: false, secondsPastMargin: 1, addedUpToMs: 17.2, worst: 'event-loop delay p99 17.2 ms' });
    expect(accuracyText(accuracy)).toBe(
      "latency outside the +3 ms + 5 % accuracy goal: the generator's own delay added up to 17.2 ms in 1 of its 4 measured seconds (worst: event-loop delay p99 17.2 ms), so its figures can be that much above what the gateway served",
    );
  });

  it('a lone saturated second names its reason; its bound stays the loop delay', () => {
    expect(accuracyOf('node', nodeSeries([1, 45, 2]))).toMatchObject({
      withinGoal: false,
      addedUpToMs: 45,
      worst: 'event-loop delay p99 45 ms',
    });
  });

  it('k6 is judged by its wait per wake-up; a starved second has no bound, and is the worst', () => {
    const idle = { cpuShare: 0.2, runQueueShare: 0.01 };
    expect(accuracyOf('k6', [second(0, { ...idle, waitPerSliceMs: 0.4 }), second(1, { ...idle, waitPerSliceMs: 2.9 })])).toMatchObject({
      withinGoal: true,
      addedUpToMs: 2.9,
    });
    const late = accuracyOf('k6', [
      second(0, { ...idle, waitPerSliceMs: 4.5 }),
      second(1, { cpuShare: 0.3, runQueueShare: 0.7, waitPerSliceMs: 9 }),
    ]);
    expect(late).toMatchObject({ withinGoal: false, secondsPastMargin: 2 });
    expect(late.addedUpToMs).toBeUndefined();
    expect(late.worst).toMatch(/^CPU-starved/);
    expect(accuracyText(late)).toContain('added a delay it cannot bound in 2 of its 2 measured seconds');
  });

  it('a k6 second without a wait per wake-up (no schedstat) gives no bound: not within the goal', () => {
    expect(accuracyOf('k6', [second(0, { cpuShare: 0.2 })])).toMatchObject({
      withinGoal: false,
      secondsPastMargin: 1,
      worst: 'no bound on its own delay',
    });
  });

  it('no judged second (the Node engine before its threads report) is not within the goal: not measured', () => {
    const accuracy = accuracyOf('node', [second(0, { cpuShare: 0.5 })]);
    expect(accuracy).toEqual({ marginMs: 3, withinGoal: false, judgedSeconds: 0, secondsPastMargin: 0 });
    expect(accuracyText(accuracy)).toBe('latency accuracy not measured: the generator gave no figure of its own delay');
  });

  it('the verdict line says it only outside the goal and without a window; the verdict itself does not change', () => {
    const late = section([p95(20)], nodeSeries([1, 12, 2]));
    expect(loadVerdict(late)).toBe('pass');
    expect(loadLine(late)).toMatch(
      /checks? passed; latency outside the \+3 ms \+ 5 % accuracy goal: .* up to 12.0 ms in 1 of its 3 measured seconds/,
    );
    expect(loadLine(section([p95(20)], nodeSeries([1, 2, 2])))).not.toContain('accuracy');
    expect(loadLine(section([p95(60)], nodeSeries([1, 30, 40])))).not.toContain('accuracy goal');
  });
});

describe('mergeBySecond', () => {
  it("merges the /proc monitor's seconds with the engine threads', the highest of each figure", () => {
    const merged = mergeBySecond(
      [{ t: T0 + 1100, cpuShare: 0.4 }],
      [
        { t: T0 + 1900, loopDelayP99Ms: 30, busyShare: 0.5 },
        { t: T0 + 1950, loopDelayP99Ms: 70, busyShare: 0.2 },
      ],
    );
    expect(merged).toEqual([{ t: T0 + 1950, cpuShare: 0.4, loopDelayP99Ms: 70, busyShare: 0.5 }]);
  });
});

describe('carriedOutside', () => {
  it('is the busiest load-series bucket inside a measured second where the generator was free', () => {
    const generator = generatorReport('node', 2, nodeSeries([3, 4, 200, 300]));
    const series = {
      intervalMs: 1000,
      startTime: T0,
      buckets: 5,
      requests: [50, 80, 400, 500, 900],
      failedRequests: [],
      vus: [10, 20, 200, 200, 200],
      latency: { overall: { count: [], p50: [], p90: [], p95: [], p99: [], max: [] }, operations: [] },
      outcomes: [],
      source: { lines: 0, points: 0, badLines: 0, latePoints: 0, droppedPoints: 0 },
    } as unknown as LoadSection['series'];
    // Bucket 4 (900 req/s) has no measured second: it says nothing.
    expect(carriedOutside(generator, series)).toEqual({ vus: 20, requestRate: 80 });
  });
});
