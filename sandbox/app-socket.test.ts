// Over a real socket (127.0.0.1, port 0): a trigger-delayed top-up keeps its connection open while the status
// endpoint answers '852' on another connection, then both give the final result; plus 401 and a gift card flow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { buildApp } from './app.ts';
import type { SandboxApp } from './app.ts';
import { AUTH_HEADER, checkEnvelope, waitFor } from './routes/testing.ts';

const TIME_SCALE = 0.01; // the 120 s trigger takes 1.2 s: room to read status while it is held, even on a busy CPU
let app: SandboxApp;
let base: string;

beforeAll(async () => {
  app = await buildApp({ timeScale: TIME_SCALE });
  await app.fastify.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.fastify.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app.close();
});

async function call(method: 'GET' | 'POST', path: string, body?: unknown, auth = AUTH_HEADER) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, headers: response.headers, body: checkEnvelope(await response.text()) };
}

describe('sandbox over a real socket', () => {
  it("delayed top-up (ends 666666): held response, status '852' meanwhile, then the final result", async () => {
    const correlationId = `socket-${process.pid}`;
    const started = Date.now();
    const held = call('POST', '/api/v2/transaction/topup', { skuId: 193, amount: 10, mobile: '18761666666', correlationId });
    // Wait for the state (the sandbox holds the transaction), not for a fixed time.
    await waitFor(() => app.store.hasCorrelationId(correlationId), 'the held top-up to be stored');
    const during = await call('GET', `/api/v2/transaction/status/${correlationId}`);
    expect(during.status).toBe(200);
    expect(during.body.responseCode).toBe('852');
    const res = await held;
    expect(Date.now() - started).toBeGreaterThanOrEqual(120_000 * TIME_SCALE - 5);
    expect(res.status).toBe(200);
    expect(res.body.responseCode).toBe('000');
    expect((await call('GET', `/api/v1/transaction/status/${correlationId}`)).body).toEqual(res.body);
  });

  it('missing credentials -> 401 with WWW-Authenticate: Basic', async () => {
    const res = await call('GET', '/api/v2/account/balance', undefined, '');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
  });

  it("gift card: '852' then final through status, card fetched by id", async () => {
    const sku = app.data.index.skuById.get(app.data.samples.giftcardSkuId);
    const correlationId = `socket-gift-${process.pid}`;
    const res = await call('POST', '/api/v2/transaction/giftcard/order', {
      skuId: sku?.skuId,
      amount: sku?.min.faceValueInWalletCurrency,
      correlationId,
    });
    expect(res.body.responseCode).toBe('852');
    let final = res.body;
    await waitFor(
      async () => {
        final = (await call('GET', `/api/v2/transaction/status/${correlationId}`)).body;
        return final.responseCode !== '852';
      },
      'the gift card to be final',
      { intervalMs: 10 },
    );
    expect(final.responseCode).toBe('000');
    const id = (final.payLoad as Record<string, unknown>)['transactionId'];
    expect((await call('GET', `/api/v2/transaction/giftcard/fetch/${String(id)}`)).body.responseCode).toBe('000');
  });
});
