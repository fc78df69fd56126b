// Tests of `gateway-harness gate`, the real bin in a child process on the embedded sandbox: a pass (conformance, load,
// drift against a recorded baseline) and a planted bug, each visible in every report and in the browser; an unusable
// target (one line, exit 2, reports saying so); usage errors; and no credential in any output file or stream.
import { spawn } from 'node:child_process';
import { mdText } from '../../reports/summary-md.ts';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ARTIFACT_DIR, CHROMIUM, chartPixels, openReport } from '../../reports/fixtures/browser.ts';
import { junitXsdErrors } from '../../reports/fixtures/junit-xsd.ts';
import { summaryErrors } from '../../reports/fixtures/schema-check.ts';
import type { RunReport } from '../../reports/model.ts';
import { closedPort } from '../fixtures/closed-port.ts';
import { expectUsageError } from '../fixtures/run-cli.ts';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const BIN = resolve(ROOT, 'bin', 'gateway-harness.mjs');
const USER = 'gate-agent-31';
const PASSWORD = 'Gate-Leak-Marker-9f2c';
const TOKEN = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');
/** Every form a credential can take in text: the password, user:password, its base64 token and the header value. */
const FORMS: Readonly<Record<string, string>> = {
  password: PASSWORD,
  'user:password': `${USER}:${PASSWORD}`,
  'base64 token': TOKEN,
  'Basic header value': `Basic ${TOKEN}`,
};
const RUN_TIMEOUT_MS = 150_000;

const work = mkdtempSync(join(tmpdir(), 'gh-gate-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Cli {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The child's env: none of the parent's vitest or GATEWAY_* variables, plus the run's own. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^(VITEST|TEST$|NODE_ENV$|GATEWAY_)/.test(key)) env[key] = value;
  return { ...env, ...extra };
}

function cli(args: readonly string[], env: Record<string, string> = {}): Promise<Cli> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: work, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS - 10_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

/** Every file under the report dir as text (gzip files decompressed: the NDJSON stream is one). */
function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else
        out[path.slice(dir.length + 1)] = name.endsWith('.gz')
          ? gunzipSync(readFileSync(path)).toString('utf8')
          : readFileSync(path, 'utf8');
    }
  };
  walk(dir);
  return out;
}

function expectNoCredential(run: Cli, files: Record<string, string>): void {
  const texts: Record<string, string> = { stdout: run.stdout, stderr: run.stderr, ...files };
  for (const [where, text] of Object.entries(texts)) {
    for (const [form, secret] of Object.entries(FORMS)) expect(text.includes(secret), `${where} contains the ${form}`).toBe(false);
  }
}

const firstLine = (text: string): string => text.split('\n')[0] ?? '';
const read = (dir: string, file: string): string => readFileSync(join(dir, file), 'utf8');

