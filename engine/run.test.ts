// End-to-end runs of the engine against the embedded sandbox (127.0.0.1, port 0) and a tiny local server: the summary
// handleSummary receives, exit codes 0/99/100/104/107/108/255, NDJSON output, load-time refusal of unimplemented k6 APIs,
// failing setup()/teardown(), k6's request timeout and error codes, executors end to end, exact merging across threads.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../sandbox/server.ts';
import { runEngine, type EngineRunOptions } from './run.ts';

const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;
let sandbox: RunningSandbox;
let tiny: Server;
let tinyUrl: string;
const dir = mkdtempSync(join(tmpdir(), 'gh-engine-test-'));

function sink(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (d: Buffer) => (text += d.toString()));
  return { stream, text: () => text };
}

async function run(options: Partial<EngineRunOptions> & { script: string }) {
  const out = sink();
  const err = sink();
  const result = await runEngine({ progress: 'none', workers: 1, stdout: out.stream, stderr: err.stream, cwd: dir, ...options });
  return { ...result, stdout: out.text(), stderr: err.text().replace(/\\"/g, '"') };
}

function script(name: string, source: string): string {
  const path = join(dir, name);
  writeFileSync(path, source);
  return path;
}

beforeAll(async () => {
  sandbox = await startSandbox({ host: '127.0.0.1', port: 0 });
  tiny = createServer((req, res) => {
    req.resume();
    res.end('ok');
  });
  await new Promise<void>((r) => tiny.listen(0, '127.0.0.1', () => r()));
  tinyUrl = `http://127.0.0.1:${(tiny.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await sandbox.close();
  await new Promise((r) => tiny.close(r));
});

describe('the api-surface fixture on the sandbox', () => {
  it('passes, with k6-shaped summary data, handleSummary outputs and NDJSON', async () => {
    const summaryPath = join(dir, 'surface-summary.json');
    const ndjson = join(dir, 'surface.ndjson');
    const r = await run({
      script: join(FIXTURES, 'api-surface.js'),
      env: { BASE: sandbox.url, SUMMARY_JSON: summaryPath },
      outJson: ndjson,
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('fixture summary: 8 iterations\n');
    const data = JSON.parse(readFileSync(summaryPath, 'utf8')) as typeof r.summary;
    expect(data).toEqual(r.summary);
    expect(Object.keys(data).sort()).toEqual(['metrics', 'options', 'root_group', 'setup_data', 'state']);
    expect(data.setup_data).toEqual({ base: sandbox.url, started: 'yes' });
    expect(data.options.summaryTrendStats).toEqual(['avg', 'min', 'med', 'max', 'p(90)', 'p(95)']);
    const checks = (g: typeof data.root_group): string[] => [
      ...g.checks.map((c) => `${c.path} ${c.passes}/${c.fails}`),
      ...g.groups.flatMap(checks),
    ];
    expect(checks(data.root_group).sort()).toEqual([
      '::account::balance is 200 2/0',
      '::account::setup data arrived 2/0',
      '::countries envelope 000 6/0',
      '::countries is 200 6/0',
      '::countries is 404 (always fails) 0/6',
      '::lookup::operators payload is an array 6/0',
      '::setup::setup balance is 200 1/0',
      '::teardown::teardown got setup data 1/0',
    ]);
    expect(data.metrics.iterations).toMatchObject({ type: 'counter', contains: 'default', values: { count: 8 } });
    expect(data.metrics.gateway_failed).toMatchObject({
      type: 'rate',
      values: { rate: 0, passes: 0, fails: 6 },
      thresholds: { 'rate<0.01': { ok: true } },
    });
    expect(data.metrics.gateway_time_to_final).toMatchObject({ type: 'trend', contains: 'time' });
    expect(Object.keys(data.metrics.gateway_time_to_final?.values ?? {})).toEqual(['avg', 'min', 'med', 'max', 'p(90)', 'p(95)']);
    expect(data.metrics['http_req_duration{operation:v2.catalog.countries}']?.thresholds).toEqual({
      'p(95)<5000': { ok: true },
      'max<60000': { ok: true },
    });
    expect(data.metrics['checks{check:countries is 200}']).toMatchObject({ values: { rate: 1, passes: 6, fails: 0 } });
    expect(data.metrics.http_reqs?.values.count).toBe(1 + 18 + 2); // setup + 3 per browse iteration + default
    expect(data.metrics['http_req_duration{expected_response:true}']).toBeDefined();

    const lines = readFileSync(ndjson, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; metric: string; data: { tags?: Record<string, string>; name?: string } });
    const firstPoint = new Map<string, number>();
    lines.forEach((l, i) => {
      if (l.type === 'Point' && !firstPoint.has(l.metric)) firstPoint.set(l.metric, i);
    });
    for (const [metric, at] of firstPoint) expect(lines.findIndex((l) => l.type === 'Metric' && l.metric === metric)).toBeLessThan(at);
    const req = lines.find((l) => l.type === 'Point' && l.metric === 'http_reqs' && l.data.tags?.operation === 'v2.catalog.skus');
    expect(Object.keys(req?.data.tags ?? {})).toEqual(
      ['expected_response', 'group', 'method', 'name', 'operation', 'proto', 'scenario', 'status', 'suite', 'url', 'api'].sort(),
    );
    expect(lines.filter((l) => l.type === 'Point' && l.metric === 'iterations')).toHaveLength(8);
  });

  it('exits 99 when a threshold is crossed and says which', async () => {
    const r = await run({ script: join(FIXTURES, 'api-surface.js'), env: { BASE: sandbox.url, EXPECT_MORE: '1' } });
    expect(r.exitCode).toBe(99);
    expect(r.summary.metrics.gateway_outcome_success?.thresholds).toEqual({ 'count>1000000': { ok: false } });
    expect(r.stderr).toContain("thresholds on metrics 'gateway_outcome_success' have been crossed");
  });

  it('runs a TypeScript .load.ts entry', async () => {
    const r = await run({ script: join(FIXTURES, 'typed.load.ts'), env: { BASE: sandbox.url } });
    expect(r.exitCode).toBe(0);
    expect(r.summary.root_group.checks).toMatchObject([{ name: 'typed countries is 200', passes: 3, fails: 0 }]);
    expect(r.stdout).toContain('typed_latency');
  });
});

describe('k6 helpers the engine serves itself', () => {
  it('runs k6/timers and the k6-summary jslib textSummary without fetching anything', async () => {
    const path = script(
      'jslib-summary.js',
      `import { textSummary } from 'https://jslib.k6.io/k6-summary/0.0.2/index.js';
import { setTimeout as later } from 'k6/timers';
export const options = { iterations: 2 };
export default async function () { await new Promise((r) => later(r, 5)); }
export function handleSummary(data) { return { stdout: 'TEXT' + textSummary(data, { indent: ' ', enableColors: false }) }; }
`,
    );
    const r = await run({ script: path });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^TEXT\n[\s\S]*iterations\.+: 2 /);
  });
});

describe('refusals and exit codes', () => {
  it.each([
    [
      'an unimplemented k6 module',
      "import ws from 'k6/ws';\nexport default function () { ws.connect(); }\n",
      /module "k6\/ws" is not implemented by the node engine; run this script with k6/,
    ],
    [
      'an unimplemented export',
      "import { cookieJar } from 'k6/http';\nexport default function () { cookieJar(); }\n",
      /k6\/http\.cookieJar is not implemented by the node engine; run this script with k6/,
    ],
    [
      'an unimplemented member of a default import',
      "import http from 'k6/http';\nexport default function () { http.cookieJar(); }\n",
      /k6\/http\.cookieJar is not implemented by the node engine; run this script with k6/,
    ],
    [
      'a remote module',
      "import x from 'https://jslib.k6.io/x.js';\nexport default function () { x(); }\n",
      /does not fetch remote modules/,
    ],
    ['a syntax error', 'export default function ( {\n', /Expected/],
    ['an error in the init context', "throw new Error('init broke');\nexport default function () {}\n", /init broke/],
  ])('refuses %s at load time with exit 107', async (_what, source, message) => {
    const r = await run({ script: script(`refuse-${_what.replace(/\W+/g, '-')}.js`, source) });
    expect(r.exitCode).toBe(107);
    expect(r.stderr).toMatch(message);
  });

  it.each([
    [
      'an invalid threshold',
      "export const options = { thresholds: { http_reqs: ['p(95)<1'] } };\nexport default function () {}\n",
      /unsupported aggregation method p on metric of type counter/,
    ],
    [
      'an unknown executor',
      "export const options = { scenarios: { a: { executor: 'nope' } } };\nexport default function () {}\n",
      /unknown executor/,
    ],
    [
      'a scenario exec that is not exported',
      "export const options = { scenarios: { a: { executor: 'shared-iterations', exec: 'missing' } } };\nexport default function () {}\n",
      /function 'missing' not found in exports/,
    ],
    [
      'an unimplemented option',
      "export const options = { hosts: { 'a.test': '127.0.0.1' } };\nexport default function () {}\n",
      /option "hosts" is not implemented by the node engine/,
    ],
  ])('refuses %s with exit 104', async (_what, source, message) => {
    const r = await run({ script: script(`config-${_what.replace(/\W+/g, '-')}.js`, source) });
    expect(r.exitCode).toBe(104);
    expect(r.stderr).toMatch(message);
  });

  it('stops early on an abortOnFail threshold, still runs teardown, and exits 99 like k6', async () => {
    const path = script(
      'abort-on-fail.js',
      `import http from 'k6/http';
import { Counter } from 'k6/metrics';
const bad = new Counter('bad');
export const options = { vus: 2, duration: '30s', thresholds: { bad: [{ threshold: 'count<3', abortOnFail: true }] } };
export default async function () { bad.add(1); await http.asyncRequest('GET', __ENV.BASE); await new Promise((r) => setTimeout(r, 5)); }
export function teardown() { console.error('TEARDOWN RAN'); }
`,
    );
    const started = Date.now();
    const r = await run({ script: path, env: { BASE: tinyUrl } });
    expect(r.exitCode).toBe(99);
    expect(Date.now() - started).toBeLessThan(25_000);
    expect(r.stderr).toContain('at least one has abortOnFail enabled, stopping test prematurely');
    expect(r.summary.metrics.bad?.thresholds).toEqual({ 'count<3': { ok: false } });
  });

  it('exits 108 when the script calls exec.test.abort()', async () => {
    const path = script(
      'test-abort.js',
      `import exec from 'k6/execution';
export const options = { vus: 1, duration: '30s' };
export default function () { if (exec.scenario.iterationInTest >= 3) exec.test.abort('enough'); }
`,
    );
    const r = await run({ script: path });
    expect(r.exitCode).toBe(108);
    expect(r.summary.metrics.iterations?.values.count).toBeGreaterThanOrEqual(3);
  });
});

describe('a failing setup() or teardown() ends the test like k6 (engine/fixtures/lifecycle.js)', () => {
  const LIFECYCLE = join(FIXTURES, 'lifecycle.js');

  it.each([
    ['throws', 107],
    ['rejects', 255],
    ['aborts the test', 108],
  ] as Array<[string, number]>)(
    "setup() that %s: exit %i, no iteration, no teardown(), handleSummary gets setup()'s metrics",
    async (how, code) => {
      const summaryPath = join(dir, `setup-${code}.json`);
      const r = await run({
        script: LIFECYCLE,
        env: { BASE: sandbox.url, SETUP: { throws: 'throw', rejects: 'reject' }[how] ?? 'abort', SUMMARY_JSON: summaryPath },
      });
      expect(r.exitCode).toBe(code);
      const data = JSON.parse(readFileSync(summaryPath, 'utf8')) as typeof r.summary;
      expect('setup_data' in data).toBe(false);
      expect(data.metrics.iterations).toBeUndefined();
      expect(data.metrics.http_reqs?.values.count).toBe(1);
      expect(data.metrics.data_sent?.values.count).toBeGreaterThan(0);
      expect(data.root_group.groups.map((g) => g.path)).toEqual(['::setup']);
      expect(data.metrics.checks?.thresholds).toEqual({ 'rate==1': { ok: true } });
    },
  );

  it('setup() that outlives setupTimeout: exit 100, handleSummary still runs', async () => {
    const summaryPath = join(dir, 'setup-timeout.json');
    const r = await run({ script: LIFECYCLE, env: { BASE: sandbox.url, SETUP: 'timeout', SUMMARY_JSON: summaryPath } });
    expect(r.exitCode).toBe(100);
    expect(r.stderr).toContain('setup() execution timed out after 1 seconds');
    expect(JSON.parse(readFileSync(summaryPath, 'utf8'))).not.toHaveProperty('setup_data');
  });

  it.each([
    ['throws', 'throw', 107],
    ['rejects', 'reject', 255],
  ] as Array<[string, string, number]>)('teardown() that %s: exit %i after the iterations ran', async (_how, teardown, code) => {
    const r = await run({ script: LIFECYCLE, env: { BASE: sandbox.url, TEARDOWN: teardown } });
    expect(r.exitCode).toBe(code);
    expect(r.summary.metrics.iterations?.values.count).toBe(2);
    expect(r.summary.setup_data).toEqual({ ok: true });
  });
});

describe('k6 request semantics', () => {
  it('a timeout bounds the whole request: a body trickled past it ends as status 0, error_code 1050 (async and sync)', async () => {
    let finished = 0;
    const trickler = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      let sent = 0;
      const timer = setInterval(() => {
        if (++sent < 30) res.write(' ');
        else {
          clearInterval(timer);
          finished += 1;
          res.end('{}');
        }
      }, 100);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((r) => trickler.listen(0, '127.0.0.1', () => r()));
    try {
      const r = await run({
        script: join(FIXTURES, 'request-timeout.js'),
        env: { BASE: `http://127.0.0.1:${(trickler.address() as AddressInfo).port}`, TIMEOUT_MS: '700' },
      });
      expect(r.summary.root_group.checks.map((c) => `${c.name} ${c.passes}/${c.fails}`)).toEqual([
        'asyncRequest timed out (status 0, error_code 1050) 1/0',
        'get timed out (status 0, error_code 1050) 1/0',
      ]);
      expect(finished).toBe(0); // the client left before the body was done
      expect(r.summary.metrics.data_sent?.values.count).toBeGreaterThan(0);
    } finally {
      await new Promise((done) => trickler.close(done));
    }
  });

  it('an HTTP error status has error_code 1000 + status and no error text, tagged error_code only', async () => {
    const ndjson = join(dir, 'http-error.ndjson');
    const path = script(
      'http-error.js',
      `import http from 'k6/http';
import { check } from 'k6';
export const options = { iterations: 1 };
export default async function () {
  const r = await http.asyncRequest('GET', __ENV.BASE + '/api/v2/catalog/countries');
  check(r, { 'status 401': (x) => x.status === 401, 'error_code 1401': (x) => x.error_code === 1401, 'no error text': (x) => x.error === '' });
}
`,
    );
    const r = await run({ script: path, env: { BASE: sandbox.url }, outJson: ndjson });
    expect(r.summary.root_group.checks.map((c) => `${c.name} ${c.passes}/${c.fails}`)).toEqual([
      'status 401 1/0',
      'error_code 1401 1/0',
      'no error text 1/0',
    ]);
    const point = readFileSync(ndjson, 'utf8')
      .split('\n')
      .find((l) => l.includes('"metric":"http_reqs","type":"Point"'));
    const tags = (JSON.parse(point ?? '{}') as { data?: { tags?: Record<string, string> } }).data?.tags ?? {};
    expect(tags.error_code).toBe('1401');
    expect(tags).not.toHaveProperty('error');
  });

  it('records data_sent and data_received at the end of every iteration, even with no request (k6 does)', async () => {
    const r = await run({ script: script('no-requests.js', 'export const options = { iterations: 2 };\nexport default function () {}\n') });
    expect(r.summary.metrics.data_sent?.values.count).toBe(0);
    expect(r.summary.metrics.data_received?.values.count).toBe(0);
  });
});

