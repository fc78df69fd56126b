// examples/grafana/gateway-harness.json against a real Prometheus: after short runs on the Node engine (trend stats and
// native histograms) and on the newest k6 found, every panel's query returns data from the series the runs wrote, and
// no query is dead (each returns data in at least one mode). Grafana's variables are substituted as Grafana would.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_FILE_NAME, loadConfig } from '../config/load-config.ts';
import { runLoadReported } from '../load/fixtures/load-run.ts';
import { PROMETHEUS, startPrometheus, type RunningPrometheus } from '../load/fixtures/prometheus.ts';
import { findK6, findLatestK6 } from '../load/engine-select.ts';
import { parseLoadFlags } from '../load/runner/load-options.ts';
import { METRICS } from '../load/metric-names.ts';

interface Target {
  readonly refId: string;
  readonly expr: string;
  readonly datasource: { readonly uid: string };
}
interface Panel {
  readonly title: string;
  readonly fieldConfig: { readonly defaults: { readonly noValue?: string } };
  readonly type: string;
  readonly datasource: { readonly type: string; readonly uid: string };
  readonly targets: readonly Target[];
}
const dashboard = JSON.parse(readFileSync(new URL('./grafana/gateway-harness.json', import.meta.url), 'utf8')) as {
  uid: string;
  panels: Panel[];
  templating: { list: Array<{ name: string; type: string }> };
};

/** What Grafana puts in for the dashboard's variables: one run, every operation, a rate window of a minute. */
function substitute(expr: string, testid: string): string {
  return expr
    .replace(/\$testid/g, testid)
    .replace(/\$operation/g, '.*')
    .replace(/\$__rate_interval/g, '1m');
}

