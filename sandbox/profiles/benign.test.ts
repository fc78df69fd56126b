// Each benign profile really makes its change (so the conformance meta-test passing against it means something):
// new envelope and payload fields, new headers, another list order, reworded errors, a new code, new records, latency,
// Connection: close. Compared with the faithful sandbox, in-process; Connection: close over a real socket.
import { request as httpRequest } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { startSandbox } from '../server.ts';
import { AUTH_HEADER, newCorrelationId } from '../routes/testing.ts';
import type { TestClient } from '../routes/testing.ts';
import { clientsClosedAfterEach } from '../fixtures/test-clients.ts';
import { BENIGN_PROFILES, NEW_ERROR_CODE } from './benign.ts';

type Rec = Record<string, unknown>;
const client = clientsClosedAfterEach();

const JM = '18762345678';

describe('benign profiles change what they declare', () => {
  it('benign-envelope-fields: every envelope, success or failure, carries new fields', async () => {
    const c = await client({ profile: 'benign-envelope-fields' });
    for (const res of [await c.get('/api/v2/catalog/countries'), await c.get('/api/v2/transaction/status/unknown-id')]) {
      expect(res.body).toMatchObject({ meta: { apiRevision: '2.7.1' } });
      expect(typeof res.body['requestId']).toBe('string');
      expect(typeof res.body['serverTime']).toBe('string');
    }
  });

  it('benign-payload-fields: catalog records and transaction results (nested blocks too) carry new fields', async () => {
    const c = await client({ profile: 'benign-payload-fields' });
    const skus = (await c.get('/api/v2/catalog/skus')).body.payLoad as Rec[];
    expect(skus[0]).toHaveProperty('lastModified');
    expect(skus[0]?.['min']).toHaveProperty('extensionData');
    const topup = await c.post('/api/v2/transaction/topup', { skuId: 193, amount: 10, mobile: JM, correlationId: newCorrelationId() });
    const result = topup.body.payLoad as Rec;
    expect(result).toHaveProperty('channelTags');
    expect(result['product']).toHaveProperty('lastModified');
    expect(typeof result['transactionId']).toBe('number');
  });

  it('benign-response-headers: new headers on every response', async () => {
    const c = await client({ profile: 'benign-response-headers' });
    // A success and a refusal (an envelope either way): the new headers are on both.
    for (const res of [await c.get('/api/v1/catalog/countries'), await c.get('/api/v1/catalog/sku/exchangeRate/not-a-number')]) {
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
      expect(res.headers['x-ratelimit-remaining']).toBe('599');
      expect(res.headers['set-cookie']).toBeDefined();
    }
  });

  it('benign-list-order: the same records as faithful, in another order; gift card pages hold the same SKUs', async () => {
    const faithful = await client();
    const reordered = await client({ profile: 'benign-list-order' });
    for (const url of [
      '/api/v2/catalog/countries',
      '/api/v2/catalog/skus',
      '/api/v1/catalog/errors',
      '/api/v2/catalog/skus/giftcards?pageSize=37',
    ]) {
      const a = (await faithful.get(url)).body.payLoad as Rec[];
      const b = (await reordered.get(url)).body.payLoad as Rec[];
      expect(b, url).not.toEqual(a);
      const key = (r: Rec): string => JSON.stringify(r);
      expect(b.map(key).sort(), url).toEqual(a.map(key).sort());
    }
  });

  it("benign-error-descriptions: failure messages and catalog/errors descriptions are reworded; '001' keeps the spec's shape", async () => {
    const faithful = await client();
    const reworded = await client({ profile: 'benign-error-descriptions' });
    const a = (await faithful.get('/api/v2/catalog/errors')).body.payLoad as Rec[];
    const b = (await reworded.get('/api/v2/catalog/errors')).body.payLoad as Rec[];
    expect(b.map((r) => r['code'])).toEqual(a.map((r) => r['code']));
    expect(b.filter((r, i) => r['description'] !== a[i]?.['description']).length).toBeGreaterThan(a.length / 2);
    const unknown = '/api/v2/transaction/status/unknown-id';
    expect((await reworded.get(unknown)).body.responseMessage).not.toBe((await faithful.get(unknown)).body.responseMessage);
    const below = await reworded.post('/api/v2/transaction/topup', {
      skuId: 193,
      amount: 1,
      mobile: JM,
      correlationId: newCorrelationId(),
    });
    expect(below.body.responseCode).toBe('001');
    expect(below.body.responseMessage).toMatch(/^The charge amount for Denomination .+ should be between 5\.00 USD and 100\.00 USD$/);
  });

  it('benign-new-error-code: catalog/errors (v1 and v2) lists one more code, in code order', async () => {
    const faithful = await client();
    const c = await client({ profile: 'benign-new-error-code' });
    for (const v of ['v1', 'v2']) {
      const codes = ((await c.get(`/api/${v}/catalog/errors`)).body.payLoad as Rec[]).map((r) => r['code']);
      const before = ((await faithful.get(`/api/${v}/catalog/errors`)).body.payLoad as Rec[]).map((r) => r['code']);
      expect(codes).toEqual([...before, NEW_ERROR_CODE.code].sort());
    }
  });

  it('benign-new-records: a new country with operators, products, SKUs and gift cards; every faithful record is unchanged', async () => {
    const faithful = await client();
    const c = await client({ profile: 'benign-new-records' });
    const list = async (t: TestClient, url: string): Promise<Rec[]> => (await t.get(url)).body.payLoad as Rec[];
    for (const url of [
      '/api/v2/catalog/countries',
      '/api/v2/catalog/operators',
      '/api/v2/catalog/getproducts',
      '/api/v2/catalog/skus',
      '/api/v1/catalog/skus',
    ]) {
      const base = await list(faithful, url);
      const grown = await list(c, url);
      expect(grown.length, url).toBeGreaterThan(base.length);
      const keys = new Set(grown.map((r) => JSON.stringify(r)));
      expect(
        base.filter((r) => !keys.has(JSON.stringify(r))),
        `${url}: faithful records changed`,
      ).toEqual([]);
    }
    expect((await list(c, '/api/v2/catalog/countries')).some((r) => r['countryCode'] === 'LK')).toBe(true);
    const lkGift = await list(c, '/api/v2/catalog/skus/giftcards?countryCode=LK');
    expect(lkGift.length).toBeGreaterThan(0);
    // The new records work: a top-up to a Sri Lanka number on a Sri Lanka RTR SKU succeeds.
    const lkRtr = c.app.data.skus.find((s) => s.countryCode === 'LK' && s.category === 'Rtr');
    expect(lkRtr).toBeDefined();
    const amount = lkRtr?.min.faceValueInWalletCurrency ?? 0;
    const res = await c.post('/api/v2/transaction/topup', {
      skuId: lkRtr?.skuId,
      amount,
      mobile: c.app.data.samples.validMobiles['LK'],
      correlationId: newCorrelationId(),
    });
    expect(res.body.responseCode).toBe('000');
  });

  it('benign-latency: adds 1-5 s (scaled) to every response, within the default 30 s response timeout', () => {
    const profile = BENIGN_PROFILES.find((p) => p.name === 'benign-latency');
    const { responseLatencyMs = 0, responseLatencyJitterMs = 0 } = profile?.behaviour ?? {};
    expect(responseLatencyMs).toBeGreaterThan(0);
    expect(responseLatencyMs + responseLatencyJitterMs).toBeLessThan(30_000);
  });

  it('benign-latency: every response waits 1-5 s x time scale on the store (released on close); faithful does not wait', async () => {
    for (const [profile, expected] of [
      ['benign-latency', true],
      ['faithful', false],
    ] as const) {
      const c = await client({ profile, timeScale: 0.01 });
      const waits = vi.spyOn(c.app.store, 'sleep');
      for (let i = 0; i < 5; i += 1) expect((await c.get('/api/v2/account/balance')).status).toBe(200);
      const delays = waits.mock.calls.map(([ms]) => ms);
      if (expected) {
        expect(delays).toHaveLength(5);
        for (const ms of delays) expect(ms >= 10 && ms <= 50, `delay ${ms}`).toBe(true);
      } else {
        expect(delays).toEqual([]);
      }
    }
  });

  it('benign-connection-close: every response says Connection: close and the server closes the socket', async () => {
    const sandbox = await startSandbox({ profile: 'benign-connection-close' });
    try {
      const outcome = await new Promise<{ header: string | undefined; closed: boolean }>((resolve, reject) => {
        const req = httpRequest(
          `${sandbox.url}/api/v2/account/balance`,
          { headers: { authorization: AUTH_HEADER, connection: 'keep-alive' } },
          (res) => {
            const header = res.headers.connection;
            res.resume();
            res.socket.once('close', () => resolve({ header, closed: true }));
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(outcome).toEqual({ header: 'close', closed: true });
    } finally {
      await sandbox.close();
    }
  });
});
