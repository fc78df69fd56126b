// The preflight against real sockets on 127.0.0.1: a closed port and refused credentials make the target unusable
// (one reason, at most two calls); a usable gateway — even one whose balance read fails for another reason — is not.
// Hostile targets (HTML, empty 200, gzip garbage, a body cut mid-way, silence) are said as what they are, quickly.
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { createServer as createHttpServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFIG_DEFAULTS, type ResolvedTargetConfig } from '../api/target-config.ts';
import { DEFAULT_FIELD_MAPPING } from '../api/field-mapping.ts';
import { envelope, sendJson, startTestServer, type Handler, type TestServer } from '../client/test-server.ts';
import { startSandbox } from '../sandbox/server.ts';
import { PREFLIGHT_LIMITS } from '../api/preflight.ts';
import { preflightTarget } from './target-preflight.ts';
import { closedPort } from '../scripts/fixtures/closed-port.ts';

const PASSWORD = 'Pw-preflight-5d1c';
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()?.();
});

function configFor(baseUrl: string, password = PASSWORD): ResolvedTargetConfig {
  return {
    baseUrl,
    user: 'user',
    password,
    environment: 'sandbox',
    timeScale: 0.01,
    timeouts: CONFIG_DEFAULTS.timeouts,
    poll: CONFIG_DEFAULTS.poll,
    writePaths: {},
    fieldMapping: DEFAULT_FIELD_MAPPING,
    sandbox: { seed: 1 },
  };
}

async function check(baseUrl: string, password = PASSWORD) {
  return preflightTarget(configFor(baseUrl, password), 'v2');
}

async function server(handler: Handler): Promise<TestServer> {
  const s = await startTestServer(handler);
  closers.push(() => s.close());
  return s;
}

