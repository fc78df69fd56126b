// `gateway-harness load --engine node` runs every scenario's smoke profile against the embedded sandbox, in-process
// through the CLI: exit 0, and summary.json, junit.xml and summary.md written and consistent with each other and with
// what the run did. No k6 needed: this is the route of every machine without one.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../scripts/cli.ts';
import { checksInUse } from './checks.ts';
import { SCENARIOS, SCENARIO_NAMES, scenarioOperations } from './scenarios.ts';
import type { LoadSummary } from './summary/build-summary.ts';

const workDir = mkdtempSync(join(tmpdir(), 'gh-node-smoke-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

async function runCli(args: string[]): Promise<{ code: number; output: string }> {
  let output = '';
  const capture = (chunk: string | Uint8Array): boolean => {
    output += chunk.toString();
    return true;
  };
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  try {
    process.exitCode = undefined;
    const code = await main(['node', 'gateway-harness', ...args]);
    return { code, output };
  } finally {
    process.exitCode = undefined;
    out.mockRestore();
    err.mockRestore();
  }
}

const RUN_TIMEOUT_MS = 120_000;

describe('gateway-harness load --engine node (embedded sandbox)', () => {
  it.each(SCENARIO_NAMES)(
    '%s smoke exits 0 with consistent summary.json, junit.xml and summary.md',
    async (scenario) => {
      const reportDir = join(workDir, scenario);
      // The Node engine is asked for explicitly: a k6 on PATH must not take the run over.
      const { code, output } = await runCli(['load', '--scenario', scenario, '--profile', 'smoke', '--engine', 'node', '--report-dir', reportDir]);
      expect(code, output.slice(-3000)).toBe(0);
      expect(output).toMatch(new RegExp(`load: ${scenario} \\(smoke\\) on the Node engine`));
      for (const file of ['summary.json', 'junit.xml', 'summary.md']) expect(existsSync(join(reportDir, file)), file).toBe(true);

      const summary = JSON.parse(readFileSync(join(reportDir, 'summary.json'), 'utf8')) as LoadSummary;
      expect(summary).toMatchObject({ schema: 'gateway-harness/load-summary/1', verdict: 'pass', exitCode: 0, problems: [] });
      expect(summary.run).toMatchObject({ scenario, profile: 'smoke', api: 'both', environment: 'sandbox', timeScale: 0.01, schemaChecks: true });
      expect(summary.run.target).toMatch(/^embedded sandbox \(http:\/\/127\.0\.0\.1:\d+\)$/);
      // The profile's shared iterations all ran; every response went through the checks and the envelope metrics.
      expect(summary.iterations).toBe(Math.max(SCENARIOS[scenario].smokeIterations, 2));
      expect(summary.requests).toBeGreaterThan(0);
      expect(summary.gateway.responses).toBe(summary.requests);
      expect(summary.gateway).toMatchObject({ failed: 0, schemaViolations: 0, unresolved: 0 });
      const statusCheck = summary.checks.find((c) => c.name === 'http status is 200');
      expect((statusCheck?.passes ?? 0) + (statusCheck?.fails ?? 0)).toBe(summary.requests);
      // Every expected check ran and passed; every threshold held on samples (none unverified).
      const expected = checksInUse({ schemaChecks: true, readsBackStatus: SCENARIOS[scenario].readsBackStatus }).map((c) => c.name).sort();
      expect(summary.checks.map((c) => c.name).sort()).toEqual(expected);
      for (const c of summary.checks) expect(c, c.name).toMatchObject({ ok: true, fails: 0, passes: expect.any(Number) });
      for (const c of summary.checks) expect(c.passes, c.name).toBeGreaterThan(0);
      for (const t of summary.thresholds) expect(t, `${t.metric} ${t.expression}`).toMatchObject({ ok: true, verified: true });
      // Smoke sends every operation of the scenario: each has its latency threshold and it was measured.
      const measured = summary.thresholds.filter((t) => t.metric.startsWith('http_req_duration{operation:')).map((t) => t.metric.slice('http_req_duration{operation:'.length, -1));
      expect(measured.sort()).toEqual(scenarioOperations(scenario, 'both').map((op) => op.id).sort());

      // junit.xml: one testcase per non-check threshold and per check, none failed or skipped.
      const junit = readFileSync(join(reportDir, 'junit.xml'), 'utf8');
      const cases = summary.thresholds.filter((t) => !t.metric.startsWith('checks{')).length + summary.checks.length;
      expect((junit.match(/<testcase /g) ?? []).length).toBe(cases);
      expect(junit).toMatch(new RegExp(`<testsuites name="gateway-harness" tests="${cases}" failures="0" errors="0"`));
      expect(junit).toContain('<property name="verdict" value="pass"/>');

      // summary.md opens with the same headline, and the command's last words say the same.
      const md = readFileSync(join(reportDir, 'summary.md'), 'utf8');
      expect(md.split('\n')[0]).toBe(`# Load run: ${summary.headline}`);
      expect(summary.headline).toMatch(new RegExp(`^PASS: load ${scenario} \\(smoke, api both\\) against embedded sandbox .* — ${summary.thresholds.length} thresholds held, ${summary.iterations} iterations, ${summary.requests} requests$`));
      expect(output).toContain(`load: ${summary.headline}`);
    },
    RUN_TIMEOUT_MS,
  );
});
