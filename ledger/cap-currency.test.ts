// The spend cap's currency, as a user meets it (child processes) on a sandbox in production mode whose wallet is in
// USD: a cap in another currency is refused before anything charging is sent (exit 2, both currencies named), on both
// engines and for a Node command; a cap in the wallet's currency runs, and the reports and the ledger state amounts in
// the currency really charged, which the sandbox's balance confirms.
import { readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findK6 } from '../load/engine-select.ts';
import { runCliProcess } from '../scripts/fixtures/run-cli.ts';
import { LEDGER_FILE } from './entry.ts';
import { useProductionSandbox } from './fixtures/production-sandbox.ts';
import { readLedger } from './ledger-file.ts';
import { foldLedger, ledgerTotals } from './ledger-state.ts';

const FUNDS = 10_000;
const dir = mkdtempSync(join(tmpdir(), 'gh-cap-currency-'));
const k6 = findK6(process.env);
const env = (): Record<string, string> => ({
  GATEWAY_USER: 'user',
  GATEWAY_PASSWORD: 'pass',
  ...(k6 === undefined ? {} : { PATH: `${dirname(k6.path)}:${process.env.PATH ?? ''}` }),
});

const sandbox = useProductionSandbox(FUNDS);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const production = (): string[] => ['--target', sandbox().url, '--target-env', 'production', '--time-scale', '0.01'];
const load = (engine: string, cap: string[], reportDir: string): string[] => [
  'load',
  '--scenario',
  'topup-flow',
  '--engine',
  engine,
  ...production(),
  '--allow-charges',
  '--max-spend',
  ...cap,
  '--vus',
  '2',
  // Iterations, not a duration: on a loaded machine 2 s of load could end before its first charge (the run must charge).
  '--iterations',
  '4',
  '--report-dir',
  reportDir,
];

const REFUSAL =
  /GH_ERR_USAGE: --max-spend 150 JPY: the target's wallet is in USD \(the costCurrency of its SKU records\).*give the cap in USD.*nothing charging was sent/;

describe("a cap in another currency than the wallet's", () => {
  const engines = k6 === undefined ? ['node'] : ['node', 'k6'];
  if (k6 === undefined) console.warn('ledger/cap-currency.test.ts: no k6 found (K6_BIN or PATH): the k6 case is SKIPPED');

  it.each(engines)(
    'load --engine %s --max-spend 150 JPY on a USD wallet: refused, exit 2, nothing charged',
    async (engine) => {
      const result = await runCliProcess(load(engine, ['150', 'JPY'], join(dir, `jpy-${engine}`)), { env: env() });
      expect(result.code, result.output).toBe(2);
      expect(result.stderr).toMatch(REFUSAL);
      expect(sandbox().app.stats.snapshot().chargingRequests).toBe(0);
      expect(sandbox().app.store.availableFunds).toBe(FUNDS);
    },
    120_000,
  );

  it('migrate --pairs transaction.topup --max-spend 150 JPY: refused the same way', async () => {
    const result = await runCliProcess(
      [
        'migrate',
        '--pairs',
        'transaction.topup',
        ...production(),
        '--allow-charges',
        '--max-spend',
        '150',
        'JPY',
        '--report-dir',
        join(dir, 'jpy-migrate'),
      ],
      { env: env() },
    );
    expect(result.code, result.output).toBe(2);
    expect(result.stderr).toMatch(REFUSAL);
    expect(sandbox().app.stats.snapshot().chargingRequests).toBe(0);
    expect(sandbox().app.store.availableFunds).toBe(FUNDS);
  }, 120_000);
});

describe("a cap in the wallet's currency", () => {
  it("runs, and every amount the reports and the ledger state is in USD, as the sandbox's balance moved", async () => {
    const reportDir = join(dir, 'usd');
    const before = sandbox().app.store.availableFunds;
    const result = await runCliProcess(load('node', ['60', 'USD'], reportDir), { env: env() });
    expect([0, 1, 99], result.output).toContain(result.code);
    // Unrounded: the ledger states amounts to the sandbox's own precision (59.415 would round to 59.42, 0.005 away).
    const moved = before - sandbox().app.store.availableFunds;
    expect(moved).toBeGreaterThan(0);
    expect(moved).toBeLessThanOrEqual(60);
    const summary = JSON.parse(readFileSync(join(reportDir, 'summary.json'), 'utf8')) as {
      ledger: { charged: Array<{ amount: number; currency: string }>; spendCap: { currency: string }; committed: { currency: string } };
    };
    expect(summary.ledger.charged.map((c) => c.currency)).toEqual(['USD']);
    expect(summary.ledger.charged[0]?.amount).toBeCloseTo(moved, 2);
    expect([summary.ledger.spendCap.currency, summary.ledger.committed.currency]).toEqual(['USD', 'USD']);
    const transactions = foldLedger(readLedger(join(reportDir, LEDGER_FILE)).lines);
    expect(transactions.every((t) => t.request.wallet === 'USD' && t.request.estimate?.currency === 'USD')).toBe(true);
    expect(ledgerTotals(transactions).charged).toEqual([{ amount: summary.ledger.charged[0]?.amount, currency: 'USD' }]);
    expect(readFileSync(join(reportDir, 'summary.md'), 'utf8')).not.toMatch(/\d JPY|\d wallet/);
  }, 120_000);
});
