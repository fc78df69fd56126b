// A k6 run that charges, its report dir on a small file system (a 200 KB tmpfs), against a production-mode sandbox
// (#32 finding 1): refused before anything is sent without room for its ledger; stopped at once when the room runs
// out; and with no floor at all, the recording gate: exactly as many charges received as request lines in the ledger.
// Skipped, saying so, without k6 or without a tmpfs mount.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from '../config/load-config.ts';
import { findK6 } from '../load/engine-select.ts';
import { supportedK6s } from '../load/runner/k6-binaries.ts';
import { parseLoadFlags } from '../load/runner/load-options.ts';
import { runLoad } from '../load/runner/run-load.ts';
import { unmountTmpfs } from '../reports/fixtures/tmpfs.ts';
import { createProgress } from '../reports/progress.ts';
import { startSandbox, type RunningSandbox } from '../sandbox/server.ts';
import { LEDGER_FILE } from './entry.ts';
import { readLedger } from './ledger-file.ts';
import type { MoneySettings } from './money-settings.ts';

const k6 = findK6(process.env);
const dir = mkdtempSync(join(tmpdir(), 'gh-k6-full-disk-'));
const disk = join(dir, 'disk');
mkdirSync(disk);

function mountTmpfs(): string | undefined {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=200k', 'tmpfs', disk], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return `cannot mount a 200 KB tmpfs here (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
  }
}

const cannot = k6 === undefined ? 'no k6 found (set K6_BIN or put k6 on PATH)' : mountTmpfs();
if (cannot !== undefined) console.warn(`ledger/k6-full-disk.test.ts: ${cannot}: the full-disk k6 run is SKIPPED`);

const MONEY: MoneySettings = { environment: 'production', allowCharges: true, cap: { amount: 4_000, currency: 'USD' }, ledger: true };
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ host: '127.0.0.1', port: 0, timeScale: 0.01, mode: 'production', funds: 100_000 });
});
afterAll(async () => {
  await sandbox.close();
  // A k6 just killed may still hold a file there for a moment: a busy mount is detached lazily, not left failing the file.
  if (cannot === undefined) unmountTmpfs(disk);
  rmSync(dir, { recursive: true, force: true });
});

async function runInto(reportDir: string, headroom?: { startBytes: number; stopBytes: number }, k6Path = k6?.path ?? '') {
  let printed = '';
  const progress = createProgress({ stream: { write: (text: string) => void (printed += text) }, tty: false });
  const flags = parseLoadFlags({ scenario: 'topup-flow', profile: 'smoke', engine: 'k6', api: 'v2', vus: '4', duration: '30s', reportDir });
  const config = loadConfig({ cwd: dir, env: { GATEWAY_BASE_URL: sandbox.url, GATEWAY_ENV: 'production', GATEWAY_TIME_SCALE: '0.01' } });
  try {
    const run = await runLoad(
      flags,
      config,
      {
        cwd: dir,
        env: { ...process.env, K6_BIN: k6Path },
        progress,
        ...(headroom === undefined ? {} : { diskHeadroom: headroom }),
      },
      MONEY,
    );
    return { run, printed: () => printed };
  } finally {
    progress.done();
  }
}

describe.skipIf(cannot !== undefined)('k6 with its ledger on a nearly full disk', () => {
  it('no room to start: refused (GH_ERR_LEDGER) before k6 starts, nothing charged', async () => {
    sandbox.app.stats.reset();
    const reportDir = join(disk, 'refused');
    await expect(runInto(reportDir)).rejects.toMatchObject({
      code: 'GH_ERR_LEDGER',
      message: expect.stringMatching(/KiB free: a k6 run that charges needs at least/),
    });
    expect(sandbox.app.stats.snapshot().chargingRequests).toBe(0);
    rmSync(reportDir, { recursive: true, force: true });
  }, 60_000);

  it('the room runs out mid-run: k6 is stopped at once, and every charge the gateway received is in the ledger', async () => {
    sandbox.app.stats.reset();
    const reportDir = join(disk, 'filling');
    onTestFinished(() => rmSync(reportDir, { recursive: true, force: true }));
    const fundsBefore = sandbox.app.store.availableFunds;
    const { run, printed } = await runInto(reportDir, { startBytes: 96 * 1024, stopBytes: 48 * 1024 });
    expect(printed()).toMatch(/k6 is stopped now/);
    expect(run.engineExit).not.toBe(0);
    const requests = readLedger(join(reportDir, LEDGER_FILE)).lines.filter((l) => l.type === 'request');
    const received = sandbox.app.stats.snapshot().chargingRequests;
    expect(received, printed()).toBeGreaterThan(0);
    // Every charge the gateway received has its line; a line may also stand for a request k6 was killed before sending
    // (recorded first, then sent: at most one per VU in flight, reconciled as Unknown), never the other way round.
    expect(requests.length, printed()).toBeGreaterThanOrEqual(received);
    expect(requests.length - received, printed()).toBeLessThanOrEqual(4);
    // A verdict on the money, not a parse error: the ledger section, and the wallet within the cap.
    expect(run.ledger, printed()).toBeDefined();
    expect(fundsBefore - sandbox.app.store.availableFunds).toBeLessThanOrEqual(MONEY.cap?.amount ?? 0);
    writeFileSync(join(dir, 'last-output.txt'), printed());
  }, 120_000);

  // No headroom floor at all: the disk really fills. Charging requests go through the runner's recording gate, which
  // writes each line before it forwards the request and refuses when it cannot (ledger/recording-gate.ts). The
  // sandbox then received exactly as many charges as the ledger holds request lines, on both k6 versions.
  const binaries = supportedK6s().map((binary) => binary.path);
  if (binaries.length === 0) binaries.push('');
  it.each(binaries)(
    'the disk fills under the gate (%s): every charge received has its line and no line lacks its charge',
    async (bin) => {
      sandbox.app.stats.reset();
      const reportDir = join(disk, `full-${basename(bin)}`);
      onTestFinished(() => rmSync(reportDir, { recursive: true, force: true }));
      const { run, printed } = await runInto(reportDir, { startBytes: 64 * 1024, stopBytes: 0 }, bin);
      const ledgerPath = join(reportDir, LEDGER_FILE);
      expect(printed()).toContain(`disk full at ${ledgerPath}`);
      const requests = readLedger(ledgerPath).lines.filter((l) => l.type === 'request');
      const received = sandbox.app.stats.snapshot().chargingRequests;
      expect(received, printed()).toBeGreaterThan(0);
      expect(requests.length, printed()).toBe(received);
      // The verdict on the money names the full disk (the ledger section), not a parse error.
      expect(run.ledger, printed()).toBeDefined();
      expect(JSON.stringify(run.ledger)).toContain('disk full at');
      expect(printed()).not.toMatch(/GH_ERR_PARSE/);
      // The gate's refusals (its defect line names how many; none when the disk filled on another write first) are in the
      // ledger's `refused` too, with the bundle's own (cap): k6 is stopped at the first one and may leave no summary (#32).
      const defect = run.ledger?.unresolved.map((u) => u.correlationId).find((c) => c.includes('not sent: their ledger line'));
      const byGate = Number(/(\d+) charging request\(s\) not sent/.exec(defect ?? '')?.[1] ?? 0);
      const byBundle = run.summaryData?.metrics['gateway_charges_refused']?.values.count ?? 0;
      expect(run.ledger?.refused, JSON.stringify(run.ledger)).toBe(byBundle + byGate);
      if (byGate > 0) expect(printed()).toMatch(/\d+ charging requests? not sent \(cap, unbounded charge, or ledger line not durable\)/);
    },
    180_000,
  );
});