describe('executors end to end (tiny local server)', () => {
  it.each([
    ['shared', 1, { iterations: 40 }],
    ['shared', 2, { iterations: 40 }],
    ['pervu', 2, { iterations: 15 }],
    ['car', 2, { scheduled: 200 }],
    ['rar', 1, { scheduled: 149 }], // what k6 v0.48 and v2.2 start for this schedule too
  ] as Array<[string, number, { iterations?: number; scheduled?: number }]>)('%s on %i worker(s)', async (scenario, workers, expected) => {
    const r = await run({ script: join(FIXTURES, 'executors.js'), env: { BASE: tinyUrl, SCENARIO: scenario }, workers });
    expect(r.exitCode).toBe(0);
    const iterations = r.summary.metrics.iterations?.values.count ?? 0;
    const dropped = r.summary.metrics.dropped_iterations?.values.count ?? 0;
    if (expected.iterations !== undefined) expect(iterations).toBe(expected.iterations);
    if (expected.scheduled !== undefined) {
      expect(iterations + dropped).toBe(expected.scheduled);
      expect(dropped).toBeLessThanOrEqual(expected.scheduled * 0.02);
    }
    expect(r.summary.metrics.http_reqs?.values.count).toBe(iterations);
  });

  it('drops iterations on a saturated target without lowering the start rate', async () => {
    const r = await run({ script: join(FIXTURES, 'executors.js'), env: { BASE: tinyUrl, SCENARIO: 'saturated', THINK_MS: '100' } });
    const iterations = r.summary.metrics.iterations?.values.count ?? 0;
    const dropped = r.summary.metrics.dropped_iterations?.values.count ?? 0;
    expect(iterations + dropped).toBe(200);
    expect(dropped).toBeGreaterThan(100);
  });
});