describe('gateway-harness gate on the embedded sandbox', () => {
  const baseline = join(work, 'baseline');
  const passDir = join(work, 'pass');
  const failDir = join(work, 'fail');
  let pass: Cli;
  let fail: Cli;

  beforeAll(async () => {
    // The baseline of the same sandbox, recorded with the same credentials (from the environment).
    const recorded = await cli(['baseline', 'record', '--out-dir', baseline], { GATEWAY_USER: USER, GATEWAY_PASSWORD: PASSWORD });
    expect(recorded.code, recorded.stderr).toBe(0);
    // Credentials from the environment here, from flags below: both paths reach every part and no output.
    pass = await cli(['gate', '--baseline', baseline, '--report-dir', passDir], { GATEWAY_USER: USER, GATEWAY_PASSWORD: PASSWORD });
    fail = await cli([
      'gate',
      '--sandbox-profile',
      'bug-trigger-510-code',
      '--api',
      'v2',
      '--report-dir',
      failDir,
      '--user',
      USER,
      '--password',
      PASSWORD,
    ]);
  }, 3 * RUN_TIMEOUT_MS);

  it('passes: exit 0, the verdict first naming every part, the report paths last', () => {
    expect(pass.code, pass.stdout + pass.stderr).toBe(0);
    expect(firstLine(pass.stdout)).toMatch(
      /^PASS: conformance: all \d+ cases passed; load mixed\/smoke \((k6 v[\d.]+|node)\): \d+ requests, \d+ thresholds met, \d+ checks passed; drift: no breaking change in 48 operations \[target: the embedded sandbox, profile faithful, not a gateway\]$/,
    );
    expect(pass.stdout.trimEnd().split('\n').at(-1)).toBe(
      `reports: ${passDir}/report.html, ${passDir}/summary.md, ${passDir}/junit.xml, ${passDir}/summary.json`,
    );
  });

  it("the README's example verdict line has this run's figures (requests and checks vary with polling: within 15 %)", () => {
    const figures = (line: string): number[] => [...line.matchAll(/(\d+) (cases|requests|thresholds|checks)/g)].map((m) => Number(m[1]));
    const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
    const example = /^PASS: conformance: .*$/m.exec(readme)?.[0] ?? '';
    const [cases, requests, thresholds, checks] = figures(example);
    const [runCases, runRequests, runThresholds, runChecks] = figures(firstLine(pass.stdout));
    expect([cases, thresholds]).toEqual([runCases, runThresholds]);
    expect(Math.abs((requests ?? 0) - (runRequests ?? 0))).toBeLessThanOrEqual(0.15 * (runRequests ?? 0));
    expect(Math.abs((checks ?? 0) - (runChecks ?? 0))).toBeLessThanOrEqual(0.15 * (runChecks ?? 0));
  });

  it('shows progress on stderr as plain timestamped lines (not a terminal), one task per part, no ANSI code', () => {
    expect(pass.stderr).not.toContain('\u001b[');
    for (const line of pass.stderr.trimEnd().split('\n')) expect(line).toMatch(/^\[\d{4}-\d\d-\d\dT[\d:.]+Z\] /);
    expect(pass.stderr).toMatch(/\] conformance: done \(\d+\/\d+ groups\) in [\d.]+ s/);
    expect(pass.stderr).toMatch(/\] load mixed\/smoke: done \(100%\) in [\d.]+ s/);
    expect(pass.stderr).toMatch(/\] drift: done \(48\/48 operations\) in [\d.]+ s/);
  });

  it('writes one report set from the run: summary.json (schema), junit.xml (XSD), summary.md (verdict first), report.html', async () => {
    const summary = JSON.parse(read(passDir, 'summary.json')) as RunReport;
    expect(summaryErrors(summary)).toEqual([]);
    expect(summary).toMatchObject({
      command: 'gate',
      verdict: 'pass',
      exitCode: 0,
      verdictLine: firstLine(pass.stdout),
      target: { embedded: true, profile: 'faithful', api: 'both' },
    });
    // The faithful sandbox serves no fault: the only ones are the client timeouts the delay-trigger cases provoke.
    expect(summary.faults).toMatchObject({ connection: 0, 'server-error': 0, malformed: 0 });
    expect(summary.faults?.timeout).toBeGreaterThan(0);
    expect(summary.faults?.total).toBe(summary.faults?.timeout);
    expect(summary.parts.map((p) => [p.section, p.verdict])).toEqual([
      ['conformance', 'pass'],
      ['load', 'pass'],
      ['drift', 'pass'],
    ]);
    // The charts come from this run's own metric stream.
    expect(summary.load?.series?.requests.reduce((a, b) => a + b, 0)).toBe(summary.load?.requests.count);
    expect(summary.artifacts).toMatchObject({
      summaryJson: 'summary.json',
      junitXml: 'junit.xml',
      summaryMd: 'summary.md',
      reportHtml: 'report.html',
      k6Summary: 'k6-summary.json',
      metricsPerSecond: 'metrics-per-second.ndjson.gz',
    });
    const junit = read(passDir, 'junit.xml');
    expect(await junitXsdErrors(junit)).toEqual([]);
    expect(junit).toMatch(/<testsuite name="conformance\.TRG"/);
    expect(junit).toMatch(/<testsuite name="load\.mixed\.smoke"/);
    expect(junit).toMatch(/<testsuite name="drift"/);
    // summary.md escapes the verdict line as GFM text (the [target: ...] note's brackets among it).
    expect(firstLine(read(passDir, 'summary.md'))).toBe(`## ✅ ${mdText(summary.verdictLine)}`);
    expect(read(passDir, 'report.html')).toContain('data-verdict="pass"');
  });

  it('fails against a planted bug: exit 1, the failed case first on stdout and in every report', () => {
    expect(fail.code, fail.stdout + fail.stderr).toBe(1);
    expect(firstLine(fail.stdout)).toMatch(/^FAIL: conformance: 2 of \d+ cases failed \(TRG-510-V2, POLL-MIXED-V2\); load mixed\/smoke /);
    expect(fail.stdout).toMatch(
      /Failed conformance cases \(2\):\n {2}TRG-510-V2: [\s\S]*expected: HTTP 200, responseCode '510'[\s\S]*received: HTTP 200, responseCode '500'/,
    );
    const summary = JSON.parse(read(failDir, 'summary.json')) as RunReport;
    expect(summaryErrors(summary)).toEqual([]);
    expect([summary.verdict, summary.exitCode, summary.target.profile]).toEqual(['fail', 1, 'bug-trigger-510-code']);
    expect(summary.conformance?.cases.find((c) => c.id === 'TRG-510-V2')?.status).toBe('failed');
    expect(read(failDir, 'junit.xml')).toMatch(
      /<testcase name="TRG-510-V2 [^"]*" classname="conformance\.TRG"[^>]*>\s*<failure message="expected responseCode &apos;510&apos;/,
    );
    expect(firstLine(read(failDir, 'summary.md'))).toMatch(/^## ❌ FAIL: conformance: 2 of \d+ cases failed \(TRG-510-V2, POLL-MIXED-V2\)/);
    expect(read(failDir, 'summary.md')).toContain('**TRG-510-V2**');
    expect(read(failDir, 'report.html')).toContain('data-case="TRG-510-V2"');
  });

  it('no credential (password, user:password, its base64 token, the Basic header) in any file of the report dirs or either stream', () => {
    const passFiles = filesOf(passDir);
    const failFiles = filesOf(failDir);
    // The load part's own files are searched too: its k6 summary data, the NDJSON metric stream, and (a baseline was
    // given) the bundle built with the baseline's compiled payload validators.
    expect(Object.keys(passFiles).sort()).toEqual([
      'junit.xml',
      'k6-bundle/mixed.js',
      'k6-summary.json',
      'metrics-per-second.ndjson.gz',
      'report.html',
      'summary.json',
      'summary.md',
    ]);
    expect(passFiles['metrics-per-second.ndjson.gz']).toMatch(/"metric":"http_req_duration"/);
    expectNoCredential(pass, passFiles);
    expectNoCredential(fail, failFiles);
    // The run really used the credential: the sandbox refuses anything else, and the AUTH cases passed.
    expect(
      JSON.parse(passFiles['summary.json'] ?? '{}').conformance.cases.find((c: { id: string }) => c.id === 'AUTH-WRONG-v2.account.balance')
        .status,
    ).toBe('passed');
  });

  describe.skipIf(CHROMIUM === undefined)('report.html in headless Chromium', () => {
    it.each([
      ['pass', 'PASS'],
      ['fail', 'FAIL'],
    ] as const)(
      'the %s report loads offline with no console error, draws its charts, and is kept as a screenshot',
      async (name, word) => {
        const opened = await openReport(join(work, name, 'report.html'), join(work, `profile-${name}`));
        try {
          expect(opened.consoleProblems).toEqual([]);
          expect(opened.requests).toEqual([opened.url]);
          expect(await opened.page.locator('header.banner .word').textContent()).toContain(word);
          const charts = await chartPixels(opened.page);
          expect(charts.map((c) => c.chart)).toEqual(['latency-overall', 'latency-operations', 'throughput', 'outcomes']);
          for (const c of charts) expect(c.coloured, `${c.chart} drew coloured pixels`).toBeGreaterThan(100);
          if (name === 'fail') expect(await opened.page.locator('article.case[data-case="TRG-510-V2"]').isVisible()).toBe(true);
          mkdirSync(ARTIFACT_DIR, { recursive: true });
          await opened.page.screenshot({ path: join(ARTIFACT_DIR, `gate-${name}.png`) });
          await opened.page.screenshot({ path: join(ARTIFACT_DIR, `gate-${name}-full.png`), fullPage: true });
        } finally {
          await opened.close();
        }
      },
      60_000,
    );
  });
});

