// A load run's report directory is its own (#32 findings 3 and 11): a metric stream that would land on one of the
// run's files through a symlinked directory is refused before anything starts, and a second run into a directory a
// live run holds is refused naming the holder's pid.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.ts';
import { DIR_LOCK_FILE } from '../reports/dir-lock.ts';
import { createProgress } from '../reports/progress.ts';
import { parseLoadFlags } from './runner/load-options.ts';
import { runLoad } from './runner/run-load.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-report-dir-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const io = { cwd: dir, env: { ...process.env }, progress: createProgress({ stream: { write: () => true }, tty: false }) };
const production = { environment: 'production' as const, allowCharges: true, cap: { amount: 300, currency: 'USD' }, ledger: true };
const config = () => loadConfig({ cwd: dir, env: { GATEWAY_BASE_URL: 'http://127.0.0.1:9', GATEWAY_ENV: 'production' } });

describe('--out json through a symlinked directory', () => {
  it('onto the ledger: refused before anything starts (the check follows links)', async () => {
    mkdirSync(join(dir, 'out', 'r'), { recursive: true });
    symlinkSync(join(dir, 'out', 'r'), join(dir, 'out', 'alias'));
    const flags = parseLoadFlags({
      scenario: 'topup-flow',
      profile: 'smoke',
      engine: 'node',
      api: 'v2',
      reportDir: 'out/r',
      out: ['json=out/alias/ledger.jsonl'],
    });
    await expect(runLoad(flags, config(), io, production)).rejects.toMatchObject({
      code: 'GH_ERR_USAGE',
      message: expect.stringMatching(/ledger\.jsonl in the report directory is a file the run writes itself/),
    });
  });
});

describe('two runs into one report directory', () => {
  it("the second is refused with the holder's pid and run id while the first holds it", async () => {
    const reportDir = join(dir, 'shared');
    mkdirSync(reportDir);
    // A live holder (this very process, under another run id).
    writeFileSync(
      join(reportDir, DIR_LOCK_FILE),
      JSON.stringify({ pid: process.pid, runId: 'first-run', since: new Date().toISOString() }),
    );
    const flags = parseLoadFlags({ scenario: 'topup-flow', profile: 'smoke', engine: 'node', api: 'v2', reportDir });
    await expect(runLoad(flags, config(), io, production)).rejects.toMatchObject({
      code: 'GH_ERR_USAGE',
      message: expect.stringMatching(new RegExp(`in use by run first-run \\(pid ${process.pid}`)),
    });
  });

  it('a lock left by a process that is gone is taken over, and released at the end', async () => {
    const reportDir = join(dir, 'stale');
    mkdirSync(reportDir);
    writeFileSync(join(reportDir, DIR_LOCK_FILE), JSON.stringify({ pid: 2 ** 22 + 17, runId: 'dead-run', since: '2026-01-01T00:00:00Z' }));
    const flags = parseLoadFlags({ scenario: 'topup-flow', profile: 'smoke', engine: 'node', api: 'v2', reportDir });
    // Past the lock: the target (nothing listens there) is what stops this run, not the lock.
    const run = await runLoad(flags, config(), io, production);
    expect(run.unusable).toBeDefined();
    const second = await runLoad(flags, config(), io, production);
    expect(second.unusable).toBeDefined();
  });
});
