// `load --out prometheus=URL` into a real Prometheus (Debian's package, started here on a free loopback port), on the
// Node engine and on each real k6 found, trends both ways: what Prometheus holds agrees with the run's own summary.json.
// "Agree": request count and envelope failure rate equal (counters are exact); p95 equal to the float with trend stats
// (one gauge per series: an operation whose requests form one series); with native histograms, Prometheus' estimate
// lies in the histogram bucket (≈ 9 % wide, schema 3) holding the run's own rank-⌈0.95·n⌉ sample, read from its NDJSON.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_FILE_NAME, loadConfig } from '../config/load-config.ts';
import { bucketIndex, bucketUpperBound } from '../engine/remote-write/native-histogram.ts';
import type { RunReport } from '../reports/model.ts';
import { PROMETHEUS, startPrometheus, type RunningPrometheus } from './fixtures/prometheus.ts';
import { runLoadReported } from './fixtures/load-run.ts';
import { k6ComparisonSlots } from './runner/k6-binaries.ts';
import { parseLoadFlags } from './runner/load-options.ts';
import { K6_PUSH_FAILED, THRESHOLD_SERIES } from './runner/prometheus-output.ts';

if (PROMETHEUS === undefined)
  console.warn('load/prometheus-rw.test.ts: SKIPPED: no prometheus binary on PATH (apt-get install prometheus, or set PROMETHEUS_BIN)');

