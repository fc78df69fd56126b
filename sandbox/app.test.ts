// buildApp as a whole, in-process: every catalog operation has a route and answers valid input with its payload
// kind, Basic auth on every route, gateway-style answers to broken requests, profiles and hooks, options, retention.
import { afterEach, describe, expect, it } from 'vitest';
import { readCatalogSkus } from '../api/catalog-facts.ts';
import { DEFAULT_FIELD_MAPPING } from '../api/field-mapping.ts';
import { buildInput, inputSkuOf, isNoInput, type InputWorld } from '../api/inputs.ts';
import { CATEGORY_IDS, OPERATIONS } from '../api/operations.ts';
import type { Operation, RequestBodyName } from '../api/operations.ts';
import { isHarnessError } from '../api/errors.ts';
import { buildApp } from './app.ts';
import type { SandboxApp, SandboxOptions } from './app.ts';
import { handlerFor } from './routes/index.ts';
import { TRANSACTION_KINDS } from './store.ts';
import type { SandboxProfile } from './profiles/types.ts';
import { getProfile, listProfiles } from './profiles/registry.ts';
import { AUTH_HEADER, checkEnvelope, newCorrelationId, waitFor } from './routes/testing.ts';
import type { TestClient } from './routes/testing.ts';
import { clientsClosedAfterEach } from './fixtures/test-clients.ts';

type Rec = Record<string, unknown>;
const client = clientsClosedAfterEach();
const apps: SandboxApp[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

const JM = '18762345678';

/** The builder's view of this sandbox's own catalog data (api/inputs.ts): its SKUs, a valid number per country. */
function sandboxWorld(c: TestClient): InputWorld {
  const data = c.app.data;
  const skus = readCatalogSkus(data.skus, 'v2', DEFAULT_FIELD_MAPPING).map(inputSkuOf);
  const giftcards = readCatalogSkus(data.giftcardSkus, 'giftcard', DEFAULT_FIELD_MAPPING).map(inputSkuOf);
  const settings = { billpayAccountNumber: data.samples.billPayAccountNumber, simNumber: '8901260000000000009', zipCode: 10001 };
  return {
    skus: (category) =>
      category === 'any' ? skus : category === 'Gift Card' ? giftcards : skus.filter((sku) => sku.categoryId === CATEGORY_IDS[category]),
    mobile: (countryCode) => data.samples.validMobiles[countryCode],
    setting: (name) => settings[name],
    correlationId: () => newCorrelationId('all'),
    mapping: DEFAULT_FIELD_MAPPING,
  };
}

/** A valid body of the write that takes it, from the catalog's input rule: no table per body here. */
function validBody(c: TestClient, name: RequestBodyName): Rec {
  const op = OPERATIONS.find((o) => o.requestBody === name) as Operation;
  const built = buildInput(op, sandboxWorld(c));
  if (isNoInput(built)) throw new Error(`${op.id}: ${built.unavailable}`);
  return built.input.body as Rec;
}

/** Valid path and query values for every read, backed by transactions made first. */
async function readUrls(c: TestClient): Promise<Map<string, string>> {
  const s = c.app.data.samples;
  const topup = validBody(c, 'topup');
  await c.post('/api/v2/transaction/topup', topup);
  const esim = await c.post('/api/v2/esim/order', validBody(c, 'esim'));
  const iccid = ((esim.body.payLoad as Rec)['esimDetail'] as Rec)['iccid'] as string;
  const portin = await c.post('/api/v2/sim/port-in', validBody(c, 'sim-portin'));
  const portinId = (portin.body.payLoad as Rec)['transactionId'] as number;
  const gift = await c.post('/api/v2/transaction/giftcard/order', validBody(c, 'giftcard'));
  const giftId = (gift.body.payLoad as Rec)['transactionId'] as number;
  const values: Rec = {
    skuId: 193,
    productId: s.bundleProductId,
    mobile: JM,
    mobileNumber: JM,
    Iccid: iccid,
    correlationId: topup['correlationId'],
  };
  const urls = new Map<string, string>();
  for (const op of OPERATIONS.filter((o) => o.method === 'GET')) {
    let url = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (name === 'id') return String(op.id.includes('giftcard') ? giftId : portinId);
      return String(values[name]);
    });
    if (op.group === 'billpay') url += `?skuId=${s.billPaySkuId}&accountNumber=${s.billPayAccountNumber}`;
    urls.set(op.id, url);
  }
  return urls;
}

