// `load --script`: the example script (examples/topup-think-time.load.ts) on the Node engine and on every real k6
// found, with the report set and the counts the sandbox served; the one-line refusals of a broken, missing or
// production-unsafe script.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TargetConfig } from '../../api/target-config.ts';
import { loadConfig } from '../../config/load-config.ts';
import { isHarnessError } from '../../api/errors.ts';
import { LOAD_SANDBOX_FUNDS } from '../../sandbox/behaviour.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { runCli } from '../../scripts/fixtures/run-cli.ts';
import { runLoadReported, type ReportedLoadRun } from '../fixtures/load-run.ts';
import { supportedK6s } from './k6-binaries.ts';
import { parseLoadFlags } from './load-options.ts';
import { checkScriptNetwork, prepareUserScript, type UserScript } from './user-script.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLE = join(ROOT, 'examples', 'topup-think-time.load.ts');
const binaries = supportedK6s();
if (binaries.length < 2)
  console.warn(
    `load/runner/user-script.test.ts: ${binaries.length === 0 ? 'no k6 found' : `only ${binaries[0]?.version} found`}: the example on real k6 is SKIPPED where absent (put k6 on PATH, or set K6_BIN; k6-latest beside it for the newest)`,
  );

const workDir = mkdtempSync(join(tmpdir(), 'gh-user-script-'));
let sandbox: RunningSandbox;
let proxy: Server;
let proxyUrl: string;
/** What the sandbox served to the engine, counted in front of it (k6 and the Node engine send k6's User-Agent; the harness's own reads do not). */
let served = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ host: '127.0.0.1', port: 0, timeScale: 0.01, behaviour: { initialBalance: LOAD_SANDBOX_FUNDS } });
  const upstream = new URL(sandbox.url);
  proxy = createServer((req, res) => {
    if (/\bk6\//.test(req.headers['user-agent'] ?? '')) served += 1;
    const out = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await sandbox.close();
  rmSync(workDir, { recursive: true, force: true });
});

const config = (): TargetConfig => loadConfig({ cwd: workDir, env: { GATEWAY_TIME_SCALE: '0.01' } });

/** `load --script <file> --profile smoke` on one engine (k6 at `k6Path`) through the counting proxy, on one engine thread. */
async function runScript(
  file: string,
  script: UserScript,
  run: { readonly engine: 'node' | 'k6'; readonly k6Path: string | undefined; readonly api: string; readonly reportDir: string },
): Promise<ReportedLoadRun> {
  const flags = parseLoadFlags({ script: file, profile: 'smoke', engine: run.engine, api: run.api, reportDir: run.reportDir }, script);
  return runLoadReported(flags, config(), {
    cwd: workDir,
    env: { ...process.env, ...(run.k6Path === undefined ? {} : { K6_BIN: run.k6Path }) },
    sandbox: { url: proxyUrl, profile: 'faithful' },
    engineWorkers: 1,
  });
}

async function runExample(engine: 'node' | 'k6', label: string, k6Path?: string): Promise<void> {
  const script = await prepareUserScript(EXAMPLE, workDir);
  try {
    const before = served;
    const r = await runScript(EXAMPLE, script, { engine, k6Path, api: 'both', reportDir: join(workDir, label) });
    expect(r.exitCode, r.output()).toBe(0);
    expect(r.report).toMatchObject({ verdict: 'pass', load: { scenario: 'topup-think-time', profile: 'smoke', setupCompleted: true } });
    // Every request the run counted reached the sandbox, and nothing else did.
    expect(r.report.load?.requests.count).toBe(served - before);
    expect(Object.keys(r.report.artifacts ?? {})).toEqual(expect.arrayContaining(['k6Summary', 'metricsPerSecond']));
    const thresholds = r.report.load?.thresholds.map((t) => t.metric) ?? [];
    expect(thresholds).toEqual(
      expect.arrayContaining([
        'http_req_duration{operation:v2.transaction.topup}',
        'http_req_duration{operation:v1.account.balance}',
        'gateway_unresolved',
      ]),
    );
    expect(r.report.load?.checks.every((c) => c.fails === 0 && c.passes > 0)).toBe(true);
  } finally {
    script.dispose();
  }
}

describe('load --script: the example', () => {
  it('runs on the Node engine with the report set, thresholds of its declared operations and the counts the sandbox served', async () => {
    await runExample('node', 'node');
  }, 180_000);

  it.each(binaries.map((b) => [b.version, b.path] as const))(
    'runs on real k6 %s the same way',
    async (version, path) => {
      await runExample('k6', `k6-${version}`, path);
    },
    180_000,
  );
});

/** A script that reads a file beside it in its init context, as k6 users do: `open('./flow.json')`. */
function scriptOpeningAFile(): string {
  const dir = mkdtempSync(join(workDir, 'own-'));
  writeFileSync(join(dir, 'flow.json'), JSON.stringify({ name: 'balance-from-file' }));
  const file = join(dir, 'balance.load.ts');
  writeFileSync(
    file,
    [
      "import { defineScript, read } from 'gateway-harness/load';",
      'declare function open(path: string): string;',
      "const flow = JSON.parse(open('./flow.json')) as { name: string };",
      "const test = defineScript({ name: flow.name, operations: ['account.balance'], async iteration(ctx) { await read(ctx, 'v2.account.balance'); } });",
      'export const options = test.options;',
      'export const setup = test.setup;',
      'export const handleSummary = test.handleSummary;',
      'export default test.iteration;',
      '',
    ].join('\n'),
  );
  return file;
}

describe('load --script: open() finds a file beside the script, as in k6', () => {
  it.each([['node', undefined] as const, ...binaries.map((b) => [`k6 ${b.version}`, b.path] as const)])(
    'on %s, and leaves nothing beside it',
    async (label, k6Path) => {
      const file = scriptOpeningAFile();
      const script = await prepareUserScript(file, workDir);
      try {
        // The declaration itself came from the file open() read (the Node engine runs the init context to read it).
        expect(script.meta.name).toBe('balance-from-file');
        const reportDir = join(workDir, `open-${label.replace(/\W/g, '-')}`);
        const r = await runScript(file, script, { engine: k6Path === undefined ? 'node' : 'k6', k6Path, api: 'v2', reportDir });
        expect(r.exitCode, r.output()).toBe(0);
        expect(r.report.load?.requests.count).toBeGreaterThan(0);
      } finally {
        script.dispose();
      }
      expect(readdirSync(dirname(file)).sort()).toEqual(['balance.load.ts', 'flow.json']);
    },
    180_000,
  );
});

describe('load --script: one line and exit 2 before anything is sent', () => {
  it('a missing file', async () => {
    const r = await runCli(['load', '--script', join(workDir, 'nowhere.load.ts')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^gateway-harness: GH_ERR_USAGE: --script \S*nowhere\.load\.ts: no such file$/),
    ]);
  });

  it('a TypeScript syntax error, with its file, line and column', async () => {
    const broken = join(workDir, 'broken.load.ts');
    writeFileSync(
      broken,
      "import { defineScript } from 'gateway-harness/load';\nconst test = defineScript({ name: 'x', operations: [] as string[], async iteration() {} }\nexport default test.iteration;\n",
    );
    const r = await runCli(['load', '--script', broken]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^gateway-harness: GH_ERR_USAGE: --script \S*broken\.load\.ts:3:1: Expected "\)" but found "export"$/),
    ]);
  });

  it('a script that does not use defineScript, and a declaration naming an unknown operation', async () => {
    const plain = join(workDir, 'plain.js');
    writeFileSync(plain, 'export default function () {}\n');
    const r = await runCli(['load', '--script', plain]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--script \S*plain\.js: it does not define its test with defineScript from 'gateway-harness\/load'/);
    const unknown = join(workDir, 'unknown.load.ts');
    writeFileSync(
      unknown,
      "import { defineScript } from 'gateway-harness/load';\nconst test = defineScript({ name: 'u', operations: ['catalog.nope'], async iteration() {} });\nexport const options = test.options;\nexport default test.iteration;\n",
    );
    const u = await runCli(['load', '--script', unknown]);
    expect(u.code).toBe(2);
    expect(u.stderr).toMatch(/its init context failed: defineScript u: unknown operation purpose\(s\) catalog\.nope/);
  });

  it('--scenario and --script together', async () => {
    const r = await runCli(['load', '--scenario', 'lookup', '--script', EXAMPLE]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('give --scenario NAME or --script FILE, not both');
  });
});

