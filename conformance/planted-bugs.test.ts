// Meta-test: the conformance suite catches bugs. Against each planted-bug profile the whole plan must fail with exactly
// the declared case ids; against the faithful sandbox it must pass with nothing skipped. Runs the runner as a library.
import { afterAll, describe, expect, test } from 'vitest';
import { PLANTED_BUG_PROFILES } from '../sandbox/profiles/planted-bugs.ts';
import { getProfile } from '../sandbox/profiles/registry.ts';
import { ALL_CASES } from './plan.ts';
import { explain, runAgainst } from './run-against-profile.ts';

const CASE_IDS = new Set(ALL_CASES.map((c) => c.id));

describe('planted-bug profiles (data)', () => {
  test('each declares a quoted rule, a spec section and known expected case ids', () => {
    for (const profile of PLANTED_BUG_PROFILES) {
      expect(profile.name, 'planted-bug profiles are named bug-*').toMatch(/^bug-[a-z0-9-]+$/);
      expect(profile.plantedBug, profile.name).toBeDefined();
      const bug = profile.plantedBug!;
      expect(bug.rule.length, `${profile.name}: rule`).toBeGreaterThan(20);
      expect(bug.specSection.length, `${profile.name}: specSection`).toBeGreaterThan(3);
      expect(bug.expectedFailingCases.length, `${profile.name}: expectedFailingCases`).toBeGreaterThan(0);
      expect(bug.expectedFailingCases.filter((id) => !CASE_IDS.has(id)), `${profile.name}: unknown case ids`).toEqual([]);
      expect(profile.behaviour !== undefined || profile.hooks !== undefined, `${profile.name}: changes nothing`).toBe(true);
      expect(getProfile(profile.name)).toBe(profile);
    }
    expect(new Set(PLANTED_BUG_PROFILES.map((p) => p.name)).size).toBe(PLANTED_BUG_PROFILES.length);
  });

  test('at least 15 distinct rules, across the case groups', () => {
    expect(new Set(PLANTED_BUG_PROFILES.map((p) => p.plantedBug!.rule)).size).toBeGreaterThanOrEqual(15);
    const groups = new Set(PLANTED_BUG_PROFILES.flatMap((p) => p.plantedBug!.expectedFailingCases.map((id) => id.split('-')[0])));
    for (const group of ['AUTH', 'ENV', 'TRG', 'PAGE', 'LEN', 'CUR', 'CAT', 'LOOKUP', 'FMT', 'LOC', 'POLL', 'GIFT', 'BAL', 'LOAN']) {
      expect(groups.has(group), `no planted bug makes a ${group} case fail`).toBe(true);
    }
  });
});

describe.concurrent('the suite against each profile', () => {
  const started = Date.now();
  afterAll(() => {
    // Reported, not asserted: speed targets belong in benchmarks, not in timed tests.
    process.stderr.write(`planted-bug meta-test: ${PLANTED_BUG_PROFILES.length + 1} profiles in ${Date.now() - started} ms\n`);
  });

  test('faithful: every case passes, none skipped', async () => {
    const result = await runAgainst('faithful');
    const notPassed = result.cases.filter((c) => c.status !== 'passed').map((c) => c.id);
    expect(notPassed, explain(result, notPassed)).toEqual([]);
  }, 120_000);

  for (const profile of PLANTED_BUG_PROFILES) {
    test(`${profile.name}: fails exactly ${profile.plantedBug!.expectedFailingCases.length} expected case(s)`, async () => {
      const result = await runAgainst(profile.name);
      const failed = result.cases.filter((c) => c.status === 'failed').map((c) => c.id).sort();
      const expected = [...profile.plantedBug!.expectedFailingCases].sort();
      const unexpected = failed.filter((id) => !expected.includes(id));
      const missed = expected.filter((id) => !failed.includes(id));
      expect({ unexpected, missed }, `${profile.name}\n${explain(result, [...unexpected, ...missed])}`).toEqual({ unexpected: [], missed: [] });
      const skipped = result.cases.filter((c) => c.status === 'skipped').map((c) => c.id);
      expect(skipped, `${profile.name}: skipped cases`).toEqual([]);
    }, 120_000);
  }
});
