// examples/grafana/gateway-harness.json against a real Prometheus: after short runs on the Node engine (trend stats and
// native histograms) and on the newest k6 found, every panel's query returns data from the series the runs wrote, and
// no query is dead (each returns data in at least one mode). Grafana's variables are substituted as Grafana would.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.ts';
import { runLoadReported } from '../load/fixtures/load-run.ts';
import { PROMETHEUS, startPrometheus, type RunningPrometheus } from '../load/fixtures/prometheus.ts';
import { findK6, findLatestK6 } from '../load/engine-select.ts';
import { parseLoadFlags } from '../load/runner/load-options.ts';

interface Target {
  readonly refId: string;
  readonly expr: string;
  readonly datasource: { readonly uid: string };
}
interface Panel {
  readonly title: string;
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
  return expr.replace(/\$testid/g, testid).replace(/\$operation/g, '.*').replace(/\$__rate_interval/g, '1m');
}

describe('examples/grafana/gateway-harness.json', () => {
  it('has the panels the README promises, each on the Prometheus variable, with bounded labels only', () => {
    const titles = dashboard.panels.map((p) => p.title);
    for (const title of ['Latency percentiles, all requests', 'p95 latency per operation', 'Envelope outcomes per second', 'Failures', 'Time to final (p95)', 'Virtual users', 'Iterations per second', 'Threshold states']) {
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
});

const latestK6 = findLatestK6(process.env, findK6(process.env));
if (PROMETHEUS === undefined) console.warn('examples/grafana.test.ts: SKIPPED the Prometheus part: no prometheus binary on PATH (apt-get install prometheus, or set PROMETHEUS_BIN)');
if (latestK6 === undefined) console.warn('examples/grafana.test.ts: no k6-latest found (K6_LATEST_BIN or k6-latest beside k6): the dashboard is checked on the Node engine only');

describe.skipIf(PROMETHEUS === undefined)('every panel of the Grafana dashboard returns data after a run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gh-grafana-'));
  let prom: RunningPrometheus;
  const runs: Array<{ label: string; testid: string }> = [];

  beforeAll(async () => {
    prom = await startPrometheus({ nativeHistograms: true });
    const plan: Array<[string, 'node' | 'k6', boolean]> = [
      ['node engine, trend stats', 'node', false],
      ['node engine, native histograms', 'node', true],
      ...(latestK6 === undefined ? [] : ([['k6 latest, trend stats', 'k6', false]] as Array<[string, 'k6', boolean]>)),
    ];
    for (const [label, engine, native] of plan) {
      // Pushes every second for a few seconds: rate() over a window needs more than one sample per series.
      const flags = parseLoadFlags({ scenario: 'topup-flow', profile: 'smoke', engine, api: 'both', vus: '2', duration: '4s', funds: '1', reportDir: join(dir, String(runs.length)), out: [`prometheus=${prom.writeUrl}`] });
      const env: NodeJS.ProcessEnv = { ...process.env, K6_PROMETHEUS_RW_PUSH_INTERVAL: '1s', K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM: String(native), ...(engine === 'k6' ? { K6_BIN: latestK6 } : {}) };
      const r = await runLoadReported(flags, loadConfig({ cwd: dir, env: {} }), { cwd: dir, env });
      expect(r.report.load?.remoteWrite?.failedPushes, r.output()).toBe(0);
      runs.push({ label, testid: r.run.runId });
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
        expect(any, `${panel.title}: no query returned data for ${run.label}`).toBe(true);
      }
    }
    for (const panel of dashboard.panels) for (const t of panel.targets) expect(answered.get(`${panel.title} ${t.refId}`), `${panel.title} ${t.refId}: ${t.expr}`).toBeDefined();
  });
});
