// #31 proof: a planted bug still fails after `discover`, end to end as a user runs it (child processes): a standalone
// buggy sandbox, `discover --write-config F`, then `conformance --target URL --config F` on the bug's own cases. Sampled:
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GEN_BUG_PROFILES } from '../../conformance/proof/gen-bugs.ts';
import { PLANTED_BUG_PROFILES } from '../../conformance/proof/planted-bugs.ts';
import type { RunReport } from '../../reports/model.ts';
import { cleanEnv, runCliProcess, spawnCli, waitUntil, type CliChild } from '../fixtures/run-cli.ts';
import { tempDirsRemovedAfterAll } from '../fixtures/temp-dirs.ts';

/**
 * The sample (every bug's discovery is checked in-process by target/discover/planted-bugs.test.ts: it learns nothing
 * that differs from the defaults): the bugs closest to what discovery reads — category ids it matches facts against, the
 * gift card cursor it learns a meaning of, localized fields, payload kinds, the loans it sweeps (a gateway hiding them leaves LOAN-TWO-STEP not verified: the run is
 * INCOMPLETE, never PASS) — and two GEN bugs.
 */
const SAMPLE = [
  'bug-category-ids-swapped',
  'bug-giftcard-cursor-skips',
  'bug-giftcard-next-not-integer',
  'bug-no-localization',
  'bug-reads-payload-kind',
  'bug-loan-not-reported',
  'bug-gen-walk-skips-some-page-sizes',
  'bug-gen-operator-filter-late-countries',
];
const TIME_SCALE = '0.04';
const tempDir = tempDirsRemovedAfterAll('gh-discover-bugs-');
const sandboxes: CliChild[] = [];
afterAll(async () => {
  for (const child of sandboxes) await child.stop();
});

function expectedCases(name: string): readonly string[] {
  const planted = PLANTED_BUG_PROFILES.find((p) => p.name === name)?.plantedBug?.expectedFailingCases;
  const gen = GEN_BUG_PROFILES.find((p) => p.name === name)?.genBug.expectedGenCases;
  const ids = planted ?? gen ?? [];
  if (ids.length === 0) throw new Error(`${name}: no planted-bug or GEN-bug profile names its cases`);
  return ids;
}

async function buggySandbox(profile: string): Promise<string> {
  const child = spawnCli(['sandbox', '--sandbox-profile', profile, '--time-scale', TIME_SCALE], { env: cleanEnv() });
  sandboxes.push(child);
  await waitUntil(`the ${profile} sandbox`, () => /sandbox listening on http:\/\/\S+\n/.test(child.stdout()) || child.hasExited(), 60_000);
  const url = /sandbox listening on (http:\/\/\S+)\n/.exec(child.stdout())?.[1];
  if (url === undefined) throw new Error(`sandbox ${profile} did not start: ${child.output()}`);
  return url;
}

describe('every sampled planted bug still fails conformance with the config discover wrote', () => {
  it.each(SAMPLE.map((name) => [name] as const))(
    '%s',
    async (name) => {
      const url = await buggySandbox(name);
      const cwd = tempDir();
      const config = join(cwd, 'written.config.json');
      const discover = await runCliProcess(['discover', '--target', url, '--write-config', config], { cwd, timeoutMs: 120_000 });
      expect(discover.code, discover.output).toBe(0);
      const ids = expectedCases(name);
      const grep = `^(${ids.join('|')})`;
      const reportDir = join(cwd, 'report');
      const args = [
        'conformance',
        '--target',
        url,
        '--config',
        config,
        '--time-scale',
        TIME_SCALE,
        '--grep',
        grep,
        '--report-dir',
        reportDir,
      ];
      const run = await runCliProcess(args, { cwd, timeoutMs: 240_000 });
      expect(run.code, run.output).toBe(1);
      const report = JSON.parse(readFileSync(join(reportDir, 'summary.json'), 'utf8')) as RunReport;
      const cases = report.conformance?.cases ?? [];
      // A GEN bug names its case without the version suffix (GEN-PAGE-WALK): either version failing catches it.
      const named = (id: string) => cases.filter((c) => c.id === id || c.id.startsWith(`${id}-V`));
      // What discovery cannot learn from this gateway (no number shows its loan: the bundles read is the broken one) is
      // not verified, named with its key; the run still does not pass. Every other case of the bug fails.
      const missed = ids.filter((id) => !named(id).some((c) => c.status === 'failed'));
      const unlearnable = missed.filter((id) =>
        named(id).every((c) => c.status === 'skipped' && /settings\.loanNumbers/.test(c.skipReason ?? '')),
      );
      expect(
        missed.filter((id) => !unlearnable.includes(id)),
        run.output,
      ).toEqual([]);
      expect(report.verdict).toBe(missed.length === ids.length ? 'incomplete' : 'fail');
    },
    400_000,
  );
});
