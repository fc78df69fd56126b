// End-to-end migration tests on the embedded sandbox (real sockets on 127.0.0.1): the faithful sandbox passes with every
// pair compared; the v2-regression profile fails naming its pair; charging pairs are the ones production refuses.
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { operationPairs } from '../api/operations.ts';
import { loadConfig } from '../config/load-config.ts';
import { openTargetSession } from '../target/session.ts';
import { CONTRACT_CHANGE_PROFILES } from '../sandbox/profiles/contract-changes.ts';
import { addProfiles } from '../sandbox/index.ts';
import { migrationLine } from '../reports/sections.ts';
import { migrationReportSection } from './report.ts';
import { chargingPairs, runMigration, type MigrationResult } from './run-migration.ts';

const migrationVerdict = (result: MigrationResult, options: { allowSkips: boolean }): string =>
  migrationReportSection(result, options).verdict;

const CONFIG = loadConfig({ cwd: tmpdir(), env: {} });
const LOAD = { requests: 3, concurrency: 2, maxMs: 30_000 };

async function migrate(profile: string): Promise<MigrationResult> {
  const session = await openTargetSession(CONFIG, { profile });
  try {
    return await runMigration(session, { load: LOAD });
  } finally {
    await session.close();
  }
}

describe('migrate on the embedded sandbox', () => {
  it('passes against the faithful sandbox with every pair of the catalog compared on both versions', async () => {
    const result = await migrate('faithful');
    expect(result.pairs.map((p) => p.purpose)).toEqual(operationPairs().map((p) => p.purpose));
    for (const pair of result.pairs) {
      expect([pair.purpose, pair.v1Outcome, pair.v2Outcome, pair.regression]).toEqual([pair.purpose, 'Successful', 'Successful', false]);
      expect(pair.latency?.v1.count, pair.purpose).toBe(LOAD.requests);
      expect(pair.latency?.v2.count, pair.purpose).toBe(LOAD.requests);
      expect(pair.fieldCorrespondence.length, pair.purpose).toBeGreaterThan(0);
    }
    expect(migrationVerdict(result, { allowSkips: false })).toBe('pass');
  }, 60_000);

  it.each(CONTRACT_CHANGE_PROFILES.filter((p) => p.contractChange.expectedRegressions.length > 0).map((p) => [p.name, p] as const))(
    'fails against %s, naming the regressed pair',
    async (_name, profile) => {
      const result = await migrate(profile.name);
      expect(result.pairs.filter((p) => p.regression).map((p) => p.purpose)).toEqual(profile.contractChange.expectedRegressions);
      expect(migrationVerdict(result, { allowSkips: true })).toBe('fail');
      const section = migrationReportSection(result, { allowSkips: true });
      expect(section.pairs.filter((p) => p.regression).map((p) => p.purpose)).toEqual(profile.contractChange.expectedRegressions);
      expect(migrationLine(section)).toContain(`regressed (${profile.contractChange.expectedRegressions.slice(0, 3).join(', ')}`);
    },
    60_000,
  );
});

describe('records v1 returns and v2 lost (issue #32 finding 14)', () => {
  // v2 answers '000' with an empty country list, v1 with every country: no outcome differs, the content does.
  addProfiles([
    {
      name: 'test-v2-countries-lost',
      description: 'test only: v2 catalog/countries answers an empty list',
      hooks: {
        onEnvelope(ctx) {
          if (ctx.operationId === 'v2.catalog.countries' && ctx.envelope.responseCode === '000')
            return { envelope: { ...ctx.envelope, payLoad: [] } };
          return undefined;
        },
      },
    },
  ]);

  it('are a regression of the pair, with the count in its reason, and the migration fails', async () => {
    const result = await migrate('test-v2-countries-lost');
    const countries = result.pairs.find((p) => p.purpose === 'catalog.countries');
    expect([countries?.v1Outcome, countries?.v2Outcome]).toEqual(['Successful', 'Successful']);
    expect(countries?.regression).toBe(true);
    expect(countries?.reason).toMatch(/^v2 lost (\d+) of \1 records v1 returns, and no declared normalization explains them/);
    expect(result.pairs.filter((p) => p.regression).map((p) => p.purpose)).toEqual(['catalog.countries']);
    expect(migrationVerdict(result, { allowSkips: true })).toBe('fail');
  }, 60_000);
});

describe('migrate: money safety and verdicts', () => {
  it('counts every charging pair, and every read that needs a transaction, as refused on production', () => {
    const refused = chargingPairs(operationPairs())
      .map((p) => p.purpose)
      .sort();
    const writes = operationPairs()
      .filter((p) => p.v1.charges)
      .map((p) => p.purpose);
    expect(refused).toEqual([...writes, 'esim.status', 'giftcard.fetch', 'sim.portin-status', 'transaction.status'].sort());
    expect(refused).not.toContain('account.balance');
  });

  it('is incomplete when a pair could not be compared, unless skips are allowed', () => {
    const base = {
      v1: 'a',
      v2: 'b',
      charges: false,
      normalization: '',
      calls: [],
      contentDiffs: [],
      fieldCorrespondence: [],
      latency: null,
    };
    const result: MigrationResult = {
      target: 't',
      pairs: [
        { ...base, purpose: 'x', v1Outcome: 'Successful', v2Outcome: 'Successful', regression: false },
        { ...base, purpose: 'y', v1Outcome: 'NotRun', v2Outcome: 'NotRun', regression: false, reason: 'charges money' },
      ],
    };
    expect(migrationVerdict(result, { allowSkips: false })).toBe('incomplete');
    expect(migrationVerdict(result, { allowSkips: true })).toBe('pass');
    expect(migrationVerdict({ target: 't', pairs: [result.pairs[1] as MigrationResult['pairs'][number]] }, { allowSkips: true })).toBe(
      'incomplete',
    );
  });
});
