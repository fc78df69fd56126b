// `gateway-harness reconcile` as a user runs it (a child process) on a production ledger of real charges made on a
// sandbox in production mode: a ledger never takes outcomes from another gateway than the one that received its
// requests (refused, exit 2, ledger untouched), "not found" is never recorded as Failed on it, a ledger whose
// transactions are all final needs no target, and the ledger's own target and environment are the defaults.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayClient, type GatewayClient } from '../client/gateway-client.ts';
import { loadConfig } from '../config/load-config.ts';
import { startSandbox, type RunningSandbox } from '../sandbox/server.ts';
import { runCliProcess } from '../scripts/fixtures/run-cli.ts';
import type { LedgerLine, LedgerRequestLine } from './entry.ts';
import { topupRequestLine } from './fixtures/ledger-lines.ts';
import { topupBodies } from './fixtures/topup.ts';
import { openLedgerWriter, readLedger } from './ledger-file.ts';
import { foldLedger } from './ledger-state.ts';
import { harnessClientConfig } from './money-session.ts';

const FUNDS = 10_000;
const dir = mkdtempSync(join(tmpdir(), 'gh-reconcile-target-'));
let production: RunningSandbox;
let other: RunningSandbox;
let client: GatewayClient;
const credentials = { GATEWAY_USER: 'user', GATEWAY_PASSWORD: 'pass' };

beforeAll(async () => {
  [production, other] = await Promise.all([
    startSandbox({ host: '127.0.0.1', port: 0, timeScale: 0.01, mode: 'production', funds: FUNDS }),
    startSandbox({ host: '127.0.0.1', port: 0, timeScale: 0.01, mode: 'production', funds: FUNDS }),
  ]);
  const config = loadConfig({ cwd: dir, env: { GATEWAY_BASE_URL: production.url, GATEWAY_TIME_SCALE: '0.01' } });
  client = createGatewayClient(harnessClientConfig({ ...config, baseUrl: production.url }));
});
afterAll(async () => {
  await client.close();
  await Promise.all([production.close(), other.close()]);
  rmSync(dir, { recursive: true, force: true });
});

let run = 0;
/** A request line as the hooks write it before a charge leaves (no outcome: as a kill -9 leaves the ledger). */
function requestLine(correlationId: string, body: Record<string, unknown>, sentAt: number): LedgerRequestLine {
  return topupRequestLine(`e-${correlationId}`, correlationId, sentAt, { body, target: production.url });
}

/** Three real top-ups charged on the production sandbox, their ledger lines written, no outcome recorded. */
async function chargedLedger(): Promise<{ path: string; charged: number }> {
  const make = await topupBodies(client);
  const before = production.app.store.availableFunds;
  const lines: LedgerLine[] = [];
  run++;
  for (let i = 0; i < 3; i++) {
    const body = make(`prod-${run}-${i}`);
    lines.push(requestLine(body.correlationId as string, body, Date.now()));
    const answer = await client.call('v2.transaction.topup', { body });
    expect(answer.response.classification.outcome).toBe('Successful');
  }
  const path = join(dir, `ledger-${run}.jsonl`);
  const writer = openLedgerWriter(path);
  writer.append(lines);
  writer.close();
  return { path, charged: Math.round((before - production.app.store.availableFunds) * 100) / 100 };
}

const chargedOf = (stdout: string): number => Number(/^total charged: (\d+\.\d\d) USD$/m.exec(stdout)?.[1]);

