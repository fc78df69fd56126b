// The end-of-test summary: handleSummary's data shape built from a store (k6's keys, submetrics with thresholds, setup
// data), the classic text layout (checks, groups, threshold marks) and k6's --summary-export shape.
import { describe, expect, it } from 'vitest';
import { GroupTree } from './metrics/groups.ts';
import { EXPECTED_RESPONSE_SUBMETRIC, MetricStore } from './metrics/store.ts';
import { buildSummaryData, renderTextSummary, summaryExport } from './summary.ts';
import { evaluateThresholds, parseThresholds } from './thresholds.ts';

function sample() {
  const thresholds = parseThresholds(
    { 'http_req_duration{operation:a}': ['p(95)<100'], checks: ['rate>0.99'], never_seen: ['count>0'] },
    (m) => (m === 'never_seen' ? 'counter' : m === 'checks' ? 'rate' : 'trend'),
  );
  const store = new MetricStore([
    EXPECTED_RESPONSE_SUBMETRIC,
    { metric: 'http_req_duration', name: 'http_req_duration{operation:a}', suffix: 'operation:a', tags: [['operation', 'a']] },
  ]);
  store.define({ name: 'never_seen', type: 'counter', contains: 'default' });
  for (let i = 1; i <= 20; i++) store.add('http_req_duration', i * 10, { operation: 'a', expected_response: 'true' });
  store.add('checks', 1, {});
  store.add('checks', 0, {});
  store.add('iterations', 2, {});
  const groups = new GroupTree();
  groups.check('', 'is 200', true);
  groups.check(groups.enter('', 'catalog'), 'has body', false);
  const results = new Map<string, Record<string, { ok: boolean }>>();
  for (const set of thresholds) {
    const sink = store.sinkOf(set.summaryName);
    if (sink !== undefined) results.set(set.summaryName, evaluateThresholds(set, sink.thresholdValues(2_000, [95]), 2_000).results);
  }
  return buildSummaryData({
    store,
    rootGroup: groups.toK6(),
    thresholds,
    thresholdResults: results,
    trendStats: ['avg', 'p(95)', 'count'],
    summaryTimeUnit: '',
    testRunDurationMs: 2_000,
    setupData: { a: 1 },
    isStdOutTTY: false,
    isStdErrTTY: false,
  });
}

describe('summary data', () => {
  it('has k6 keys, trend stats as asked, submetrics and thresholds', () => {
    const data = sample();
    expect(Object.keys(data).sort()).toEqual(['metrics', 'options', 'root_group', 'setup_data', 'state']);
    expect(data.state).toEqual({ isStdOutTTY: false, isStdErrTTY: false, testRunDurationMs: 2_000 });
    expect(data.metrics.http_req_duration).toEqual({ type: 'trend', contains: 'time', values: { avg: 105, 'p(95)': 190.5, count: 20 } }); // exact: k6's interpolation while few samples
    expect(data.metrics['http_req_duration{operation:a}']?.thresholds).toEqual({ 'p(95)<100': { ok: false } });
    expect(data.metrics['http_req_duration{expected_response:true}']?.values.count).toBe(20);
    expect(data.metrics.checks).toEqual({
      type: 'rate',
      contains: 'default',
      values: { rate: 0.5, passes: 1, fails: 1 },
      thresholds: { 'rate>0.99': { ok: false } },
    });
    expect(data.metrics.iterations?.values).toEqual({ count: 2, rate: 1 });
    // A metric with thresholds shows even without samples; one without samples or thresholds does not.
    expect(data.metrics.never_seen).toEqual({
      type: 'counter',
      contains: 'default',
      values: { count: 0, rate: 0 },
      thresholds: { 'count>0': { ok: false } },
    });
    expect(data.metrics.data_sent).toBeUndefined();
  });
});

describe('text summary', () => {
  it('lists checks, groups and metrics with threshold marks', () => {
    const text = renderTextSummary(sample());
    expect(text).toContain('✓ is 200');
    expect(text).toContain('█ catalog');
    expect(text).toContain('✗ has body');
    expect(text).toContain('↳  0% — ✓ 0 / ✗ 1');
    expect(text).toMatch(/✗ checks\.+: 50\.00% +✓ 1 +✗ 1/);
    expect(text).toContain('count=20');
    expect(text).not.toContain('count=20ms');
    expect(text).toMatch(/\n {5}✗ \{ operation:a \}\.+: avg=105ms/);
    expect(text).toMatch(/\n {7}\{ expected_response:true \}\.+: avg=105ms/);
    expect(text).toMatch(/ {5}iterations\.+: 2 +1\/s/);
  });

  it('exports the flat --summary-export shape with thresholds as "failed"', () => {
    const exported = summaryExport(sample()) as { metrics: Record<string, Record<string, unknown>> };
    expect(exported.metrics.checks).toEqual({ passes: 1, fails: 1, value: 0.5, thresholds: { 'rate>0.99': true } });
    expect(exported.metrics.iterations).toEqual({ count: 2, rate: 1 });
  });
});