function payloadKind(payload: unknown): string {
  if (Array.isArray(payload)) return 'array';
  return typeof payload;
}

describe('routes from the operation catalog', () => {
  it('every catalog operation has a handler in its group module', () => {
    const missing = OPERATIONS.filter((op) => handlerFor(op) === undefined).map((op) => op.id);
    expect(missing).toEqual([]);
  });

  it('every read answers valid input with 000 and the documented payload kind', async () => {
    const c = await client({ behaviour: { asyncOperations: [] } });
    const urls = await readUrls(c);
    for (const op of OPERATIONS.filter((o) => o.method === 'GET')) {
      const res = await c.get(urls.get(op.id) as string);
      expect(res.status, op.id).toBe(200);
      expect(res.body.responseCode, `${op.id}: ${String(res.body.responseMessage)}`).toBe('000');
      expect(payloadKind(res.body.payLoad), op.id).toBe(op.payloadKind);
      if (op.envelope === 'giftcard-list') expect(Number.isInteger(res.body['next'])).toBe(true);
    }
  });

  it('every write answers a valid body with 000 (gift card: 852) and an object payload', async () => {
    const c = await client();
    for (const op of OPERATIONS.filter((o) => o.method === 'POST')) {
      const res = await c.post(op.path, validBody(c, op.requestBody as RequestBodyName));
      expect(res.status, op.id).toBe(200);
      if (op.purpose === 'transaction.giftcard') {
        expect(res.body.responseCode, op.id).toBe('852');
      } else {
        expect(res.body.responseCode, `${op.id}: ${String(res.body.responseMessage)}`).toBe('000');
        expect(payloadKind(res.body.payLoad), op.id).toBe('object');
      }
    }
  });

  it("every charging write stores its transaction under the operation's catalog purpose (TRANSACTION_KINDS is derived)", async () => {
    expect([...TRANSACTION_KINDS].sort()).toEqual([...new Set(OPERATIONS.filter((op) => op.charges).map((op) => op.purpose))].sort());
    const c = await client();
    for (const op of OPERATIONS.filter((o) => o.method === 'POST' && o.charges)) {
      const body = validBody(c, op.requestBody as RequestBodyName);
      await c.post(op.path, body);
      const stored = c.app.store.byCorrelationId(String(body['correlationId']));
      expect({ kind: stored?.kind, operationId: stored?.operationId }, op.id).toEqual({ kind: op.purpose, operationId: op.id });
    }
  });

  it("asyncOperations takes any transaction kind (a top-up then answers '852' and finishes through status) and refuses others", async () => {
    const c = await client({ behaviour: { asyncOperations: ['transaction.topup'] } });
    const body = validBody(c, 'topup');
    expect((await c.post('/api/v2/transaction/topup', body)).body.responseCode).toBe('852');
    await waitFor(
      async () => (await c.get(`/api/v2/transaction/status/${String(body['correlationId'])}`)).body.responseCode === '000',
      'the top-up to finish',
    );
    for (const asyncOperations of [['catalog.skus'], ['transaction.estimated-cost'], ['topup']]) {
      await expect(buildApp({ behaviour: { asyncOperations } })).rejects.toSatisfy(
        (e: unknown) => isHarnessError(e) && e.code === 'GH_ERR_CONFIG' && e.message.includes('asyncOperations'),
      );
    }
  });

  it('writePaths moves an assumed write path; spec paths and unknown ids are refused', async () => {
    const c = await client({ writePaths: { 'v2.transaction.pin': '/api/v2/pin/purchase' } });
    const body = validBody(c, 'pin');
    expect((await c.post('/api/v2/pin/purchase', body)).body.responseCode).toBe('000');
    const old = await c.app.fastify.inject({
      method: 'POST',
      url: '/api/v2/transaction/pin',
      headers: { authorization: AUTH_HEADER, 'content-type': 'application/json' },
      payload: JSON.stringify(validBody(c, 'pin')),
    });
    expect([old.statusCode, old.body]).toEqual([404, 'Not Found']);
    const refused: Array<Record<string, string>> = [
      { 'v2.transaction.topup': '/x' },
      { 'v9.nope': '/x' },
      { 'v2.transaction.pin': 'relative' },
    ];
    for (const writePaths of refused) {
      await expect(buildApp({ writePaths })).rejects.toSatisfy((e: unknown) => isHarnessError(e) && e.code === 'GH_ERR_CONFIG');
    }
  });
});

