// `gate --under-load` end to end, the real bin on the embedded sandbox: a gateway whose length rule breaks only with
// another request in flight passes idle and fails under load, named "fails only under load" (in junit too); the
// faithful sandbox shows no difference.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UNDER_LOAD_BUG } from '../conformance/proof/under-load-bugs.ts';
import type { RunReport } from '../reports/model.ts';
import { cleanEnv, expectUsageError, spawnCli } from '../scripts/fixtures/run-cli.ts';

const work = mkdtempSync(join(tmpdir(), 'gh-under-load-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const RUN_TIMEOUT_MS = 400_000;

async function gate(name: string, extra: readonly string[]): Promise<{ code: number | null; stdout: string; report: RunReport }> {
  const dir = join(work, name);
  const child = spawnCli(['gate', '--under-load', '--api', 'v2', '--engine', 'node', '--report-dir', dir, ...extra], {
    env: cleanEnv(),
    cwd: work,
  });
  try {
    const { code } = await child.exited;
    return { code, stdout: child.stdout(), report: JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as RunReport };
  } finally {
    await child.stop();
  }
}

describe('gate --under-load', () => {
  // Deterministic by construction (#33): the profile's relay hold keeps one of the load's requests in flight while the
  // load sends, the pass starts once the sandbox kept one in flight 1 s, and every request of the pass waits for one
  // (gate/load-witness.ts), so the bug's top-ups always arrive beside another request; idle they run alone.
  it(
    'names the cases of a rule that breaks only under load: passed idle, "fails only under load", the gate fails',
    async () => {
      const { code, stdout, report } = await gate('bug', ['--sandbox-profile', UNDER_LOAD_BUG.name]);
      const underLoad = report.conformance?.underLoad;
      expect(underLoad, stdout).toBeDefined();
      const ids = underLoad?.failsOnlyUnderLoad.map((c) => c.id) ?? [];
      expect(ids.length, stdout).toBeGreaterThan(0);
      for (const id of ids) expect(UNDER_LOAD_BUG.cases, JSON.stringify(underLoad?.failsOnlyUnderLoad, null, 1)).toContain(id);
      // The pass ran with the load holding requests in flight (each request waited for one), not on a share of timing.
      expect(underLoad?.notes.join('\n')).not.toMatch(/answered faster than the load's requests overlap|not sending within/);
      // The idle pass (the section's cases) passed every one of them: the rule holds while the gateway is quiet.
      for (const id of UNDER_LOAD_BUG.cases.filter((c) => c.endsWith('-V2')))
        expect(report.conformance?.cases.find((c) => c.id === id)?.status).toBe('passed');
      expect(report.conformance?.verdict).toBe('fail');
      expect(code).toBe(1);
      expect(stdout.split('\n')[0]).toMatch(/fail only under load mixed\/load \(/);
      expect(readFileSync(join(work, 'bug', 'summary.md'), 'utf8')).toContain('fails only under load');
      expect(readFileSync(join(work, 'bug', 'report.html'), 'utf8')).toContain('fails only under load');
      // junit: each one a failure of the under-load suite, quoting the rule.
      const junit = readFileSync(join(work, 'bug', 'junit.xml'), 'utf8');
      for (const id of ids)
        expect(junit).toMatch(new RegExp(`<testcase name="${id} under load mixed/load: [^"]*" classname="conformance\\.UNDER-LOAD\\.`));
      expect(junit).toContain('fails only under load mixed/load (passed idle)');
      expect(junit).toContain(`rule (`);
      expect(report.load?.profile).toBe('load');
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'the faithful sandbox: no case differs under load',
    async () => {
      const { stdout, report } = await gate('faithful', []);
      const underLoad = report.conformance?.underLoad;
      expect(underLoad?.failsOnlyUnderLoad, stdout).toEqual([]);
      expect(underLoad?.passesOnlyUnderLoad).toEqual([]);
      expect(underLoad?.compared).toBeGreaterThan(100);
      expect(report.conformance?.verdict).toBe('pass');
    },
    RUN_TIMEOUT_MS,
  );

  it('an unknown load profile is a usage error naming the profiles', async () => {
    await expectUsageError(['gate', '--under-load', 'bogus'], /--under-load: unknown load profile 'bogus' \(one of smoke, load/);
  });
});
