// The preflight against real sockets on 127.0.0.1: a closed port and refused credentials make the target unusable
// (one reason, at most two calls); a usable gateway — even one whose balance read fails for another reason — is not.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFIG_DEFAULTS, type ResolvedTargetConfig } from '../api/target-config.ts';
import { DEFAULT_FIELD_MAPPING } from '../api/field-mapping.ts';
import { envelope, sendJson, startTestServer, type Handler, type TestServer } from '../client/test-server.ts';
import { startSandbox } from '../sandbox/server.ts';
import { preflight } from './preflight.ts';
import { DEFAULT_SETTINGS } from './settings.ts';
import { createNodeConformanceTarget, timingFor } from './target.ts';

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
  const config = configFor(baseUrl, password);
  const target = createNodeConformanceTarget(config);
  closers.push(() => target.close());
  return preflight(target, 'v2', timingFor(config, DEFAULT_SETTINGS));
}

async function server(handler: Handler): Promise<TestServer> {
  const s = await startTestServer(handler);
  closers.push(() => s.close());
  return s;
}

/** A port nothing listens on: bound once to get a free number, then closed. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
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
    expect(result.usable === false && result.reason).toMatch(/the credentials are refused \(HTTP 401 to GET \/api\/v2\/account\/balance\): check --user\/--password/);
    expect(JSON.stringify(result)).not.toContain(PASSWORD);
  });

  it('the right credentials against the sandbox: usable after one call', async () => {
    const sandbox = await startSandbox({ port: 0, timeScale: 0.01, password: PASSWORD });
    closers.push(() => sandbox.close());
    expect(await check(sandbox.url)).toEqual({ usable: true, calls: 1 });
  });

  it('HTTP 200 refusals identical with and without credentials: the credentials are refused', async () => {
    const s = await server((_req, res) => sendJson(res, 200, envelope('041', null, 'Authentication failed')));
    const result = await check(s.url);
    expect(result).toMatchObject({ usable: false, calls: 2 });
    expect(result.usable === false && result.reason).toMatch(/the credentials are refused \(GET \/api\/v2\/account\/balance answers them exactly as a request without credentials/);
    expect(s.requests.map((r) => r.headers.authorization === undefined)).toEqual([false, true]);
  });

  it('a balance read that fails for another reason than the credentials: usable (the cases report it)', async () => {
    const s = await server((req, res) =>
      req.headers.authorization === undefined ? sendJson(res, 401, envelope('041', null, 'no credentials')) : sendJson(res, 200, envelope('500', null, 'Account not activated')),
    );
    expect(await check(s.url)).toEqual({ usable: true, calls: 2 });
  });

  it('HTTP 404 without an envelope: no gateway at this base URL', async () => {
    const s = await server((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html>not here</html>');
    });
    const result = await check(s.url);
    expect(result.usable === false && result.reason).toMatch(/no gateway at this base URL/);
  });
});
