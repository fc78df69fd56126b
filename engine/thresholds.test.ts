// Threshold parser and evaluation: every expression form in k6's docs, k6's parse errors, metric-name tag filters,
// type checks, and abortOnFail / delayAbortEval decisions.
import { describe, expect, it } from 'vitest';
import {
  evaluateThresholds,
  parseMetricName,
  parseThresholdExpression,
  parseThresholds,
  sinkKey,
  thresholdPasses,
  type MetricType,
} from './thresholds.ts';

describe('parseThresholdExpression', () => {
  const valid: Array<[string, string, string, number]> = [
    ['p(95)<200', 'p(95)', '<', 200],
    ['p(99.9)<=300', 'p(99.9)', '<=', 300],
    ['p(0)>=0', 'p(0)', '>=', 0],
    ['p(100)<1e4', 'p(100)', '<', 10000],
    ['avg<200', 'avg', '<', 200],
    ['med<150', 'med', '<', 150],
    ['min>0', 'min', '>', 0],
    ['max<1000', 'max', '<', 1000],
    ['rate<0.01', 'rate', '<', 0.01],
    ['rate>=0.95', 'rate', '>=', 0.95],
    ['count>10', 'count', '>', 10],
    ['count==0', 'count', '==', 0],
    ['count===0', 'count', '===', 0],
    ['count!=3', 'count', '!=', 3],
    ['value<100', 'value', '<', 100],
    ['  avg   <   200  ', 'avg', '<', 200],
    ['rate > -1', 'rate', '>', -1],
  ];
  it.each(valid)('parses %j', (input, key, operator, value) => {
    const parsed = parseThresholdExpression(input);
    expect(sinkKey(parsed)).toBe(key);
    expect(parsed.operator).toBe(operator);
    expect(parsed.value).toBe(value);
  });

  const invalid: Array<[string, RegExp]> = [
    ['p95<200', /failed parsing method/],
    ['p(101)<1', /between 0 and 100/],
    ['p(-1)<1', /between 0 and 100/],
    ['p(abc)<1', /between 0 and 100/],
    ['avg', /malformed threshold expression/],
    ['avg<', /malformed threshold expression/],
    ['avg<abc', /right hand side/],
    ['mean<200', /failed parsing method/],
    ['', /malformed/],
  ];
  it.each(invalid)('refuses %j', (input, reason) => {
    expect(() => parseThresholdExpression(input)).toThrow(reason);
  });
});

describe('parseMetricName', () => {
  it.each([
    ['http_req_duration', 'http_req_duration', [], 'http_req_duration'],
    [
      'http_req_duration{operation:v2.catalog.skus}',
      'http_req_duration',
      [['operation', 'v2.catalog.skus']],
      'http_req_duration{operation:v2.catalog.skus}',
    ],
    ['checks{check:status is 200}', 'checks', [['check', 'status is 200']], 'checks{check:status is 200}'],
    [
      'http_reqs{ scenario : browse , status:200 }',
      'http_reqs',
      [
        ['scenario', 'browse'],
        ['status', '200'],
      ],
      'http_reqs{scenario : browse , status:200}',
    ],
    ['group_duration{group:::setup}', 'group_duration', [['group', '::setup']], 'group_duration{group:::setup}'],
    ["http_reqs{name:'quoted'}", 'http_reqs', [['name', 'quoted']], "http_reqs{name:'quoted'}"],
  ] as Array<[string, string, Array<[string, string]>, string]>)('splits %j', (input, metric, tags, summaryName) => {
    expect(parseMetricName(input)).toEqual({ metric, tags, summaryName });
  });

  it.each(['a{b:c', 'a}b:c{', 'a{b:c}x', 'a{b}', 'a{b:}'])('refuses %j', (input) => {
    expect(() => parseMetricName(input)).toThrow(/parsing metric name failed/);
  });
});

describe('parseThresholds', () => {
  const types: Record<string, MetricType> = { http_req_duration: 'trend', http_reqs: 'counter', checks: 'rate', vus: 'gauge' };
  const typeOf = (m: string): MetricType | undefined => types[m];

  it('reads strings and objects with abortOnFail and delayAbortEval', () => {
    const [set] = parseThresholds(
      { http_req_duration: ['p(95)<500', { threshold: 'max<2000', abortOnFail: true, delayAbortEval: '10s' }] },
      typeOf,
    );
    expect(set?.thresholds.map((t) => [t.source, t.abortOnFail, t.delayAbortEvalMs])).toEqual([
      ['p(95)<500', false, undefined],
      ['max<2000', true, 10_000],
    ]);
  });

  it.each([
    [{ http_req_duration: ['rate<0.1'] }, /unsupported aggregation method rate on metric of type trend/],
    [{ http_reqs: ['p(95)<1'] }, /unsupported aggregation method p on metric of type counter/],
    [{ checks: ['count>1'] }, /unsupported aggregation method count on metric of type rate/],
    [{ vus: ['avg<1'] }, /unsupported aggregation method avg on metric of type gauge/],
    [{ no_such_metric: ['count>1'] }, /no metric name "no_such_metric" found/],
    [{ http_reqs: [42] }, /each threshold is a string/],
  ])('refuses %j', (input, reason) => {
    expect(() => parseThresholds(input, typeOf)).toThrow(reason);
  });
});

describe('evaluation', () => {
  it.each([
    ['p(95)<500', { 'p(95)': 499 }, true],
    ['p(95)<500', { 'p(95)': 500 }, false],
    ['p(95)<=500', { 'p(95)': 500 }, true],
    ['rate<0.01', { rate: 0.02 }, false],
    ['rate<0.01', {}, true], // an empty Rate has no rate: k6 passes it
    ['count>0', { count: 0 }, false],
    ['count==3', { count: 3 }, true],
    ['count!=3', { count: 3 }, false],
    ['value>=2', { value: 2 }, true],
  ] as Array<[string, Record<string, number>, boolean]>)('%s over %j → %s', (src, values, ok) => {
    expect(thresholdPasses(parseThresholdExpression(src), values)).toBe(ok);
  });

  it('aborts on a failed abortOnFail threshold only after delayAbortEval', () => {
    const [set] = parseThresholds({ http_reqs: [{ threshold: 'count<3', abortOnFail: true, delayAbortEval: '5s' }, 'rate>0'] });
    if (set === undefined) throw new Error('no set');
    expect(evaluateThresholds(set, { count: 10, rate: 1 }, 1_000)).toEqual({
      results: { 'count<3': { ok: false }, 'rate>0': { ok: true } },
      passed: false,
      abort: false,
    });
    expect(evaluateThresholds(set, { count: 10, rate: 1 }, 6_000).abort).toBe(true);
    expect(evaluateThresholds(set, { count: 1, rate: 1 }, 6_000)).toMatchObject({ passed: true, abort: false });
  });
});
