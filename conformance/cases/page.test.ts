// PAGE-WALK and the config's gift card cursor meaning (paging.giftcardCursor): the right value is followed and said to
// fit; a wrong one is a named warning, never a FAIL of the gateway (the walk it judges follows the spec's definition).
import { afterAll, describe, expect, it } from 'vitest';
import type { GiftcardCursorMeaning } from '../../api/giftcard-paging.ts';
import { loadConfig } from '../../config/load-config.ts';
import { createProgress } from '../../reports/progress.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { DEFAULT_SETTINGS } from '../../target/settings.ts';
import { selectCases } from '../plan.ts';
import { runConformanceSuite } from '../run-suite.ts';
import type { CaseResult } from '../types.ts';

const running: RunningSandbox[] = [];
afterAll(async () => {
  for (const sandbox of running) await sandbox.close();
});

async function pageWalk(profile: string, giftcardCursor?: GiftcardCursorMeaning): Promise<CaseResult> {
  const sandbox = await startSandbox({ port: 0, profile, timeScale: 0.01 });
  running.push(sandbox);
  const given = loadConfig({ cwd: '/nonexistent-dir', env: {}, flags: { target: sandbox.url, timeScale: 0.01 } });
  const config = { ...given, baseUrl: sandbox.url, ...(giftcardCursor === undefined ? {} : { paging: { giftcardCursor } }) };
  const progress = createProgress({ stream: { write: () => true }, tty: false });
  const outcome = await runConformanceSuite({
    config,
    settings: DEFAULT_SETTINGS,
    cases: selectCases({ grep: '^PAGE-WALK ' }),
    api: 'v2',
    progress,
  });
  if (outcome.kind !== 'run') throw new Error(`unusable: ${outcome.reason}`);
  const [result] = outcome.run.cases;
  if (result === undefined) throw new Error('PAGE-WALK did not run');
  return result;
}

const warnings = (r: CaseResult): string[] => r.failures.filter((f) => f.severity === 'warning').map((f) => f.check);

describe('PAGE-WALK with paging.giftcardCursor', () => {
  it.each<[string, GiftcardCursorMeaning]>([
    ['faithful', 'next-start'],
    ['shape-cursor-last', 'last-of-page'],
    ['shape-cursor-pages', 'page-count'],
  ])(
    '%s with "%s" (its truth): passes, and the walk by next/next_cursor is said to fit',
    async (profile, meaning) => {
      const result = await pageWalk(profile, meaning);
      expect([result.status, result.failures]).toEqual(['passed', []]);
      expect(result.notes.join('\n')).toContain(`paging.giftcardCursor "${meaning}" fits`);
    },
    60_000,
  );

  it.each<[string, GiftcardCursorMeaning]>([
    ['shape-cursor-last', 'next-start'],
    ['faithful', 'last-of-page'],
    ['shape-cursor-pages', 'next-start'],
  ])(
    '%s with the wrong value "%s": passes with the named warning, no error',
    async (profile, meaning) => {
      const result = await pageWalk(profile, meaning);
      expect(result.status).toBe('passed');
      expect(warnings(result)).toEqual(['cursor-meaning-fits']);
      expect(result.failures[0]?.message).toMatch(
        new RegExp(`^paging\\.giftcardCursor "${meaning}" does not fit this target: .*set paging\\.giftcardCursor`),
      );
    },
    60_000,
  );

  it('the default (the spec) walks no second time', async () => {
    const result = await pageWalk('shape-cursor-last');
    expect([result.status, result.failures]).toEqual(['passed', []]);
    expect(result.notes.join('\n')).not.toContain('paging.giftcardCursor');
  }, 60_000);
});
