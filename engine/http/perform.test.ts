// performRequest against a local server that resets connections: a replayable request on a reused connection reset
// before any answer is sent again (as Go's transport under k6 does), anything else fails with k6's error code; and
// requests one after another (redirect hops too) go out on one keep-alive connection, as in k6.
import diagnostics from 'node:diagnostics_channel';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerTimings, createAgent, performRequest, type HttpRequestSpec } from './perform.ts';

let server: Server;
let base: string;
let connections = 0;
const seen = new Map<string, number>();
const resetOnce = new Set<string>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    seen.set(path, (seen.get(path) ?? 0) + 1);
    req.resume();
    req.on('end', () => {
      if (path.startsWith('/redirect')) {
        res.writeHead(302, { location: '/ok' }).end('moved');
        return;
      }
      const always = path.startsWith('/reset-always');
      if (always || (path.startsWith('/reset-once') && !resetOnce.has(path))) {
        resetOnce.add(path);
        req.socket.destroy(); // no answer at all: the connection closes under the request
        return;
      }
      res.end('ok');
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((done) => server.close(done));
});

function spec(method: string, path: string, headers: Record<string, string> = {}): HttpRequestSpec {
  return { method, url: `${base}${path}`, headers, body: method === 'POST' ? '{}' : null, timeoutMs: 10_000, responseType: 'text' };
}

/** An agent whose connections have served requests already: the next request goes out on a reused one. */
async function warmAgent() {
  const agent = createAgent();
  for (let i = 0; i < 2; i++) expect((await performRequest(agent, spec('GET', '/warm'))).status).toBe(200);
  return agent;
}

describe('a connection reset before any answer (Go transport semantics, as in k6)', () => {
  it.each([
    ['a GET', 'GET', '/reset-once-get', {}],
    ['a POST with an Idempotency-Key', 'POST', '/reset-once-keyed', { 'Idempotency-Key': 'k-1' }],
  ] as Array<[string, string, string, Record<string, string>]>)(
    'sends %s again when its reused connection was reset: the caller sees the answer',
    async (_what, method, path, headers) => {
      const agent = await warmAgent();
      const r = await performRequest(agent, spec(method, path, headers));
      expect(r).toMatchObject({ status: 200, body: 'ok', errorCode: 0 });
      expect(seen.get(path)).toBe(2);
      await agent.close();
    },
  );

  it('does not send a POST again (not replayable): status 0, error_code 1220', async () => {
    const agent = await warmAgent();
    const r = await performRequest(agent, spec('POST', '/reset-once-post'));
    expect(r).toMatchObject({ status: 0, errorCode: 1220 });
    expect(seen.get('/reset-once-post')).toBe(1);
    await agent.close();
  });

  it('does not send again a request that went out on a fresh connection', async () => {
    const agent = createAgent();
    const r = await performRequest(agent, spec('GET', '/reset-once-fresh'));
    expect(r).toMatchObject({ status: 0, errorCode: 1220 });
    expect(seen.get('/reset-once-fresh')).toBe(1);
    await agent.close();
  });

  it('gives up on a connection that always resets: bounded tries, then status 0', async () => {
    const agent = await warmAgent();
    const r = await performRequest(agent, spec('GET', '/reset-always'));
    expect(r).toMatchObject({ status: 0, errorCode: 1220 });
    expect(seen.get('/reset-always')).toBeGreaterThanOrEqual(2);
    expect(seen.get('/reset-always')).toBeLessThanOrEqual(6);
    await agent.close();
  });
});

describe('requests one after another', () => {
  it.each([
    ['answers', '/ok'],
    ['redirects and the hop after them', '/redirect'],
  ])('reuse one keep-alive connection (%s): the next request waits for undici to free it, no second connection', async (_what, path) => {
    const agent = createAgent();
    const before = connections;
    for (let i = 0; i < 20; i++) expect((await performRequest(agent, spec('GET', path))).status).toBe(200);
    expect(connections - before).toBe(1);
    await agent.close();
  });
});

describe('timings at the wire', () => {
  it("time the answer when undici parsed it, not when this request's continuation got its turn on a busy thread", async () => {
    const agent = createAgent();
    await performRequest(agent, spec('GET', '/warm-timing'));
    const BLOCK_MS = 200;
    // Subscribed after perform.ts: runs inside the parser once the engine took the answer's end, then holds the thread,
    // as other VUs' continuations queued before this one would.
    const hold = (): void => {
      const end = performance.now() + BLOCK_MS;
      while (performance.now() < end) {
        // busy
      }
    };
    diagnostics.subscribe('undici:request:trailers', hold);
    try {
      const before = performance.now();
      const result = await performRequest(agent, spec('GET', '/timed'));
      const elapsed = performance.now() - before;
      expect(result.status).toBe(200);
      // The hold lies between the parser's time and the continuation: the reported duration leaves it out.
      expect(result.timings.duration + BLOCK_MS, JSON.stringify({ t: result.timings, elapsed })).toBeLessThanOrEqual(elapsed);
      expect(result.timings.waiting + result.timings.receiving).toBeCloseTo(result.timings.duration, 6);
    } finally {
      diagnostics.unsubscribe('undici:request:trailers', hold);
      await agent.close();
    }
  });

  it('falls back to the continuation times when undici gave none', () => {
    expect(answerTimings(10, 30, 35, undefined)).toEqual({ waiting: 20, receiving: 5, duration: 25 });
    expect(answerTimings(10, 30, 35, { headersAt: 14, endAt: 15 })).toEqual({ waiting: 4, receiving: 1, duration: 5 });
  });
});
