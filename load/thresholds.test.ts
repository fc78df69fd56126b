// The --threshold and duration syntax shared by the CLI and the bundles.
import { describe, expect, it } from 'vitest';
import { BUILTIN_METRICS } from '../engine/metrics/store.ts';
import { RUN_METRICS } from './metric-names.ts';
import { durationSeconds, groupThresholds, parseThresholdOverride } from './thresholds.ts';

describe('parseThresholdOverride', () => {
  it.each([
    ['http_req_duration:p(95)<500', 'http_req_duration', 'p(95)<500'],
    ['http_req_duration{operation:v2.catalog.skus}:p(99)<=800', 'http_req_duration{operation:v2.catalog.skus}', 'p(99)<=800'],
    ['checks{check:http status is 200}:rate>=0.99', 'checks{check:http status is 200}', 'rate>=0.99'],
    [' gateway_failed : rate<0.01 ', 'gateway_failed', 'rate<0.01'],
    ['gateway_schema_violations:count==0', 'gateway_schema_violations', 'count==0'],
  ])('reads %s', (text, metric, expression) => {
    expect(parseThresholdOverride(text)).toEqual({ metric, expression });
  });

  it.each([
    ['no colon', 'http_req_duration'],
    ['bad metric name', 'http-req:p(95)<5'],
    ['unknown aggregation', 'http_req_duration:p95<5'],
    ['no number', 'http_req_duration:p(95)<fast'],
    ['script injection', 'http_req_duration:p(95)<5;exec()'],
  ])('refuses %s', (_why, text) => {
    expect(parseThresholdOverride(text)).toHaveProperty('error');
  });

  it('groups overrides by metric', () => {
    expect(
      groupThresholds([
        { metric: 'a', expression: 'rate<1' },
        { metric: 'a', expression: 'rate>0' },
        { metric: 'b', expression: 'count==0' },
      ]),
    ).toEqual({
      a: ['rate<1', 'rate>0'],
      b: ['count==0'],
    });
  });
});

describe('durationSeconds', () => {
  it.each([
    ['90s', 90],
    ['5m', 300],
    ['1h30m', 5400],
    ['500ms', 0.5],
    ['2h', 7200],
  ])('%s is %d s', (text, seconds) => {
    expect(durationSeconds(text)).toBe(seconds);
  });

  it.each(['', '5', 'm5', '1d', '-5s', '5 m'])('refuses %j', (text) => {
    expect(durationSeconds(text)).toBeUndefined();
  });
});

describe('threshold metric names', () => {
  it("RUN_METRICS holds every k6 built-in the engine emits, with the engine's kind", () => {
    for (const def of BUILTIN_METRICS) expect([def.name, RUN_METRICS[def.name]]).toEqual([def.name, def.type]);
  });

  it('a typo of a metric name is refused naming the metric and the likely intent; a wrong aggregation too', () => {
    expect(parseThresholdOverride('http_req_durration:p(95)<100')).toEqual({
      error: expect.stringMatching(/^unknown metric "http_req_durration" \(did you mean http_req_duration\?\)/) as unknown,
    });
    expect(parseThresholdOverride('no_such_metric{operation:x}:count==0')).toEqual({
      error: expect.stringMatching(/^unknown metric "no_such_metric": a run has vus, /) as unknown,
    });
    expect(parseThresholdOverride('gateway_failed:p(95)<1')).toEqual({
      error: expect.stringMatching(/does not apply to gateway_failed, a rate: use rate/) as unknown,
    });
    expect(parseThresholdOverride('checks{check:envelope}:rate>0.99')).toEqual({
      metric: 'checks{check:envelope}',
      expression: 'rate>0.99',
    });
  });
});
