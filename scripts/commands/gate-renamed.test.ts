// Day one against a gateway whose payload fields go by other words (shape-renamed, the transaction id among them):
// `gateway-harness gate --target URL`, no config, a real child process. Discovery learns the catalog's words; the
// transaction id, which exists only after a charge, is learned on the run's first charge (before: INCOMPLETE, 6 skips).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { runCliProcess } from '../fixtures/run-cli.ts';
import { tempDirsRemovedAfterAll } from '../fixtures/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterAll('gh-gate-renamed-');

describe('gateway-harness gate --target <shape-renamed sandbox>, no config', () => {
  let sandbox: RunningSandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, profile: 'shape-renamed', timeScale: 0.01 });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('passes (exit 0), saying what first contact discovered and what the first charge taught', async () => {
    const cwd = tempDir();
    const run = await runCliProcess(['gate', '--target', sandbox?.url ?? '', '--time-scale', '0.01'], { cwd, timeoutMs: 240_000 });
    const verdict = run.stdout.split('\n')[0] ?? '';
    expect(run.code, run.output).toBe(0);
    expect(verdict).toMatch(/^PASS: conformance: all \d+ cases passed; load mixed\/smoke/);
    expect(verdict).toMatch(
      /first contact: no config file, discovered .*; learned on the first charge: fieldMapping\.transaction\.transactionId = "orderReference"$/,
    );
    expect(run.stderr).toContain(
      'learned on the first charge; keep it in gateway-harness.config.json: {"fieldMapping":{"transaction":{"transactionId":"orderReference"}}}',
    );
  }, 250_000);
});
