// #32: the gate's drift part against a target that goes silent once conformance and the load are done. Like the other
// parts, it ends unusable naming the drift phase (GH_ERR_TARGET, exit 2), never a pass or a fail of the gateway.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../sandbox/server.ts';
import { startSilentAfterPreflight, type SilentTarget } from '../scripts/fixtures/silent-after-preflight.ts';
import { gateChangedAtDrift } from './fixtures/gate-at-drift.ts';

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
  // The target goes silent (balance reads still answered, as after a preflight) the moment the drift part starts.
  const { outcome, printed } = await gateChangedAtDrift(dir, target.url, () => target.silenceNow());
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