describe('authentication (HTTP Basic on every request)', () => {
  const probe = (op: Operation): { method: 'GET' | 'POST'; url: string } => ({
    method: op.method,
    url: op.path.replace(/\{(\w+)\}/g, '1'),
  });

  for (const [label, header] of [
    ['missing', undefined],
    ['wrong password', `Basic ${Buffer.from('user:wrong').toString('base64')}`],
    ['wrong user', `Basic ${Buffer.from('someone:pass').toString('base64')}`],
    ['not base64', 'Basic !!!!'],
    ['another scheme', `Bearer ${Buffer.from('user:pass').toString('base64')}`],
    ['password prefix only', `Basic ${Buffer.from('user:pas').toString('base64')}`],
  ] as const) {
    it(`${label} credentials -> 401 with WWW-Authenticate: Basic on every operation, nothing charged`, async () => {
      const c = await client();
      for (const op of OPERATIONS) {
        const { method, url } = probe(op);
        const res = await c.app.fastify.inject({
          method,
          url,
          headers:
            header === undefined ? { 'content-type': 'application/json' } : { authorization: header, 'content-type': 'application/json' },
          ...(method === 'POST' ? { payload: JSON.stringify(validBody(c, op.requestBody as RequestBodyName)) } : {}),
        });
        expect(res.statusCode, op.id).toBe(401);
        expect(String(res.headers['www-authenticate'])).toMatch(/^Basic /);
        const body = checkEnvelope(res.body);
        expect(body.responseCode).not.toBe('000');
      }
      expect(c.app.store.size).toBe(0);
      expect(await c.funds()).toBe(c.app.options.behaviour.initialBalance);
    });
  }

  it('accepts the scheme in any case and custom credentials', async () => {
    const c = await client({ user: 'agent', password: 's3cret:with:colons' });
    const token = Buffer.from('agent:s3cret:with:colons').toString('base64');
    for (const scheme of ['Basic', 'basic', 'BASIC']) {
      const res = await c.app.fastify.inject({
        method: 'GET',
        url: '/api/v1/account/balance',
        headers: { authorization: `${scheme} ${token}` },
      });
      expect(res.statusCode).toBe(200);
    }
    expect((await c.get('/api/v1/account/balance')).status).toBe(401);
  });
});

