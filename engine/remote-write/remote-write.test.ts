// The engine's remote-write output without a Prometheus: bucket maths against client_golang's rules, k6's series names
// and labels, what a push carries (decoded from the wire), stale markers, settings from K6_PROMETHEUS_RW_*, and a
// receiver that refuses or is absent (counted, never thrown).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compressSync } from 'snappy';
import { afterEach, describe, expect, it } from 'vitest';
import { remoteWriteConfigFromEnv, RW_DEFAULTS, statSuffix, type RemoteWriteConfig } from './config.ts';
import { bucketIndex, bucketUpperBound, NativeHistogram, ZERO_THRESHOLD } from './native-histogram.ts';
import { RemoteWriteOutput } from './output.ts';
import { RemoteWriteSeries } from './series.ts';
import { decodeWriteRequestBody, encodeWriteRequest, type PromTimeSeries } from './wire.ts';

const TREND = { name: 'http_req_duration', type: 'trend', contains: 'time' } as const;
const COUNTER = { name: 'http_reqs', type: 'counter', contains: 'default' } as const;
const RATE = { name: 'gateway_failed', type: 'rate', contains: 'default' } as const;
const GAUGE = { name: 'vus', type: 'gauge', contains: 'default' } as const;
const config = (over: Partial<RemoteWriteConfig> = {}): RemoteWriteConfig => ({ ...remoteWriteConfigFromEnv({}), ...over });
const nameOf = (s: PromTimeSeries): string | undefined => s.labels.find((l) => l.name === '__name__')?.value;

describe('native histogram buckets (schema 3, as client_golang)', () => {
  it('puts a value in the bucket (2^((i−1)/8), 2^(i/8)]', () => {
    expect(bucketIndex(1)).toBe(0);
    expect(bucketIndex(2)).toBe(8);
    expect(bucketIndex(0.5)).toBe(-8);
    expect(bucketIndex(1.05)).toBe(1);
    expect(bucketIndex(2 ** (1 / 8) * 1.0000001)).toBe(2);
    for (const v of [0.0123, 0.2, 0.73, 3.3, 47]) {
      const i = bucketIndex(v);
      expect(v).toBeGreaterThan(bucketUpperBound(i - 1));
      expect(v).toBeLessThanOrEqual(bucketUpperBound(i) * (1 + 1e-15));
    }
  });

  it('encodes spans and deltas like makeBuckets (gaps up to two buckets stay in a span); zero and negative values', () => {
    const h = new NativeHistogram();
    for (const v of [1, 1.05, 1.25, 2.3, 0, -1]) h.observe(v);
    // buckets 0, 1, 3 (a gap of one: filled with a zero) and 10 (gap of six: a new span).
    expect(h.toProto(7)).toEqual({
      countInt: 6,
      sum: 1 + 1.05 + 1.25 + 2.3 - 1,
      schema: 3,
      zeroThreshold: ZERO_THRESHOLD,
      zeroCountInt: 1,
      negativeSpans: [{ offset: 0, length: 1 }],
      negativeDeltas: [1],
      positiveSpans: [
        { offset: 0, length: 4 },
        { offset: 6, length: 1 },
      ],
      positiveDeltas: [1, 0, -1, 1, 0],
      timestamp: 7,
    });
  });
});

