// `kill -9` in the middle of a charging load run, then `gateway-harness reconcile`: every ledger entry ends as the
// sandbox knows it (final, or — a line written whose request never left — unknown to it: '027' after the service-side
// timeout, which on this production ledger is recorded as such and never as Failed), and no charging request reached
// the sandbox without its ledger line. On the Node engine, and on a real k6 when there is one:
// k6 writes its ledger lines to its stderr, a file (the spool) the harness tails, so a line written before a request
// outlives the harness; and k6 dies within a second of the harness (SIGPIPE on its stdout progress line).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { findK6 } from '../load/engine-select.ts';
import { startSandbox, type RunningSandbox } from '../sandbox/server.ts';
import { main } from '../scripts/cli.ts';
import { blankGatewayEnvEachTest, waitUntil } from '../scripts/fixtures/run-cli.ts';
import { LEDGER_FILE } from './entry.ts';
import { chargingLoadArgs, ledgerRequestCount } from './fixtures/charging-load.ts';
import { readLedger } from './ledger-file.ts';
import { foldLedger } from './ledger-state.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin', 'gateway-harness.mjs');
const dir = mkdtempSync(join(tmpdir(), 'gh-crash-'));
const sandboxes: RunningSandbox[] = [];
afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});
blankGatewayEnvEachTest();

/** The child processes of a pid (Linux /proc). */
function childrenOf(pid: number): number[] {
  const tasks = join('/proc', String(pid), 'task');
  if (!existsSync(tasks)) return [];
  return readdirSync(tasks).flatMap((t) => {
    try {
      return readFileSync(join(tasks, t, 'children'), 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  });
}

async function reconcile(ledger: string): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    process.exitCode = undefined;
    const code = await main(['node', 'gateway-harness', 'reconcile', ledger, '--time-scale', '0.01']);
    return { code, stdout };
  } finally {
    process.exitCode = undefined;
    out.mockRestore();
    err.mockRestore();
  }
}

async function killMidRun(
  engine: 'node' | 'k6',
  env: NodeJS.ProcessEnv,
): Promise<{ sandbox: RunningSandbox; ledger: string; grandchildren: number[] }> {
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, timeScale: 0.01, mode: 'production', funds: 1_000_000 });
  sandboxes.push(sandbox);
  const reportDir = join(dir, engine);
  const ledger = join(reportDir, LEDGER_FILE);
  const args = [BIN, ...chargingLoadArgs({ engine, url: sandbox.url, timeScale: '0.01', vus: 8, reportDir })];
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { ...env, GATEWAY_USER: 'user', GATEWAY_PASSWORD: 'pass' },
    stdio: 'ignore',
  });
  let exited = false;
  child.once('exit', () => void (exited = true));
  try {
    await waitUntil('20 charging requests in the ledger', () => ledgerRequestCount(ledger) >= 20 || exited, 90_000);
    expect(exited, 'the load run ended before it was killed').toBe(false);
    const grandchildren = childrenOf(child.pid as number);
    child.kill('SIGKILL');
    await waitUntil('the harness to die', () => exited, 10_000);
    return { sandbox, ledger, grandchildren };
  } finally {
    if (!exited) child.kill('SIGKILL');
  }
}

/** Reconcile's exit: 0 when the sandbox knows every entry, 1 when some line's request never reached it. */
function expectedExit(sandbox: RunningSandbox, ledger: string): number {
  return foldLedger(readLedger(ledger).lines).every(
    (t) => sandbox.app.store.byCorrelationId(t.request.correlationId as string) !== undefined,
  )
    ? 0
    : 1;
}

function expectEveryEntryAsTheSandboxKnowsIt(sandbox: RunningSandbox, ledger: string): void {
  const transactions = foldLedger(readLedger(ledger).lines);
  for (const t of transactions) {
    const known = sandbox.app.store.byCorrelationId(t.request.correlationId as string);
    if (known === undefined)
      expect(t.outcome).toMatchObject({ outcome: 'Unknown', final: false, code: '027', rule: 'not-found-at-target' });
    else expect(t.outcome).toMatchObject({ final: true, code: known.result?.responseCode });
  }
  // Nothing charging reached the sandbox without a ledger line.
  expect(transactions.length).toBeGreaterThanOrEqual(sandbox.app.stats.snapshot().chargingRequests);
}

describe('kill -9 mid-run, then reconcile', () => {
  it('Node engine: reconcile resolves every ledger entry', async () => {
    const { sandbox, ledger } = await killMidRun('node', { ...process.env });
    const before = foldLedger(readLedger(ledger).lines).filter((t) => t.outcome?.final !== true).length;
    const { code, stdout } = await reconcile(ledger);
    expect(code, stdout).toBe(expectedExit(sandbox, ledger));
    expect(stdout).toMatch(code === 0 ? /^PASS: all \d+ charging requests are final/ : /^INCOMPLETE: /);
    expect(stdout).toMatch(/\ntotal charged: \d+\.\d\d USD\n/);
    expect(before).toBeGreaterThanOrEqual(0);
    expectEveryEntryAsTheSandboxKnowsIt(sandbox, ledger);
  }, 150_000);

  const k6 = findK6(process.env);
  if (k6 === undefined) console.warn('ledger/crash-reconcile.test.ts: no k6 found (K6_BIN or PATH): the k6 kill -9 case is SKIPPED');
  it.skipIf(k6 === undefined)(
    'k6: k6 exits soon after the harness; reconcile recovers the spooled lines and resolves every entry',
    async () => {
      const path = dirname(k6?.path ?? '');
      const { sandbox, ledger, grandchildren } = await killMidRun('k6', {
        ...process.env,
        PATH: `${path}${delimiter}${process.env.PATH ?? ''}`,
      });
      expect(grandchildren.length).toBeGreaterThan(0);
      await waitUntil(
        'k6 to exit after the harness died',
        () => grandchildren.every((pid) => !existsSync(join('/proc', String(pid)))),
        30_000,
      );
      const { code, stdout } = await reconcile(ledger);
      expect(code, stdout).toBe(expectedExit(sandbox, ledger));
      expectEveryEntryAsTheSandboxKnowsIt(sandbox, ledger);
    },
    150_000,
  );
});