describe('examples/grafana/gateway-harness.json', () => {
  it('has the panels the README promises, each on the Prometheus variable, with bounded labels only', () => {
    const titles = dashboard.panels.map((p) => p.title);
    for (const title of [
      'Latency percentiles, all requests',
      'p95 latency per operation',
      'Envelope outcomes per second',
      'Failures',
      'Time to final (p95)',
      'Virtual users',
      'Iterations per second',
      'Threshold states',
      'Checks',
      'Business failures per operation',
      'Payload violations and warnings',
    ]) {
      expect(titles).toContain(title);
    }
    expect(dashboard.templating.list.map((v) => v.name)).toEqual(['datasource', 'testid', 'operation']);
    for (const panel of dashboard.panels) {
      expect(panel.datasource).toEqual({ type: 'prometheus', uid: '${datasource}' });
      expect(panel.targets.length).toBeGreaterThan(0);
      for (const t of panel.targets) {
        expect(t.expr).toContain('testid=~"$testid"');
        expect(t.expr).not.toMatch(/\burl\b/);
      }
    }
  });

  it('draws one line per selected run: every aggregation keeps testid, and every legend names it', () => {
    for (const panel of dashboard.panels) {
      if (panel.type === 'table') continue;
      for (const t of panel.targets) {
        const aggregations = [...t.expr.matchAll(/\b(sum|max|min|avg|count)\s*(by\s*\(([^)]*)\))?\s*\(/g)];
        expect(aggregations.length, `${panel.title} ${t.refId}`).toBeGreaterThan(0);
        for (const a of aggregations) expect(a[3] ?? '', `${panel.title} ${t.refId}: ${a[0]}`).toMatch(/\btestid\b/);
        expect((t as Target & { legendFormat?: string }).legendFormat, `${panel.title} ${t.refId}`).toContain('{{testid}}');
      }
    }
  });

  it('never combines per-series trend stats into an all-requests percentile, and shows 0 where a count has no sample', () => {
    const all = dashboard.panels.find((p) => p.title === 'Latency percentiles, all requests') as Panel;
    for (const t of all.targets) {
      expect(t.expr).not.toMatch(/_p(50|90|95|99)\b/);
      expect(t.expr).toMatch(/^histogram_quantile\(/);
    }
    for (const panel of dashboard.panels) expect(panel.fieldConfig.defaults.noValue, panel.title).toBe('0');
  });
});

/** Panels that only native histograms can fill (percentiles over all requests): empty on a trend-stats run by design. */
const NATIVE_ONLY: ReadonlySet<string> = new Set(['Latency percentiles, all requests']);
/** Panels of events a faithful gateway may never cause (payload violations): they show 0 there, and data on a corrupting one. */
const RARE_EVENTS: ReadonlySet<string> = new Set(['Payload violations and warnings']);

const latestK6 = findLatestK6(process.env, findK6(process.env));
if (PROMETHEUS === undefined)
  console.warn(
    'examples/grafana.test.ts: SKIPPED the Prometheus part: no prometheus binary on PATH (apt-get install prometheus, or set PROMETHEUS_BIN)',
  );
if (latestK6 === undefined)
  console.warn(
    'examples/grafana.test.ts: no k6-latest found (K6_LATEST_BIN or k6-latest beside k6): the dashboard is checked on the Node engine only',
  );

describe.skipIf(PROMETHEUS === undefined)('every panel of the Grafana dashboard returns data after a run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gh-grafana-'));
  let prom: RunningPrometheus;
  const runs: Array<{ label: string; testid: string; native: boolean }> = [];

  beforeAll(async () => {
    prom = await startPrometheus({ nativeHistograms: true });
    const plan: Array<[string, 'node' | 'k6', boolean]> = [
      ['node engine, trend stats', 'node', false],
      ['node engine, native histograms, a sandbox with a retyped field', 'node', true],
      ...(latestK6 === undefined ? [] : ([['k6 latest, trend stats', 'k6', false]] as Array<[string, 'k6', boolean]>)),
    ];
    for (const [label, engine, native] of plan) {
      // The native-histogram run's sandbox sends v1 countries' numberLength as a number (the observed records carry
      // strings: a payload warning on every record) and its mixed scenario reads that list: the violations panel has data.
      const cwd = join(dir, `cwd-${runs.length}`);
      mkdirSync(cwd, { recursive: true });
      // The trend-stats runs' v2 top-ups fail half the time ('009'): the failure panels have failures to show.
      writeFileSync(
        join(cwd, CONFIG_FILE_NAME),
        JSON.stringify({ sandbox: { profile: native ? 'contract-type-changed' : 'fail-op:v2.transaction.topup:50%:insufficientFunds' } }),
      );
      // Pushes every second for a few seconds: rate() over a window needs more than one sample per series.
      const flags = parseLoadFlags({
        scenario: native ? 'mixed' : 'topup-flow',
        profile: 'smoke',
        engine,
        api: 'both',
        vus: '2',
        duration: '4s',
        reportDir: join(dir, String(runs.length)),
        out: [`prometheus=${prom.writeUrl}`],
      });
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        K6_PROMETHEUS_RW_PUSH_INTERVAL: '1s',
        K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM: String(native),
        ...(engine === 'k6' ? { K6_BIN: latestK6 } : {}),
      };
      const r = await runLoadReported(flags, loadConfig({ cwd, env: {} }), { cwd: dir, env });
      expect(r.report.load?.remoteWrite?.failedPushes, r.output()).toBe(0);
      runs.push({ label, testid: r.run.runId, native });
    }
  }, 300_000);

  afterAll(async () => {
    await prom?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('each panel has data for each run, and each query has data in some run', async () => {
    const answered = new Map<string, string[]>();
    for (const panel of dashboard.panels) {
      for (const run of runs) {
        let any = false;
        for (const t of panel.targets) {
          const result = await prom.query(substitute(t.expr, run.testid));
          if (result.length === 0) continue;
          any = true;
          const key = `${panel.title} ${t.refId}`;
          answered.set(key, [...(answered.get(key) ?? []), run.label]);
        }
        const mayBeEmpty = (NATIVE_ONLY.has(panel.title) && !run.native) || (RARE_EVENTS.has(panel.title) && !run.native);
        if (!mayBeEmpty) expect(any, `${panel.title}: no query returned data for ${run.label}`).toBe(true);
      }
    }
    for (const panel of dashboard.panels) {
      for (const t of panel.targets) {
        // Spec-rule violations need a broken gateway, which no run here is: that query has the warnings query's form with
        // the name the scripts count violations under (load/metric-names.ts), and the warnings query has data above.
        if (t.expr.includes(`k6_${METRICS.schemaViolations}_total`)) continue;
        expect(answered.get(`${panel.title} ${t.refId}`), `${panel.title} ${t.refId}: ${t.expr}`).toBeDefined();
      }
    }
    const violations = dashboard.panels.find((p) => p.title === 'Payload violations and warnings') as Panel;
    expect(violations.targets[0]?.expr).toBe(
      violations.targets[1]?.expr.replace(`k6_${METRICS.payloadWarnings}_total`, `k6_${METRICS.schemaViolations}_total`),
    );
  });
});
