// `gateway-harness load --engine node` runs every scenario's smoke profile against the embedded sandbox, in-process
// through the CLI: exit 0, and the report set (summary.json, junit.xml, summary.md, report.html) consistent with itself
// and with what the run did. No k6 needed: this is the route of every machine without one.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checksInUse } from './checks.ts';
import { SCENARIOS, SCENARIO_NAMES, scenarioOperations } from './scenarios.ts';
import type { RunReport } from '../reports/model.ts';
import { runCli } from '../scripts/fixtures/run-cli.ts';

const workDir = mkdtempSync(join(tmpdir(), 'gh-node-smoke-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const RUN_TIMEOUT_MS = 120_000;

describe('gateway-harness load --engine node (embedded sandbox)', () => {
  it.each(SCENARIO_NAMES)(
    '%s smoke exits 0 with a report set consistent with itself and with the run',
    async (scenario) => {
      const reportDir = join(workDir, scenario);
      // The Node engine is asked for explicitly: a k6 on PATH must not take the run over.
      const { code, output } = await runCli([
        'load',
        '--scenario',
        scenario,
        '--profile',
        'smoke',
        '--engine',
        'node',
        '--report-dir',
        reportDir,
      ]);
      expect(code, output.slice(-3000)).toBe(0);
      expect(output).toMatch(new RegExp(`load: ${scenario} \\(smoke\\) on the Node engine`));
      for (const file of ['summary.json', 'junit.xml', 'summary.md', 'report.html'])
        expect(existsSync(join(reportDir, file)), file).toBe(true);

      const summary = JSON.parse(readFileSync(join(reportDir, 'summary.json'), 'utf8')) as RunReport;
      expect(summary).toMatchObject({
        command: 'load',
        verdict: 'pass',
        exitCode: 0,
        skipped: [],
        target: { embedded: true, environment: 'sandbox', timeScale: 0.01, api: 'both' },
      });
      expect(summary.target.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const load = summary.load;
      if (load === undefined) throw new Error('no load section');
      expect(load).toMatchObject({ verdict: 'pass', scenario, profile: 'smoke', engine: 'node', setupCompleted: true });
      // The profile's shared iterations all ran; every response went through the checks and the envelope metrics.
      const count = (metric: string): number | undefined => load.metrics[metric]?.values.count;
      expect(count('iterations')).toBe(Math.max(SCENARIOS[scenario].smokeIterations, 2));
      expect(load.requests.count).toBeGreaterThan(0);
      const responses = count('gateway_outcomes') ?? 0;
      expect(responses).toBe(load.requests.count);
      for (const metric of ['gateway_schema_violations', 'gateway_unresolved']) expect(count(metric) ?? 0, metric).toBe(0);
      expect(load.metrics.gateway_failed?.values.rate).toBe(0);
      // One check per response, in whichever group (setup's reads included) it was made.
      const statusChecks = load.checks.filter((c) => c.name === 'http status is 200');
      expect(statusChecks.reduce((n, c) => n + c.passes + c.fails, 0)).toBe(responses);
      // Every expected check ran and passed; every threshold held on samples (none unverified).
      const expected = checksInUse({ schemaChecks: true, readsBackStatus: SCENARIOS[scenario].readsBackStatus })
        .map((c) => c.name)
        .sort();
      expect([...new Set(load.checks.map((c) => c.name))].sort()).toEqual(expected);
      for (const c of load.checks) expect(c, c.name).toMatchObject({ fails: 0 });
      for (const c of load.checks) expect(c.passes, c.name).toBeGreaterThan(0);
      for (const t of load.thresholds)
        expect({ ok: t.ok, verified: t.verified ?? true }, `${t.metric} ${t.expression}`).toEqual({ ok: true, verified: true });
      // Smoke sends every operation of the scenario: each has its latency threshold and it was measured.
      const measured = load.thresholds
        .filter((t) => t.metric.startsWith('http_req_duration{operation:'))
        .map((t) => t.metric.slice('http_req_duration{operation:'.length, -1));
      expect(measured.sort()).toEqual(
        scenarioOperations(scenario, 'both')
          .map((op) => op.id)
          .sort(),
      );
      // The charts' series come from the run's own NDJSON stream.
      expect(
        load.series?.requests.reduce((a, b) => a + b, 0),
        JSON.stringify(load.series?.source),
      ).toBe(load.requests.count);

      // junit.xml: none failed or skipped, and more testcases than checks (thresholds too).
      const junit = readFileSync(join(reportDir, 'junit.xml'), 'utf8');
      const cases = (junit.match(/<testcase /g) ?? []).length;
      expect(cases).toBeGreaterThan(load.checks.length);
      expect(junit).toMatch(new RegExp(`<testsuites name="gateway-harness load" tests="${cases}" failures="0" errors="0"`));

      // summary.md and the command's first stdout line say the same verdict line.
      const md = readFileSync(join(reportDir, 'summary.md'), 'utf8');
      expect(md.split('\n')[0]).toMatch(new RegExp(`^## ✅ PASS: load ${scenario}/smoke \\(node\\)`));
      expect(summary.verdictLine).toMatch(new RegExp(`^PASS: load ${scenario}/smoke \\(node\\)`));
      expect(output).toContain(summary.verdictLine);
    },
    RUN_TIMEOUT_MS,
  );
});
