// k6's handleSummary data (real captures from k6 v0.48.0 and v2.2.0) into the load section: thresholds with the
// observed statistic, checks of every group, a metric subset, and the verdict rules applied to real data.
import { describe, expect, it } from 'vitest';
import { buildLoadSection, collectChecks, thresholdStat, type K6SummaryData } from './k6-summary.ts';
import { realK6Summary } from './fixtures/full-report.ts';

const meta = { scenario: 'mixed', profile: 'smoke', engine: 'k6 v0.48.0' };

describe.each(['v0.48.0', 'v2.2.0'] as const)('real k6 %s summary', (version) => {
  const data = realK6Summary(version);
  const section = buildLoadSection(data, { ...meta, engine: `k6 ${version}` });

  it('reads requests, thresholds with observed values, and checks', () => {
    expect(section.requests.count).toBe(48);
    expect(section.requests.failedRate).toBe(0);
    expect(section.thresholds.map((t) => [t.metric, t.expression, t.ok])).toEqual([
      ['gateway_failed', 'rate<0.5', true],
      ['http_req_duration', 'p(95)<2000', true],
      ['http_req_duration{operation:v2.account.balance}', 'p(90)<2000', true],
    ]);
    expect(section.thresholds[1]?.observed).toBe(data.metrics.http_req_duration?.values['p(95)']);
    expect(section.checks).toEqual([
      { name: 'HTTP 200', path: '::HTTP 200', passes: 48, fails: 0 },
      { name: "responseCode '000'", path: "::responseCode '000'", passes: 48, fails: 0 },
    ]);
    expect(section.verdict).toBe('pass');
  });

  it('keeps the metric subset: built-ins, gateway_* and every metric with thresholds, not the rest', () => {
    const kept = Object.keys(section.metrics);
    expect(kept).toEqual(
      expect.arrayContaining([
        'http_reqs',
        'http_req_duration',
        'http_req_failed',
        'checks',
        'gateway_outcomes',
        'gateway_failed',
        'http_req_duration{operation:v2.account.balance}',
      ]),
    );
    expect(kept).not.toContain('http_req_tls_handshaking');
    expect(kept).not.toContain('http_req_blocked');
  });

  it('a crossed threshold in the data makes the section thresholds; a failed check fails it', () => {
    const crossed: K6SummaryData = {
      ...data,
      metrics: { ...data.metrics, http_req_duration: { ...data.metrics.http_req_duration!, thresholds: { 'p(95)<2000': { ok: false } } } },
    };
    expect(buildLoadSection(crossed, meta).verdict).toBe('thresholds');
    const failing: K6SummaryData = {
      ...data,
      root_group: { ...data.root_group, checks: [{ name: 'HTTP 200', path: '::HTTP 200', passes: 40, fails: 8 }] },
    };
    expect(buildLoadSection(failing, meta).verdict).toBe('fail');
  });
});

describe('k6 summary details', () => {
  it('a run that sent no request is incomplete, even with iterations and passing checks', () => {
    expect(buildLoadSection({ metrics: {} }, meta).verdict).toBe('incomplete');
    const idle: K6SummaryData = {
      metrics: { iterations: { type: 'counter', values: { count: 2, rate: 1 } } },
      root_group: { checks: [{ name: 'ok', passes: 2, fails: 0 }] },
    };
    expect(buildLoadSection(idle, meta).verdict).toBe('incomplete');
  });

  it('checks inside nested groups keep their group path', () => {
    const checks = collectChecks({
      name: '',
      checks: [{ name: 'a', passes: 1, fails: 0 }],
      groups: [{ name: 'topup', checks: [{ name: 'b', path: '::topup::b', passes: 0, fails: 2 }] }],
    });
    expect(checks.map((c) => [c.path, c.fails])).toEqual([
      ['::a', 0],
      ['::topup::b', 2],
    ]);
  });

  it.each([
    ['p(95)<500', 'p(95)'],
    ['p(99.9) < 1500', 'p(99.9)'],
    ['rate<0.01', 'rate'],
    ['count>=10', 'count'],
    ['avg<200', 'avg'],
    ['nonsense', undefined],
  ])('thresholdStat(%s) = %s', (expression, stat) => expect(thresholdStat(expression)).toBe(stat));

  it('drops non-finite values (k6 writes NaN as null) instead of breaking the schema', () => {
    const section = buildLoadSection(
      {
        metrics: {
          http_req_duration: { type: 'trend', contains: 'time', values: { avg: null, max: 3 } },
          http_reqs: { type: 'counter', values: { count: 1, rate: 1 } },
        },
      },
      meta,
    );
    expect(section.metrics.http_req_duration?.values).toEqual({ max: 3 });
  });
});
