// #32: the gate's drift part against a target that goes silent once conformance and the load are done. Like the other
// parts, it ends unusable naming the drift phase (GH_ERR_TARGET, exit 2), never a pass or a fail of the gateway.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.ts';
import { readBaseline } from '../drift/baseline-files.ts';
import { recordBaseline } from '../drift/run.ts';
import { createProgress, type Progress } from '../reports/progress.ts';
import { startSandbox, type RunningSandbox } from '../sandbox/server.ts';
import { startSilentAfterPreflight, type SilentTarget } from '../scripts/fixtures/silent-after-preflight.ts';
import { openTargetSession } from '../target/session.ts';
import { DEFAULT_SETTINGS } from '../target/settings.ts';
import { runGate } from './run-gate.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-gate-drift-silent-'));
let upstream: RunningSandbox;
let target: SilentTarget;

beforeAll(async () => {
  upstream = await startSandbox({ host: '127.0.0.1', port: 0, timeScale: 0.01, funds: 1_000_000 });
  target = await startSilentAfterPreflight(upstream.url, 'later');
}, 60_000);
afterAll(async () => {
  await target.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

it('silent from the drift part on: the gate is unusable naming drift (exit 2), with conformance and load reported', async () => {
  const config = loadConfig({ cwd: dir, env: { GATEWAY_BASE_URL: target.url, GATEWAY_TIME_SCALE: '0.01' } });
  const session = await openTargetSession(config, { settings: DEFAULT_SETTINGS });
  try {
    await recordBaseline(session, join(dir, 'baseline'));
  } finally {
    await session.close();
  }
  let printed = '';
  const shown = createProgress({ stream: { write: (text: string) => void (printed += text) }, tty: false });
  // The target goes silent (balance reads still answered, as after a preflight) the moment the drift part starts.
  const progress: Progress = {
    start: (task) => {
      if ((typeof task === 'string' ? task : task.label) === 'drift') target.silenceNow();
      return shown.start(task);
    },
    line: (text) => shown.line(text),
    done: () => shown.done(),
  };
  const outcome = await runGate({
    runId: 'drift-silent',
    reportDir: join(dir, 'report'),
    config,
    api: 'v2',
    allowSkips: false,
    profile: 'faithful',
    seed: 1,
    settings: DEFAULT_SETTINGS,
    gen: { seed: 1, budget: { runs: 2 } },
    baselineDir: join(dir, 'baseline'),
    baseline: readBaseline(join(dir, 'baseline')),
    engine: 'node',
    secrets: [],
    progress,
    cwd: dir,
    env: process.env,
  });
  progress.done();
  expect(target.held(), printed).toBeGreaterThan(0);
  expect(outcome.unusable, printed).toBe(true);
  expect(outcome.report.verdict).toBe('unusable');
  expect(outcome.report.exitCode).toBe(2);
  expect(outcome.report.error?.code).toBe('GH_ERR_TARGET');
  expect(outcome.report.error?.message).toMatch(/^drift: .*silent/);
  // The parts before the silence are still reported as they ran.
  expect(outcome.report.conformance).toBeDefined();
  expect(outcome.report.load).toBeDefined();
}, 400_000);
