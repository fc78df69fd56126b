// The Node transport against a real local server: success, timeouts (headers and body), reset, non-JSON, HTTP errors.
// Timeouts must give outcome Unknown (never Failed): the spec says a timed-out transaction may have charged the account.
import { Worker } from 'node:worker_threads';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildRequest } from '../api/request-builder.ts';
import { createNodeTransport, describeTransportError, type NodeTransport } from './node-transport.ts';
import { envelope, sendJson, startTestServer, type TestServer } from './test-server.ts';

const PASSWORD = 'pw-MARKER-7f3a';
let server: TestServer;
let transport: NodeTransport;
const pending = new Set<NodeJS.Timeout>();
const later = (ms: number, fn: () => void): void => {
  const t = setTimeout(() => {
    pending.delete(t);
    fn();
  }, ms);
  pending.add(t);
};

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    switch (path) {
      case '/api/v2/account/balance':
        return sendJson(res, 200, envelope('000', -120.5));
      case '/api/v2/transaction/topup':
        return sendJson(res, 200, envelope('510', null, 'The SKU is out of stock'));
      case '/api/v1/account/balance': // slow headers
        return later(2_000, () => sendJson(res, 200, envelope('000', 1)));
      case '/api/v1/catalog/countries': // headers at once, body never completes in time
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"responseCode":"000",');
        return later(2_000, () => res.end('"payLoad":[]}'));
      case '/api/v1/catalog/errors': // connection reset before any response
        return req.socket.destroy();
      case '/api/v2/catalog/errors':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<html>gateway error</html>');
      case '/api/v2/catalog/countries':
        return sendJson(res, 503, { error: 'unavailable' });
      default:
        return sendJson(res, 404, envelope('404', null, 'not found'));
    }
  });
});

afterEach(async () => {
  for (const t of pending) clearTimeout(t);
  pending.clear();
  await transport?.close();
});

afterAll(async () => {
  await server.close();
});

const target = () => ({ baseUrl: server.url, user: 'agent', password: PASSWORD });
const opts = { connectTimeoutMs: 5_000, responseTimeoutMs: 5_000, secrets: [PASSWORD] };

