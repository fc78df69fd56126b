// Tests of `gateway-harness conformance`: usage errors in-process (exit 2, one line), and the real bin in a child
// process against the embedded sandbox — passing (exit 0, JUnit with case ids) and failing (exit 1, expected vs received).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../cli.ts';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const BIN = resolve(ROOT, 'bin', 'gateway-harness.mjs');
const MARKER = 'Pw-marker-7f3e9a';
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gh-conformance-'));
  dirs.push(dir);
  return dir;
}

/** The child's env: none of the parent's vitest or GATEWAY_* variables leak into the run under test. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(VITEST|TEST$|NODE_ENV$|GATEWAY_)/.test(key)) continue;
    env[key] = value;
  }
  return env;
}

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, 'conformance', ...args], { cwd: ROOT, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 110_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

describe('gateway-harness conformance: usage errors (exit 2)', () => {
  const cases: ReadonlyArray<[string[], RegExp]> = [
    [['--api', 'v3'], /--api must be v1, v2 or both/],
    [['--grep', '('], /--grep: not a valid regular expression/],
    [['--grep', 'NO_SUCH_CASE_ID'], /no conformance case matches/],
    [['--env', 'production', '--target', 'http://127.0.0.1:9'], /point it at a sandbox environment/],
    [['--target', 'http://127.0.0.1:9', '--profile', 'faithful'], /--profile and --seed apply to the embedded sandbox only/],
    [['--profile', 'no-such-profile'], /unknown profile/],
    [['--seed', 'x'], /--seed must be a whole number/],
    [['--settings', '/nonexistent/settings.json'], /cannot read/],
  ];
  for (const [args, message] of cases) {
    it(`${args.join(' ')}`, async () => {
      const lines: string[] = [];
      const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
        lines.push(String(chunk));
        return true;
      });
      try {
        expect(await main(['node', 'gateway-harness', 'conformance', ...args])).toBe(2);
      } finally {
        spy.mockRestore();
        process.exitCode = undefined;
      }
      expect(lines.join('')).toMatch(message);
      expect(lines.join('').trim().split('\n')).toHaveLength(1);
    });
  }
});

describe('gateway-harness conformance (child process, embedded sandbox)', () => {
  it('passes against the faithful sandbox: exit 0, junit.xml with case ids, summary.json; no credential anywhere', async () => {
    const dir = tempDir();
    const run = await runCli(['--grep', '^(TRG-510-V[12]|PAGE-SIZE-1|PAGE-SIZE-101|AUTH-WRONG-v2\\.account\\.balance) ', '--report-dir', dir, '--user', 'agent7', '--password', MARKER]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    for (const id of ['TRG-510-V1', 'TRG-510-V2', 'PAGE-SIZE-1', 'PAGE-SIZE-101', 'AUTH-WRONG-v2.account.balance']) expect(junit).toContain(id);
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as { counts: { total: number; passed: number }; target: string; timeScale: number };
    expect(summary.counts).toMatchObject({ total: 5, passed: 5 });
    expect(summary.target).toMatch(/^embedded sandbox \(http:\/\/127\.0\.0\.1:\d+/);
    expect(summary.timeScale).toBe(0.01);
    for (const text of [run.stdout, run.stderr, junit, JSON.stringify(summary)]) expect(text).not.toContain(MARKER);
    expect(run.stdout).toMatch(/conformance: 5 passed, 0 failed, 0 skipped of 5 cases/);
  }, 120_000);

  it('fails against a planted bug: exit 1, expected vs received and the redacted request', async () => {
    const dir = tempDir();
    const run = await runCli(['--profile', 'bug-trigger-510-code', '--grep', '^TRG-510-V2', '--report-dir', dir, '--password', MARKER]);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toContain('Failed cases (1):');
    expect(run.stdout).toMatch(/TRG-510-V2[\s\S]*expected: HTTP 200, responseCode '510'[\s\S]*received: HTTP 200, responseCode '500'/);
    expect(run.stdout).toMatch(/request: +POST http:\/\/127\.0\.0\.1:\d+\/api\/v2\/transaction\/topup/);
    expect(run.stdout).toContain('Authorization: Basic [REDACTED]');
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(/<failure[^>]*>/);
    for (const text of [run.stdout, run.stderr, readFileSync(join(dir, 'junit.xml'), 'utf8'), readFileSync(join(dir, 'summary.json'), 'utf8')]) {
      expect(text).not.toContain(MARKER);
      expect(text).not.toContain(Buffer.from(`user:${MARKER}`).toString('base64'));
    }
  }, 120_000);
});
