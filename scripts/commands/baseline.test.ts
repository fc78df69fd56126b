// Tests of `gateway-harness baseline record|check` in-process: usage errors (exit 2, one line), record then check
// (exit 0), a breaking change (exit 1, named on stdout and in every report), production gets no charging request.
import { junitXsdErrors } from '../../reports/fixtures/junit-xsd.ts';
import { summaryErrors } from '../../reports/fixtures/schema-check.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useRecordingSandbox } from '../../sandbox/fixtures/recording-sandbox.ts';
import { blankGatewayEnvEachTest, expectUsageError, runCli as run } from '../fixtures/run-cli.ts';
import { tempDirsRemovedAfterAll } from '../fixtures/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterAll('gh-baseline-cli-');

blankGatewayEnvEachTest();

describe('gateway-harness baseline: usage errors (exit 2, one line)', () => {
  const cases: ReadonlyArray<[string[], RegExp]> = [
    [['baseline', 'check', '--baseline', '/nonexistent/baseline'], /GH_ERR_CONFIG: baseline .*has no index\.json/],
    [['baseline', 'record', '--seed', 'x', '--out-dir', '/nonexistent/out'], /--seed must be a whole number/],
    [['baseline', 'record', '--sandbox-profile', 'no-such-profile', '--out-dir', '/nonexistent/out'], /unknown profile/],
    [['baseline', 'record', '--target', 'http://127.0.0.1:9', '--sandbox-profile', 'faithful'], /apply to the embedded sandbox only/],
  ];
  it.each(cases)('%j', async (args, message) => {
    await expectUsageError(args, message);
  });

  it('stops with exit 2 when the target cannot be read', async () => {
    const out = tempDir();
    const { code, stderr } = await run(['baseline', 'record', '--target', 'http://127.0.0.1:9', '--out-dir', out]);
    expect(code).toBe(2);
    // The preflight every command runs says it first, before any catalog read (#23).
    expect(stderr).toMatch(/GH_ERR_TARGET: the target cannot be used: http:\/\/127\.0\.0\.1:9: cannot connect/);
  });
});

describe('gateway-harness baseline record + check', () => {
  const dir = tempDir();
  const baseline = join(dir, 'baseline');
  /** `baseline check` of the recorded baseline against the embedded sandbox under a contract-change `profile`. */
  const checkOn = (profile: string, reportDir: string): ReturnType<typeof run> =>
    run(['baseline', 'check', '--baseline', baseline, '--report-dir', reportDir, '--sandbox-profile', profile]);

  it('records the embedded sandbox (exit 0) and passes the check against it (exit 0)', async () => {
    const recorded = await run(['baseline', 'record', '--out-dir', baseline]);
    expect(recorded.code).toBe(0);
    expect(recorded.stdout).toMatch(/^baseline: recorded 48 of 48 operations/);
    expect(recorded.stderr).toMatch(/baseline: v2\.catalog\.skus: observed/);
    const checked = await run(['baseline', 'check', '--baseline', baseline, '--report-dir', join(dir, 'same')]);
    expect(checked.code).toBe(0);
    expect(checked.stdout.split('\n')[0]).toBe(
      'PASS: drift: no breaking change in 48 operations [target: the embedded sandbox, profile faithful, not a gateway]',
    );
  }, 30_000);

  it('fails the check (exit 1) on a breaking change and names it on stdout and in every report', async () => {
    const reportDir = join(dir, 'removed');
    const { code, stdout } = await checkOn('contract-field-removed', reportDir);
    expect(code).toBe(1);
    expect(stdout.split('\n')[0]).toMatch(
      /^FAIL: drift: 1 breaking change \(v1\.catalog\.sku-exchange-rate \$\.payLoad\.productName field-removed\)/,
    );
    expect(stdout).toContain('BREAKING     v1.catalog.sku-exchange-rate $.payLoad.productName field-removed');
    const report = JSON.parse(readFileSync(join(reportDir, 'summary.json'), 'utf8')) as {
      command: string;
      drift: { baselineDir: string; findings: unknown[] };
    };
    expect(summaryErrors(report)).toEqual([]);
    expect(report.command).toBe('baseline-check');
    expect(report.drift.baselineDir).toBe(baseline);
    expect(report.drift.findings).toEqual([
      {
        operationId: 'v1.catalog.sku-exchange-rate',
        path: '$.payLoad.productName',
        kind: 'breaking',
        change: 'field-removed',
        detail: expect.any(String) as unknown,
      },
    ]);
    expect(readFileSync(join(reportDir, 'summary.md'), 'utf8').split('\n')[0]).toMatch(/^## ❌ FAIL: drift: 1 breaking change/);
    const junit = readFileSync(join(reportDir, 'junit.xml'), 'utf8');
    expect(await junitXsdErrors(junit)).toEqual([]);
    expect(junit).toMatch(/<testcase name="v1\.catalog\.sku-exchange-rate payload matches the baseline"[^>]*>\s*<failure /);
    expect(readFileSync(join(reportDir, 'report.html'), 'utf8')).toContain('$.payLoad.productName');
  }, 30_000);

  it('passes the check (exit 0) on a non-breaking change and reports it', async () => {
    const { code, stdout } = await checkOn('contract-field-added', join(dir, 'added'));
    expect(code).toBe(0);
    expect(stdout).toContain('non-breaking v2.catalog.operators $.payLoad[*].operatorCode field-added');
  }, 30_000);
});

describe('gateway-harness baseline record on a production target', () => {
  const recording = useRecordingSandbox();
  const seen = recording.seen;

  it('refuses without --allow-charges or --reads-only, sending nothing (exit 2, one line)', async () => {
    const { code, stderr } = await run(['baseline', 'record', ...recording.productionTarget(), '--out-dir', join(tempDir(), 'refused')]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^gateway-harness: GH_ERR_CHARGES: baseline record sends charging operations/);
    expect(seen).toEqual([]);
  });

  it('with --reads-only sends no charging request and records the reads (exit 0)', async () => {
    const out = join(tempDir(), 'prod');
    const { code, stdout } = await run(['baseline', 'record', ...recording.productionTarget(), '--out-dir', out, '--reads-only']);
    expect(code).toBe(0);
    expect(seen.filter((s) => s.startsWith('POST')).map((s) => s.split(' ')[1])).toEqual([
      'v2.transaction.estimated-cost',
      'v2.transaction.estimated-cost',
    ]);
    expect(stdout).toContain('not-observed v1.transaction.topup: charges money: not sent to a production target');
    expect(seen.some((s) => s.includes('transaction.status'))).toBe(false);
  }, 30_000);
});