describe('load --script: a script that imports k6/http itself', () => {
  it('is refused against production (its requests would bypass the ledger) and said elsewhere', async () => {
    const script = await prepareUserScript(join(ROOT, 'load', 'fixtures', 'scripts', 'raw-http.js'), workDir);
    try {
      expect(script.networkModules).toEqual(['k6/http']);
      expect(script.meta.name).toBe('raw-http');
      let refusal: unknown;
      try {
        checkScriptNetwork(script, 'production');
      } catch (error) {
        refusal = error;
      }
      expect(isHarnessError(refusal) && refusal.code === 'GH_ERR_CHARGES' && refusal.exitCode === 2).toBe(true);
      expect(checkScriptNetwork(script, 'sandbox')).toMatch(/imports k6\/http itself: requests sent that way have no money guard/);
    } finally {
      script.dispose();
    }
  });

  it('loading k6/http by a name computed at run time (require(`k6/${x}`)): the same refusal, naming the load', async () => {
    const script = await prepareUserScript(join(ROOT, 'load', 'fixtures', 'scripts', 'computed-charge.js'), workDir);
    try {
      expect(script.networkModules).toEqual(['require(`k6/${which}`) in computed-charge.js']);
      expect(() => checkScriptNetwork(script, 'production')).toThrow(
        /^script computed-charge loads a module named at run time \(require\(`k6\/\$\{which\}`\) in computed-charge\.js\), which cannot be verified, so it counts as k6\/http: a request sent that way could charge unrecorded/,
      );
      expect(checkScriptNetwork(script, 'sandbox')).toMatch(
        /^load: script computed-charge loads a module named at run time .*no money guard/,
      );
    } finally {
      script.dispose();
    }
    // On a sandbox it runs (the engine answers the computed require as k6 does), and the run says so first.
    const run = await runCli(['load', '--script', script.path, '-i', '2', '--api', 'v2', '--report-dir', join(workDir, 'computed')]);
    expect(run.code, run.output).toBe(0);
    expect(run.stderr).toMatch(
      /load: script computed-charge loads a module named at run time \(require\(`k6\/\$\{which\}`\) in computed-charge\.js\)/,
    );
  });

  it('the example, which sends through the harness client only, imports none', async () => {
    const script = await prepareUserScript(EXAMPLE, workDir);
    script.dispose();
    expect(script.networkModules).toEqual([]);
    expect(checkScriptNetwork(script, 'production')).toBeUndefined();
  });
});
