// Tests of the X-Sandbox-Fault plugin: the header grammar, each fault's effect on the exchange (in-process and over a
// real socket), whether the handler ran (money safety), and that buildApp ignores the header unless faults are enabled.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { FAULT_HEADER, malformBody, parseFaultHeader, registerFaults, truncateBody } from './faults.ts';
import { startSandbox } from './server.ts';

describe('parseFaultHeader', () => {
  const accepted: Array<[string, unknown[]]> = [
    ['', []],
    [' , ', []],
    ['latency=250', [{ kind: 'latency', ms: 250 }]],
    ['LATENCY = 0', [{ kind: 'latency', ms: 0 }]],
    ['status=503', [{ kind: 'status', status: 503 }]],
    ['reset', [{ kind: 'reset' }]],
    ['malformed', [{ kind: 'malformed' }]],
    ['truncate', [{ kind: 'truncate' }]],
    [
      'latency=10, status=502',
      [
        { kind: 'latency', ms: 10 },
        { kind: 'status', status: 502 },
      ],
    ],
    ['latency=10,reset', [{ kind: 'latency', ms: 10 }, { kind: 'reset' }]],
    ['status=500,malformed', [{ kind: 'status', status: 500 }, { kind: 'malformed' }]],
    ['late=40', [{ kind: 'late', ms: 40 }]],
    [
      'late=5,status=503',
      [
        { kind: 'late', ms: 5 },
        { kind: 'status', status: 503 },
      ],
    ],
  ];
  it.each(accepted)('accepts %j', (header, faults) => {
    expect(parseFaultHeader(header)).toEqual({ ok: true, faults });
  });

  const rejected: Array<[string, RegExp]> = [
    ['explode', /unknown sandbox fault "explode"/],
    ['latency', /latency=MS/],
    ['latency=-1', /latency=MS/],
    ['latency=1.5', /latency=MS/],
    ['latency=300001', /0\.\.300000/],
    ['late', /late=MS/],
    ['late=300001', /0\.\.300000/],
    ['status=404', /500\.\.599/],
    ['status=5000', /500\.\.599/],
    ['status=', /500\.\.599/],
    ['reset=1', /takes no value/],
    ['latency=1,latency=2', /given twice/],
    ['reset,status=503', /reset and status cannot be combined/],
    ['malformed,truncate', /malformed and truncate cannot be combined/],
    ['reset,truncate', /cannot be combined/],
    ['x'.repeat(201), /longer than 200/],
  ];
  it.each(rejected)('rejects %j', (header, message) => {
    const parsed = parseFaultHeader(header);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toMatch(message);
  });

  it('never echoes more than 40 characters of an unknown token', () => {
    const parsed = parseFaultHeader(`a${'b'.repeat(150)}`);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).not.toContain('b'.repeat(41));
  });
});

describe('body transforms', () => {
  const body = JSON.stringify({ responseCode: '000', responseMessage: null, payLoad: { name: 'عربي', n: 1 } });
  it('malformBody yields text JSON.parse rejects, still recognisable', () => {
    for (const input of [body, '', '5', 'null']) {
      expect(() => JSON.parse(malformBody(input))).toThrow();
    }
    expect(malformBody(body)).toContain("'responseCode'");
  });
  it('truncateBody keeps the first half of the bytes', () => {
    const bytes = Buffer.from(body);
    const cut = truncateBody(bytes);
    expect(cut.length).toBe(Math.floor(bytes.length / 2));
    expect(bytes.subarray(0, cut.length).equals(cut)).toBe(true);
    expect(() => JSON.parse(cut.toString())).toThrow();
  });
});

/** A tiny app with one read and one "charging" write, so tests can see whether the handler ran. */
async function fixtureApp(timeScale: number): Promise<{ app: FastifyInstance; handled: () => number }> {
  const app = Fastify({ logger: false });
  let handled = 0;
  registerFaults(app, { timeScale });
  app.get('/read', async () => ({ responseCode: '000', responseMessage: null, payLoad: { items: ['a', 'b', 'c'], text: 'x'.repeat(64) } }));
  app.post('/charge', async () => {
    handled += 1;
    return { responseCode: '000', responseMessage: null, payLoad: { transactionId: handled } };
  });
  await app.ready();
  return { app, handled: () => handled };
}

const normalRead = JSON.stringify({
  responseCode: '000',
  responseMessage: null,
  payLoad: { items: ['a', 'b', 'c'], text: 'x'.repeat(64) },
});

