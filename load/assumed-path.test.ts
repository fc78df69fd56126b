// An assumed write path the target lacks (#31 item 2), on the Node engine and every real k6 found: the mixed smoke load
// marks the operation "unverified: path assumed" — INCOMPLETE, never THRESHOLDS CROSSED — and counts its 404s nowhere.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.ts';
import { assembleReport } from '../reports/assemble.ts';
import type { LoadSection, RunReport } from '../reports/model.ts';
import { createProgress } from '../reports/progress.ts';
import { startSandbox, type RunningSandbox } from '../sandbox/server.ts';
import { supportedK6s } from './runner/k6-binaries.ts';
import { loadSection, runMetricsFile } from './runner/load-report.ts';
import { parseLoadFlags } from './runner/load-options.ts';
import { runLoad } from './runner/run-load.ts';

const MOVED = 'v2.transaction.sim-portin';
const workDir = mkdtempSync(join(tmpdir(), 'gh-assumed-path-'));
let sandbox: RunningSandbox;
beforeAll(async () => {
  // The target's port-in sits elsewhere: the harness's default path answers a plain 404 there (no envelope).
  sandbox = await startSandbox({ port: 0, timeScale: 0.01, funds: 1e9, writePaths: { [MOVED]: '/api/v2/moved/port-in' } });
});
afterAll(async () => {
  await sandbox.close();
  rmSync(workDir, { recursive: true, force: true });
});

async function mixedSmoke(engine: { kind: 'node' } | { kind: 'k6'; path: string }, allowSkips: boolean): Promise<LoadSection> {
  const label = `${engine.kind}-${allowSkips ? 'allow' : 'strict'}`;
  const flags = parseLoadFlags({ scenario: 'mixed', profile: 'smoke', engine: engine.kind, api: 'v2', reportDir: join(workDir, label) });
  const config = loadConfig({ cwd: workDir, env: { GATEWAY_BASE_URL: sandbox.url, GATEWAY_TIME_SCALE: '0.01' } });
  const progress = createProgress({ stream: { write: () => undefined }, tty: false });
  const env = engine.kind === 'k6' ? { ...process.env, K6_BIN: engine.path } : { ...process.env };
  const run = await runLoad(flags, config, { cwd: workDir, env, progress });
  progress.done();
  expect(run.summaryData, `${label}: no summary`).toBeDefined();
  return loadSection({
    summaryData: run.summaryData!,
    scenario: 'mixed',
    profile: 'smoke',
    engine: run.engineLabel,
    ...(runMetricsFile(run) === undefined ? {} : { ndjsonPath: runMetricsFile(run) }),
    payload: run.payload,
    allowSkips,
  });
}

function expectUnverifiedNotCrossed(section: LoadSection): void {
  // Before: THRESHOLDS CROSSED (exit 99) for one 404 of the assumed port-in path, in checks and gateway_failed.
  expect(section.thresholds.filter((t) => !t.ok && t.unverifiedBy === undefined)).toEqual([]);
  expect(section.unverifiedOperations).toEqual([
    expect.objectContaining({
      operation: MOVED,
      reason: expect.stringContaining(`set writePaths.${MOVED}`),
      linked: ['v2.transaction.sim-portin-status'],
    }),
  ]);
  expect(section.unverifiedOperations?.[0]?.count).toBeGreaterThan(0);
  expect(section.metrics.http_req_failed?.values.rate ?? 0).toBe(0);
  expect(section.checks.filter((c) => c.fails > 0)).toEqual([]);
  expect(section.thresholds.find((t) => t.metric === `http_req_duration{operation:${MOVED}}`)?.unverifiedBy).toBe(MOVED);
}

/** The report of `command` whose one part is the load `section`, against the sandbox. */
function reportOf(command: string, section: LoadSection, allowSkips: boolean): RunReport {
  return assembleReport({ runId: 'r', command, startedAt: 0, durationMs: 1, allowSkips, target: { url: sandbox.url }, load: section });
}

const engines = [
  { kind: 'node' as const, label: 'Node engine' },
  ...supportedK6s().map((b) => ({ kind: 'k6' as const, path: b.path, label: `k6 ${b.version}` })),
];

describe.each(engines)('mixed smoke on $label, one assumed path moved on the target', (engine) => {
  it('INCOMPLETE (exit 1) naming the operation and the key to set; its thresholds unverified, none crossed', async () => {
    const section = await mixedSmoke(engine, false);
    expectUnverifiedNotCrossed(section);
    expect(section.verdict).toBe('incomplete');
    const report = reportOf('load', section, false);
    expect(report.exitCode).toBe(1);
    expect(report.verdictLine).toContain(`1 operation unverified: path assumed (${MOVED}: set writePaths.${MOVED})`);
    expect(report.skipped).toContainEqual({ section: 'load', id: MOVED, reason: expect.stringContaining('HTTP 404 without an envelope') });
  }, 240_000);

  it('--allow-skips accepts it: pass (exit 0), still said', async () => {
    const section = await mixedSmoke(engine, true);
    expectUnverifiedNotCrossed(section);
    expect(section.verdict).toBe('pass');
    const report = reportOf('gate', section, true);
    expect(report.verdictLine).toMatch(/^PASS: .*1 operation unverified: path assumed .*\(accepted with --allow-skips\)/);
  }, 240_000);
});
