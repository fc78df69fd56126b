// Issue #32 finding 7: a ledger is a file anyone may have edited; with no target configured, reconcile sends the
// configured credentials to no host the ledger alone names (exit 2, asking for --target); with --target it polls.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { topupRequestLine } from '../../ledger/fixtures/ledger-lines.ts';
import { blankGatewayEnvEachTest, runCli } from '../fixtures/run-cli.ts';

blankGatewayEnvEachTest();
const dir = mkdtempSync(join(tmpdir(), 'gh-reconcile-cred-'));
/** The Authorization header of every request the ledger's (hostile) host received. */
const received: string[] = [];
let hostile: Server;
let hostileUrl: string;

beforeAll(async () => {
  hostile = createServer((req, res) => {
    received.push(req.headers.authorization ?? '(none)');
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
  hostileUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
});
afterAll(async () => {
  hostile.closeAllConnections();
  await new Promise<void>((resolve) => hostile.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

/** A ledger with one top-up that is not final, its target edited to name `target`. */
function ledgerNaming(target: string): string {
  const path = join(dir, `ledger-${received.length}-${Math.random().toString(36).slice(2)}.jsonl`);
  const line = topupRequestLine('e1', 'gh-cred-1', Date.now(), {
    body: { skuId: 1001, amount: 10 },
    estimate: { amount: 10, currency: 'USD' },
    target,
  });
  writeFileSync(path, `${JSON.stringify(line)}\n`);
  return path;
}

describe('reconcile: credentials go only to a configured target', () => {
  it('no target configured: refused (exit 2) before any request, naming the --target to give', async () => {
    vi.stubEnv('GATEWAY_USER', 'agent-7');
    vi.stubEnv('GATEWAY_PASSWORD', 'Distinct-Pw-4417');
    received.length = 0;
    const result = await runCli(['reconcile', ledgerNaming(hostileUrl), '--time-scale', '0.01']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`GH_ERR_USAGE: the ledger names ${hostileUrl} and no target is configured`);
    expect(result.stderr).toContain(`--target ${hostileUrl}`);
    expect(received).toEqual([]);
  });

  it('the same target named with --target: polled with the credentials', async () => {
    vi.stubEnv('GATEWAY_USER', 'agent-7');
    vi.stubEnv('GATEWAY_PASSWORD', 'Distinct-Pw-4417');
    received.length = 0;
    await runCli(['reconcile', ledgerNaming(hostileUrl), '--target', hostileUrl, '--time-scale', '0.01']);
    expect(received.length).toBeGreaterThan(0);
    expect(received[0]).toBe(`Basic ${Buffer.from('agent-7:Distinct-Pw-4417').toString('base64')}`);
  });
});