describe('node transport', () => {
  it('sends the built request and classifies a 000 envelope as Successful', async () => {
    transport = createNodeTransport();
    const res = await transport.send(buildRequest('v2.account.balance', {}, target()), opts);
    expect(res.httpStatus).toBe(200);
    expect(res.envelope?.payLoad).toBe(-120.5);
    expect(res.classification).toEqual({ outcome: 'Successful', rule: 'success-000', final: true });
    expect(res.timedOut).toBe(false);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.timings.ttfbMs).toBeGreaterThanOrEqual(0);
    expect(res.timings.totalMs).toBeGreaterThanOrEqual(res.timings.ttfbMs ?? 0);
    const seen = server.requests.at(-1);
    expect(seen?.headers.authorization).toBe(`Basic ${Buffer.from(`agent:${PASSWORD}`).toString('base64')}`);
    expect(seen?.headers.accept).toBe('application/json');
  });

  it('posts a JSON body and classifies HTTP 200 + 510 as Failed', async () => {
    transport = createNodeTransport();
    const body = { skuId: 1, amount: 5, mobile: '18761234510', correlationId: 'c-1' };
    const res = await transport.send(buildRequest('v2.transaction.topup', { body }, target()), opts);
    expect(res.classification.outcome).toBe('Failed');
    expect(res.classification.rule).toBe('failure-code');
    const seen = server.requests.at(-1);
    expect(seen?.method).toBe('POST');
    expect(seen?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen?.body ?? '')).toEqual(body);
  });

  it('a response timeout waiting for headers is timedOut with outcome Unknown, not Failed', async () => {
    transport = createNodeTransport();
    const res = await transport.send(buildRequest('v1.account.balance', {}, target()), { ...opts, responseTimeoutMs: 200 });
    expect(res.timedOut).toBe(true);
    expect(res.httpStatus).toBeUndefined();
    expect(res.classification).toEqual({ outcome: 'Unknown', rule: 'client-timeout', final: false });
    expect(res.transportError?.code).toBe('GH_ERR_TIMEOUT');
  });

  it('a response timeout while the body is still arriving is also a timeout (headers + body are covered)', async () => {
    transport = createNodeTransport();
    const res = await transport.send(buildRequest('v1.catalog.countries', {}, target()), { ...opts, responseTimeoutMs: 300 });
    expect(res.httpStatus).toBe(200);
    expect(res.timedOut).toBe(true);
    expect(res.envelope).toBeUndefined();
    expect(res.classification.outcome).toBe('Unknown');
    expect(res.timings.ttfbMs).toBeDefined();
  });

  it('a connection reset is GH_ERR_CONNECTION with outcome Unknown', async () => {
    transport = createNodeTransport();
    const res = await transport.send(buildRequest('v1.catalog.errors', {}, target()), opts);
    expect(res.timedOut).toBe(false);
    expect(res.httpStatus).toBeUndefined();
    expect(res.transportError?.code).toBe('GH_ERR_CONNECTION');
    expect(res.classification).toEqual({ outcome: 'Unknown', rule: 'no-response', final: false });
  });

  it('a refused connection is GH_ERR_CONNECTION, Unknown', async () => {
    transport = createNodeTransport();
    const closed = await startTestServer(() => undefined);
    const url = closed.url;
    await closed.close();
    const res = await transport.send(buildRequest('v2.account.balance', {}, { ...target(), baseUrl: url }), opts);
    expect(res.transportError?.code).toBe('GH_ERR_CONNECTION');
    expect(res.transportError?.message).not.toContain(PASSWORD);
    expect(res.classification.outcome).toBe('Unknown');
  });

  it('a non-JSON body sets parseError; with HTTP 200 the outcome stays Unknown (no responseCode)', async () => {
    transport = createNodeTransport();
    const res = await transport.send(buildRequest('v2.catalog.errors', {}, target()), opts);
    expect(res.httpStatus).toBe(200);
    expect(res.bodyText).toBe('<html>gateway error</html>');
    expect(res.parseError).toMatch(/not JSON/);
    expect(res.classification).toEqual({ outcome: 'Unknown', rule: 'no-response-code', final: false });
  });

  it('an HTTP status other than 200 is Failed even without an envelope', async () => {
    transport = createNodeTransport();
    const res = await transport.send(buildRequest('v2.catalog.countries', {}, target()), opts);
    expect(res.httpStatus).toBe(503);
    expect(res.classification).toEqual({ outcome: 'Failed', rule: 'http-not-200', final: true });
  });

  it("a caller's abort ends the call as a connection error (Unknown), not a timeout", async () => {
    transport = createNodeTransport();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const res = await transport.send(buildRequest('v1.account.balance', {}, target()), { ...opts, signal: controller.signal });
    expect(res.timedOut).toBe(false);
    expect(res.transportError?.code).toBe('GH_ERR_CONNECTION');
    expect(res.classification.outcome).toBe('Unknown');
  });

  it('keeps the connection alive across calls', async () => {
    transport = createNodeTransport({ connections: 1 });
    const before = server.connections();
    for (let i = 0; i < 3; i++) {
      const res = await transport.send(buildRequest('v2.account.balance', {}, target()), opts);
      expect(res.classification.outcome).toBe('Successful');
    }
    expect(server.connections() - before).toBe(1);
  });
});

