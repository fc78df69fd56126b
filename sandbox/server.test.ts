// Tests of startSandbox(): it listens on loopback port 0, serves the app over a real socket with its options, reports
// listen failures as configuration errors, and closes promptly even while a trigger-delayed top-up is in flight.
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isHarnessError } from '../api/errors.ts';
import { isLoopbackHost, startSandbox } from './server.ts';
import type { RunningSandbox } from './server.ts';
import { waitFor } from './routes/testing.ts';

const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

interface Envelope {
  responseCode: string;
  responseMessage: string | null;
  payLoad: unknown;
}

const started: RunningSandbox[] = [];
async function start(options: Parameters<typeof startSandbox>[0] = {}): Promise<RunningSandbox> {
  const sandbox = await startSandbox(options);
  started.push(sandbox);
  return sandbox;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

describe('isLoopbackHost', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.10', false],
    ['example.com', false],
  ])('%s -> %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});

describe('startSandbox', () => {
  it('listens on 127.0.0.1 with an OS-chosen port and answers with the default credentials', async () => {
    const sandbox = await start({ timeScale: 0.01 });
    expect(sandbox.url).toBe(`http://127.0.0.1:${sandbox.port}`);
    expect(sandbox.port).toBeGreaterThan(0);
    expect(sandbox.host).toBe('127.0.0.1');

    const res = await fetch(`${sandbox.url}/api/v2/account/balance`, { headers: { authorization: basic('user', 'pass') } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Envelope;
    expect(body.responseCode).toBe('000');
    expect(body.responseMessage).toBeNull();
    // Prepaid terms: available funds come back negative.
    expect(typeof body.payLoad).toBe('number');
    expect(body.payLoad as number).toBeLessThan(0);
  });

  it('passes app options through (credentials, behaviour)', async () => {
    const sandbox = await start({ user: 'alice', password: 'wonder-land', behaviour: { initialBalance: 1234.5 } });
    const ok = await fetch(`${sandbox.url}/api/v1/account/balance`, { headers: { authorization: basic('alice', 'wonder-land') } });
    expect(((await ok.json()) as Envelope).payLoad).toBe(-1234.5);
    const wrong = await fetch(`${sandbox.url}/api/v1/account/balance`, { headers: { authorization: basic('user', 'pass') } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate') ?? '').toMatch(/^Basic/);
    await wrong.arrayBuffer();
  });

  it('two sandboxes run side by side on different ports', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    expect(a.port).not.toBe(b.port);
  });

  it('a port in use is a configuration error (exit 2) with a one-line reason', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const error = await startSandbox({ port }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isHarnessError(error)).toBe(true);
      if (isHarnessError(error)) {
        expect(error.code).toBe('GH_ERR_CONFIG');
        expect(error.exitCode).toBe(2);
        expect(error.message).toMatch(/already in use/);
        expect(error.message).not.toContain('\n');
      }
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it('rejects an impossible port before building anything', async () => {
    await expect(startSandbox({ port: 70_000 })).rejects.toMatchObject({ code: 'GH_ERR_CONFIG' });
  });

  it('close() is idempotent and stops accepting connections', async () => {
    const sandbox = await startSandbox();
    await Promise.all([sandbox.close(), sandbox.close()]);
    await sandbox.close();
    await expect(fetch(`${sandbox.url}/api/v2/account/balance`)).rejects.toThrow();
  });

  it('close() does not wait for a trigger-delayed top-up beyond the grace period', async () => {
    // Time scale 1: the 666666 trigger holds the answer for 120 s, far beyond the test timeout.
    const sandbox = await startSandbox({ timeScale: 1, closeGraceMs: 200 });
    const correlationId = `srv-close-${Date.now()}`;
    const pending = fetch(`${sandbox.url}/api/v2/transaction/topup`, {
      method: 'POST',
      headers: { authorization: basic('user', 'pass'), 'content-type': 'application/json' },
      body: JSON.stringify({ skuId: 193, amount: 10, mobile: '18769666666', correlationId }),
    }).then(
      (res) => ({ status: res.status }),
      (error: unknown) => ({ error }),
    );
    // Wait until the sandbox holds the transaction (its status says in progress), so the close really races it.
    let status: Envelope | undefined;
    await waitFor(
      async () => {
        const res = await fetch(`${sandbox.url}/api/v2/transaction/status/${correlationId}`, {
          headers: { authorization: basic('user', 'pass') },
        });
        status = (await res.json()) as Envelope;
        return status.responseCode === '852';
      },
      'the top-up to be held',
      { intervalMs: 20 },
    );
    expect(status?.responseCode).toBe('852');

    await sandbox.close();
    // Settled one way or the other (the app may answer held transactions on close, or the socket is dropped); the test
    // timeout would catch a close that waited the full 120 s.
    const outcome = await pending;
    expect(outcome).toSatisfy((o: object) => 'status' in o || 'error' in o);
  });
});
