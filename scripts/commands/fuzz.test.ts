// Tests of `gateway-harness fuzz` as a user runs it (child process): the help explains budget, seed and replay; a planted
// GEN bug fails with a reproduction (seed, replay, curl with placeholders) in every report; the replay reruns exactly it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { RunReport } from '../../reports/model.ts';
import { runCliProcess } from '../fixtures/run-cli.ts';
import { tempDirsRemovedAfterAll } from '../fixtures/temp-dirs.ts';

const PASSWORD = 'Pw-fuzz-marker-4d2c81';
const tempDir = tempDirsRemovedAfterAll('gh-fuzz-');

describe('gateway-harness fuzz', () => {
  test('--help explains the budget, the seed and the replay', async () => {
    const run = await runCliProcess(['fuzz', '--help']);
    expect(run.code).toBe(0);
    for (const words of ['--gen-budget <runs|duration>', '--seed <n>', '--replay <seed:path>', 'Budget:', 'Seed:', 'Replay:', 'production'])
      expect(run.stdout).toContain(words);
  });

  test('a planted GEN bug: exit 1, the shrunk input with seed, replay and curl in every report; --replay reruns exactly it', async () => {
    const dir = tempDir();
    const args = [
      'fuzz',
      '--sandbox-profile',
      'bug-gen-page-size-over-150',
      '--grep',
      '^GEN-PAGE-SIZE-OUTSIDE ',
      '--seed',
      '17',
      '--password',
      PASSWORD,
    ];
    const run = await runCliProcess([...args, '--report-dir', dir], { timeoutMs: 60_000 });
    expect(run.code, run.output).toBe(1);
    expect(run.stdout.split('\n')[0]).toBe(
      'FAIL: conformance: 1 of 1 case failed (GEN-PAGE-SIZE-OUTSIDE) [target: the embedded sandbox, profile bug-gen-page-size-over-150, not a gateway]',
    );
    const replay = /--replay (17:[0-9:]+)/.exec(run.stdout)?.[1];
    expect(replay, run.stdout).toBeDefined();
    for (const file of ['summary.json', 'summary.md', 'junit.xml', 'report.html']) {
      const text = readFileSync(join(dir, file), 'utf8');
      expect(text, file).toContain(`--replay ${replay}`);
      expect(text, file).toContain('pageSize 151');
      expect(text, file).toMatch(/\$GATEWAY_USER:\$GATEWAY_PASSWORD/);
      expect(text, file).not.toContain(PASSWORD);
    }
    const report = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as RunReport;
    expect(report.conformance?.cases[0]?.notes[0]).toMatch(/^GEN seed 17; budget 300 runs/);

    const again = tempDir();
    const rerun = await runCliProcess([...args, '--replay', replay as string, '--report-dir', again], { timeoutMs: 60_000 });
    expect(rerun.code, rerun.output).toBe(1);
    const notes = (JSON.parse(readFileSync(join(again, 'summary.json'), 'utf8')) as RunReport).conformance?.cases[0]?.notes ?? [];
    expect(notes[0]).toMatch(/replay of path .*; 1 generated input\(s\)/);
    expect(readFileSync(join(again, 'summary.md'), 'utf8')).toContain('pageSize 151');
  }, 150_000);

  test('a faithful run passes and names its seed and budget', async () => {
    const dir = tempDir();
    const run = await runCliProcess(
      ['fuzz', '--grep', '^GEN-PAGE-SIZE-OUTSIDE ', '--seed', '5', '--gen-budget', '20', '--report-dir', dir],
      { timeoutMs: 60_000 },
    );
    expect(run.code, run.output).toBe(0);
    const notes = (JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as RunReport).conformance?.cases[0]?.notes ?? [];
    expect(notes[0]).toMatch(/^GEN seed 5; budget 20 runs.*; 20 generated input\(s\)/);
  }, 90_000);

  test('usage errors: a bad budget or replay is one line, exit 2', async () => {
    const bad = await runCliProcess(['fuzz', '--gen-budget', 'lots']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--gen-budget must be a number of runs/);
    const replay = await runCliProcess(['fuzz', '--replay', 'x']);
    expect(replay.code).toBe(2);
    expect(replay.stderr).toMatch(/--replay must be <seed>:<path>/);
  });
});
