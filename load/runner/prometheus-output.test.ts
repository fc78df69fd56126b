// `load --out prometheus=URL` and `--dashboard` on the Node side, without a Prometheus: the flags, the k6 command line
// and environment the harness builds (the user's own K6_PROMETHEUS_RW_* win), the engine's settings read the same way,
// k6's failed-push lines counted across chunks, and the threshold series.
import { describe, expect, it } from 'vitest';
import { k6Arguments } from './k6-process.ts';
import { parseLoadFlags } from './load-options.ts';
import {
  enginePrometheusConfig,
  HARNESS_TREND_STATS,
  K6_PUSH_FAILED,
  K6_RW_SYSTEM_TAGS,
  K6PushFailures,
  k6PrometheusEnv,
  thresholdSeries,
} from './prometheus-output.ts';

const base = { scenario: 'lookup', profile: 'smoke', engine: 'node', api: 'both' };

describe('--out and --dashboard', () => {
  it('takes json=FILE and prometheus=URL together, and a dashboard port or none', () => {
    expect(parseLoadFlags({ ...base, out: ['json=m.ndjson', 'prometheus=http://p:9090/api/v1/write'], dashboard: '8123' })).toMatchObject({
      outJson: 'm.ndjson',
      prometheusUrl: 'http://p:9090/api/v1/write',
      dashboardPort: 8123,
    });
    expect(parseLoadFlags({ ...base, dashboard: true }).dashboardPort).toBe(0);
    expect(parseLoadFlags({ ...base }).prometheusUrl).toBeUndefined();
  });

  it.each<[string[] | undefined, string | boolean | undefined, RegExp]>([
    [['prometheus=localhost:9090'], undefined, /--out must be json=FILE .* or prometheus=URL/],
    [['json=a', 'json=b'], undefined, /--out json=FILE may be given once/],
    [['prometheus=http://a/w', 'prometheus=http://b/w'], undefined, /--out prometheus=URL may be given once/],
    [undefined, '99999', /--dashboard port must be at most 65535/],
    [undefined, 'x', /--dashboard takes a port number/],
  ])('refuses %j / dashboard %j in one line', (out, dashboard, message) => {
    expect(() =>
      parseLoadFlags({ ...base, ...(out === undefined ? {} : { out }), ...(dashboard === undefined ? {} : { dashboard }) }),
    ).toThrow(message);
  });
});

describe("a real k6's own output", () => {
  it('is switched on with --out experimental-prometheus-rw and the run tagged with its testid', () => {
    expect(k6Arguments({ bundle: '/x/b.js', outJson: '/x/m.ndjson', prometheus: true, tags: { testid: 'run-1' } })).toEqual([
      'run',
      '--include-system-env-vars',
      '--out',
      'json=/x/m.ndjson',
      '--out',
      'experimental-prometheus-rw',
      '--tag',
      'testid=run-1',
      '/x/b.js',
    ]);
  });

  it("gets the URL, the harness's trend stats and system tags without url/error, unless the user set their own", () => {
    expect(k6PrometheusEnv('http://p/w', {})).toEqual({
      K6_PROMETHEUS_RW_SERVER_URL: 'http://p/w',
      K6_PROMETHEUS_RW_TREND_STATS: HARNESS_TREND_STATS,
      K6_SYSTEM_TAGS: K6_RW_SYSTEM_TAGS,
    });
    expect(K6_RW_SYSTEM_TAGS.split(',')).not.toContain('url');
    expect(K6_RW_SYSTEM_TAGS.split(',')).not.toContain('error');
    const own = {
      K6_PROMETHEUS_RW_TREND_STATS: 'p(99)',
      K6_SYSTEM_TAGS: 'status',
      K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM: 'true',
      K6_PROMETHEUS_RW_SERVER_URL: 'http://ignored/w',
    };
    expect(k6PrometheusEnv('http://p/w', own)).toEqual({ ...own, K6_PROMETHEUS_RW_SERVER_URL: 'http://p/w' });
    // The engine reads the same variables the same way.
    expect(enginePrometheusConfig('http://p/w', own)).toMatchObject({
      url: 'http://p/w',
      trendStats: ['p(99)'],
      trendAsNativeHistogram: true,
    });
    expect(enginePrometheusConfig('http://p/w', {}).trendStats).toEqual(HARNESS_TREND_STATS.split(','));
  });

  it("counts k6's failed-push lines, also when a line arrives in pieces", () => {
    const counter = new K6PushFailures();
    counter.write(`time="x" level=error msg="${K6_PUSH_FAILED.slice(0, 10)}`);
    counter.write(`${K6_PUSH_FAILED.slice(10)}" error="connection refused"\nother line\n`);
    counter.write(`level=error msg="${K6_PUSH_FAILED}"`);
    expect(counter.end()).toBe(2);
  });
});

describe('threshold series', () => {
  it('one gauge per threshold expression: 1 passed, 0 crossed, labelled metric, threshold and testid', () => {
    const data = {
      metrics: {
        gateway_failed: { type: 'rate', contains: 'default', values: { rate: 0.5 }, thresholds: { 'rate<=0': { ok: false } } },
        'http_req_duration{operation:v2.catalog.skus}': {
          type: 'trend',
          contains: 'time',
          values: {},
          thresholds: { 'p(95)<800': { ok: true } },
        },
        http_reqs: { type: 'counter', contains: 'default', values: { count: 1 } },
      },
    } as unknown as Parameters<typeof thresholdSeries>[0];
    expect(
      thresholdSeries(data, 'run-1', 5).map((s) => [Object.fromEntries(s.labels.map((l) => [l.name, l.value])), s.samples?.[0]?.value]),
    ).toEqual([
      [{ __name__: 'k6_gateway_threshold_passed', metric: 'gateway_failed', testid: 'run-1', threshold: 'rate<=0' }, 0],
      [
        {
          __name__: 'k6_gateway_threshold_passed',
          metric: 'http_req_duration{operation:v2.catalog.skus}',
          testid: 'run-1',
          threshold: 'p(95)<800',
        },
        1,
      ],
    ]);
  });
});
