// migrate and baseline check interrupted (issue "When runs go wrong", finding 5, for the two judging commands it left):
// SIGINT or SIGTERM sent to a real `gateway-harness` child mid-run stops it gracefully — no pair or operation starts
// after it — and the partial report set says INTERRUPTED in every file, with exit 128 + signal, never a pass.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { INTERRUPTED_REASON } from '../../reports/interruption.ts';
import { LOAD_SANDBOX_FUNDS } from '../../sandbox/behaviour.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { childEnv, expectInterrupted, interruptAfter } from '../fixtures/interrupted-run.ts';
import { spawnCli } from '../fixtures/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-interrupt-judging-'));
/** Real CLI children against a slow target (baseline check records its baseline first): 11–19 s alone, over 30 s on a loaded box. */
const CHILD_RUNS_MS = 120_000;
const sandboxes: RunningSandbox[] = [];
afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A fresh sandbox whose every answer takes 100 ms (10 s of gateway time at time scale 0.01), so a pair's latency load
 * and the check's operations last long enough to be interrupted, with funds for every transaction they send.
 */
async function slowTarget(): Promise<string[]> {
  const sandbox = await startSandbox({
    host: '127.0.0.1',
    port: 0,
    timeScale: 0.01,
    behaviour: { responseLatencyMs: 10_000, initialBalance: LOAD_SANDBOX_FUNDS },
  });
  sandboxes.push(sandbox);
  return ['--target', sandbox.url, '--time-scale', '0.01'];
}

describe('migrate, interrupted', () => {
  it(
    'SIGINT after its first pair: the pair running stops, none after it starts, the reports say INTERRUPTED, exit 130',
    async () => {
      const reportDir = join(dir, 'migrate');
      const child = spawnCli(['migrate', ...(await slowTarget()), '--requests', '50', '--report-dir', reportDir], { env: childEnv() });
      await interruptAfter(child, 'migrate to compare its first pair', () => /migrate: [\w.-]+: v1 /.test(child.stderr()), 'SIGINT');
      const summary = await expectInterrupted(child, reportDir, 'SIGINT', 'migrate');
      const migration = summary.migration;
      expect(migration?.verdict).toBe('interrupted');
      expect(summary.parts.find((p) => p.section === 'migration')?.verdict).toBe('interrupted');
      // What was compared before the signal is in the report; what was left is named as not run, for that reason.
      expect(migration?.pairs.length ?? 0).toBeGreaterThan(0);
      const left = (migration?.notCompared ?? []).filter((p) => p.reason === INTERRUPTED_REASON);
      expect(left.length).toBeGreaterThan(0);
      expect((migration?.pairs.length ?? 0) + (migration?.notCompared?.length ?? 0)).toBeGreaterThan(left.length);
    },
    CHILD_RUNS_MS,
  );
});

describe('baseline check, interrupted', () => {
  it(
    'SIGTERM after its first operation: no operation starts after it, the reports say INTERRUPTED, exit 143',
    async () => {
      const baseline = join(dir, 'baseline');
      const target = await slowTarget();
      const record = spawnCli(['baseline', 'record', ...target, '--out-dir', baseline], { env: childEnv() });
      const recorded = await record.exited;
      expect(recorded.code, record.stderr()).toBe(0);
      const reportDir = join(dir, 'check');
      const child = spawnCli(['baseline', 'check', '--baseline', baseline, ...target, '--report-dir', reportDir], { env: childEnv() });
      await interruptAfter(
        child,
        'the check to observe its first operation',
        () => /baseline: [\w.-]+: observed/.test(child.stderr()),
        'SIGTERM',
      );
      const summary = await expectInterrupted(child, reportDir, 'SIGTERM', 'baseline check');
      expect(summary.drift?.verdict).toBe('interrupted');
      expect(summary.parts.find((p) => p.section === 'drift')?.verdict).toBe('interrupted');
      expect((summary.drift?.notChecked ?? []).some((op) => op.reason === `not called now: ${INTERRUPTED_REASON}` && op.skipped)).toBe(
        true,
      );
    },
    CHILD_RUNS_MS,
  );
});