describe("series as k6's output names them", () => {
  it('counter _total, gauge bare, rate _rate, trend one gauge per stat in seconds; url and error never labels', () => {
    const s = new RemoteWriteSeries(config({ trendStats: ['p(95)', 'p(99.9)', 'max', 'count', 'sum'] }));
    const tags = {
      operation: 'v2.catalog.skus',
      name: '/api/v2/catalog/skus',
      url: 'http://x/api/v2/catalog/skus?id=1',
      error: 'dial tcp 1.2.3.4:5',
      group: '',
    };
    s.add(COUNTER, 1, tags, 1000.7);
    s.add(COUNTER, 1, tags, 1001);
    s.add(GAUGE, 3, {}, 1000);
    s.add(RATE, 1, tags, 1000);
    s.add(RATE, 0, tags, 1000);
    s.add(TREND, 100, tags, 1000);
    s.add(TREND, 300, tags, 1002);
    const out = s.collect();
    expect(out.map(nameOf).sort()).toEqual([
      'k6_gateway_failed_rate',
      'k6_http_req_duration_count',
      'k6_http_req_duration_max',
      'k6_http_req_duration_p95',
      'k6_http_req_duration_p999',
      'k6_http_req_duration_sum',
      'k6_http_reqs_total',
      'k6_vus',
    ]);
    const byName = new Map(out.map((x) => [nameOf(x), x]));
    expect(byName.get('k6_http_reqs_total')).toEqual({
      labels: [
        { name: '__name__', value: 'k6_http_reqs_total' },
        { name: 'name', value: '/api/v2/catalog/skus' },
        { name: 'operation', value: 'v2.catalog.skus' },
      ],
      samples: [{ value: 2, timestamp: 1001 }],
    });
    expect(byName.get('k6_gateway_failed_rate')?.samples?.[0]?.value).toBe(0.5);
    expect(byName.get('k6_http_req_duration_max')?.samples?.[0]).toEqual({ value: 0.3, timestamp: 1002 });
    expect(byName.get('k6_http_req_duration_sum')?.samples?.[0]?.value).toBeCloseTo(0.4, 12);
    expect(byName.get('k6_http_req_duration_count')?.samples?.[0]?.value).toBe(0.002); // k6 divides every time stat by 1000
    expect(s.promSeriesCount).toBe(8);
  });

  it('sends a series again only when a later millisecond brought samples, and its total so far', () => {
    const s = new RemoteWriteSeries(config());
    s.add(COUNTER, 1, { a: 'x' }, 5000.2);
    s.add(COUNTER, 1, { a: 'y' }, 5000);
    expect(s.collect()).toHaveLength(2);
    s.add(COUNTER, 1, { a: 'x' }, 5000.9); // same millisecond: aggregated, not re-sent
    expect(s.collect()).toEqual([]);
    s.add(COUNTER, 1, { a: 'x' }, 5001);
    expect(s.collect()).toEqual([
      {
        labels: [
          { name: '__name__', value: 'k6_http_reqs_total' },
          { name: 'a', value: 'x' },
        ],
        samples: [{ value: 3, timestamp: 5001 }],
      },
    ]);
  });

  it('names a native-histogram trend by its base unit and marks every series stale 1 ms after the end', () => {
    const s = new RemoteWriteSeries(config({ trendAsNativeHistogram: true }));
    s.add(TREND, 1000, {}, 10);
    s.add({ name: 'data_sent', type: 'trend', contains: 'data' }, 10, {}, 10);
    expect(s.collect().map((x) => [nameOf(x), x.histograms?.[0]?.countInt, x.histograms?.[0]?.sum])).toEqual([
      ['k6_http_req_duration_seconds', 1, 1],
      ['k6_data_sent_bytes', 1, 10],
    ]);
    const stale = s.staleMarkers(20);
    expect(stale).toHaveLength(2);
    // On the wire each value is Prometheus' stale NaN, bit for bit (a JS NaN could lose them), and nothing else changed.
    const bytes = Buffer.from(encodeWriteRequest(stale));
    const marker = Buffer.from(new BigUint64Array([0x7ff0000000000002n]).buffer);
    let found = 0;
    for (let at = bytes.indexOf(marker); at >= 0; at = bytes.indexOf(marker, at + 1)) found += 1;
    expect(found).toBe(2);
    for (const x of decodeWriteRequestBody(compressSync(bytes)).timeseries) {
      expect(x.samples?.[0]?.timestamp).toBe(21);
      expect(Number.isNaN(x.samples?.[0]?.value)).toBe(true);
    }
  });
});

describe('settings from K6_PROMETHEUS_RW_*', () => {
  it("has k6's defaults and reads k6's variables", () => {
    expect(remoteWriteConfigFromEnv({})).toEqual({
      url: RW_DEFAULTS.url,
      pushIntervalMs: 5000,
      trendAsNativeHistogram: false,
      trendStats: ['p(99)'],
      staleMarkers: false,
      headers: {},
    });
    expect(
      remoteWriteConfigFromEnv({
        K6_PROMETHEUS_RW_SERVER_URL: 'http://p:9090/api/v1/write',
        K6_PROMETHEUS_RW_PUSH_INTERVAL: '1s',
        K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM: 'true',
        K6_PROMETHEUS_RW_TREND_STATS: 'p(95), max',
        K6_PROMETHEUS_RW_STALE_MARKERS: 'true',
        K6_PROMETHEUS_RW_HEADERS_X_SCOPE_ORGID: 'team',
        K6_PROMETHEUS_RW_HTTP_HEADERS: 'a:1,b:2',
        K6_PROMETHEUS_RW_USERNAME: 'u',
        K6_PROMETHEUS_RW_PASSWORD: 'p',
      }),
    ).toEqual({
      url: 'http://p:9090/api/v1/write',
      pushIntervalMs: 1000,
      trendAsNativeHistogram: true,
      trendStats: ['p(95)', 'max'],
      staleMarkers: true,
      headers: { X_SCOPE_ORGID: 'team', a: '1', b: '2' },
      username: 'u',
      password: 'p',
    });
    expect(statSuffix('p(99.9)')).toBe('p999');
  });

  it('refuses what k6 refuses, in one line', () => {
    expect(() => remoteWriteConfigFromEnv({ K6_PROMETHEUS_RW_SERVER_URL: 'not a url' })).toThrow(
      /K6_PROMETHEUS_RW_SERVER_URL is not a URL/,
    );
    expect(() => remoteWriteConfigFromEnv({ K6_PROMETHEUS_RW_TREND_STATS: 'p95' })).toThrow(/unknown stat "p95"/);
    expect(() => remoteWriteConfigFromEnv({ K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM: 'yes' })).toThrow(/must be true or false/);
    expect(() => remoteWriteConfigFromEnv({ K6_PROMETHEUS_RW_HTTP_HEADERS: 'novalue' })).toThrow(/is not <header key>:<value>/);
  });
});