describe('fault plugin in-process (inject)', () => {
  let fx: Awaited<ReturnType<typeof fixtureApp>>;
  beforeAll(async () => {
    fx = await fixtureApp(0.01);
  });
  afterAll(async () => {
    await fx.app.close();
  });

  it('leaves requests without the header alone', async () => {
    const res = await fx.app.inject({ method: 'GET', url: '/read' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(normalRead);
  });

  it('status=5xx answers before the handler runs, with an empty body', async () => {
    const before = fx.handled();
    const res = await fx.app.inject({ method: 'POST', url: '/charge', payload: {}, headers: { [FAULT_HEADER]: 'status=503' } });
    expect(res.statusCode).toBe(503);
    expect(res.body).toBe('');
    expect(res.headers['content-length']).toBe('0');
    expect(fx.handled()).toBe(before);
  });

  it('an unusable header is a 400 envelope naming the fault, and the handler does not run', async () => {
    const before = fx.handled();
    const res = await fx.app.inject({ method: 'POST', url: '/charge', payload: {}, headers: { [FAULT_HEADER]: 'latency=5,explode' } });
    expect(res.statusCode).toBe(400);
    const body = res.json() as { responseCode: unknown; responseMessage: string; payLoad: unknown };
    expect(body.responseMessage).toContain('"explode"');
    expect(body.payLoad).toBeNull();
    expect(typeof body.responseCode).toBe('string');
    expect(fx.handled()).toBe(before);
  });

  it('malformed serves invalid JSON after the handler ran', async () => {
    const before = fx.handled();
    const res = await fx.app.inject({ method: 'POST', url: '/charge', payload: {}, headers: { [FAULT_HEADER]: 'malformed' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(() => JSON.parse(res.body)).toThrow();
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    expect(fx.handled()).toBe(before + 1);
  });

  it('truncate serves the first half of the body with a matching Content-Length', async () => {
    const res = await fx.app.inject({ method: 'GET', url: '/read', headers: { [FAULT_HEADER]: 'truncate' } });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(Buffer.from(normalRead).subarray(0, Math.floor(normalRead.length / 2)))).toBe(true);
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
  });

  it('reset drops the exchange after the handler ran', async () => {
    const before = fx.handled();
    await expect(
      fx.app.inject({ method: 'POST', url: '/charge', payload: {}, headers: { [FAULT_HEADER]: 'reset' } }),
    ).rejects.toMatchObject({ code: 'LIGHT_ECONNRESET' });
    expect(fx.handled()).toBe(before + 1);
  });

  it('latency is scaled by the time scale and combines with a status', async () => {
    const started = performance.now();
    const res = await fx.app.inject({ method: 'GET', url: '/read', headers: { [FAULT_HEADER]: 'latency=8000,status=502' } });
    // 8000 ms × 0.01 = 80 ms: only a lower bound is asserted (upper bounds flake on a shared machine).
    expect(performance.now() - started).toBeGreaterThanOrEqual(70);
    expect(res.statusCode).toBe(502);
  });

  it('time scale 0 removes fault latency entirely', async () => {
    const zero = await fixtureApp(0);
    try {
      // Unscaled this would wait 300 s and trip the test timeout.
      const res = await zero.app.inject({ method: 'GET', url: '/read', headers: { [FAULT_HEADER]: 'latency=300000' } });
      expect(res.statusCode).toBe(200);
    } finally {
      await zero.app.close();
    }
  });
});

interface RawResult {
  status?: number;
  headers?: Record<string, string | string[] | undefined>;
  body?: Buffer;
  error?: NodeJS.ErrnoException;
}

/** node:http rather than fetch: the tests need the raw bytes, the raw Content-Length and the socket error code. */
function rawRequest(url: string, method: string, headers: Record<string, string>, body?: string): Promise<RawResult> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { method, headers: { ...headers, connection: 'close' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', (error) => resolve({ error }));
    });
    req.on('error', (error) => resolve({ error }));
    req.setTimeout(20_000, () => req.destroy(new Error('test request timed out')));
    req.end(method === 'POST' ? (body ?? '{}') : undefined);
  });
}

describe('fault plugin over a real socket', () => {
  let fx: Awaited<ReturnType<typeof fixtureApp>>;
  let base: string;
  beforeAll(async () => {
    fx = await fixtureApp(0.01);
    await fx.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(fx.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await fx.app.close();
  });

  it('reset is a TCP reset (ECONNRESET) after the handler ran', async () => {
    const before = fx.handled();
    const result = await rawRequest(`${base}/charge`, 'POST', { 'content-type': 'application/json', [FAULT_HEADER]: 'reset' });
    expect(result.error?.code).toBe('ECONNRESET');
    expect(fx.handled()).toBe(before + 1);
  });

  it('truncate arrives as a complete HTTP message whose body is half the JSON', async () => {
    const result = await rawRequest(`${base}/read`, 'GET', { [FAULT_HEADER]: 'truncate' });
    expect(result.error).toBeUndefined();
    expect(result.status).toBe(200);
    expect(Number(result.headers?.['content-length'])).toBe(result.body?.length);
    expect(result.body?.toString()).toBe(normalRead.slice(0, Math.floor(normalRead.length / 2)));
  });

  it('status=5xx and malformed arrive intact as HTTP', async () => {
    const status = await rawRequest(`${base}/read`, 'GET', { [FAULT_HEADER]: 'status=504' });
    expect(status.status).toBe(504);
    const malformed = await rawRequest(`${base}/read`, 'GET', { [FAULT_HEADER]: 'malformed' });
    expect(malformed.status).toBe(200);
    expect(() => JSON.parse(malformed.body?.toString() ?? '')).toThrow();
  });

  it('the server keeps serving after a reset', async () => {
    await rawRequest(`${base}/charge`, 'POST', { 'content-type': 'application/json', [FAULT_HEADER]: 'reset' });
    const ok = await rawRequest(`${base}/read`, 'GET', {});
    expect(ok.status).toBe(200);
    expect(ok.body?.toString()).toBe(normalRead);
  });
});

describe('faults wired into buildApp', () => {
  const auth = { authorization: `Basic ${Buffer.from('user:pass').toString('base64')}` };

  it('ignores the header entirely when faults are off (the default)', async () => {
    const sandbox = await buildApp({ timeScale: 0.01 });
    try {
      for (const header of ['status=503', 'explode', 'reset']) {
        const res = await sandbox.fastify.inject({
          method: 'GET',
          url: '/api/v2/account/balance',
          headers: { ...auth, [FAULT_HEADER]: header },
        });
        expect(res.statusCode).toBe(200);
        expect((res.json() as { responseCode: string }).responseCode).toBe('000');
      }
    } finally {
      await sandbox.close();
    }
  });

  it('honours the header on sandbox routes when faults are on, and a status fault charges nothing', async () => {
    const sandbox = await buildApp({ timeScale: 0.01, faults: true });
    try {
      const balance = async (): Promise<unknown> =>
        sandbox.fastify
          .inject({ method: 'GET', url: '/api/v2/account/balance', headers: auth })
          .then((r) => (r.json() as { payLoad: unknown }).payLoad);
      const before = await balance();
      const topup = await sandbox.fastify.inject({
        method: 'POST',
        url: '/api/v2/transaction/topup',
        headers: { ...auth, [FAULT_HEADER]: 'status=503' },
        payload: { skuId: 193, amount: 10, mobile: '18765550123', correlationId: 'fault-status-1' },
      });
      expect(topup.statusCode).toBe(503);
      expect(await balance()).toEqual(before);

      const unknown = await sandbox.fastify.inject({
        method: 'GET',
        url: '/api/v2/account/balance',
        headers: { ...auth, [FAULT_HEADER]: 'explode' },
      });
      expect(unknown.statusCode).toBe(400);
      expect((unknown.json() as { responseMessage: string }).responseMessage).toContain('explode');

      const truncated = await sandbox.fastify.inject({
        method: 'GET',
        url: '/api/v2/catalog/countries',
        headers: { ...auth, [FAULT_HEADER]: 'truncate' },
      });
      expect(Number(truncated.headers['content-length'])).toBe(truncated.rawPayload.length);
      expect(() => JSON.parse(truncated.body)).toThrow();
    } finally {
      await sandbox.close();
    }
  });

  it('a reset top-up over a socket was still charged: the status endpoint has its final result', async () => {
    const sandbox = await startSandbox({ timeScale: 0.01, faults: true });
    try {
      const correlationId = `fault-reset-${Date.now()}`;
      const result = await rawRequest(
        `${sandbox.url}/api/v2/transaction/topup`,
        'POST',
        {
          ...auth,
          'content-type': 'application/json',
          [FAULT_HEADER]: 'reset',
        },
        JSON.stringify({ skuId: 193, amount: 10, mobile: '18765550123', correlationId }),
      );
      expect(result.error?.code).toBe('ECONNRESET');
      const status = await rawRequest(`${sandbox.url}/api/v2/transaction/status/${correlationId}`, 'GET', auth);
      expect(status.status).toBe(200);
      expect((JSON.parse(status.body?.toString() ?? '') as { responseCode: string }).responseCode).toBe('000');
    } finally {
      await sandbox.close();
    }
  });
});
