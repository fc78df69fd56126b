// The per-second aggregates against the raw NDJSON of the same run: merge-results' counts exact and its verdicts the
// same, compare's verdicts the same, the charts' counts the same, a late point still counted, and the file's size
// following the run's duration, not its request rate (the raw stream grows tenfold where the aggregates barely move).
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { comparisonOf } from '../compare/compare-runs.ts';
import { mergeResults } from '../distributed/merge/merge-results.ts';
import type { ThresholdPlan } from '../distributed/merge/threshold-source.ts';
import type { ComparisonSection } from './model.ts';
import { writeSyntheticK6 } from './fixtures/synthetic-k6.ts';
import { lineStream, readK6Series } from './k6-series.ts';
import { AGGREGATES_FILE, MetricAggregator } from './metric-aggregates.ts';
import { payloadChecksOf } from './payload-checks.ts';

const root = mkdtempSync(join(tmpdir(), 'gh-aggregates-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The aggregates of a raw stream, as the load runner makes them while the engine writes. */
async function aggregate(raw: string, out: string): Promise<void> {
  const aggregator = new MetricAggregator(out);
  for await (const line of await lineStream(raw)) aggregator.addText(`${line}\n`);
  await aggregator.close();
}

/** A report dir holding one run twice: `raw/` with its NDJSON, `agg/` with its aggregates only. */
async function twoWays(name: string, run: Parameters<typeof writeSyntheticK6>[1]): Promise<{ raw: string; agg: string; requests: number }> {
  const raw = join(root, name, 'raw');
  const agg = join(root, name, 'agg');
  mkdirSync(raw, { recursive: true });
  mkdirSync(agg, { recursive: true });
  const { requests } = await writeSyntheticK6(join(raw, 'metrics.ndjson'), run);
  await aggregate(join(raw, 'metrics.ndjson'), join(agg, AGGREGATES_FILE));
  const facts = (file: string): string =>
    JSON.stringify({
      runId: name,
      load: { engine: 'k6 v0.48.0', scenario: 'mixed', profile: 'load' },
      artifacts: { [file === AGGREGATES_FILE ? 'metricsPerSecond' : 'metricsNdjson']: file },
    });
  writeFileSync(join(raw, 'summary.json'), facts('metrics.ndjson'));
  writeFileSync(join(agg, 'summary.json'), facts(AGGREGATES_FILE));
  return { raw, agg, requests };
}

const plan = (thresholds: Record<string, string[]>): ThresholdPlan => ({
  source: 'test',
  thresholds,
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)'],
});

async function merged(dir: string, file: string, thresholds: Record<string, string[]>): Promise<Awaited<ReturnType<typeof mergeResults>>> {
  return mergeResults({ files: [join(dir, file)], plan: plan(thresholds), reportDir: join(dir, 'merged'), runId: 'm', series: true });
}

const verdicts = (section: ComparisonSection): Record<string, string> =>
  Object.fromEntries(section.operations.map((o) => [o.operation, o.verdict]));

describe('per-second aggregates against the raw NDJSON of the same run', () => {
  it('merge-results: counts, rates and extremes exact, percentiles within the HdrHistogram precision, the same threshold verdicts', async () => {
    const run = await twoWays('merge', { durationS: 40, rps: 120, seed: 7 });
    // One threshold each side of the run's own p95, one on a tagged sub-metric, one rate: passes and crossings both.
    const probe = await merged(run.raw, 'metrics.ndjson', {});
    const p95 = probe.data.metrics.http_req_duration?.values['p(95)'] as number;
    const thresholds = {
      http_req_duration: [`p(95)<${(p95 * 1.01).toFixed(3)}`],
      'http_req_duration{operation:v2.catalog.skus}': [`p(95)<${(p95 * 0.5).toFixed(3)}`],
      http_req_failed: ['rate<0.05'],
      checks: ['rate>0.99'],
    };
    const fromRaw = await merged(run.raw, 'metrics.ndjson', thresholds);
    const fromAgg = await merged(run.agg, AGGREGATES_FILE, thresholds);
    expect(fromAgg.report.verdict).toBe(fromRaw.report.verdict);
    expect(fromAgg.report.load?.thresholds.map((t) => [t.metric, t.ok])).toEqual(
      fromRaw.report.load?.thresholds.map((t) => [t.metric, t.ok]),
    );
    expect(fromRaw.report.load?.thresholds.map((t) => t.ok)).toContain(false);
    expect(fromRaw.report.load?.thresholds.map((t) => t.ok)).toContain(true);
    const raw = fromRaw.data.metrics;
    const agg = fromAgg.data.metrics;
    expect(agg.http_reqs?.values).toEqual(raw.http_reqs?.values);
    expect(agg.http_reqs?.values.count).toBe(run.requests);
    expect(agg.http_req_failed?.values).toEqual(raw.http_req_failed?.values);
    expect(agg.checks?.values).toEqual(raw.checks?.values);
    expect(agg.gateway_outcomes?.values).toEqual(raw.gateway_outcomes?.values);
    const [trendRaw, trendAgg] = [raw.http_req_duration?.values ?? {}, agg.http_req_duration?.values ?? {}];
    expect(trendAgg.min).toBe(trendRaw.min);
    expect(trendAgg.max).toBe(trendRaw.max);
    expect(trendAgg.count ?? trendRaw.count).toBe(trendRaw.count);
    for (const stat of ['med', 'p(90)', 'p(95)', 'p(99)', 'avg']) {
      expect(Math.abs((trendAgg[stat] as number) - (trendRaw[stat] as number)) / (trendRaw[stat] as number), stat).toBeLessThan(0.002);
    }
  });

  it('compare: the same verdict per operation on aggregates as on the raw streams (A/A, and +25 % on one operation)', async () => {
    const a = await twoWays('cmp-a', { durationS: 600, rps: 30, seed: 5, burstRate: 0.05, burstFactor: 1.5, waveAmplitude: 0 });
    const b = await twoWays('cmp-b', {
      durationS: 600,
      rps: 30,
      seed: 6,
      burstRate: 0.05,
      burstFactor: 1.5,
      waveAmplitude: 0,
      latencyFactor: { 'v2.catalog.skus': 1.25 },
    });
    const c = await twoWays('cmp-c', { durationS: 600, rps: 30, seed: 8, burstRate: 0.05, burstFactor: 1.5, waveAmplitude: 0 });
    const slowRaw = await comparisonOf({ baselineDir: a.raw, candidateDir: b.raw });
    const slowAgg = await comparisonOf({ baselineDir: a.agg, candidateDir: b.agg });
    expect(verdicts(slowAgg)).toEqual(verdicts(slowRaw));
    expect(verdicts(slowRaw)['v2.catalog.skus']).toBe('regression');
    expect(slowAgg.verdict).toBe(slowRaw.verdict);
    const sameRaw = await comparisonOf({ baselineDir: a.raw, candidateDir: c.raw });
    const sameAgg = await comparisonOf({ baselineDir: a.agg, candidateDir: c.agg });
    expect(verdicts(sameAgg)).toEqual(verdicts(sameRaw));
    expect(sameAgg.verdict).toBe(sameRaw.verdict);
    // An old baseline (raw NDJSON, as every run kept before the aggregates) compares with a new candidate's aggregates.
    const mixed = await comparisonOf({ baselineDir: a.raw, candidateDir: b.agg });
    expect(verdicts(mixed)).toEqual(verdicts(slowRaw));
  }, 120_000);

  it("the report's series and payload counts: the same requests, failures and outcome counts per second", async () => {
    const run = await twoWays('series', { durationS: 30, rps: 80, seed: 9 });
    const options = { intervalMs: 1_000 };
    const raw = await readK6Series(join(run.raw, 'metrics.ndjson'), options);
    const agg = await readK6Series(join(run.agg, AGGREGATES_FILE), options);
    expect(agg.requests).toEqual(raw.requests);
    expect(agg.failedRequests).toEqual(raw.failedRequests);
    expect(agg.outcomes).toEqual(raw.outcomes);
    expect(agg.latency.overall.count).toEqual(raw.latency.overall.count);
    // Without a width given, a second at least: narrower buckets would show each second's aggregate as a spike.
    expect((await readK6Series(join(run.agg, AGGREGATES_FILE))).intervalMs).toBeGreaterThanOrEqual(1_000);
    expect(await payloadChecksOf({ ndjsonPath: join(run.agg, AGGREGATES_FILE) })).toEqual(
      await payloadChecksOf({ ndjsonPath: join(run.raw, 'metrics.ndjson') }),
    );
  });

  it('a point arriving after its second was written is still counted (one more line for that second)', async () => {
    const file = join(root, 'late.ndjson.gz');
    const aggregator = new MetricAggregator(file);
    const at = (s: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
    const point = (s: number): string =>
      JSON.stringify({ metric: 'http_reqs', type: 'Point', data: { time: at(s), value: 1, tags: { operation: 'x' } } });
    aggregator.addLine(
      JSON.stringify({
        type: 'Metric',
        metric: 'http_reqs',
        data: { name: 'http_reqs', type: 'counter', contains: 'default', thresholds: [], submetrics: null },
      }),
    );
    for (const s of [0, 1, 20, 0]) aggregator.addLine(point(s));
    await aggregator.close();
    const merge = await mergeResults({ files: [file], plan: plan({}), reportDir: join(root, 'late-merged'), runId: 'l', series: false });
    expect(merge.data.metrics.http_reqs?.values.count).toBe(4);
    // The run's span is its first and last sample's, not whole seconds: rates per second stay exact.
    expect(merge.report.durationMs).toBe(20_000);
  });

  it("one cell per operation and second, not per request: a url's ids give way to its name (origin kept)", async () => {
    const file = join(root, 'urls.ndjson.gz');
    const aggregator = new MetricAggregator(file);
    const time = new Date(Date.UTC(2026, 0, 1)).toISOString();
    aggregator.addLine(
      JSON.stringify({
        type: 'Metric',
        metric: 'http_reqs',
        data: { name: 'http_reqs', type: 'counter', contains: 'default', thresholds: [], submetrics: null },
      }),
    );
    for (const id of [282, 5436, 17]) {
      const tags = {
        name: '/api/v2/catalog/sku/exchangeRate/{skuId}',
        operation: 'v2.catalog.sku-exchange-rate',
        url: `http://127.0.0.1:4000/api/v2/catalog/sku/exchangeRate/${id}`,
      };
      aggregator.addLine(JSON.stringify({ metric: 'http_reqs', type: 'Point', data: { time, value: 1, tags } }));
    }
    await aggregator.close();
    const lines: string[] = [];
    for await (const line of await lineStream(file)) if (line.includes('"Aggregate"')) lines.push(line);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      data: { count: 3, value: 3, tags: { url: 'http://127.0.0.1:4000/api/v2/catalog/sku/exchangeRate/{skuId}' } },
    });
  });

  it('a threshold on one raw URL (`metric{url:...}`) is answered from the aggregates as from the raw stream', async () => {
    const dir = join(root, 'url-threshold');
    mkdirSync(dir, { recursive: true });
    const origin = 'http://127.0.0.1:4000';
    const slowUrl = `${origin}/api/v2/catalog/sku/exchangeRate/5436`;
    // k6's own Metric line for a script with that threshold (k6 v0.48 and latest write it so; engine/ndjson.ts too).
    const metric = {
      type: 'Metric',
      metric: 'http_req_duration',
      data: {
        name: 'http_req_duration',
        type: 'trend',
        contains: 'time',
        thresholds: [],
        submetrics: [{ name: `http_req_duration{url:${slowUrl}}`, suffix: `url:${slowUrl}`, tags: { url: slowUrl } }],
      },
    };
    const lines = [JSON.stringify(metric)];
    // 40 seconds, three SKUs a second under one name; SKU 5436 alone is slow (80-119 ms), the others 5-24 ms.
    for (let s = 0; s < 40; s += 1) {
      for (const id of [282, 5436, 17]) {
        const time = new Date(Date.UTC(2026, 0, 1, 0, 0, s, id % 1000)).toISOString();
        const value = id === 5436 ? 80 + ((s * 7) % 40) : 5 + ((s * 3 + id) % 20);
        const tags = {
          name: '/api/v2/catalog/sku/exchangeRate/{skuId}',
          method: 'GET',
          url: `${origin}/api/v2/catalog/sku/exchangeRate/${id}`,
        };
        lines.push(JSON.stringify({ metric: 'http_req_duration', type: 'Point', data: { time, value, tags } }));
      }
    }
    writeFileSync(join(dir, 'metrics.ndjson'), `${lines.join('\n')}\n`);
    await aggregate(join(dir, 'metrics.ndjson'), join(dir, AGGREGATES_FILE));
    const thresholds = { [`http_req_duration{url:${slowUrl}}`]: ['p(95)<100', 'min>70'], http_req_duration: ['p(95)<200'] };
    const fromRaw = await merged(dir, 'metrics.ndjson', thresholds);
    const fromAgg = await merged(dir, AGGREGATES_FILE, thresholds);
    const rows = (r: typeof fromRaw): unknown => r.report.load?.thresholds.map((t) => [t.metric, t.expression, t.ok, t.observed]);
    expect(rows(fromRaw)).toEqual([
      ['http_req_duration', 'p(95)<200', true, expect.any(Number)],
      [`http_req_duration{url:${slowUrl}}`, 'p(95)<100', false, expect.any(Number)],
      [`http_req_duration{url:${slowUrl}}`, 'min>70', true, 80],
    ]);
    expect(rows(fromAgg)).toEqual(rows(fromRaw));
    const named = `http_req_duration{url:${slowUrl}}`;
    // One sample a second per cell: exact values, so the whole trend is the raw stream's.
    expect(fromAgg.data.metrics[named]?.values).toEqual(fromRaw.data.metrics[named]?.values);
    expect(fromAgg.data.metrics[named]?.values.min).toBe(80);
    // The other SKUs' ids still give way to the name: one cell a second for them, one for the named URL.
    const cells: string[] = [];
    for await (const line of await lineStream(join(dir, AGGREGATES_FILE))) if (line.includes('"Aggregate"')) cells.push(line);
    expect(cells).toHaveLength(80);
  });

  it('grows with the duration, not the request rate: ten times the rate, aggregates within a small factor (the raw stream ten times larger)', async () => {
    // From 200 requests/s every tag set of the script shows up each second: more requests only fill the histograms.
    const slow = await twoWays('size-slow', { durationS: 20, rps: 150, seed: 11, gzip: true });
    const fast = await twoWays('size-fast', { durationS: 20, rps: 1500, seed: 11, gzip: true });
    const size = (path: string): number => statSync(path).size;
    const rawRatio = size(join(fast.raw, 'metrics.ndjson')) / size(join(slow.raw, 'metrics.ndjson'));
    const aggRatio = size(join(fast.agg, AGGREGATES_FILE)) / size(join(slow.agg, AGGREGATES_FILE));
    expect(rawRatio).toBeGreaterThan(7);
    expect(aggRatio).toBeLessThan(2.5);
  }, 120_000);
});
