// The live dashboard's threshold states from a k6 NDJSON stream: no samples yet, held, then crossed as points come.
import { describe, expect, it } from 'vitest';
import { LiveThresholds } from './live-thresholds.ts';

const metric = (name: string, type: string, contains = 'default'): string =>
  JSON.stringify({ type: 'Metric', data: { name, type, contains, thresholds: [], submetrics: null }, metric: name });
const point = (name: string, value: number, tags: Record<string, string>, at: number): string =>
  JSON.stringify({ type: 'Point', metric: name, data: { time: new Date(at).toISOString(), value, tags } });

describe('LiveThresholds', () => {
  it('says no samples, then held, then crossed as the stream grows (submetrics and custom metrics alike)', () => {
    const live = new LiveThresholds({
      'http_req_duration{operation:v2.catalog.skus}': ['p(95)<100'],
      gateway_failed: [{ threshold: 'rate<=0.5', abortOnFail: false }],
    });
    const state = (): Record<string, boolean | null> =>
      Object.fromEntries(live.states(10_000).map((t) => [`${t.metric} ${t.expression}`, t.ok]));
    expect(state()).toEqual({ 'http_req_duration{operation:v2.catalog.skus} p(95)<100': null, 'gateway_failed rate<=0.5': null });
    live.addLine(metric('http_req_duration', 'trend', 'time'));
    live.addLine(metric('gateway_failed', 'rate'));
    for (let i = 0; i < 20; i++) live.addLine(point('http_req_duration', 40, { operation: 'v2.catalog.skus' }, 1_000 + i));
    live.addLine(point('http_req_duration', 900, { operation: 'v1.catalog.skus' }, 1_100));
    live.addLine(point('gateway_failed', 0, { operation: 'v2.catalog.skus' }, 1_100));
    expect(state()).toEqual({ 'http_req_duration{operation:v2.catalog.skus} p(95)<100': true, 'gateway_failed rate<=0.5': true });
    for (let i = 0; i < 20; i++) live.addLine(point('http_req_duration', 400, { operation: 'v2.catalog.skus' }, 2_000 + i));
    live.addLine(point('gateway_failed', 1, {}, 2_100));
    live.addLine(point('gateway_failed', 1, {}, 2_200));
    expect(state()).toEqual({ 'http_req_duration{operation:v2.catalog.skus} p(95)<100': false, 'gateway_failed rate<=0.5': false });
  });

  it('skips what it cannot read', () => {
    const live = new LiveThresholds({ http_reqs: ['count>0'] });
    live.addLine('{not json');
    live.addLine('');
    live.addLine(point('nobody_defined_me', 1, {}, 1));
    expect(live.states()).toEqual([{ metric: 'http_reqs', expression: 'count>0', ok: null }]);
  });
});
