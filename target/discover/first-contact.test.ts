// First contact: a given target with no config file gets the discovered mapping and write paths, and a note for the
// verdict line; a config file (or the embedded sandbox) keeps the config as it is.
import { afterAll, describe, expect, it } from 'vitest';
import { expectFaultsCounted } from '../../ledger/fixtures/fault-runs.ts';
import { mergeFieldMapping } from '../../api/field-mapping.ts';
import { loadConfig } from '../../config/load-config.ts';
import { mappingOfShape } from '../../sandbox/profiles/shapes.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { DEFAULT_SETTINGS } from '../settings.ts';
import { firstContact, withDiscoveredSettings } from './first-contact.ts';

const running: RunningSandbox[] = [];
afterAll(async () => {
  for (const sandbox of running) await sandbox.close();
});

async function configFor(profile: string, faultRate?: number) {
  const sandbox = await startSandbox({ port: 0, profile, timeScale: 0.01, ...(faultRate === undefined ? {} : { faultRate }) });
  running.push(sandbox);
  return loadConfig({ cwd: '/nonexistent-dir', env: {}, flags: { target: sandbox.url, timeScale: 0.01 } });
}

const sandboxOf = (url: string | undefined): RunningSandbox => running.find((s) => s.url === url) as RunningSandbox;

describe('firstContact', () => {
  it('without a config file: the snake_case mapping and the other write paths are in the run config, and the note says so', async () => {
    const snake = await firstContact(await configFor('shape-snake'), { hasConfigFile: false });
    expect(snake.config.fieldMapping.v2Sku.minFaceValue).toBe('min.face_value');
    expect(snake.note).toMatch(/^first contact: no config file, discovered \d+ field name\(s\) and 0 write path\(s\)/);
    const paths = await firstContact(await configFor('shape-write-paths'), { hasConfigFile: false });
    expect(paths.config.writePaths['v2.transaction.pin']).toBe('/api/v2/pin/order');
    // Two whole discoveries: a loaded 2-core runner needs more than the default 30 s (they are bounded by their own reads).
  }, 120_000);

  it('loan numbers found through the bundles endpoint reach the run settings, unless the settings name some', async () => {
    const contact = await firstContact(await configFor('faithful'), { hasConfigFile: false });
    const loans = contact.discovery?.settings.loanNumbers ?? [];
    expect(loans.length).toBeGreaterThan(0);
    // The sandbox's documented loan rule (sandbox/data/lookup.ts): a national number ending "77d" owes d + 1 USD.
    for (const mobile of loans) expect(mobile).toMatch(/77\d$/);
    expect(withDiscoveredSettings(DEFAULT_SETTINGS, contact).loanNumbers).toEqual(loans);
    const given = { ...DEFAULT_SETTINGS, loanNumbers: ['18760000000'] };
    expect(withDiscoveredSettings(given, contact)).toBe(given);
  });

  it('with a config file and loan numbers in the settings: nothing is discovered', async () => {
    const config = await configFor('shape-snake');
    const contact = await firstContact(config, { hasConfigFile: true, loanNumbersKnown: true });
    expect(contact.config).toBe(config);
    expect(contact.note).toBeUndefined();
    expect(contact.discovery).toBeUndefined();
  });

  it('with a config file (what discover wrote) and no loan numbers: the config stays, the loan numbers are still found', async () => {
    // Before: a gate with the written config skipped LOAN-TWO-STEP, though the same target without a config passed it.
    const config = await configFor('shape-snake');
    const written = { ...config, fieldMapping: mergeFieldMapping(config.fieldMapping, mappingOfShape({ keyCase: 'snake' })) };
    const contact = await firstContact(written, { hasConfigFile: true });
    expect(contact.config).toBe(written);
    expect(contact.note).toBeUndefined();
    const loans = withDiscoveredSettings(DEFAULT_SETTINGS, contact).loanNumbers;
    expect(loans.length).toBeGreaterThan(0);
    for (const mobile of loans) expect(mobile).toMatch(/77\d$/);
    // PascalCase records with an empty written mapping (names read case-insensitively): found in the records' own spelling.
    const pascal = await firstContact(await configFor('shape-pascal'), { hasConfigFile: true });
    expect(withDiscoveredSettings(DEFAULT_SETTINGS, pascal).loanNumbers.length).toBeGreaterThan(0);
  });

  // #31: a count the harness reports equals what the target served. First contact's reads come before the run's own, so
  // they are counted here and summed into the report by the command (reports/assemble.ts withFirstContact).
  it.each([
    ['no config file: the whole discovery', false, 'faults-5xx'],
    ['a config file and no loan numbers: the loan-number lookup', true, 'faults-malformed'],
  ])(
    '%s: its requests and faults are the requests and faults the sandbox served',
    async (_what, hasConfigFile, profile) => {
      const config = await configFor(profile, 0.2);
      const sandbox = sandboxOf(config.baseUrl);
      const contact = await firstContact(config, { hasConfigFile });
      const stats = sandbox.app.stats.snapshot();
      expect(contact.reads?.requests).toBe(stats.requestsTotal);
      expectFaultsCounted(contact.reads?.faults ?? {}, stats, profile);
    },
    120_000,
  );
});
