// A standalone `load` against a gateway whose transaction result names its id otherwise (shape-renamed: orderReference),
// with the config `discover --write-config` writes (it cannot hold the transaction keys: discovery never charges). Each
// VU learns the key on its first charge as gate and conformance do (#31), so the gift card fetch follows every purchase;
// before, the fetch was never sent ("needs the transactionId ..."). Both engines; k6 skipped, saying so, when absent.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/load-config.ts';
import { findK6 } from '../../load/engine-select.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { configFileOf } from '../../target/discover/render.ts';
import { discoverTarget } from '../../target/discover/run.ts';
import { runCliProcess } from '../fixtures/run-cli.ts';
import { tempDirsRemovedAfterAll } from '../fixtures/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterAll('gh-load-renamed-');
const k6 = findK6({ ...process.env, PATH: `/work/shared/bin:${process.env.PATH ?? ''}` });
if (k6 === undefined) console.warn('scripts/commands/load-renamed.test.ts: no k6 found: its k6 run is SKIPPED');
const ITERATIONS = 3;

describe('gateway-harness load --scenario giftcard-flow against shape-renamed, with the config discover wrote', () => {
  let sandbox: RunningSandbox | undefined;
  let configFile = '';
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, profile: 'shape-renamed', timeScale: 0.01 });
    const given = loadConfig({ cwd: '/nonexistent-dir', env: {}, flags: { target: sandbox.url, timeScale: 0.01 } });
    const discovery = await discoverTarget({ ...given, baseUrl: sandbox.url }, { probeWrites: true });
    configFile = join(tempDir(), 'gateway-harness.config.json');
    writeFileSync(configFile, JSON.stringify(configFileOf(discovery, sandbox.url)));
  }, 120_000);
  afterAll(async () => {
    await sandbox?.close();
  });

  it.each([
    ['node', undefined],
    ['k6', k6?.path],
  ])(
    '--engine %s: the transaction id is learned on the first charge and every purchase is fetched',
    async (engine, bin) => {
      if (engine === 'k6' && bin === undefined) return;
      const before = sandbox?.app.stats.requestsOf('v2.transaction.giftcard-fetch') ?? 0;
      const args = ['load', '--scenario', 'giftcard-flow', '--engine', engine, '--api', 'v2', '-u', '1', '-i', String(ITERATIONS)];
      const run = await runCliProcess([...args, '--config', configFile, '--time-scale', '0.01', '--report-dir', join(tempDir(), 'r')], {
        ...(bin === undefined ? {} : { env: { K6_BIN: bin } }),
        timeoutMs: 120_000,
      });
      expect(run.code, run.output).toBe(0);
      // Said once, with the config line to keep (k6 escapes the quotes of its console lines).
      expect(run.output).toMatch(/load: fieldMapping\.transaction\.transactionId = \\?"orderReference\\?": .*learned on the first charge/);
      expect(run.output).not.toMatch(/needs the transactionId/);
      // Every purchase fetched, besides the probes that learned the key (answers counted, not judged: exit 0, checks pass).
      const fetches = (sandbox?.app.stats.requestsOf('v2.transaction.giftcard-fetch') ?? 0) - before;
      expect(fetches, run.output).toBeGreaterThan(ITERATIONS);
    },
    150_000,
  );
});
