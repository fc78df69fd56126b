// Tests of `gateway-harness conformance`: usage errors in-process (exit 2, one line), and the real bin in a child
// process: every verdict path (pass, fail, incomplete, skips accepted, nothing passed, unusable target) and its reports.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PASSWORD_FLAG_WARNING } from '../target-options.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../reports/model.ts';
import { junitXsdErrors } from '../../reports/fixtures/junit-xsd.ts';
import { summaryErrors } from '../../reports/fixtures/schema-check.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { closedPort } from '../fixtures/closed-port.ts';
import { expectUsageError } from '../fixtures/run-cli.ts';
import { tempDirsRemovedAfterAll } from '../fixtures/temp-dirs.ts';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const BIN = resolve(ROOT, 'bin', 'gateway-harness.mjs');
const MARKER = 'Pw-marker-7f3e9a';
const tempDir = tempDirsRemovedAfterAll('gh-conformance-');

/** The child's env: none of the parent's vitest or GATEWAY_* variables leak into the run under test. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(VITEST|TEST$|NODE_ENV$|GATEWAY_)/.test(key)) continue;
    env[key] = value;
  }
  return env;
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
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
    [
      ['--target-env', 'production', '--target', 'http://127.0.0.1:9'],
      /GH_ERR_CHARGES: conformance sends charging operations .* and the target is production/,
    ],
    [
      ['--target-env', 'production', '--target', 'http://127.0.0.1:9', '--allow-charges', '--max-spend', '5', 'USD'],
      /point it at a sandbox environment .*--allow-charges does not apply/,
    ],
    [['--allow-charges'], /--allow-charges needs a spend cap: add --max-spend AMOUNT CURRENCY/],
    [['--max-spend', '5', 'USD'], /--max-spend caps what --allow-charges allows/],
    [['--allow-charges', '--max-spend', 'lots'], /--max-spend must be AMOUNT CURRENCY/],
    [
      ['--target', 'http://127.0.0.1:9', '--sandbox-profile', 'faithful'],
      /--sandbox-profile and --sandbox-seed apply to the embedded sandbox only/,
    ],
    [['--sandbox-profile', 'no-such-profile'], /unknown profile/],
    [['--seed', 'x'], /--seed must be a whole number/],
    [['--settings', '/nonexistent/settings.json'], /cannot read/],
    [['--target', 'https://h/api/v2'], /GH_ERR_CONFIG: config: baseUrl \(from --target\) must be the base URL without a path/],
    [['--time-scale', '0'], /GH_ERR_USAGE: --time-scale must be a number greater than 0/],
    [['--no-such-option'], /GH_ERR_USAGE: unknown option '--no-such-option'/],
  ];
  for (const [args, message] of cases) {
    it(`${args.join(' ')}`, async () => {
      await expectUsageError(['conformance', ...args], message);
    });
  }
});

describe('gateway-harness conformance (child process, embedded sandbox)', () => {
  it('passes against the faithful sandbox: exit 0, PASS first; the report set from the run; no credential anywhere', async () => {
    const dir = tempDir();
    const run = await runCli([
      '--grep',
      '^(TRG-666666-V2|TRG-510-V[12]|PAGE-SIZE-1|PAGE-SIZE-101|AUTH-WRONG-v2\\.account\\.balance) ',
      '--report-dir',
      dir,
      '--user',
      'agent7',
      '--password',
      MARKER,
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(firstLine(run.stdout)).toBe(
      'PASS: conformance: all 6 cases passed [target: the embedded sandbox, profile faithful, not a gateway]',
    );
    expect(run.stdout).toMatch(
      new RegExp(`^reports: ${dir}/report\\.html, ${dir}/summary\\.md, ${dir}/junit\\.xml, ${dir}/summary\\.json$`, 'm'),
    );
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as RunReport;
    expect(summaryErrors(summary)).toEqual([]);
    expect(await junitXsdErrors(junit)).toEqual([]);
    expect(summary).toMatchObject({
      command: 'conformance',
      verdict: 'pass',
      allowSkips: false,
      conformance: { counts: { total: 6, passed: 6 } },
      target: { timeScale: 0.01, embedded: true, profile: 'faithful' },
    });
    expect(summary.verdictLine).toBe(firstLine(run.stdout));
    expect(summary.target.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // One testcase per case id, its group as classname, its measured duration as time (the delay trigger waits > 1 s).
    const cases = summary.conformance?.cases ?? [];
    for (const c of cases) {
      const match = new RegExp(
        `<testcase name="${c.id.replace(/\./g, '\\.')} [^"]*" classname="conformance\\.([A-Z]+)" time="([\\d.]+)"`,
      ).exec(junit);
      expect(match, c.id).not.toBeNull();
      expect(match?.[1]).toBe(c.group);
      expect(match?.[2]).toBe((c.durationMs / 1000).toFixed(3));
    }
    expect(cases.find((c) => c.id === 'TRG-666666-V2')?.durationMs).toBeGreaterThan(1_000);
    expect(junit.match(/<testcase /g)).toHaveLength(6);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8').split('\n')[0]).toBe(
      '## ✅ PASS: conformance: all 6 cases passed \\[target: the embedded sandbox, profile faithful, not a gateway\\]',
    );
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('data-verdict="pass"');
    for (const text of [run.stdout, run.stderr, junit, JSON.stringify(summary)]) expect(text).not.toContain(MARKER);
    // Neither stdout nor stderr is a terminal here: plain timestamped progress lines, no ANSI code anywhere.
    for (const text of [run.stdout, run.stderr]) expect(text).not.toContain('\u001b[');
    expect(run.stderr).toMatch(
      /^\[\d{4}-\d\d-\d\dT[\d:.]+Z\] conformance: done \(\d+\/\d+ groups\) in [\d.]+ s — 6 cases, 0 failed, 0 skipped$/m,
    );
  }, 120_000);

  it('fails against a planted bug: exit 1, FAIL first, expected vs received and the redacted request', async () => {
    const dir = tempDir();
    const run = await runCli([
      '--sandbox-profile',
      'bug-trigger-510-code',
      '--grep',
      '^TRG-510-V2',
      '--report-dir',
      dir,
      '--password',
      MARKER,
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(firstLine(run.stdout)).toBe(
      'FAIL: conformance: 1 of 1 case failed (TRG-510-V2) [target: the embedded sandbox, profile bug-trigger-510-code, not a gateway]',
    );
    expect(run.stdout).toContain('Failed conformance cases (1):');
    expect(run.stdout).toMatch(/TRG-510-V2[\s\S]*expected: HTTP 200, responseCode '510'[\s\S]*received: HTTP 200, responseCode '500'/);
    expect(run.stdout).toMatch(/request:\s+POST http:\/\/127\.0\.0\.1:\d+\/api\/v2\/transaction\/topup/);
    expect(run.stdout).toContain('Authorization: Basic [REDACTED]');
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(/<failure[^>]*>/);
    expect(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'))).toMatchObject({ verdict: 'fail' });
    expect(readFileSync(join(dir, 'summary.md'), 'utf8').split('\n')[0]).toBe(
      '## ❌ FAIL: conformance: 1 of 1 case failed (TRG-510-V2) \\[target: the embedded sandbox, profile bug-trigger-510-code, not a gateway\\]',
    );
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('data-case="TRG-510-V2"');
    const files = ['junit.xml', 'summary.json', 'summary.md', 'report.html'].map((f) => readFileSync(join(dir, f), 'utf8'));
    for (const text of [run.stdout, run.stderr, ...files]) {
      expect(text).not.toContain(MARKER);
      expect(text).not.toContain(Buffer.from(`user:${MARKER}`).toString('base64'));
    }
  }, 120_000);
});

describe('gateway-harness conformance (child process, a separately started sandbox)', () => {
  let sandbox: RunningSandbox;
  let config: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, timeScale: 0.01 });
    // The PIN path moved away on the harness's side only: the target answers 404 there, and the case skips.
    config = join(tempDir(), 'moved-pin.json');
    writeFileSync(config, JSON.stringify({ writePaths: { 'v2.transaction.pin': '/api/v2/transaction/moved-pin' } }));
  });
  afterAll(async () => {
    await sandbox.close();
  });

  const target = (): string[] => ['--target', sandbox.url, '--time-scale', '0.01', '--config', config];
  // #31 item 5: a standalone `gateway-harness sandbox` behind --target is named on the verdict line, as the embedded one.
  const standalone = (): string => ` [target: the harness's sandbox at ${sandbox.url}, profile faithful, not a gateway]`;
  const SKIP_AND_PASS = '^(ENV-v2\\.transaction\\.pin|AUTH-NONE-v2\\.transaction\\.pin) ';

  it('a skip makes the run incomplete: exit 1, INCOMPLETE first, the skip and its reason listed', async () => {
    const dir = tempDir();
    const run = await runCli([...target(), '--grep', SKIP_AND_PASS, '--report-dir', dir]);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(firstLine(run.stdout)).toBe(
      `INCOMPLETE: conformance: 1 of 2 cases skipped, not verified (ENV-v2.transaction.pin)${standalone()}`,
    );
    expect(run.stdout).toMatch(/Not verified \(1\):\n {2}conformance ENV-v2\.transaction\.pin: .*HTTP 404/);
    expect(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'))).toMatchObject({
      verdict: 'incomplete',
      allowSkips: false,
      conformance: { counts: { skipped: 1 } },
    });
  }, 120_000);

  it('--allow-skips: exit 0, PASS first with the skip count; summary.json and junit.xml say it too', async () => {
    const dir = tempDir();
    const run = await runCli([...target(), '--grep', SKIP_AND_PASS, '--report-dir', dir, '--allow-skips']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(firstLine(run.stdout)).toBe(`PASS: conformance: 1 of 2 cases passed, 1 skipped (accepted with --allow-skips)${standalone()}`);
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as RunReport;
    expect(summary).toMatchObject({ verdict: 'pass', allowSkips: true, conformance: { counts: { passed: 1, skipped: 1 } } });
    expect(summary.skipped).toEqual([
      { section: 'conformance', id: 'ENV-v2.transaction.pin', reason: expect.stringContaining('HTTP 404') },
    ]);
    expect(summary.verdictLine).toBe(firstLine(run.stdout));
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuite name="conformance\.ENV"[^>]*skipped="1"/);
    expect(junit).toMatch(
      /<testcase name="ENV-v2\.transaction\.pin [^"]*" classname="conformance\.ENV"[^>]*>\s*<skipped message="[^"]*HTTP 404/,
    );
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('Not verified (1) — accepted with --allow-skips');
  }, 120_000);

  it('nothing passed is never a pass, not even with --allow-skips: exit 1, INCOMPLETE', async () => {
    const run = await runCli([...target(), '--grep', '^ENV-v2\\.transaction\\.pin ', '--report-dir', tempDir(), '--allow-skips']);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(firstLine(run.stdout)).toBe(
      `INCOMPLETE: conformance: no case passed (1 case ran, 1 skipped), nothing was verified${standalone()}`,
    );
  }, 120_000);

  it('a wrong password: one GH_ERR_TARGET line, exit 2, no case run', async () => {
    const run = await runCli([...target(), '--password', MARKER, '--report-dir', tempDir()]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    // The password came as a flag: first the warning that process lists show it, then the one error line.
    const [warning, error, ...rest] = run.stderr.trimEnd().split('\n');
    expect(warning).toBe(PASSWORD_FLAG_WARNING);
    expect(error).toMatch(
      /^gateway-harness: GH_ERR_TARGET: http:\/\/127\.0\.0\.1:\d+: the credentials are refused \(HTTP 401 to GET \/api\/v2\/account\/balance\)/,
    );
    expect(rest).toEqual([]);
    expect(run.stderr).not.toContain(MARKER);
  }, 120_000);
});

describe('gateway-harness conformance (child process, unusable target)', () => {
  it('a closed port: one GH_ERR_TARGET line, exit 2, an unusable verdict in every report', async () => {
    const port = await closedPort();
    const dir = tempDir();
    const run = await runCli(['--target', `http://127.0.0.1:${port}`, '--report-dir', dir]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      new RegExp(`^gateway-harness: GH_ERR_TARGET: http://127\\.0\\.0\\.1:${port}: cannot connect: .*ECONNREFUSED`),
    );
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as RunReport;
    expect(summaryErrors(summary)).toEqual([]);
    expect(summary).toMatchObject({ verdict: 'unusable', exitCode: 2, error: { code: 'GH_ERR_TARGET' } });
    expect(summary.conformance).toBeUndefined();
    expect(readFileSync(join(dir, 'summary.md'), 'utf8').split('\n')[0]).toMatch(/^## ⛔ UNUSABLE TARGET: GH_ERR_TARGET: .*ECONNREFUSED/);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(/<error message="UNUSABLE TARGET: GH_ERR_TARGET: /);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('data-verdict="unusable"');
  }, 120_000);
});