const workDir = mkdtempSync(join(tmpdir(), 'gh-prom-rw-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));
const RUN_TIMEOUT_MS = 240_000;

const ENGINES: Array<[string, string | undefined]> = [['node engine', 'node'], ...k6ComparisonSlots('load/prometheus-rw.test.ts')];

interface Ran {
  readonly exitCode: number;
  readonly report: RunReport;
  readonly testid: string;
  readonly ndjson: string;
  readonly output: string;
  readonly reportDir: string;
}

/**
 * A short topup-flow smoke whose v2 top-ups all fail '009' (insufficient funds, a fail-op sandbox profile): reads pass,
 * so the failure rate is not 0. (A 1-dollar wallet no longer does it: the load is priced before its first charge.)
 */
function failingTopupsCwd(): string {
  const cwd = join(workDir, 'failing-topups');
  mkdirSync(cwd, { recursive: true });
  writeFileSync(
    join(cwd, CONFIG_FILE_NAME),
    JSON.stringify({ sandbox: { profile: 'fail-op:v2.transaction.topup:100%:insufficientFunds' } }),
  );
  return cwd;
}

async function runWith(
  engine: string,
  writeUrl: string,
  native: boolean,
  label: string,
  extraEnv: Record<string, string> = {},
): Promise<Ran> {
  const reportDir = join(workDir, label);
  const flags = parseLoadFlags({
    scenario: 'topup-flow',
    profile: 'smoke',
    engine: engine === 'node' ? 'node' : 'k6',
    api: 'both',
    reportDir,
    out: [`prometheus=${writeUrl}`, `json=${join(reportDir, 'metrics.ndjson.gz')}`],
  });
  const env: NodeJS.ProcessEnv = { ...process.env, K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM: native ? 'true' : 'false', ...extraEnv };
  if (engine !== 'node') env.K6_BIN = engine;
  const r = await runLoadReported(flags, loadConfig({ cwd: failingTopupsCwd(), env: {} }), { cwd: workDir, env });
  const ndjsonPath = r.run.ndjsonPath ?? '';
  return {
    exitCode: r.exitCode,
    report: r.report,
    testid: r.run.runId,
    ndjson: gunzipSync(readFileSync(ndjsonPath)).toString('utf8'),
    output: r.output(),
    reportDir,
  };
}

/** The run's own http_req_duration samples (ms) of one operation, sorted, from its NDJSON stream. */
function durations(ndjson: string, operation: string): number[] {
  const out: number[] = [];
  for (const line of ndjson.split('\n')) {
    if (!line.includes('"metric":"http_req_duration"') || !line.includes('"type":"Point"')) continue;
    const point = JSON.parse(line) as { data: { value: number; tags: Record<string, string> } };
    if (point.data.tags.operation === operation) out.push(point.data.value);
  }
  return out.sort((a, b) => a - b);
}

describe.skipIf(PROMETHEUS === undefined)('Prometheus remote write into a real Prometheus', () => {
  let prom: RunningPrometheus;
  beforeAll(async () => {
    prom = await startPrometheus({ nativeHistograms: true });
  }, 60_000);
  afterAll(async () => {
    await prom?.stop();
  });

  // The engine's own stale markers (a real k6 sends k6's; the wire's exact NaN bits are the engine's to get right).
  it(
    'node engine, K6_PROMETHEUS_RW_STALE_MARKERS=true: every series ends stale (gone from instant queries, its samples kept)',
    async () => {
      const r = await runWith('node', prom.writeUrl, false, 'node-stale', { K6_PROMETHEUS_RW_STALE_MARKERS: 'true' });
      const id = `testid="${r.testid}"`;
      expect(await prom.query(`k6_http_reqs_total{${id}}`)).toEqual([]);
      expect(await prom.scalar(`sum(max_over_time(k6_http_reqs_total{${id}}[5m]))`)).toBe(r.report.load?.requests.count);
    },
    RUN_TIMEOUT_MS,
  );

  describe.each(ENGINES)('%s', (label, engine) => {
    for (const native of [false, true]) {
      it.skipIf(engine === undefined)(
        `${native ? 'native histograms' : 'trend stats'}: request count, failure rate, p95 of one operation and thresholds agree with summary.json; no raw-URL label`,
        async () => {
          const r = await runWith(engine as string, prom.writeUrl, native, `${label.replace(/\W+/g, '-')}-${native ? 'native' : 'stats'}`);
          expect(r.exitCode, r.output).toBe(99); // the failed top-ups cross gateway_failed's threshold
          const load = r.report.load;
          expect(load?.remoteWrite, r.output).toMatchObject({ failedPushes: 0, trends: native ? 'native-histogram' : 'stats' });
          const id = `testid="${r.testid}"`;

          // Counts are exact.
          expect(await prom.scalar(`sum(k6_http_reqs_total{${id}})`)).toBe(load?.requests.count);
          const failed = await prom.scalar(`sum(k6_gateway_outcomes_total{${id},outcome="Failed"})`);
          const all = await prom.scalar(`sum(k6_gateway_outcomes_total{${id}})`);
          const rate = load?.metrics.gateway_failed?.values.rate as number;
          expect(rate).toBeGreaterThan(0);
          expect((failed as number) / (all as number)).toBeCloseTo(rate, 12);
          expect(await prom.scalar(`sum(k6_iterations_total{${id}})`)).toBe(load?.metrics.iterations?.values.count);

          // p95 of one operation.
          const operations = Object.keys(load?.metrics ?? {})
            .map((name) => /^http_req_duration\{operation:([^}]+)\}$/.exec(name)?.[1])
            .filter((op): op is string => op !== undefined);
          expect(operations.length).toBeGreaterThan(0);
          if (!native) {
            // A gauge per series cannot be aggregated: compare an operation whose requests all fall in one series.
            let compared = 0;
            for (const op of operations) {
              const series = await prom.query(`k6_http_req_duration_p95{${id},operation="${op}"}`);
              if (series.length !== 1) continue;
              const summaryP95 = load?.metrics[`http_req_duration{operation:${op}}`]?.values['p(95)'] as number;
              expect(Number(series[0]?.value[1]) * 1000, op).toBeCloseTo(summaryP95, 6);
              compared += 1;
            }
            expect(compared).toBeGreaterThan(0);
          } else {
            // The operation with the most requests (its p95 rests on the most samples).
            const count = (o: string): number => load?.metrics[`http_req_duration{operation:${o}}`]?.values.count ?? 0;
            const op = [...operations].sort((a, b) => count(b) - count(a))[0] as string;
            const summary = load?.metrics[`http_req_duration{operation:${op}}`]?.values;
            expect(summary?.count).toBeGreaterThan(0);
            const seen = JSON.stringify(await prom.query(`k6_http_req_duration_seconds{${id},operation="${op}"}`));
            expect(await prom.scalar(`histogram_count(sum(k6_http_req_duration_seconds{${id},operation="${op}"}))`), seen).toBe(
              summary?.count,
            );
            const q = (await prom.scalar(`histogram_quantile(0.95, sum(k6_http_req_duration_seconds{${id},operation="${op}"}))`)) as number;
            const samples = durations(r.ndjson, op);
            expect(samples.length).toBe(summary?.count);
            const ranked = samples[Math.ceil(0.95 * samples.length) - 1] as number;
            const bucket = bucketIndex(ranked / 1000);
            expect(q).toBeGreaterThanOrEqual(bucketUpperBound(bucket - 1) * (1 - 1e-12));
            expect(q).toBeLessThanOrEqual(bucketUpperBound(bucket) * (1 + 1e-12));
          }

          // Threshold results, one series each, crossed ones 0.
          expect((await prom.query(`${THRESHOLD_SERIES}{${id}}`)).length).toBe(load?.thresholds.length);
          expect(await prom.scalar(`${THRESHOLD_SERIES}{${id},metric="gateway_failed"}`)).toBe(0);
          expect(await prom.scalar(`${THRESHOLD_SERIES}{${id},metric="gateway_schema_violations"}`)).toBe(1);

          // Bounded labels: no raw URL (k6 v0.48 sets url to the request's name, the path template, and keeps it),
          // no error text; every request series names its operation.
          const written = await prom.series(`{${id}}`);
          expect(written.filter((labels) => labels.url !== undefined && labels.url !== labels.name)).toEqual([]);
          expect(written.filter((labels) => labels.error !== undefined)).toEqual([]);
          expect(written.filter((labels) => labels.__name__?.startsWith('k6_http_req') === true && labels.operation === undefined)).toEqual(
            [],
          );
          // k6 samples vus once a second (a run shorter than that may have none); the engine adds one at the end.
          if (engine === 'node') expect((await prom.query(`k6_vus{${id}}`)).length).toBe(1);
        },
        RUN_TIMEOUT_MS,
      );
    }

    it.skipIf(engine === undefined)(
      'a push that fails never fails the run: counted in summary.json and said',
      async () => {
        // A port nobody listens on: every push is refused.
        const r = await runWith(engine as string, 'http://127.0.0.1:9/api/v1/write', false, `${label.replace(/\W+/g, '-')}-unreachable`);
        expect(r.exitCode, r.output).toBe(99); // the same verdict as with a receiver: the failed top-ups
        expect(r.report.load?.remoteWrite?.failedPushes, r.output).toBeGreaterThanOrEqual(2); // the final flush and the thresholds
        expect(r.output).toMatch(/push\(es\) to Prometheus failed \(the run went on\)/);
        expect(readFileSync(join(r.reportDir, 'summary.md'), 'utf8')).toMatch(
          /⚠️ Prometheus remote write to http\\:\/\/127\.0\.0\.1:9\/api\/v1\/write \(trends as stats\): .*pushes failed \(the run went on/,
        );
        if (engine !== 'node') expect(r.output).toContain(K6_PUSH_FAILED);
      },
      RUN_TIMEOUT_MS,
    );
  });
});
