// The mapping learned from a buggy gateway must not hide its bug: against every planted-bug and GEN-bug profile discovery
// changes nothing, so the gate after discovery is the gate the proofs (conformance/proof/) already show failing. The
// end-to-end sample (discover, then conformance with the written config, child processes): bugs-after-discover.test.ts.
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/load-config.ts';
import { GEN_BUG_PROFILES } from '../../conformance/proof/gen-bugs.ts';
import { PLANTED_BUG_PROFILES } from '../../conformance/proof/planted-bugs.ts';
import { addProfiles } from '../../sandbox/profiles/registry.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { discoverTarget } from './run.ts';

addProfiles(PLANTED_BUG_PROFILES);
addProfiles(GEN_BUG_PROFILES);
const BUGS = [...PLANTED_BUG_PROFILES, ...GEN_BUG_PROFILES];
const running: RunningSandbox[] = [];
const MEANINGS: Record<string, string[]> = {};
afterAll(() => {
  // Every planted bug but the cursor ones keeps the faithful sandbox's next_cursor (where the next page starts).
  expect(
    Object.keys(MEANINGS)
      .filter((m) => m !== 'next-start')
      .flatMap((m) => MEANINGS[m] ?? [])
      .every((name) => /cursor|next/.test(name)),
  ).toBe(true);
});
afterAll(async () => {
  for (const sandbox of running) await sandbox.close();
});

describe('discover against the planted bugs', () => {
  it.each(BUGS.map((p) => [p.name] as const))('%s: nothing learned differs from the defaults', async (name) => {
    const sandbox = await startSandbox({ port: 0, profile: name, timeScale: 0.01 });
    running.push(sandbox);
    const config = loadConfig({ cwd: '/nonexistent-dir', env: {}, flags: { target: sandbox.url, timeScale: 0.01 } });
    const discovery = await discoverTarget({ ...config, baseUrl: sandbox.url }, { probeWrites: true });
    const { paging, ...learned } = discovery.config;
    expect(learned).toEqual({ fieldMapping: {}, writePaths: {} });
    // The cursor meaning is the target's own (PAGE-WALK judges by the spec's definition whatever it is): said, not hidden.
    expect([undefined, 'next-start', 'last-of-page', 'page-count']).toContain(paging?.giftcardCursor);
    (MEANINGS[paging?.giftcardCursor ?? 'none'] ??= []).push(name);
    expect(discovery.findings.filter((f) => f.status === 'ambiguous')).toEqual([]);
  });
});