describe('reconcile: the ledger belongs to the gateway that received its requests', () => {
  it('another target (GATEWAY_BASE_URL) is refused, exit 2: nothing polled there, nothing appended; the right one then settles every charge', async () => {
    const { path, charged } = await chargedLedger();
    expect(charged).toBeGreaterThan(0);
    const before = readFileSync(path, 'utf8');
    other.app.stats.reset();

    const wrong = await runCliProcess(['reconcile', path, '--time-scale', '0.01'], {
      env: { ...credentials, GATEWAY_BASE_URL: other.url },
    });
    expect(wrong.code, wrong.output).toBe(2);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(wrong.stderr).toContain(
      `GH_ERR_LEDGER: reconcile: the ledger's open transactions were sent to ${new URL(production.url).origin}, not to ${new URL(other.url).origin}`,
    );
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(other.app.stats.snapshot().requestsTotal).toBe(0);

    // GATEWAY_ENV=production with no target: the ledger names its target (no "the embedded sandbox is not production").
    const right = await runCliProcess(['reconcile', path, '--time-scale', '0.01'], { env: { ...credentials, GATEWAY_ENV: 'production' } });
    expect(right.code, right.output).toBe(0);
    expect(right.stdout).toMatch(/^PASS: all 3 charging requests are final \(3 successful, 0 failed\); charged \d+\.\d\d USD\n/);
    // The sandbox's wallet moved by what the ledger now says was charged (the currency is the wallet's code).
    expect(chargedOf(right.stdout)).toBeCloseTo(charged, 2);
    const transactions = foldLedger(readLedger(path).lines);
    expect(transactions.map((t) => [t.outcome?.outcome, t.outcome?.final, t.outcome?.source])).toEqual(
      Array(3).fill(['Successful', true, 'reconcile']),
    );
  }, 120_000);

  it("an environment other than the ledger's (GATEWAY_ENV=sandbox on a production ledger) is refused, exit 2, ledger untouched", async () => {
    const { path } = await chargedLedger();
    const before = readFileSync(path, 'utf8');
    const result = await runCliProcess(['reconcile', path, '--time-scale', '0.01'], { env: { ...credentials, GATEWAY_ENV: 'sandbox' } });
    expect(result.code, result.output).toBe(2);
    expect(result.stderr).toContain(
      "GH_ERR_LEDGER: reconcile: the ledger's transactions were sent to a production target, and the environment configured (--target-env/GATEWAY_ENV/config) is sandbox: refused",
    );
    expect(readFileSync(path, 'utf8')).toBe(before);
  }, 120_000);

  it('a ledger naming two targets: each is polled only for its own transactions (the first by default, --target for another)', async () => {
    const { path } = await chargedLedger();
    // One more charge, on the other gateway, in the same ledger.
    const otherClient = createGatewayClient(
      harnessClientConfig({ ...loadConfig({ cwd: dir, env: { GATEWAY_TIME_SCALE: '0.01' } }), baseUrl: other.url }),
    );
    try {
      const body = (await topupBodies(otherClient))(`other-${run}`);
      expect((await otherClient.call('v2.transaction.topup', { body })).response.classification.outcome).toBe('Successful');
      const writer = openLedgerWriter(path);
      writer.append(topupRequestLine(`e-other-${run}`, body.correlationId as string, Date.now(), { body, target: other.url }));
      writer.close();
    } finally {
      await otherClient.close();
    }
    // No --target: the ledger's first target is polled, and the line names the other.
    const bare = await runCliProcess(['reconcile', path, '--time-scale', '0.01'], { env: credentials });
    expect(bare.code, bare.output).toBe(1);
    expect(bare.stderr).toContain(
      `reconcile: 1 of them was sent to ${other.url}: not polled here (run reconcile again with --target ${other.url})`,
    );
    const finalByTarget = (): boolean[][] =>
      foldLedger(readLedger(path).lines).map((t) => [t.request.target === other.url, t.outcome?.final === true]);
    expect(finalByTarget()).toEqual([
      [false, true],
      [false, true],
      [false, true],
      [true, false],
    ]);
    // --target names the other one, spelled with a trailing slash: its transaction is polled, the first target's left alone.
    const result = await runCliProcess(['reconcile', path, '--time-scale', '0.01', '--target', `${other.url}/`], { env: credentials });
    expect(result.code, result.output).toBe(0);
    expect(result.stdout).toMatch(/^PASS: all 4 charging requests are final \(4 successful, 0 failed\)/);
    expect(finalByTarget()).toEqual([
      [false, true],
      [false, true],
      [false, true],
      [true, true],
    ]);
  }, 120_000);

  it('a request the target has no record of is not recorded as Failed on a production ledger: unresolved, exit 1', async () => {
    const { path, charged } = await chargedLedger();
    // A line written but never sent (the process died between the line and the request), long after the 2-minute timeout.
    const writer = openLedgerWriter(path);
    writer.append(requestLine('prod-never-sent', { skuId: 1, amount: 10 }, Date.now() - 10 * 60_000));
    writer.close();

    const result = await runCliProcess(['reconcile', path, '--time-scale', '0.01'], { env: credentials });
    expect(result.code, result.output).toBe(1);
    expect(result.stdout).toMatch(/^INCOMPLETE: 1 of 4 charging requests still not final; charged so far \d+\.\d\d USD/);
    expect(result.stdout).toMatch(/prod-never-sent +v2\.transaction\.topup +Unknown \(not final\) +reconcile 027 \(not-found-at-target\)/);
    expect(result.stdout).toContain(`1 request is unknown to ${new URL(production.url).origin} after the service-side timeout`);
    expect(chargedOf(result.stdout)).toBeCloseTo(charged, 2);
    const never = foldLedger(readLedger(path).lines).find((t) => t.request.correlationId === 'prod-never-sent');
    expect(never?.outcome).toMatchObject({ outcome: 'Unknown', final: false, code: '027', rule: 'not-found-at-target' });
    expect(readLedger(path).lines.some((l) => l.type === 'outcome' && l.outcome === 'Failed')).toBe(false);
  }, 120_000);

  it('a ledger whose transactions are all final needs no target: it is read, not polled', async () => {
    const { path } = await chargedLedger();
    const settled = await runCliProcess(['reconcile', path, '--time-scale', '0.01'], { env: credentials });
    expect(settled.code, settled.output).toBe(0);
    // The same ledger, its target now a label no one can reach (an embedded sandbox of a finished run).
    const copy = join(dir, 'final-embedded.jsonl');
    const lines = readLedger(path).lines.map((l) =>
      l.type === 'request' ? { ...l, target: 'embedded sandbox (http://127.0.0.1:9, profile faithful, seed 1)' } : l,
    );
    const writer = openLedgerWriter(copy);
    writer.append(lines);
    writer.close();
    const result = await runCliProcess(['reconcile', copy], { env: { ...credentials, GATEWAY_ENV: 'production' } });
    expect(result.code, result.output).toBe(0);
    expect(result.stdout).toMatch(/^PASS: all 3 charging requests are final \(3 successful, 0 failed\); charged \d+\.\d\d USD\n/);
    expect(result.stderr).toContain('nothing to poll');
  }, 120_000);
});