describe('describeTransportError', () => {
  const ctx = { deadlineHit: false, callerAborted: false, secrets: [PASSWORD] };
  const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
  const rows: Array<[string, unknown, Partial<typeof ctx>, boolean, string]> = [
    ['undici connect timeout', withCode('Connect Timeout Error', 'UND_ERR_CONNECT_TIMEOUT'), {}, true, 'GH_ERR_TIMEOUT'],
    ['undici headers timeout', withCode('Headers Timeout Error', 'UND_ERR_HEADERS_TIMEOUT'), {}, true, 'GH_ERR_TIMEOUT'],
    ['undici body timeout', withCode('Body Timeout Error', 'UND_ERR_BODY_TIMEOUT'), {}, true, 'GH_ERR_TIMEOUT'],
    ['our deadline', new Error('aborted'), { deadlineHit: true }, true, 'GH_ERR_TIMEOUT'],
    ['socket closed', withCode('other side closed', 'UND_ERR_SOCKET'), {}, false, 'GH_ERR_CONNECTION'],
    [
      'reset in cause',
      Object.assign(new Error('fetch failed'), { cause: withCode('read ECONNRESET', 'ECONNRESET') }),
      {},
      false,
      'GH_ERR_CONNECTION',
    ],
    ['caller abort', new Error('This operation was aborted'), { callerAborted: true }, false, 'GH_ERR_CONNECTION'],
  ];
  it.each(rows)('%s', (_name, error, extra, timedOut, code) => {
    const described = describeTransportError(error, { ...ctx, ...extra });
    expect(described.timedOut).toBe(timedOut);
    expect(described.transportError.code).toBe(code);
    // Only the caller's own abort is the harness's leaving (api/faults.ts counts no fault for it).
    expect(described.transportError.abandoned).toBe(extra.callerAborted === true ? true : undefined);
  });

  it('scrubs secrets and URL credentials from messages', () => {
    const error = new Error(`connect failed for http://agent:${PASSWORD}@10.0.0.1/x with Authorization: Basic YWdlbnQ6cHc=`);
    const { transportError } = describeTransportError(error, ctx);
    expect(transportError.message).not.toContain(PASSWORD);
    expect(transportError.message).not.toContain('YWdlbnQ6cHc=');
  });
});

/**
 * A server on a thread of its own (the test's thread is about to stall). Its flags: 0, the request came; 1, the answer
 * (503) is written; 2, the client stalled: the answer waits for it, so it arrives while the client runs nothing.
 */
const STALL_SERVER = `
const { createServer } = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const flags = new Int32Array(workerData.flags);
const server = createServer((req, res) => {
  Atomics.store(flags, 0, 1);
  Atomics.wait(flags, 2, 0, 5000);
  res.writeHead(503).end(() => (Atomics.store(flags, 1, 1), Atomics.notify(flags, 1)));
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
parentPort.on('message', () => server.close(() => parentPort.close()));
`;

describe('node transport on a stalled machine', () => {
  // A starved process runs its overdue timers before it reads its sockets: an answer that arrived within the deadline
  // must still be read, not discarded as a client timeout (a 5xx the target served, counted as a timeout, on a loaded box).
  it('reads an answer that arrived before the deadline even when the deadline timer is overdue', async () => {
    const flags = new Int32Array(new SharedArrayBuffer(12));
    const worker = new Worker(STALL_SERVER, { eval: true, workerData: { flags: flags.buffer } });
    try {
      const port = await new Promise<number>((resolve) => worker.once('message', resolve));
      transport = createNodeTransport();
      const deadlineMs = 300;
      const startedAt = Date.now();
      const sent = transport.send(buildRequest('v2.account.balance', {}, { ...target(), baseUrl: `http://127.0.0.1:${port}` }), {
        ...opts,
        responseTimeoutMs: deadlineMs,
      });
      // Each turn of the loop: once the request reached the server, stall (no I/O, no timers) until its answer is
      // written and the deadline has passed, as a starved CI runner would.
      await new Promise<void>((resolve) => {
        const watch = (): void => {
          if (Atomics.load(flags, 0) === 0) return void setImmediate(watch);
          Atomics.store(flags, 2, 1);
          Atomics.notify(flags, 2);
          Atomics.wait(flags, 1, 0, 5_000);
          while (Date.now() - startedAt < deadlineMs + 50) Atomics.wait(flags, 0, 1, 10);
          resolve();
        };
        setImmediate(watch);
      });
      const res = await sent;
      expect(Atomics.load(flags, 1), 'the server wrote its answer').toBe(1);
      expect({ status: res.httpStatus, timedOut: res.timedOut }).toEqual({ status: 503, timedOut: false });
    } finally {
      worker.postMessage('close');
      await new Promise((resolve) => worker.once('exit', resolve));
    }
  });
});
