// `migrate` with a spend cap, as a user runs it (child processes) against a sandbox in production mode: the plan is
// priced from the target's catalog before anything charging is sent; a cap that cannot cover a complete comparison is
// refused (exit 2, nothing charged) and `--dry-run` says so; a cap that covers it runs to a verdict, and the
// sandbox's balance moved by what the ledger says was charged.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliProcess } from '../scripts/fixtures/run-cli.ts';
import { LEDGER_FILE } from './entry.ts';
import { useProductionSandbox } from './fixtures/production-sandbox.ts';
import { readLedger } from './ledger-file.ts';
import { foldLedger, ledgerTotals } from './ledger-state.ts';

const FUNDS = 10_000;
/** Below a complete run's worst case (26 top-ups at their SKU's smallest valid amount, ~5 USD each), above a shorter one's. */
const CAP = '100';
const dir = mkdtempSync(join(tmpdir(), 'gh-migrate-cap-'));
const env = { GATEWAY_USER: 'user', GATEWAY_PASSWORD: 'pass' };

const sandbox = useProductionSandbox(FUNDS);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const migrate = (...extra: string[]): string[] => [
  'migrate',
  '--pairs',
  'transaction.topup',
  '--target',
  sandbox().url,
  '--target-env',
  'production',
  '--time-scale',
  '0.01',
  '--allow-charges',
  '--max-spend',
  CAP,
  'USD',
  ...extra,
];

describe('migrate: the cap must cover a complete comparison before anything is charged', () => {
  let fits: string | undefined;

  it('--dry-run prices the plan from the catalog and says the cap does not cover it; nothing charging is sent', async () => {
    const result = await runCliProcess(migrate('--dry-run'), { env });
    expect(result.code, result.output).toBe(0);
    expect(result.stdout).toMatch(
      /^dry run: migrate against .* \(production\); nothing charging was sent \(its catalog was read to price the plan\)\n/,
    );
    const worst = /worst-case spend: (\d+\.\d\d) USD for 26 charging requests/.exec(result.stdout);
    expect(Number(worst?.[1])).toBeGreaterThan(Number(CAP));
    expect(result.stdout).toMatch(
      /the cap does NOT cover a complete run: .*more than the cap 100\.00 USD; raise --max-spend to \d+\.\d\d USD or lower --requests to \d+ .*the run would be refused/,
    );
    fits = /lower --requests to (\d+)/.exec(result.stdout)?.[1];
    expect(sandbox().app.stats.snapshot().chargingRequests).toBe(0);
  }, 120_000);

  it('the run is refused, exit 2, before anything charging is sent: the wallet is untouched', async () => {
    const result = await runCliProcess([...migrate(), '--report-dir', join(dir, 'refused')], { env });
    expect(result.code, result.output).toBe(2);
    expect(result.stderr).toMatch(
      /GH_ERR_SPEND_CAP: migrate: a complete run sends at most 26 charging requests, worst case \d+\.\d\d USD .*: refused before anything charging was sent/,
    );
    expect(sandbox().app.stats.snapshot().chargingRequests).toBe(0);
    expect(sandbox().app.store.availableFunds).toBe(FUNDS);
  }, 120_000);

  it('with the --requests the refusal names, the dry run says the cap covers it, and the run reaches its verdict within the cap', async () => {
    expect(fits, 'the dry run named no --requests the cap covers').toBeDefined();
    const dry = await runCliProcess(migrate('--dry-run', '--requests', fits as string), { env });
    expect(dry.stdout).toContain('the cap 100.00 USD covers a complete run');
    const reportDir = join(dir, 'fits');
    const result = await runCliProcess([...migrate('--requests', fits as string), '--report-dir', reportDir], { env });
    expect(result.code, result.output).toBe(0);
    expect(result.stdout).toMatch(/^PASS: migration: 1 v1\/v2 pair compared, no regression/);
    const moved = Math.round((FUNDS - sandbox().app.store.availableFunds) * 1e6) / 1e6;
    const totals = ledgerTotals(foldLedger(readLedger(join(reportDir, LEDGER_FILE)).lines));
    expect(totals.unresolved).toEqual([]);
    expect(totals.charged).toEqual([{ amount: moved, currency: 'USD' }]);
    expect(moved).toBeLessThanOrEqual(Number(CAP));
  }, 120_000);
});
