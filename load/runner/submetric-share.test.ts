// The share rule per threshold submetric (#36): a crossed latency threshold on `http_req_duration{scenario:...}` is the
// generator's only when enough of *that scenario's* requests were measured inside its saturated windows, whatever the
// run's share. Both directions were judged wrong by the run-wide share this replaces; the metric file is read as the
// load report reads it (raw NDJSON and per-second aggregates alike).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generatorReport, type GeneratorPoint } from '../../reports/generator.ts';
import type { K6SummaryData } from '../../reports/k6-summary.ts';
import { MetricAggregator } from '../../reports/metric-aggregates.ts';
import { submetricSelector, submetricSharesInWindows } from '../../reports/submetric-windows.ts';
import { loadSection } from './load-report.ts';

const T0 = Date.UTC(2026, 10, 27, 1, 0, 0);
const dir = mkdtempSync(join(tmpdir(), 'gh-submetric-share-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** k6 starved for the run's first 2 s (T0..T0+2000): one window, no bound on what it added. */
const starved: GeneratorPoint[] = [0, 1].map((i) => ({ t: T0 + (i + 1) * 1000, cpuShare: 0.4, runQueueShare: 0.9 }));
const generator = generatorReport('k6', 1, starved);

const point = (metric: string, t: number, value: number, scenario: string): string =>
  JSON.stringify({ type: 'Point', metric, data: { time: new Date(t).toISOString(), value, tags: { scenario, name: 'x' } } });

/** `inside` requests of scenario `a` within the window, `outside` of scenario `b` spread over the 18 s after it. */
function stream(name: string, inside: { scenario: string; count: number }, outside: { scenario: string; count: number }): string {
  const lines = [
    JSON.stringify({
      type: 'Metric',
      metric: 'http_req_duration',
      data: { type: 'trend', contains: 'time', thresholds: [], submetrics: null },
    }),
    JSON.stringify({
      type: 'Metric',
      metric: 'http_reqs',
      data: { type: 'counter', contains: 'default', thresholds: [], submetrics: null },
    }),
  ];
  const add = (t: number, scenario: string): void => {
    lines.push(point('http_req_duration', t, 900, scenario), point('http_reqs', t, 1, scenario));
  };
  for (let i = 0; i < inside.count; i += 1) add(T0 + 100 + (i * 1800) / inside.count, inside.scenario);
  for (let i = 0; i < outside.count; i += 1) add(T0 + 2500 + (i * 17_000) / outside.count, outside.scenario);
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

function summary(metric: string): K6SummaryData {
  return {
    setup_data: {},
    state: { testRunDurationMs: 20_000 },
    metrics: {
      http_reqs: { type: 'counter', values: { count: 400, rate: 20 } },
      http_req_duration: { type: 'trend', values: { 'p(95)': 900, med: 900 } },
      [metric]: { type: 'trend', values: { 'p(95)': 900, med: 900 }, thresholds: { 'p(95)<50': { ok: false } } },
    },
  };
}

async function judged(ndjsonPath: string, metric: string) {
  return loadSection({ summaryData: summary(metric), scenario: 'mixed', profile: 'smoke', engine: 'k6 v0.48.0', ndjsonPath, generator });
}

describe('the share rule per threshold submetric', () => {
  it("a scenario whose every request was measured in the window is the generator's, though the run's share is 2.5 %", async () => {
    // 10 of the run's 400 requests inside: the run-wide rule (over 5 % for a p(95)) called this gateway's p(95) crossed.
    const path = stream('browse-starved.ndjson', { scenario: 'browse', count: 10 }, { scenario: 'topup', count: 390 });
    const section = await judged(path, 'http_req_duration{scenario:browse}');
    expect(section.generator?.requestShareInWindows).toBeCloseTo(10 / 400, 2);
    // The run-wide rule said 'thresholds' here: the gateway blamed for the generator's time.
    expect(section.verdict).toBe('incomplete');
    expect(section.generator?.latencyBound).toEqual(['http_req_duration{scenario:browse} p(95)<50']);
    expect(section.generator?.submetricShares).toEqual({ 'http_req_duration{scenario:browse}': 1 });
  });

  it("a scenario with no request in the window is the gateway's, though the run's share is 60 %", async () => {
    // The run-wide rule excused this p(95) (60 % of the run's requests inside), yet none of topup's were.
    const path = stream('topup-clear.ndjson', { scenario: 'browse', count: 600 }, { scenario: 'topup', count: 400 });
    const section = await judged(path, 'http_req_duration{scenario:topup}');
    expect(section.generator?.requestShareInWindows).toBeGreaterThan(0.5);
    // The run-wide rule said 'incomplete' here: a slow gateway excused by another scenario's starved seconds.
    expect(section.verdict).toBe('thresholds');
    expect(section.generator?.latencyBound).toBeUndefined();
    expect(section.generator?.submetricShares).toEqual({ 'http_req_duration{scenario:topup}': 0 });
  });

  it('reads per-second aggregates as it reads the raw stream', async () => {
    const raw = stream('mixed.ndjson', { scenario: 'browse', count: 30 }, { scenario: 'topup', count: 370 });
    const aggregates = join(dir, 'mixed.ndjson.gz');
    const aggregator = new MetricAggregator(aggregates);
    aggregator.addText(readFileSync(raw, 'utf8'));
    await aggregator.close();
    const metrics = ['http_req_duration{scenario:browse}', 'http_req_duration{scenario:topup}', 'http_req_duration'];
    const fromRaw = await submetricSharesInWindows(raw, metrics, generator.windows);
    const fromAggregates = await submetricSharesInWindows(aggregates, metrics, generator.windows);
    expect(fromRaw.get('http_req_duration{scenario:browse}')).toBe(1);
    expect(fromRaw.get('http_req_duration')).toBeCloseTo(30 / 400, 6);
    for (const metric of metrics) expect(fromAggregates.get(metric)).toBeCloseTo(fromRaw.get(metric) as number, 6);
  });

  it("parses a threshold's selector as k6 does: trimmed, unquoted, a URL's colons kept", () => {
    expect(submetricSelector('http_req_duration{ scenario: "browse" ,url:http://h:1/sku/5}')).toEqual({
      base: 'http_req_duration',
      tags: [
        ['scenario', 'browse'],
        ['url', 'http://h:1/sku/5'],
      ],
    });
    expect(submetricSelector('iteration_duration')).toEqual({ base: 'iteration_duration', tags: [] });
  });
});
