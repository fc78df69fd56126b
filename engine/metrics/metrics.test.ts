// HdrHistogram trends (percentiles within 0.1 % of k6's exact interpolation, exact merges, flat memory), the four sinks'
// summary and threshold values, the store's submetric matching, and the group tree's k6 shape.
import { describe, expect, it } from 'vitest';
import { GroupTree } from './groups.ts';
import { CounterSink, GaugeSink, RateSink, TrendSink, sinkFromState } from './sinks.ts';
import { EXPECTED_RESPONSE_SUBMETRIC, MetricStore } from './store.ts';
import { TrendHistogram } from './trend-histogram.ts';

/** k6's TrendSink.P: linear interpolation between sorted samples. */
function exactPercentile(sorted: number[], pct: number): number {
  const i = (pct / 100) * (sorted.length - 1);
  const lo = sorted[Math.floor(i)] as number;
  const hi = sorted[Math.ceil(i)] as number;
  return lo + (hi - lo) * (i - Math.floor(i));
}

/** Deterministic pseudo-random (mulberry32), so the test data is the same every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('TrendHistogram', () => {
  const rnd = random(42);
  // Latency-like data: 0.2 ms .. ~2 s, long tail.
  const samples = Array.from({ length: 50_000 }, () => 0.2 + Math.exp(rnd() * 7.5));
  const sorted = [...samples].sort((a, b) => a - b);

  it.each([50, 90, 95, 99, 99.9])('p(%s) is within 0.1 %% of the exact percentile', (pct) => {
    const t = new TrendHistogram();
    for (const s of samples) t.add(s);
    const exact = exactPercentile(sorted, pct);
    expect(Math.abs(t.percentile(pct) - exact) / exact).toBeLessThan(0.001);
  });

  it('keeps count, sum, min, max and avg exactly', () => {
    const t = new TrendHistogram();
    for (const s of samples) t.add(s);
    expect(t.count).toBe(samples.length);
    expect(t.min).toBe(sorted[0]);
    expect(t.max).toBe(sorted[sorted.length - 1]);
    expect(t.avg).toBeCloseTo(samples.reduce((a, b) => a + b, 0) / samples.length, 9);
  });

  it('merges two halves into exactly what one histogram of all samples holds', () => {
    const whole = new TrendHistogram();
    const a = new TrendHistogram();
    const b = new TrendHistogram();
    samples.forEach((s, i) => {
      whole.add(s);
      (i % 2 === 0 ? a : b).add(s);
    });
    const merged = TrendHistogram.fromState(a.toState());
    merged.merge(TrendHistogram.fromState(b.toState()));
    for (const pct of [1, 50, 95, 99.99]) expect(merged.percentile(pct)).toBe(whole.percentile(pct));
    expect([merged.count, merged.min, merged.max]).toEqual([whole.count, whole.min, whole.max]);
  });

  it("gives k6's exact interpolated percentiles while it holds few samples, also after a merge", () => {
    const a = new TrendHistogram();
    const b = new TrendHistogram();
    [4.7, 6.06, 1.25].forEach((v) => a.add(v));
    [9.5, 3.3].forEach((v) => b.add(v));
    a.merge(TrendHistogram.fromState(b.toState()));
    const sorted = [1.25, 3.3, 4.7, 6.06, 9.5];
    for (const pct of [50, 90, 95]) expect(a.percentile(pct)).toBe(exactPercentile(sorted, pct));
  });

  it('stays flat in memory however many samples it records', () => {
    const t = new TrendHistogram();
    for (let i = 0; i < 10_000; i++) t.add(1 + (i % 5000));
    const before = t.footprintBytes;
    for (let i = 0; i < 500_000; i++) t.add(1 + (i % 5000));
    expect(t.footprintBytes).toBe(before);
  });

  it('answers like k6 for 0 and 1 samples and handles negative values', () => {
    const t = new TrendHistogram();
    expect(t.percentile(95)).toBe(0);
    t.add(7.5);
    expect(t.percentile(95)).toBe(7.5);
    const n = new TrendHistogram();
    for (const v of [-10, -5, 0, 5, 10]) n.add(v);
    expect(n.percentile(0)).toBe(-10);
    expect(n.percentile(100)).toBe(10);
    expect(Math.abs(n.percentile(50))).toBeLessThan(0.01);
  });
});

describe('sinks', () => {
  it('counter: count and rate per second of test time', () => {
    const s = new CounterSink();
    s.add(3);
    s.add(2);
    expect(s.summaryValues(2_000)).toEqual({ count: 5, rate: 2.5 });
    expect(s.thresholdValues(2_000)).toEqual({ count: 5, rate: 2.5 });
  });

  it('gauge: last value, min and max; merge keeps the latest value', () => {
    const a = new GaugeSink();
    a.add(5, 1);
    a.add(2, 2);
    const b = new GaugeSink();
    b.add(9, 3);
    a.merge(b);
    expect(a.summaryValues()).toEqual({ value: 9, min: 2, max: 9 });
  });

  it('rate: passes, fails and rate; no rate to compare while empty', () => {
    const s = new RateSink();
    expect(s.thresholdValues()).toEqual({});
    s.add(1);
    s.add(0);
    s.add(1);
    expect(s.summaryValues()).toEqual({ rate: 2 / 3, passes: 2, fails: 1 });
  });

  it('trend: the summaryTrendStats asked for, and survives a state round trip', () => {
    const s = new TrendSink();
    for (let i = 1; i <= 100; i++) s.add(i);
    const copy = sinkFromState(s.toState());
    expect(copy.summaryValues(0, ['avg', 'min', 'max', 'count', 'p(90)'])).toEqual({
      avg: 50.5,
      min: 1,
      max: 100,
      count: 100,
      'p(90)': expect.closeTo(90.1, 0),
    });
  });
});

describe('MetricStore', () => {
  it('feeds a submetric only the samples carrying its tags', () => {
    const store = new MetricStore([
      { metric: 'http_req_duration', name: 'http_req_duration{operation:a}', suffix: 'operation:a', tags: [['operation', 'a']] },
      EXPECTED_RESPONSE_SUBMETRIC,
    ]);
    store.add('http_req_duration', 10, { operation: 'a', expected_response: 'true' });
    store.add('http_req_duration', 20, { operation: 'b', expected_response: 'false' });
    expect((store.sinkOf('http_req_duration') as TrendSink).trend.count).toBe(2);
    expect((store.sinkOf('http_req_duration{operation:a}') as TrendSink).trend.max).toBe(10);
    expect((store.sinkOf('http_req_duration{expected_response:true}') as TrendSink).trend.count).toBe(1);
  });

  it('refuses a metric redeclared with another type and an invalid name, like k6', () => {
    const store = new MetricStore();
    store.define({ name: 'my_metric', type: 'trend', contains: 'default' });
    expect(() => store.define({ name: 'my_metric', type: 'counter', contains: 'default' })).toThrow(/already exists/);
    expect(() => store.define({ name: 'bad-name', type: 'counter', contains: 'default' })).toThrow(/Invalid metric name/);
  });

  it('merges worker states exactly', () => {
    const a = new MetricStore();
    const b = new MetricStore();
    a.add('iterations', 1, {});
    b.add('iterations', 1, {});
    b.add('iterations', 1, {});
    a.mergeState(b.toState());
    expect((a.sinkOf('iterations') as CounterSink).count).toBe(3);
  });
});

describe('GroupTree', () => {
  it('builds k6 root_group with md5 ids and merged check counts', () => {
    const a = new GroupTree();
    const g = a.enter('', 'catalog');
    a.check(g, 'is 200', true);
    a.check('', 'top', false);
    const b = new GroupTree();
    b.check(b.enter('', 'catalog'), 'is 200', false);
    a.mergeState(b.toState());
    const root = a.toK6();
    expect(root).toMatchObject({
      name: '',
      path: '',
      id: 'd41d8cd98f00b204e9800998ecf8427e',
      checks: [{ name: 'top', path: '::top', passes: 0, fails: 1 }],
    });
    expect(root.groups[0]).toMatchObject({
      name: 'catalog',
      path: '::catalog',
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      checks: [{ path: '::catalog::is 200', passes: 1, fails: 1 }],
    });
  });
});