describe('robustness: gateway-style answers, never a crash', () => {
  async function raw(c: TestClient, method: 'GET' | 'POST', url: string, payload?: string | Buffer, headers: Rec = {}) {
    const res = await c.app.fastify.inject({
      method,
      url,
      headers: { authorization: AUTH_HEADER, ...headers } as Record<string, string>,
      ...(payload === undefined ? {} : { payload }),
    });
    return { status: res.statusCode, body: checkEnvelope(res.body) };
  }
  const TOPUP = '/api/v2/transaction/topup';

  it('malformed JSON -> 400 envelope', async () => {
    const c = await client();
    const res = await raw(c, 'POST', TOPUP, '{"skuId": 193,', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body.responseMessage).toMatch(/JSON/);
  });

  it('valid JSON with a __proto__ or constructor.prototype member -> 400 envelope naming the member, not "not valid JSON" (#23)', async () => {
    const c = await client();
    const cases: Array<[string, string]> = [
      ['{"__proto__": {"admin": true}, "skuId": 193}', '$.__proto__'],
      ['{"skuId": 193, "extra": {"constructor": {"prototype": {"x": 1}}}}', '$.extra.constructor.prototype'],
    ];
    for (const [body, member] of cases) {
      const res = await raw(c, 'POST', TOPUP, body, { 'content-type': 'application/json' });
      expect(res.status).toBe(400);
      expect(res.body.responseCode).toBe('003');
      expect(res.body.responseMessage).toBe(`Invalid request: the body's member ${member} is not accepted (no request body has it)`);
    }
    expect(c.app.store.size).toBe(0);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('60 KB of nested JSON -> 400 envelope saying how deep, not 500 (issue #32)', async () => {
    const c = await client();
    for (const body of [
      `${'['.repeat(30_000)}${']'.repeat(30_000)}`,
      `{"skuId": 193, "x": ${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}`,
    ]) {
      const res = await raw(c, 'POST', TOPUP, body, { 'content-type': 'application/json' });
      expect(res.status).toBe(400);
      expect(res.body.responseCode).toBe('003');
      expect(res.body.responseMessage).toBe('Invalid request: the body nests more than 64 levels deep');
    }
    expect(c.app.store.size).toBe(0);
  });

  it('empty JSON body -> 400 envelope; a JSON array or null body -> validation failure', async () => {
    const c = await client();
    expect((await raw(c, 'POST', TOPUP, '', { 'content-type': 'application/json' })).status).toBe(400);
    for (const body of ['[]', 'null', '"text"', '42']) {
      const res = await raw(c, 'POST', TOPUP, body, { 'content-type': 'application/json' });
      expect(res.status).toBe(200);
      expect(res.body.responseCode).toBe('003');
    }
  });

  it('wrong content type -> 415 envelope', async () => {
    const c = await client();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await raw(c, 'POST', TOPUP, 'skuId=193', { 'content-type': type });
      expect(res.status, type).toBe(415);
    }
  });

  it('a body over the limit -> 413 envelope', async () => {
    const c = await client({ bodyLimitBytes: 1024 });
    const res = await raw(c, 'POST', TOPUP, JSON.stringify({ skuId: 193, pad: 'x'.repeat(5000) }), { 'content-type': 'application/json' });
    expect(res.status).toBe(413);
    expect(c.app.store.size).toBe(0);
  });

  it('unknown path and wrong method -> a plain 404 (no envelope); without credentials -> 401 first', async () => {
    const c = await client();
    // A router's 404 carries no envelope: how the harness tells a path the target lacks from the gateway's refusal.
    const answer = async (method: 'GET' | 'POST', url: string): Promise<[number, string]> => {
      const res = await c.app.fastify.inject({
        method,
        url,
        headers: { authorization: AUTH_HEADER, 'content-type': 'application/json' },
        ...(method === 'POST' ? { payload: '{}' } : {}),
      });
      return [res.statusCode, res.body];
    };
    expect(await answer('GET', '/api/v3/nothing')).toEqual([404, 'Not Found']);
    expect(await answer('GET', '/api/v2/transaction/topup')).toEqual([404, 'Not Found']);
    expect(await answer('POST', '/api/v2/account/balance')).toEqual([404, 'Not Found']);
    expect(await answer('POST', '/api/v2/moved/pin')).toEqual([404, 'Not Found']);
    const enveloped = await client({ behaviour: { unknownPathEnvelope: true } });
    expect((await enveloped.get('/api/v9/nothing')).body.responseCode).toBe('998');
    const anonymous = await c.app.fastify.inject({ method: 'GET', url: '/api/v3/nothing' });
    expect(anonymous.statusCode).toBe(401);
    const anonymousBroken = await c.app.fastify.inject({
      method: 'POST',
      url: TOPUP,
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect(anonymousBroken.statusCode).toBe(401);
  });

  it('huge and odd path parameters -> a clear envelope', async () => {
    const c = await client();
    const cases = [
      `/api/v2/transaction/status/${'c'.repeat(4000)}`,
      `/api/v2/transaction/status/${'c'.repeat(20_000)}`,
      `/api/v2/catalog/sku/exchangeRate/${'9'.repeat(3000)}`,
      '/api/v2/transaction/giftcard/fetch/99999999999999999999999',
      '/api/v2/transaction/status/%E0%A4%A',
      '/api/v2/esim/status/%00%01',
    ];
    for (const url of cases) {
      const res = await raw(c, 'GET', url);
      expect([200, 400, 404, 414], url.slice(0, 60)).toContain(res.status);
      expect(res.body.responseCode).not.toBe('000');
    }
    expect(c.app.store.size).toBe(0);
  });

  it('an unknown correlationId is a failure, not a success', async () => {
    const c = await client();
    const res = await raw(c, 'GET', '/api/v2/transaction/status/never-sent');
    expect(res.status).toBe(200);
    expect(res.body.responseCode).toBe('027');
  });
});

describe('store: bounded, resettable, closable', () => {
  it('keeps at most statusRetentionMax transactions (oldest evicted)', async () => {
    const c = await client({ behaviour: { statusRetentionMax: 3 } });
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const body = validBody(c, 'topup');
      ids.push(body['correlationId'] as string);
      await c.post('/api/v2/transaction/topup', body);
    }
    expect(c.app.store.size).toBe(3);
    expect((await c.get(`/api/v2/transaction/status/${ids[0]}`)).body.responseCode).toBe('027');
    expect((await c.get(`/api/v2/transaction/status/${ids[5]}`)).body.responseCode).toBe('000');
  });

  it('reset() restores the balance and forgets transactions', async () => {
    const c = await client();
    const body = validBody(c, 'topup');
    await c.post('/api/v2/transaction/topup', body);
    expect(await c.funds()).toBeLessThan(c.app.options.behaviour.initialBalance);
    c.app.store.reset();
    expect(await c.funds()).toBe(c.app.options.behaviour.initialBalance);
    expect((await c.get(`/api/v2/transaction/status/${String(body['correlationId'])}`)).body.responseCode).toBe('027');
  });

  it('close() answers a held (120 s) top-up at once instead of waiting', async () => {
    const app = await buildApp({ timeScale: 1 });
    const held = app.fastify.inject({
      method: 'POST',
      url: '/api/v2/transaction/topup',
      headers: { authorization: AUTH_HEADER, 'content-type': 'application/json' },
      payload: JSON.stringify({ skuId: 193, amount: 10, mobile: '18761666666', correlationId: 'held' }),
    });
    await waitFor(() => app.store.pendingCount === 1, 'the held top-up to be stored');
    const started = Date.now();
    await app.close();
    const res = await held;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(checkEnvelope(res.body).responseCode).toBe('000');
  });
});

describe('options and profiles', () => {
  it('refuses bad options with GH_ERR_CONFIG', async () => {
    const bad: SandboxOptions[] = [
      { seed: 1.5 },
      { timeScale: -1 },
      { timeScale: Number.NaN },
      { mode: 'staging' as never },
      { user: '' },
      { profile: 'no-such-profile' },
      { behaviour: { giftcardPageMin: 0 } },
      { behaviour: { responseCodes: { unknownSku: { code: '000', message: 'x', assumed: true } } } },
    ];
    for (const options of bad) {
      await expect(buildApp(options), JSON.stringify(options)).rejects.toSatisfy(
        (e: unknown) => isHarnessError(e) && e.code === 'GH_ERR_CONFIG',
      );
    }
  });

  it('an unknown profile names the known ones', () => {
    expect(() => getProfile('nope')).toThrow(/faithful.*slow/);
    expect(listProfiles().map((p) => p.name)).toEqual(expect.arrayContaining(['faithful', 'slow']));
  });

  it("'slow' adds its latency (scaled) to every response", async () => {
    const timeScale = 0.1;
    const c = await client({ profile: 'slow', timeScale });
    const started = Date.now();
    await c.get('/api/v2/account/balance');
    expect(Date.now() - started).toBeGreaterThanOrEqual(300 * timeScale - 5);
  });

  it('profile hooks see every envelope (business, 401, 404) and may rewrite requests before validation', async () => {
    const seen: Array<{ operationId: string; httpStatus: number; code: unknown }> = [];
    const profile: SandboxProfile = {
      name: 'test-hooks',
      description: 'records envelopes; rewrites top-up amounts to 1000',
      behaviour: { unknownPathEnvelope: true },
      hooks: {
        onRequest(req) {
          if (req.operationId === 'v2.transaction.topup' && typeof req.body === 'object' && req.body !== null) {
            (req.body as Rec)['amount'] = 1000;
          }
        },
        onEnvelope(ctx) {
          seen.push({ operationId: ctx.operationId, httpStatus: ctx.httpStatus, code: ctx.envelope['responseCode'] });
          if (ctx.operationId === 'v2.account.balance') return { envelope: { ...ctx.envelope, payLoad: 1 } };
          return undefined;
        },
      },
    };
    const c = await client({ profile });
    const topup = await c.post('/api/v2/transaction/topup', validBody(c, 'topup'));
    expect(topup.body.responseCode).toBe('001');
    expect((await c.get('/api/v2/account/balance')).body.payLoad).toBe(1);
    await c.app.fastify.inject({ method: 'GET', url: '/api/v2/account/balance' });
    await c.get('/api/v9/nothing');
    expect(seen).toEqual([
      { operationId: 'v2.transaction.topup', httpStatus: 200, code: '001' },
      { operationId: 'v2.account.balance', httpStatus: 200, code: '000' },
      { operationId: 'v2.account.balance', httpStatus: 401, code: '041' },
      { operationId: '', httpStatus: 404, code: '998' },
    ]);
    // The hook got a copy: the cached catalog and the data stay untouched.
    expect((await c.get('/api/v2/catalog/skus?skuId=193')).body.payLoad).toEqual([c.app.data.served.skus.en.find((s) => s.skuId === 193)]);
  });

  it('behaviour overrides renumber assumed codes everywhere, including the error list', async () => {
    const c = await client({ behaviour: { responseCodes: { notFound: { code: '404', message: 'Not here', assumed: true } } } });
    expect((await c.get('/api/v2/transaction/status/none')).body.responseCode).toBe('404');
    const codes = ((await c.get('/api/v2/catalog/errors')).body.payLoad as Rec[]).map((e) => e['code']);
    expect(codes).toContain('404');
    expect(codes).not.toContain('027');
  });

  it('the faults plugin is opt-in', async () => {
    const off = await client();
    const on = await client({ faults: true });
    const headers = { 'x-sandbox-fault': 'status=503' };
    expect(
      (await off.app.fastify.inject({ method: 'GET', url: '/api/v2/account/balance', headers: { authorization: AUTH_HEADER, ...headers } }))
        .statusCode,
    ).toBe(200);
    expect(
      (await on.app.fastify.inject({ method: 'GET', url: '/api/v2/account/balance', headers: { authorization: AUTH_HEADER, ...headers } }))
        .statusCode,
    ).toBe(503);
  });

  it('the same seed gives the same catalog; another seed another one', async () => {
    const a = await client({ seed: 7 });
    const b = await client({ seed: 7 });
    const other = await client({ seed: 8 });
    const skus = async (x: TestClient) => JSON.stringify((await x.get('/api/v2/catalog/skus')).body.payLoad);
    expect(await skus(a)).toBe(await skus(b));
    expect(await skus(a)).not.toBe(await skus(other));
  });

  it('resolved options never carry the password', async () => {
    const app = await buildApp({ password: 'top-secret' });
    apps.push(app);
    expect(JSON.stringify(app.options)).not.toContain('top-secret');
  });
});
