// Reconciliation against a real sandbox: a transaction the sandbox knows is read final through status; one it never
// received is final Failed once the service-side timeout has passed ('027', the core's status policy) on a sandbox
// ledger, and never final on a production ledger (recorded as unknown to the target); one without a correlationId stays
// unresolved; what is learnt is appended to the ledger.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FIELD_MAPPING } from '../api/field-mapping.ts';
import { createGatewayClient, type GatewayClient } from '../client/gateway-client.ts';
import { loadConfig } from '../config/load-config.ts';
import { startSandbox, type RunningSandbox } from '../sandbox/server.ts';
import type { LedgerLine, LedgerRequestLine } from './entry.ts';
import { topupRequestLine } from './fixtures/ledger-lines.ts';
import { topupBodies } from './fixtures/topup.ts';
import { openLedgerWriter, readLedger } from './ledger-file.ts';
import { foldLedger } from './ledger-state.ts';
import { harnessClientConfig } from './money-session.ts';
import { reconcileTransactions } from './reconcile.ts';

let sandbox: RunningSandbox;
let client: GatewayClient;
const dir = mkdtempSync(join(tmpdir(), 'gh-reconcile-'));

beforeAll(async () => {
  sandbox = await startSandbox({ host: '127.0.0.1', port: 0, timeScale: 0.01, mode: 'production' });
  const config = loadConfig({ cwd: dir, env: { GATEWAY_BASE_URL: sandbox.url, GATEWAY_TIME_SCALE: '0.01' } });
  client = createGatewayClient(harnessClientConfig({ ...config, baseUrl: sandbox.url }));
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

function requestLine(
  entry: string,
  correlationId: string | null,
  sentAt: number,
  body: Record<string, unknown> = {},
  environment: 'sandbox' | 'production' = 'production',
): LedgerRequestLine {
  return topupRequestLine(entry, correlationId, sentAt, {
    body,
    target: sandbox.url,
    environment,
    estimate: { amount: 50, currency: 'USD' },
  });
}

describe('reconcileTransactions', () => {
  it('resolves what the sandbox knows and what it never received, and appends the outcomes', async () => {
    const make = await topupBodies(client);
    const sent = make('rec-known-1');
    const answer = await client.call('v2.transaction.topup', { body: sent });
    expect(answer.response.classification.outcome).toBe('Successful');
    const path = join(dir, 'ledger.jsonl');
    const writer = openLedgerWriter(path);
    const now = Date.now();
    const lines: LedgerLine[] = [
      requestLine('a', 'rec-known-1', now, sent),
      requestLine('b', 'rec-never-sent', now),
      requestLine('c', null, now),
      requestLine('s', 'rec-never-sent-sandbox', now, {}, 'sandbox'),
    ];
    writer.append(lines);
    const result = await reconcileTransactions(foldLedger(lines), {
      client,
      mapping: DEFAULT_FIELD_MAPPING.transaction,
      walletCurrency: 'USD',
      append: (line) => writer.append(line),
      now: () => Date.now(),
    });
    writer.close();
    expect(result.polled).toBe(3);
    expect(result.resolved).toBe(2);
    const byEntry = new Map(result.transactions.map((t) => [t.request.entry, t.outcome]));
    expect(byEntry.get('a')).toMatchObject({
      outcome: 'Successful',
      final: true,
      source: 'reconcile',
      charged: { from: 'payload', currency: 'USD' },
    });
    // Sandbox ledger: "not found" only became final once the 2-minute service-side timeout (1.2 s at this scale) had
    // passed since sentAt.
    expect(byEntry.get('s')).toMatchObject({ outcome: 'Failed', final: true, code: '027' });
    expect(Date.now() - now).toBeGreaterThanOrEqual(1_200);
    // Production ledger: the same answer is recorded as what it is — unknown to this target — and is not final.
    expect(byEntry.get('b')).toMatchObject({
      outcome: 'Unknown',
      final: false,
      code: '027',
      rule: 'not-found-at-target',
      source: 'reconcile',
    });
    expect(byEntry.get('c')).toBeUndefined();
    expect(result.totals.unresolved.map((t) => t.request.entry)).toEqual(['b', 'c']);
    const reread = foldLedger(readLedger(path).lines);
    expect(reread.filter((t) => t.outcome?.final === true).map((t) => t.request.entry)).toEqual(['a', 's']);
    expect(reread.find((t) => t.request.entry === 'b')?.outcome).toMatchObject({ rule: 'not-found-at-target', final: false });
  });

  it('leaves a transaction unresolved when the status endpoint never answers before the deadline', async () => {
    const lines: LedgerLine[] = [{ ...requestLine('d', 'rec-dead', Date.now()), target: 'http://127.0.0.1:9' }];
    const dead = createGatewayClient(
      harnessClientConfig({ ...loadConfig({ cwd: dir, env: { GATEWAY_TIME_SCALE: '0.01' } }), baseUrl: 'http://127.0.0.1:9' }),
    );
    try {
      const result = await reconcileTransactions(foldLedger(lines), {
        client: dead,
        mapping: DEFAULT_FIELD_MAPPING.transaction,
        walletCurrency: 'USD',
        now: () => Date.now(),
        deadlineMs: 300,
        intervalMs: 50,
      });
      expect(result.resolved).toBe(0);
      expect(result.totals.unresolved).toHaveLength(1);
    } finally {
      await dead.close();
    }
  });
});
