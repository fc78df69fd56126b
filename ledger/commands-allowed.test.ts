// Node commands on a production target with --allow-charges --max-spend: charging requests go out through the guard,
// each with its ledger line; a cap too small for a complete comparison is refused before anything charging is sent;
// the ledger section is in the command's reports.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LEDGER_FILE } from './entry.ts';
import { readLedger } from './ledger-file.ts';
import { foldLedger, ledgerTotals } from './ledger-state.ts';
import { blankGatewayEnvEachTest, runCli as run } from '../scripts/fixtures/run-cli.ts';
import { useProductionSandbox } from './fixtures/production-sandbox.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-allowed-'));
const sandbox = useProductionSandbox(100_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
blankGatewayEnvEachTest();

const production = (): string[] => ['--target', sandbox().url, '--target-env', 'production', '--time-scale', '0.01'];

describe('migrate with --allow-charges --max-spend', () => {
  it('sends the charging pairs through the guard: every request in the ledger, all final, within the cap, in the reports', async () => {
    const reportDir = join(dir, 'migrate');
    const { code, stdout, stderr } = await run([
      'migrate',
      ...production(),
      '--pairs',
      'transaction.topup,transaction.status',
      '--requests',
      '2',
      '--allow-charges',
      '--max-spend',
      '2000',
      'USD',
      '--report-dir',
      reportDir,
    ]);
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    expect(stderr).toMatch(/money: production target, charging requests allowed up to 2000\.00 USD/);
    const transactions = foldLedger(readLedger(join(reportDir, LEDGER_FILE)).lines);
    expect(transactions.length).toBe(sandbox().app.stats.snapshot().chargingRequests);
    expect(transactions.length).toBeGreaterThan(0);
    const totals = ledgerTotals(transactions);
    expect(totals.unresolved).toEqual([]);
    expect(totals.charged[0]?.amount ?? 0).toBeLessThanOrEqual(2000);
    expect(stdout).toMatch(/^ledger: \d+ charging requests recorded, all final; charged [\d.]+ USD/m);
    const report = JSON.parse(readFileSync(join(reportDir, 'summary.json'), 'utf8')) as {
      ledger: { entries: number; spendCap: { amount: number } };
    };
    expect(report.ledger).toMatchObject({ entries: transactions.length, spendCap: { amount: 2000 } });
    expect(readFileSync(join(reportDir, 'summary.md'), 'utf8')).toMatch(
      /^Ledger: \d+ charging requests, charged [\d.]+ USD; spend cap 2000\.00 USD\.$/m,
    );
    expect(readFileSync(join(reportDir, 'report.html'), 'utf8')).toContain('id="ledger"');
  });

  it('a cap too small for a complete comparison is refused before anything charging is sent (exit 2): no money on a run without a verdict', async () => {
    const reportDir = join(dir, 'migrate-small');
    const { code, stderr } = await run([
      'migrate',
      ...production(),
      '--pairs',
      'transaction.topup',
      '--requests',
      '2',
      '--allow-charges',
      '--max-spend',
      '1',
      'USD',
      '--report-dir',
      reportDir,
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /GH_ERR_SPEND_CAP: migrate: a complete run sends at most 10 charging requests, worst case [\d.]+ USD .* more than the cap 1\.00 USD; raise --max-spend to [\d.]+ USD: refused before anything charging was sent/,
    );
    expect(sandbox().app.stats.snapshot().chargingRequests).toBe(0);
  });
});

describe('baseline record with --allow-charges --max-spend', () => {
  it('observes the transactions through the guard, each in the ledger', async () => {
    const reportDir = join(dir, 'baseline');
    const { code, stdout, stderr } = await run([
      'baseline',
      'record',
      ...production(),
      '--out-dir',
      join(dir, 'baseline-out'),
      '--allow-charges',
      '--max-spend',
      '5000',
      'USD',
      '--report-dir',
      reportDir,
    ]);
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    const transactions = foldLedger(readLedger(join(reportDir, LEDGER_FILE)).lines);
    expect(transactions.length).toBe(sandbox().app.stats.snapshot().chargingRequests);
    expect(new Set(transactions.map((t) => t.request.operationId)).size).toBeGreaterThan(4);
    expect(stdout).toMatch(/^ledger: \d+ charging requests? recorded/m);
  });
});