describe('gateway-harness gate against an unusable target', () => {
  it(
    'stops at once with one line (exit 2) and still writes the reports, saying so',
    async () => {
      const port = await closedPort();
      const dir = join(work, 'unusable');
      const run = await cli(['gate', '--target', `http://127.0.0.1:${port}`, '--report-dir', dir], {
        GATEWAY_USER: USER,
        GATEWAY_PASSWORD: PASSWORD,
      });
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.trimEnd().split('\n')).toEqual([
        expect.stringMatching(
          new RegExp(
            `^gateway-harness: GH_ERR_TARGET: http://127\\.0\\.0\\.1:${port}: cannot connect: .*ECONNREFUSED.* \\(reports: ${dir}/report\\.html\\)$`,
          ),
        ),
      ]);
      const summary = JSON.parse(read(dir, 'summary.json')) as RunReport;
      expect(summaryErrors(summary)).toEqual([]);
      expect(summary).toMatchObject({ command: 'gate', verdict: 'unusable', exitCode: 2, error: { code: 'GH_ERR_TARGET' }, parts: [] });
      expect(firstLine(read(dir, 'summary.md'))).toMatch(/^## ⛔ UNUSABLE TARGET: GH_ERR_TARGET: /);
      expect(read(dir, 'junit.xml')).toMatch(/<testcase name="gate run" classname="gate"[^>]*>\s*<error message="UNUSABLE TARGET: /);
      expect(read(dir, 'report.html')).toContain('data-verdict="unusable"');
      expectNoCredential(run, filesOf(dir));
    },
    RUN_TIMEOUT_MS,
  );
});

describe('gateway-harness gate: usage errors (exit 2, one line, before anything runs)', () => {
  const cases: ReadonlyArray<[string[], RegExp]> = [
    [['--api', 'v3'], /GH_ERR_USAGE: --api must be v1, v2 or both/],
    [['--engine', 'jmeter'], /GH_ERR_USAGE: --engine must be one of auto, k6, node/],
    [['--baseline', '/nonexistent/baseline'], /GH_ERR_USAGE: --baseline: no baseline in \/nonexistent\/baseline/],
    [
      ['--target-env', 'production', '--target', 'http://127.0.0.1:9'],
      /GH_ERR_USAGE: gate sends top-ups .* point it at a sandbox environment/,
    ],
    [
      ['--target', 'http://127.0.0.1:9', '--sandbox-profile', 'faithful'],
      /GH_ERR_USAGE: --sandbox-profile and --sandbox-seed apply to the embedded sandbox only/,
    ],
    [['--sandbox-profile', 'no-such-profile'], /GH_ERR_USAGE: --sandbox-profile: unknown profile/],
  ];
  for (const [args, message] of cases) {
    it(args.join(' '), async () => {
      await expectUsageError(['gate', ...args], message);
    });
  }

  // #31 item 5: an empty GATEWAY_BASE_URL used to start the embedded sandbox and say PASS about it.
  it('GATEWAY_BASE_URL present but empty (not the embedded sandbox)', async () => {
    vi.stubEnv('GATEWAY_BASE_URL', '');
    try {
      await expectUsageError(['gate'], /GH_ERR_USAGE: GATEWAY_BASE_URL is set but empty/);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('is what `npm start` runs', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe('node bin/gateway-harness.mjs gate');
  });
});