describe('preflight', () => {
  it('a closed port: unusable, cannot connect (ECONNREFUSED), one call', async () => {
    const port = await closedPort();
    const result = await check(`http://127.0.0.1:${port}`);
    expect(result).toMatchObject({ usable: false, calls: 1 });
    expect(result.usable === false && result.reason).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}: cannot connect: .*ECONNREFUSED`));
  });

  it('a wrong password against the sandbox: unusable, the credentials are refused (HTTP 401), never echoed', async () => {
    const sandbox = await startSandbox({ port: 0, timeScale: 0.01, password: 'the-right-one' });
    closers.push(() => sandbox.close());
    const result = await check(sandbox.url);
    expect(result).toMatchObject({ usable: false, calls: 1 });
    expect(result.usable === false && result.reason).toMatch(
      /the credentials are refused \(HTTP 401 to GET \/api\/v2\/account\/balance\): check --user\/--password/,
    );
    expect(JSON.stringify(result)).not.toContain(PASSWORD);
  });

  /** The fault tally of a preflight that met none. */
  const NO_FAULTS = { timeout: 0, connection: 0, 'server-error': 0, malformed: 0 };

  it('the right credentials against the sandbox: usable after one call', async () => {
    const sandbox = await startSandbox({ port: 0, timeScale: 0.01, password: PASSWORD });
    closers.push(() => sandbox.close());
    // The harness's own sandbox says so (a response header): verdicts then name it, never a gateway.
    expect(await check(sandbox.url)).toEqual({ usable: true, calls: 1, faults: NO_FAULTS, simulator: 'faithful' });
  });

  it('HTTP 200 refusals identical with and without credentials: the credentials are refused', async () => {
    const s = await server((_req, res) => sendJson(res, 200, envelope('041', null, 'Authentication failed')));
    const result = await check(s.url);
    expect(result).toMatchObject({ usable: false, calls: 2 });
    expect(result.usable === false && result.reason).toMatch(
      /the credentials are refused \(GET \/api\/v2\/account\/balance answers them exactly as a request without credentials/,
    );
    expect(s.requests.map((r) => r.headers.authorization === undefined)).toEqual([false, true]);
  });

  it('a balance read that fails for another reason than the credentials: usable (the cases report it)', async () => {
    const s = await server((req, res) =>
      req.headers.authorization === undefined
        ? sendJson(res, 401, envelope('041', null, 'no credentials'))
        : sendJson(res, 200, envelope('500', null, 'Account not activated')),
    );
    expect(await check(s.url)).toEqual({ usable: true, calls: 2, faults: NO_FAULTS });
  });

  it('counts the faults its own reads met (5xx without an envelope, then an answer), so a run can tally every fault served', async () => {
    let n = 0;
    const s = await server((_req, res) => {
      n += 1;
      if (n <= 2) {
        res.writeHead(503);
        res.end();
      } else sendJson(res, 200, envelope('000', 1000, null));
    });
    expect(await check(s.url)).toEqual({ usable: true, calls: 3, faults: { ...NO_FAULTS, 'server-error': 2 } });
  });

  it('HTTP 404 without an envelope: no gateway at this base URL', async () => {
    const s = await server((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html>not here</html>');
    });
    const result = await check(s.url);
    expect(result.usable === false && result.reason).toMatch(/no gateway at this base URL/);
  });

  it('the 3 s / 5 s bounds are below what a person waits for one line', () => {
    expect(PREFLIGHT_LIMITS).toEqual({ connectMs: 3_000, answerMs: 5_000 });
  });
});

/** A raw HTTP server whose every request gets `answer` (port 0, closed after the test, open sockets destroyed). */
async function rawServer(answer: (socket: Socket) => void): Promise<string> {
  const sockets = new Set<Socket>();
  const s = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', () => answer(socket));
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        s.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

async function httpServer(handler: Parameters<typeof createHttpServer>[1]): Promise<string> {
  const s: Server = createHttpServer(handler);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        s.closeAllConnections();
        s.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

describe('preflight: hostile targets are said as what they answered, never as refused credentials (#23 finding 7)', () => {
  const cases: ReadonlyArray<[string, Parameters<typeof createHttpServer>[1] | ((socket: Socket) => void), 'http' | 'raw', RegExp]> = [
    [
      'an HTML page',
      (_req, res) => {
        res!.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res!.end('<!doctype html><html><body>Welcome to nginx</body></html>');
      },
      'http',
      /answered HTTP 200 with an HTML page \(text\/html; charset=utf-8, \d+ characters\), 3 times: not the gateway's JSON envelope/,
    ],
    [
      'an empty 200',
      (_req, res) => {
        res!.writeHead(200, { 'content-length': '0' });
        res!.end();
      },
      'http',
      /answered HTTP 200 with an empty body, 3 times: not the gateway's JSON envelope/,
    ],
    [
      'gzip garbage',
      (_req, res) => {
        res!.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res!.end(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xde, 0xad, 0xbe, 0xef, 0x00, 0x13, 0x37, 0xff]));
      },
      'http',
      /answered HTTP 200 with an unreadable body \(content-encoding gzip, \d+ characters that are not JSON\)/,
    ],
    [
      'a body closed mid-way',
      (socket: Socket) => {
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 500\r\n\r\n{"responseCode":"00');
        setImmediate(() => socket.destroy());
      },
      'raw',
      /answered HTTP 200 whose body broke off before its end/,
    ],
  ];

  it.each(cases)('%s', async (_name, handler, kind, reason) => {
    const url =
      kind === 'http'
        ? await httpServer(handler as Parameters<typeof createHttpServer>[1])
        : await rawServer(handler as (socket: Socket) => void);
    const result = await check(url);
    expect(result.usable).toBe(false);
    const text = result.usable === false ? result.reason : '';
    expect(text).toMatch(reason);
    expect(text).not.toMatch(/credentials/);
  });

  it('a target that accepts connections and never answers: unusable within the 5 s answer bound', async () => {
    const url = await rawServer(() => undefined);
    const started = Date.now();
    const result = await check(url);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result).toMatchObject({ usable: false, calls: 1 });
    expect(result.usable === false && result.reason).toMatch(/no answer to GET \/api\/v2\/account\/balance within \d+ ms/);
  });
});
