// A sandbox killed (kill -9) and restarted on the same port in the middle of a load run: the run keeps going and ends
// with a verdict, counts the refused connections as faults, sends to the restarted sandbox, and its ledger accounts
// for every charging request (final, or listed unresolved). The restarted sandbox has forgotten the transactions:
// status answers '027', which the core's status policy makes final Failed once the service-side timeout has passed.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.ts';
import { runLoadReported, smokeTopupFlags } from '../load/fixtures/load-run.ts';
import { waitUntil } from '../scripts/fixtures/run-cli.ts';
import { LEDGER_FILE } from './entry.ts';
import { watchUnhandled } from './fixtures/fault-runs.ts';
import { readLedger } from './ledger-file.ts';
import { foldLedger, isFinal } from './ledger-state.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin', 'gateway-harness.mjs');
const dir = mkdtempSync(join(tmpdir(), 'gh-restart-'));
const children: ChildProcess[] = [];
const unhandled = watchUnhandled();
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
  unhandled.stop();
});

/** `gateway-harness sandbox` in its own process; resolves with its URL from the first stdout line. */
function startSandboxProcess(port: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', String(port), '--time-scale', '0.01'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  children.push(child);
  return new Promise((done, fail) => {
    let text = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      const url = /sandbox listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1];
      if (url !== undefined) done({ child, url });
    });
    child.once('exit', (code) => fail(new Error(`sandbox exited (${code}) before listening: ${text}`)));
  });
}

describe('a sandbox killed and restarted mid-run', () => {
  it('load on the Node engine keeps running, counts the faults and accounts for every charging request', async () => {
    const first = await startSandboxProcess(0);
    const port = Number(new URL(first.url).port);
    const reportDir = join(dir, 'report');
    const ledger = join(reportDir, LEDGER_FILE);
    const flags = smokeTopupFlags({ engine: 'node', api: 'both', duration: '8s', reportDir });
    const config = loadConfig({ cwd: dir, env: { GATEWAY_BASE_URL: first.url, GATEWAY_TIME_SCALE: '0.01' } });
    const running = runLoadReported(
      flags,
      config,
      { cwd: dir, env: { ...process.env } },
      { environment: 'sandbox', allowCharges: false, ledger: true },
    );
    let finished = false;
    void running.finally(() => void (finished = true));

    await waitUntil(
      'charging requests in the ledger',
      () => finished || (existsSync(ledger) && readLedger(ledger).lines.length >= 10),
      60_000,
    );
    expect(finished, 'the run ended before the sandbox could be killed').toBe(false);
    let firstExited = false;
    first.child.once('exit', () => void (firstExited = true));
    first.child.kill('SIGKILL');
    await waitUntil('the sandbox to die', () => firstExited, 10_000);
    const second = await startSandboxProcess(port);

    const outcome = await running;
    const output = outcome.output();
    expect([0, 1, 99], output).toContain(outcome.exitCode);
    const summary = JSON.parse(readFileSync(join(reportDir, 'summary.json'), 'utf8')) as {
      faults: { connection: number; timeout: number };
      ledger: { entries: number; unresolved: Array<{ correlationId: string }> };
    };
    // While it was down, requests found no one listening (or lost their connection): counted, never a success.
    expect(summary.faults.connection + summary.faults.timeout, output).toBeGreaterThan(0);
    // The run went on against the restarted sandbox.
    const stats = (await (
      await fetch(`${second.url}/__sandbox/stats`, { headers: { authorization: `Basic ${Buffer.from('user:pass').toString('base64')}` } })
    ).json()) as { requestsTotal: number };
    expect(stats.requestsTotal).toBeGreaterThan(0);
    // Every charging request is final or listed unresolved in the reports; none is silently Unknown.
    const transactions = foldLedger(readLedger(ledger).lines);
    expect(summary.ledger.entries).toBe(transactions.length);
    expect(summary.ledger.unresolved.map((u) => u.correlationId).sort()).toEqual(
      transactions
        .filter((t) => !isFinal(t))
        .map((t) => t.request.correlationId)
        .sort(),
    );
    for (const t of transactions.filter((x) => x.outcome?.code === '027'))
      expect(t.outcome).toMatchObject({ outcome: 'Failed', final: true });
    expect(unhandled.seen()).toEqual([]);
    second.child.kill('SIGKILL');
  }, 120_000);
});