describe('pushes', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((r) => (server === undefined ? r() : server.close(() => r())));
    server = undefined;
  });

  async function receiver(status: number): Promise<{ url: string; bodies: Array<{ headers: IncomingMessage['headers']; body: Buffer }> }> {
    const bodies: Array<{ headers: IncomingMessage['headers']; body: Buffer }> = [];
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push({ headers: req.headers, body: Buffer.concat(chunks) });
        res.statusCode = status;
        res.end(status === 204 ? '' : 'out of order sample');
      });
    });
    await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
    return { url: `http://127.0.0.1:${(server?.address() as AddressInfo).port}/api/v1/write`, bodies };
  }

  const describe_ = (name: string) => (name === 'http_reqs' ? COUNTER : name === 'vus' ? GAUGE : undefined);

  it('sends snappy-compressed protobuf with the protocol headers, from NDJSON point lines, and stale markers at the end', async () => {
    const r = await receiver(204);
    const errors: string[] = [];
    const output = new RemoteWriteOutput(config({ url: r.url, staleMarkers: true, username: 'u', password: 'p' }), describe_, (t) =>
      errors.push(t),
    );
    output.addPointLines(
      `{"metric":"http_reqs","type":"Point","data":{"time":"2026-01-01T00:00:00.000Z","value":1,"tags":{"operation":"o"}}}\n{"metric":"unknown","type":"Point","data":{"time":"2026-01-01T00:00:00.000Z","value":1,"tags":{}}}\n`,
    );
    output.add(GAUGE, 2, {}, Date.parse('2026-01-01T00:00:00.001Z'));
    const stats = await output.stop();
    expect(errors).toEqual([]);
    expect(stats).toEqual({ url: r.url, trends: 'stats', pushes: 2, failedPushes: 0, series: 2 });
    expect(r.bodies).toHaveLength(2);
    expect(r.bodies[0]?.headers).toMatchObject({
      'content-encoding': 'snappy',
      'content-type': 'application/x-protobuf',
      'x-prometheus-remote-write-version': '0.1.0',
      authorization: `Basic ${Buffer.from('u:p').toString('base64')}`,
    });
    const first = decodeWriteRequestBody(r.bodies[0]?.body as Buffer).timeseries;
    expect(first.map((s) => [nameOf(s), s.samples?.[0]?.value, s.samples?.[0]?.timestamp])).toEqual([
      ['k6_http_reqs_total', 1, Date.parse('2026-01-01T00:00:00.000Z')],
      ['k6_vus', 2, Date.parse('2026-01-01T00:00:00.001Z')],
    ]);
    expect(decodeWriteRequestBody(r.bodies[1]?.body as Buffer).timeseries.every((s) => Number.isNaN(s.samples?.[0]?.value))).toBe(true);
  });

  it('counts a refused push and an unreachable receiver, logs them, and never throws', async () => {
    const r = await receiver(400);
    const errors: string[] = [];
    const refused = new RemoteWriteOutput(config({ url: r.url }), describe_, (t) => errors.push(t));
    refused.add(COUNTER, 1, {}, 1);
    expect(await refused.stop()).toMatchObject({
      pushes: 1,
      failedPushes: 1,
      lastError: 'server returned HTTP status 400: out of order sample',
    });
    const absent = new RemoteWriteOutput(config({ url: 'http://127.0.0.1:9/api/v1/write' }), describe_, (t) => errors.push(t));
    absent.add(COUNTER, 1, {}, 1);
    expect(await absent.stop()).toMatchObject({ pushes: 1, failedPushes: 1 });
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(
      /^Failed to send the time series data to the endpoint \(http:\/\/127\.0\.0\.1:\d+\/api\/v1\/write\): server returned HTTP status 400/,
    );
  });
});
