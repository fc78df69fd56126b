// The spend cap against a gateway that lies about money (#32): a production-mode sandbox really charges its wallet
// behind a proxy that says a charge cost nothing, or answers a failure for a charge it executed; the Node engine's load.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cappedProduction, productionConfig, runLoadReported, smokeTopupFlags, type ReportedLoadRun } from '../load/fixtures/load-run.ts';
import { startSandbox } from '../sandbox/server.ts';
import { LEDGER_FILE } from './entry.ts';
import { chargedSays, failureSays, startLyingGateway, type Lies } from './fixtures/lying-gateway.ts';
import { readLedger } from './ledger-file.ts';
import { foldLedger, ledgerTotals, type LedgerTotals } from './ledger-state.ts';

const CAP = 200;
const dir = mkdtempSync(join(tmpdir(), 'gh-lying-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface LiedRun {
  readonly outcome: ReportedLoadRun;
  /** What the sandbox's wallet really lost. */
  readonly moved: number;
  readonly totals: LedgerTotals;
}

async function runBehind(
  name: string,
  lies: Lies,
  options: { readonly cap?: number; readonly balanceWatchMs?: number } = {},
): Promise<LiedRun> {
  const funds = 100_000;
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, timeScale: 0.01, mode: 'production', funds });
  const gateway = await startLyingGateway(sandbox.url, lies);
  try {
    const reportDir = join(dir, name);
    const outcome = await runLoadReported(
      smokeTopupFlags({ engine: 'node', api: 'v2', duration: '2s', reportDir }),
      productionConfig(dir, gateway.url),
      {
        cwd: dir,
        env: { ...process.env },
        engineWorkers: 1,
        ...(options.balanceWatchMs === undefined ? {} : { balanceWatchMs: options.balanceWatchMs }),
      },
      cappedProduction(options.cap ?? CAP),
    );
    const totals = ledgerTotals(foldLedger(readLedger(join(reportDir, LEDGER_FILE)).lines));
    return { outcome, moved: Math.round((funds - sandbox.app.store.availableFunds) * 100) / 100, totals };
  } finally {
    await gateway.close();
    await sandbox.close();
  }
}

const sum = (totals: LedgerTotals): number => totals.charged.reduce((s, c) => s + c.amount, 0);
/** `moved` is rounded to the cent; the ledger's amounts are not (a wallet amount of 197.306 moves 197.31). */
const HALF_CENT = 0.005;

describe('#32 a production gateway whose payload says a charge cost nothing (invoiceAmount: 0)', () => {
  it('stops at the cap: the wallet loses at most the cap, and the ledger counts at least what it lost', async () => {
    // A cap a few charges reach even on a slow box (each is reserved at about 4 USD): the refusals are certain.
    const cap = 30;
    const { outcome, moved, totals } = await runBehind('zero', { topup: chargedSays(0), status: chargedSays(0) }, { cap });
    expect(moved, outcome.output()).toBeGreaterThan(0);
    expect(moved, outcome.output()).toBeLessThanOrEqual(cap);
    expect(sum(totals)).toBeGreaterThanOrEqual(moved - HALF_CENT);
    expect(outcome.report.ledger?.refused, outcome.output()).toBeGreaterThan(0);
  }, 120_000);
});

describe('#32 a production gateway whose payload says a charge cost less than the SKU costs at its minimum (invoiceAmount: 0.01)', () => {
  it("stops at the cap: a charged amount below the catalog's minimum cost settles at the reservation", async () => {
    const { outcome, moved, totals } = await runBehind('below-minimum', { topup: chargedSays(0.01), status: chargedSays(0.01) });
    expect(moved, outcome.output()).toBeGreaterThan(0);
    expect(moved, outcome.output()).toBeLessThanOrEqual(CAP);
    // Trusting 0.01 per charge, the ledger would count far less than the wallet lost (and the cap would not hold).
    expect(sum(totals)).toBeGreaterThanOrEqual(moved - HALF_CENT);
  }, 120_000);
});

describe('#32 a production gateway that answers a failure for a charge it executed, its status endpoint saying Successful', () => {
  it('stops at the cap, and the ledger says the charges were Successful, as the status endpoint does', async () => {
    const { outcome, moved, totals } = await runBehind('failure', { topup: failureSays('011') });
    expect(moved, outcome.output()).toBeGreaterThan(0);
    expect(moved, outcome.output()).toBeLessThanOrEqual(CAP);
    expect(totals.successful).toBeGreaterThan(0);
    expect(sum(totals)).toBeGreaterThanOrEqual(moved - HALF_CENT);
  }, 120_000);
});

describe('#32 a production gateway that takes more from the wallet than it was asked (each top-up executed twice)', () => {
  it('the balance watch stops every charge once the wallet has lost more than the ledger holds', async () => {
    const cap = 2_000;
    const { outcome, moved } = await runBehind('twice', { chargeTwice: true }, { cap, balanceWatchMs: 100 });
    expect(outcome.output()).toMatch(
      /GH_ERR_SPEND_CAP: the balance shows [\d.]+ spent, more than the [\d.]+ the ledger's charging requests can account for/,
    );
    // Without the watch the cap alone lets the wallet lose twice the cap; with it charging stops far below the cap.
    expect(moved, outcome.output()).toBeLessThan(cap);
    expect(outcome.report.ledger?.verdict).not.toBe('pass');
  }, 120_000);
});
