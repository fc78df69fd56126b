// Tests of `gateway-harness migrate`: usage errors and the production refusal (exit 2, one line, nothing sent) in-process,
// a regression (exit 1) in-process, and the real bin in a child process against the embedded sandbox (exit 0, reports).
import { junitXsdErrors } from '../../reports/fixtures/junit-xsd.ts';
import { summaryErrors } from '../../reports/fixtures/schema-check.ts';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { operationPairs } from '../../api/operations.ts';
import { useRecordingSandbox } from '../../sandbox/fixtures/recording-sandbox.ts';
import { blankGatewayEnvEachTest, expectUsageError, runCli as run } from '../fixtures/run-cli.ts';
import { tempDirsRemovedAfterAll } from '../fixtures/temp-dirs.ts';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const BIN = resolve(ROOT, 'bin', 'gateway-harness.mjs');
const tempDir = tempDirsRemovedAfterAll('gh-migrate-cli-');

blankGatewayEnvEachTest();

describe('gateway-harness migrate: usage errors (exit 2, one line)', () => {
  const cases: ReadonlyArray<[string[], RegExp]> = [
    [['migrate', '--pairs', 'no.such.pair'], /--pairs: unknown pair "no.such.pair"/],
    [['migrate', '--requests', '0'], /--requests must be a whole number from 1 to 1000/],
    [['migrate', '--concurrency', '99'], /--concurrency must be a whole number from 1 to 16/],
    [['migrate', '--target', 'http://127.0.0.1:9', '--seed', '2'], /apply to the embedded sandbox only/],
  ];
  it.each(cases)('%j', async (args, message) => {
    await expectUsageError(args, message);
  });

  it('lists the pairs of the catalog with --list', async () => {
    const { code, stdout } = await run(['migrate', '--list']);
    expect(code).toBe(0);
    expect(
      stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[0]),
    ).toEqual(operationPairs().map((p) => p.purpose));
  });
});

describe('gateway-harness migrate on a production target', () => {
  const recording = useRecordingSandbox();
  const seen = recording.seen;

  it('refuses charging pairs before sending anything (exit 2, one line)', async () => {
    const { code, stderr } = await run(['migrate', '--target', recording.url(), '--target-env', 'production', '--report-dir', tempDir()]);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^gateway-harness: GH_ERR_CHARGES: migrate sends charging operations \(.*transaction\.topup.*\) and the target is production .*nothing was sent; add --allow-charges --max-spend/,
    );
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(seen).toEqual([]);
  });

  it('runs read pairs selected with --pairs and sends no write', async () => {
    const reportDir = tempDir();
    const { code, stdout } = await run([
      'migrate',
      ...recording.productionTarget(),
      '--pairs',
      'account.balance,catalog.countries',
      '--requests',
      '2',
      '--report-dir',
      reportDir,
    ]);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toBe('PASS: migration: 2 v1/v2 pairs compared, no regression');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((s) => s.startsWith('POST'))).toEqual([]);
  }, 30_000);
});

describe('gateway-harness migrate on the embedded sandbox', () => {
  it('exits 1 against the v2-regression profile and names the pair', async () => {
    const reportDir = tempDir();
    const { code, stdout } = await run([
      'migrate',
      '--sandbox-profile',
      'contract-v2-regression',
      '--requests',
      '2',
      '--report-dir',
      reportDir,
    ]);
    expect(code).toBe(1);
    expect(stdout.split('\n')[0]).toMatch(/^FAIL: migration: 1 of 20 v1\/v2 pairs regressed \(catalog\.sku-exchange-rate\)/);
    expect(JSON.parse(readFileSync(join(reportDir, 'summary.json'), 'utf8'))).toMatchObject({
      command: 'migrate',
      verdict: 'fail',
      exitCode: 1,
    });
    expect(stdout).toMatch(/^REGRESSION catalog\.sku-exchange-rate: v1 Successful, v2 Failed/m);
  }, 60_000);

  it('runs the real bin: exit 0, the report set (summary.json with the migration section, junit.xml, summary.md, report.html)', async () => {
    const reportDir = tempDir();
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) if (!/^(VITEST|TEST$|NODE_ENV$|GATEWAY_)/.test(key)) env[key] = value;
    const result = await new Promise<{ code: number | null; stdout: string }>((done) => {
      const child = spawn(process.execPath, [BIN, 'migrate', '--requests', '2', '--report-dir', reportDir], {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      let stdout = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        done({ code, stdout });
      });
    });
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe(
      'PASS: migration: 20 v1/v2 pairs compared, no regression [target: the embedded sandbox, profile faithful, not a gateway]',
    );
    const json = JSON.parse(readFileSync(join(reportDir, 'summary.json'), 'utf8')) as { migration: { pairs: Record<string, unknown>[] } };
    expect(summaryErrors(json)).toEqual([]);
    expect(json.migration.pairs).toHaveLength(operationPairs().length);
    for (const pair of json.migration.pairs) {
      expect(Object.keys(pair)).toEqual(
        expect.arrayContaining([
          'purpose',
          'v1',
          'v2',
          'v1Outcome',
          'v2Outcome',
          'regression',
          'contentDiffs',
          'fieldCorrespondence',
          'latency',
        ]),
      );
      expect(pair.latency).toMatchObject({
        v1: { p50: expect.any(Number), p95: expect.any(Number) },
        v2: { p50: expect.any(Number), p95: expect.any(Number) },
      });
    }
    expect(readFileSync(join(reportDir, 'summary.md'), 'utf8').split('\n')[0]).toBe(
      '## ✅ PASS: migration: 20 v1/v2 pairs compared, no regression \\[target: the embedded sandbox, profile faithful, not a gateway\\]',
    );
    expect(await junitXsdErrors(readFileSync(join(reportDir, 'junit.xml'), 'utf8'))).toEqual([]);
    expect(readFileSync(join(reportDir, 'report.html'), 'utf8')).toContain('id="migration"');
  }, 100_000);
});
