// Meta-test: no false alarm. Against each benign profile (a non-breaking change the spec's Versioning rule 3 allows
// without notice) the whole conformance plan must PASS with nothing skipped; a failing case asserts more than the spec.
import { afterAll, describe, expect, test } from 'vitest';
import { BENIGN_PROFILES, VERSIONING_RULE_3 } from '../sandbox/profiles/benign.ts';
import { getProfile } from '../sandbox/profiles/registry.ts';
import { runProfiles } from './proof/pool.ts';
import type { ProfileOutcome } from './proof/profile-run.ts';

describe('benign profiles (data)', () => {
  test('each is named benign-*, declares rule 3 verbatim and its change, changes something, and is registered', () => {
    expect(BENIGN_PROFILES.length).toBeGreaterThanOrEqual(9);
    for (const profile of BENIGN_PROFILES) {
      expect(profile.name, 'benign profiles are named benign-*').toMatch(/^benign-[a-z0-9-]+$/);
      expect(profile.benign?.rule, profile.name).toBe(VERSIONING_RULE_3);
      expect(profile.benign?.change.length ?? 0, `${profile.name}: change`).toBeGreaterThan(10);
      expect(profile.plantedBug, `${profile.name} is not a planted bug`).toBeUndefined();
      expect(
        profile.behaviour !== undefined || profile.hooks !== undefined || profile.catalog !== undefined,
        `${profile.name}: changes nothing`,
      ).toBe(true);
      expect(getProfile(profile.name)).toBe(profile);
    }
  });
});

/** The not-passed cases of a run, one line each: the failure with expected/received, or the skip reason. */
function explain(outcome: ProfileOutcome, ids: readonly string[]): string {
  return outcome.cases
    .filter((c) => ids.includes(c.id))
    .map((c) => c.explanation ?? `${c.id}: ${c.status}`)
    .join('\n');
}

describe.concurrent('the suite against each benign profile: every case passes, none skipped', () => {
  // The same worker pool as the planted-bug meta-test (conformance/proof/): every run starts at once.
  let runs: Map<string, Promise<ProfileOutcome>> | undefined;
  const outcomeOf = (name: string): Promise<ProfileOutcome> => {
    runs ??= runProfiles(BENIGN_PROFILES.map((p) => p.name));
    return runs.get(name) as Promise<ProfileOutcome>;
  };
  const started = Date.now();
  afterAll(() => {
    // Reported, not asserted: speed targets belong in benchmarks, not in timed tests.
    process.stderr.write(`benign meta-test: ${BENIGN_PROFILES.length} profiles in ${Date.now() - started} ms\n`);
  });

  for (const profile of BENIGN_PROFILES) {
    test(`${profile.name} (${profile.benign?.change ?? ''})`, async () => {
      const outcome = await outcomeOf(profile.name);
      expect(outcome.cases.length, 'the plan ran').toBeGreaterThan(100);
      const notPassed = outcome.cases.filter((c) => c.status !== 'passed').map((c) => c.id);
      expect(notPassed, `${profile.name}\n${explain(outcome, notPassed)}`).toEqual([]);
    }, 300_000);
  }
});
