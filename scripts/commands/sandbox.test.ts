// Tests of `gateway-harness sandbox`: the real bin in a child process (first stdout line, Basic auth, SIGTERM/SIGINT exit 0)
// and the flag table in-process (bad values exit 2 with one line, --help lists every flag, --list-profiles).
import { spawn } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../cli.ts';
import { listProfiles } from '../../sandbox/profiles/registry.ts';
import { PARAMETERIZED_PROFILES } from '../../sandbox/profiles/parameterized.ts';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const BIN = resolve(ROOT, 'bin', 'gateway-harness.mjs');
const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

interface Started {
  child: ChildProcessWithoutNullStreams;
  firstLine: string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr: () => string;
}

async function spawnSandbox(args: string[]): Promise<Started> {
  const child = spawn(process.execPath, [BIN, 'sandbox', ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('exit', (code, signal) => done({ code, signal })),
  );
  const lines = createInterface({ input: child.stdout });
  const firstLine = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no stdout line within 20 s; stderr: ${stderr}`)), 20_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      done(line);
    });
    void exit.then(({ code }) => fail(new Error(`sandbox exited (${String(code)}) before printing; stderr: ${stderr}`)));
  });
  return { child, firstLine, exit, stderr: () => stderr };
}

const withTimeout = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([promise, new Promise<never>((_, fail) => setTimeout(() => fail(new Error(`${what} took over ${ms} ms`)), ms).unref())]);

describe('gateway-harness sandbox (child process)', () => {
  it('prints its URL first, answers balance with Basic auth, and exits 0 on SIGTERM', async () => {
    const { child, firstLine, exit } = await spawnSandbox(['--port', '0', '--time-scale', '0.01']);
    const match = /^sandbox listening on (http:\/\/127\.0\.0\.1:(\d+))$/.exec(firstLine);
    expect(match, firstLine).not.toBeNull();
    const url = match?.[1] ?? '';
    expect(Number(match?.[2])).toBeGreaterThan(0);

    const res = await fetch(`${url}/api/v2/account/balance`, { headers: { authorization: basic('user', 'pass') } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { responseCode: string; payLoad: unknown };
    expect(body.responseCode).toBe('000');
    expect(typeof body.payLoad).toBe('number');

    child.kill('SIGTERM');
    expect(await withTimeout(exit, 15_000, 'shutdown')).toEqual({ code: 0, signal: null });
  });

  it('honours --user/--password and exits 0 on SIGINT', async () => {
    const { child, firstLine, exit, stderr } = await spawnSandbox([
      '--port',
      '0',
      '--user',
      'alice',
      '--password',
      'wonder-land',
      '--seed',
      '7',
    ]);
    const url = firstLine.replace('sandbox listening on ', '');
    const ok = await fetch(`${url}/api/v1/account/balance`, { headers: { authorization: basic('alice', 'wonder-land') } });
    expect(ok.status).toBe(200);
    await ok.arrayBuffer();
    const wrong = await fetch(`${url}/api/v1/account/balance`, { headers: { authorization: basic('user', 'pass') } });
    expect(wrong.status).toBe(401);
    await wrong.arrayBuffer();

    child.kill('SIGINT');
    expect(await withTimeout(exit, 15_000, 'shutdown')).toEqual({ code: 0, signal: null });
    expect(stderr()).not.toContain('wonder-land');
  });

  it('--funds sets the starting balance (prepaid: served negated)', async () => {
    const { child, firstLine, exit } = await spawnSandbox(['--port', '0', '--funds', '25.5']);
    const url = firstLine.replace('sandbox listening on ', '');
    const res = await fetch(`${url}/api/v2/account/balance`, { headers: { authorization: basic('user', 'pass') } });
    expect(((await res.json()) as { payLoad: unknown }).payLoad).toBe(-25.5);
    child.kill('SIGTERM');
    expect(await withTimeout(exit, 15_000, 'shutdown')).toEqual({ code: 0, signal: null });
  });

  it('restarts on the same port right after a kill -9 with a connection open (no EADDRINUSE)', async () => {
    const first = await spawnSandbox(['--port', '0']);
    const url = first.firstLine.replace('sandbox listening on ', '');
    const port = new URL(url).port;
    // A kept-alive connection is open when the process dies, as in a run that loses its sandbox mid-flight.
    const agent = new Agent({ keepAlive: true });
    await new Promise<void>((done, fail) => {
      const req = httpRequest(`${url}/api/v2/account/balance`, { agent, headers: { authorization: basic('user', 'pass') } }, (res) => {
        res.resume();
        res.on('end', () => done());
      });
      req.on('error', fail);
      req.end();
    });
    first.child.kill('SIGKILL');
    expect(await withTimeout(first.exit, 15_000, 'kill')).toEqual({ code: null, signal: 'SIGKILL' });
    agent.destroy();

    const second = await spawnSandbox(['--port', port]);
    expect(second.firstLine).toBe(`sandbox listening on ${url}`);
    const res = await fetch(`${url}/api/v2/account/balance`, { headers: { authorization: basic('user', 'pass') } });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    second.child.kill('SIGTERM');
    expect(await withTimeout(second.exit, 15_000, 'shutdown')).toEqual({ code: 0, signal: null });
  });

  it('a bad flag value exits 2 with one line on stderr and nothing on stdout', async () => {
    const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '99999'], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await withTimeout(new Promise<number | null>((done) => child.on('exit', (c) => done(c))), 20_000, 'bad flag run');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/GH_ERR_USAGE: --port must be at most 65535/);
  });
});

/** Runs the CLI in-process and captures what it writes. */
async function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += chunk.toString();
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += chunk.toString();
    return true;
  });
  try {
    const code = await main(['node', 'gateway-harness', 'sandbox', ...args]);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('gateway-harness sandbox flags (in-process)', () => {
  const bad: Array<[string[], RegExp]> = [
    [['--port', 'abc'], /--port must be a whole number/],
    [['--port', '-1'], /--port must be a whole number/],
    [['--port', '65536'], /--port must be at most 65535/],
    [['--time-scale', '-1'], /--time-scale must be a number greater than 0/],
    [['--time-scale', 'fast'], /--time-scale must be a number greater than 0/],
    [['--time-scale', '0'], /--time-scale must be a number greater than 0/],
    [['--time-scale', '1001'], /--time-scale must be at most 1000/],
    [['--mode', 'staging'], /--mode must be sandbox or production/],
    [['--seed', '1.5'], /--seed must be a whole number/],
    [['--seed', '99999999999'], /--seed must be at most/],
    [['--user', 'a:b'], /--user must not contain ":"/],
    [['--password', ''], /--password must not be empty/],
    [['--host', 'bad host!'], /--host must be a host name or an IP address/],
    [['--sandbox-profile', 'no-such-profile'], /unknown profile "no-such-profile" \(known: faithful, slow/],
    [
      ['--sandbox-profile', 'slow-op:v2.catalog.skus:fast'],
      /--sandbox-profile: sandbox profile 'slow-op:v2\.catalog\.skus:fast': 'fast' is not a percentage/,
    ],
    [['--funds', 'lots'], /--funds must be a non-negative amount/],
    [['--funds', '-5'], /--funds must be a non-negative amount/],
    [['--funds', '1e20'], /--funds must be at most 1e15/],
    [['--sandbox-profile', 'faults-mixed', '--fault-rate', '1.5'], /--fault-rate must be a fraction 0\.\.1/],
    [['--fault-rate', '0.2'], /--fault-rate and --fault-slow-ms need a fault profile/],
    [['--sandbox-profile', 'faults-slow', '--fault-slow-ms', 'soon'], /--fault-slow-ms must be a whole number/],
  ];
  it.each(bad)('%j exits 2 with one line', async (args, message) => {
    const { code, stdout, stderr } = await runCli(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^gateway-harness: GH_ERR_USAGE: /);
    expect(stderr).toMatch(message);
  });

  it('--help lists every flag', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    for (const flag of [
      '--port',
      '--host',
      '--time-scale',
      '--mode',
      '--user',
      '--password',
      '--seed',
      '--sandbox-profile',
      '--funds',
      '--faults',
      '--fault-rate',
      '--fault-slow-ms',
      '--list-profiles',
    ]) {
      expect(stdout).toContain(flag);
    }
  });

  it('--list-profiles prints every registry profile and exits 0 without listening', async () => {
    const { code, stdout } = await runCli(['--list-profiles']);
    expect(code).toBe(0);
    const names = stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t')[0]);
    // The registry's profiles, then the families named with their parameters (slow-op, fail-op).
    expect(names).toEqual([...listProfiles().map((p) => p.name), ...PARAMETERIZED_PROFILES.map((f) => f.usage)]);
    expect(names).toEqual(expect.arrayContaining(['benign-envelope-fields', 'benign-combined', 'faults-mixed', 'faults-status']));
    expect(stdout).toMatch(/^benign-list-order\t.*\[benign: .+\]$/m);
    expect(stdout).not.toContain('listening');
  });
});
