// The saturation judge over synthetic generator series: which seconds make a window, what the window can explain, and
// the load verdict that follows (a latency threshold crossed only by the generator is incomplete, never crossed).
import { describe, expect, it } from 'vitest';
import {
  carriedOutside,
  generatorBoundThresholds,
  generatorReport,
  mergeBySecond,
  saturatedWindows,
  type GeneratorPoint,
} from './generator.ts';
import { loadLine, loadVerdict } from './sections.ts';
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
    const cpu = saturatedWindows([0.95, 0.97, 0.4].map((c, i) => second(i, { cpuShare: c, runQueueShare: 0.1, waitPerSliceMs: 0.2 })));
    expect(cpu).toHaveLength(1);
    expect(cpu[0]?.explainsMs).toBeUndefined();
    expect(cpu[0]?.reason).toBe('CPU 95 % of the cores');
    const hog = saturatedWindows([1.2, 1.8, 0.1].map((q, i) => second(i, { cpuShare: 0.3, runQueueShare: q, waitPerSliceMs: 4 + i })));
    expect(hog).toEqual([
      expect.objectContaining({ explainsMs: 5, reason: "threads waiting for a CPU 120 % of the cores' time (4.0 ms per wake-up)" }),
    ]);
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
