// FILTERS covers every query parameter of every read operation (or says where it is checked instead), and the
// judgement of a filtered listing fails each way a filter can be broken.
import { afterAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../config/load-config.ts';
import { createProgress } from '../../reports/progress.ts';
import type { SandboxProfile } from '../../sandbox/profiles/types.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { DEFAULT_SETTINGS } from '../../target/settings.ts';
import { selectCases } from '../plan.ts';
import { runConformanceSuite } from '../run-suite.ts';
import { FILTERS, NOT_FILTERS, filterCaseId, judgeFiltered, readQueryParams } from './filters.ts';

describe('FILTERS table', () => {
  test('every query parameter of every read operation is a FILTERS case or checked elsewhere (with where)', () => {
    const covered = [...FILTERS.map((f) => `${f.operationId}?${f.param}`), ...Object.keys(NOT_FILTERS)].sort();
    expect(covered).toEqual(readQueryParams().sort());
  });

  test('stable ids, one per filter', () => {
    const ids = FILTERS.map(filterCaseId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('FILTERS-V1-SKUS-PRODUCTID');
    expect(ids).toContain('FILTERS-V2-GIFTCARDS-COUNTRYCODE');
  });
});

describe('judgeFiltered', () => {
  const rec = (code: string | undefined) => (code === undefined ? {} : { countryCode: code });
  const matches = (r: Record<string, unknown>) => (r.countryCode === undefined ? undefined : r.countryCode === 'JM');
  const show = (r: Record<string, unknown>) => String(r.countryCode);

  test('all matching and complete: holds', () => {
    expect(judgeFiltered([rec('JM'), rec('JM')], matches, show, 'countryCode=JM', 2)).toBeUndefined();
  });
  test('an empty answer although the catalog has such records', () => {
    expect(judgeFiltered([], matches, show, 'countryCode=JM', 2)).toMatchObject({ check: 'filter-finds-record' });
  });
  test('records of another value: the filter is ignored', () => {
    expect(judgeFiltered([rec('JM'), rec('IN')], matches, show, 'countryCode=JM')).toMatchObject({
      check: 'filter-only-matching',
      received: 'IN',
    });
  });
  test('fewer records than the unfiltered listing holds: the filter drops some', () => {
    expect(judgeFiltered([rec('JM')], matches, show, 'countryCode=JM', 3)).toMatchObject({ check: 'filter-complete' });
  });
  test('records without the field cannot be judged (a skip, never a failure)', () => {
    expect(judgeFiltered([rec(undefined)], matches, show, 'countryCode=JM')).toBe('unreadable');
    expect(judgeFiltered([rec(undefined), rec('JM')], matches, show, 'countryCode=JM')).toBeUndefined();
  });
});

/** A target whose v1 filtered listings (sku description, logos) answer only their first record. */
const firstRecordOnly: SandboxProfile = {
  name: 'filtered-first-record-only',
  description: 'test target: a filtered v1 description or logo listing keeps only its first record',
  hooks: {
    onEnvelope: (ctx) => {
      const payload = ctx.envelope.payLoad;
      if (
        !['v1.catalog.sku-description', 'v1.catalog.sku-logos'].includes(ctx.operationId) ||
        !Array.isArray(payload) ||
        (ctx.query['productId'] === undefined && ctx.query['skuId'] === undefined)
      )
        return;
      return { envelope: { ...ctx.envelope, payLoad: payload.slice(0, 1) } };
    },
  },
};

describe('joined filters (records name another field than the filter): only and every matching record', () => {
  const running: RunningSandbox[] = [];
  afterAll(async () => {
    for (const sandbox of running) await sandbox.close();
  });
  async function run(profile: string | SandboxProfile): Promise<Record<string, readonly string[]>> {
    const sandbox = await startSandbox({ port: 0, profile, timeScale: 0.01 });
    running.push(sandbox);
    const given = loadConfig({ cwd: '/nonexistent-dir', env: {}, flags: { target: sandbox.url, timeScale: 0.01 } });
    const cases = selectCases({ grep: '^FILTERS-V1-(SKUDESC-PRODUCTID|LOGOS-SKUID) ' });
    const outcome = await runConformanceSuite({
      config: { ...given, baseUrl: sandbox.url },
      settings: DEFAULT_SETTINGS,
      cases,
      api: 'v1',
      progress: createProgress({ stream: { write: () => true }, tty: false }),
    });
    if (outcome.kind !== 'run') throw new Error(`unusable: ${outcome.reason}`);
    return Object.fromEntries(outcome.run.cases.map((c) => [c.id, [c.status, ...c.failures.map((f) => f.check)]]));
  }

  test('faithful: the logos of a SKU (skuId) and the descriptions of a product (productId) pass', async () => {
    expect(await run('faithful')).toEqual({ 'FILTERS-V1-SKUDESC-PRODUCTID': ['passed'], 'FILTERS-V1-LOGOS-SKUID': ['passed'] });
  }, 60_000);

  test('a filter that drops matching records fails filter-complete (before: only "only matching" was judged)', async () => {
    const result = await run(firstRecordOnly);
    expect(result['FILTERS-V1-SKUDESC-PRODUCTID']).toEqual(['failed', 'filter-complete']);
  }, 60_000);
});
