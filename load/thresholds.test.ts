// The --threshold and duration syntax shared by the CLI and the bundles.
import { describe, expect, it } from 'vitest';
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
    expect(groupThresholds([{ metric: 'a', expression: 'rate<1' }, { metric: 'a', expression: 'rate>0' }, { metric: 'b', expression: 'count==0' }])).toEqual({
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
