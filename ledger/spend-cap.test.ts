// The spend cap with many VUs: a top-up load on the Node engine, 16 VUs over 3 worker threads, against a sandbox in
// production mode, allowed 15 USD. Sending stops before the cap (one counter shared by every thread, not a share per
// VU), every charging request the sandbox received has its ledger line, and the reports carry the ledger.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.ts';
import { parseLoadFlags } from '../load/runner/load-options.ts';
import { runLoadReported, type ReportedLoadRun } from '../load/fixtures/load-run.ts';
import { startSandbox, type RunningSandbox } from '../sandbox/server.ts';
import { LEDGER_FILE } from './entry.ts';
import { readLedger } from './ledger-file.ts';
import { foldLedger, ledgerTotals } from './ledger-state.ts';

/** Top-ups send their SKU's smallest valid amount (0.97 USD and up in this catalog): a 16th of the cap fits none. */
const CAP = 15;
const USER = 'cap-agent';
const PASSWORD = 'cap-secret-9f2e71';
let sandbox: RunningSandbox;
let outcome: ReportedLoadRun;
let reportDir: string;
const dir = mkdtempSync(join(tmpdir(), 'gh-spend-cap-'));

beforeAll(async () => {
  sandbox = await startSandbox({
    host: '127.0.0.1',
    port: 0,
    timeScale: 0.01,
    mode: 'production',
    funds: 100_000,
    user: USER,
    password: PASSWORD,
  });
  reportDir = join(dir, 'report');
  const flags = parseLoadFlags({
    scenario: 'topup-flow',
    profile: 'smoke',
    engine: 'node',
    api: 'both',
    vus: '16',
    duration: '2s',
    reportDir,
  });
  const config = loadConfig({
    cwd: dir,
    env: {
      GATEWAY_BASE_URL: sandbox.url,
      GATEWAY_ENV: 'production',
      GATEWAY_TIME_SCALE: '0.01',
      GATEWAY_USER: USER,
      GATEWAY_PASSWORD: PASSWORD,
    },
  });
  outcome = await runLoadReported(
    flags,
    config,
    { cwd: dir, env: { ...process.env }, engineWorkers: 3 },
    { environment: 'production', allowCharges: true, cap: { amount: CAP, currency: 'USD' }, ledger: true },
  );
}, 120_000);
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('spend cap across 16 VUs on 3 engine worker threads', () => {
  it('never commits more than the cap, and stops sending because of it', () => {
    const transactions = foldLedger(readLedger(join(reportDir, LEDGER_FILE)).lines);
    const totals = ledgerTotals(transactions);
    const charged = totals.charged.reduce((sum, c) => sum + c.amount, 0);
    expect(totals.unresolved).toEqual([]);
    expect(charged).toBeLessThanOrEqual(CAP);
    expect(outcome.report.ledger?.refused, outcome.output()).toBeGreaterThan(0);
    // One shared counter: far more than a 16th of the cap was spent (a per-VU share of 0.94 USD fits no top-up here).
    expect(charged).toBeGreaterThan(CAP / 2);
    // Every request reserved its worst case under the cap before it was sent.
    expect(transactions.every((t) => t.request.estimate !== undefined)).toBe(true);
  });

  it('every charging request the sandbox received has a ledger line, and every ledger line was sent', () => {
    const requests = readLedger(join(reportDir, LEDGER_FILE)).lines.filter((l) => l.type === 'request');
    expect(requests.length).toBe(sandbox.app.stats.snapshot().chargingRequests);
    for (const r of requests) expect(sandbox.app.store.hasCorrelationId(r.correlationId as string)).toBe(true);
  });

  it('the wallet moved by what the ledger says was charged, within the cap', () => {
    const summary = JSON.parse(readFileSync(join(reportDir, 'summary.json'), 'utf8')) as {
      ledger: { balance: { moved: number }; charged: Array<{ amount: number }>; spendCap: { amount: number } };
    };
    expect(summary.ledger.spendCap.amount).toBe(CAP);
    expect(summary.ledger.balance.moved).toBeLessThanOrEqual(CAP);
    expect(summary.ledger.balance.moved).toBeCloseTo(
      summary.ledger.charged.reduce((s, c) => s + c.amount, 0),
      2,
    );
  });
});

describe('credentials in a capped run', () => {
  it('appear in no file of the report dir (ledger, price book, reports, k6 spool), in no form, nor in the output', () => {
    const forms = [PASSWORD, `${USER}:${PASSWORD}`, Buffer.from(`${USER}:${PASSWORD}`).toString('base64')];
    const files = readdirSync(reportDir);
    expect(files).toEqual(expect.arrayContaining([LEDGER_FILE, 'summary.json', 'junit.xml', 'summary.md', 'prices.json']));
    for (const file of files) {
      const text = readFileSync(join(reportDir, file), 'utf8');
      for (const form of forms) expect(text.includes(form), `${file} contains a credential`).toBe(false);
    }
    for (const form of forms) expect(outcome.output().includes(form)).toBe(false);
  });
});
