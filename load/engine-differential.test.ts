// Differential tests of the real load suites: the same bundle (dist/k6/<scenario>.js) through `gateway-harness load`
// on the Node engine and on each real k6 found (K6_BIN or PATH, and K6_LATEST_BIN or k6-latest beside it) against the
// same sandbox must give the same checks, metric names and tags, threshold verdicts and exit codes. Skipped, saying so,
// without a k6. Results are read from the report each run writes (summary.json) and its NDJSON metric stream.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox, StartSandboxOptions } from '../sandbox/server.ts';
import { STATUS_OPERATIONS } from '../sandbox/profiles/faults.ts';
import type { SandboxProfile } from '../sandbox/profiles/types.ts';
import { supportedK6s } from './runner/k6-binaries.ts';
import type { RawLoadFlags } from './runner/load-options.ts';
import { runSmokeOn, startLoadSandbox, type TestEngine as Engine, type TestTarget } from './fixtures/smoke-on-engine.ts';
import { SCENARIO_NAMES, type ScenarioName } from './scenarios.ts';
import type { LoadSection, RunReport } from '../reports/model.ts';

const USER = 'diff-agent';
const PASSWORD = 'diff-secret-51c2';
const TIME_SCALE = 0.01;
const SANDBOX: TestTarget = { user: USER, password: PASSWORD, timeScale: TIME_SCALE };

const binaries = supportedK6s();
if (binaries.length === 0) {
  console.warn(
    'load/engine-differential.test.ts: no k6 found (set K6_BIN or put k6 on PATH; K6_LATEST_BIN or k6-latest beside it): engine-vs-k6 differential runs are SKIPPED',
  );
} else if (binaries.length === 1) {
  console.warn(`load/engine-differential.test.ts: only ${binaries[0]?.version} found: the newest k6 is not compared in this run`);
}

const workDir = mkdtempSync(join(tmpdir(), 'gh-load-diff-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** Tags whose values a run's randomness and timing do not change (url, error text and ids do). */
const STABLE_TAGS = [
  'api',
  'operation',
  'name',
  'method',
  'status',
  'error_code',
  'expected_response',
  'check',
  'group',
  'scenario',
  'outcome',
  'proto',
];

interface Observed {
  readonly exitCode: number;
  readonly report: RunReport;
  /** The report's load section (a run that wrote none fails the observation). */
  readonly summary: LoadSection;
  /** NDJSON Metric lines: name → "type/contains thresholds submetrics". */
  readonly metrics: Record<string, string>;
  /** Per metric: every tag key, and the values of the stable tags. */
  readonly tags: Record<string, Record<string, string[]>>;
  /**
   * Exact counts of what a deterministic run sent and checked, from its NDJSON: requests per operation and status,
   * checks per name, operation and result. Status polls are left out: how many polls a transaction in progress takes
   * is timing by nature ("poll repeatedly until another code is returned"), on any engine.
   */
  readonly counts: Record<string, number>;
  readonly output: string;
}

const isStatusPoll = (tags: Record<string, string>): boolean => /\.transaction\.status$/.test(tags.operation ?? '');

/**
 * k6 v0.48 also times setup() and teardown() as iterations (`iteration_duration` tagged group ::setup / ::teardown);
 * k6 v2 and the engine do not. Those points are left out of the comparison, and so is the metric when they are all it has.
 */
function lifecyclePoint(metric: string, tags: Record<string, string>): boolean {
  return metric === 'iteration_duration' && (tags.group === '::setup' || tags.group === '::teardown');
}

function readNdjson(file: string): Pick<Observed, 'metrics' | 'tags' | 'counts'> {
  const metrics: Record<string, string> = {};
  const counts: Record<string, number> = {};
  const tags: Record<string, Record<string, Set<string>>> = {};
  const lifecycleOnly = new Set<string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line === '') continue;
    const l = JSON.parse(line) as {
      type: string;
      metric: string;
      data: {
        name: string;
        type: string;
        contains: string;
        thresholds: string[];
        submetrics: Array<{ name: string }> | null;
        tags?: Record<string, string>;
      };
    };
    // vus/vus_max depend on run length (k6 samples them once a second; README, differences).
    if (l.metric === 'vus' || l.metric === 'vus_max') continue;
    if (l.type === 'Metric') {
      const subs = (l.data.submetrics ?? []).map((s) => s.name).sort();
      metrics[l.data.name] =
        `${l.data.type}/${l.data.contains} thresholds=${[...l.data.thresholds].sort().join('|')} submetrics=${subs.join('|')}`;
      continue;
    }
    const pointTags = l.data.tags ?? {};
    if (lifecyclePoint(l.metric, pointTags)) {
      lifecycleOnly.add(l.metric);
      continue;
    }
    if (!isStatusPoll(pointTags) && (l.metric === 'http_reqs' || l.metric === 'checks')) {
      const key =
        l.metric === 'http_reqs'
          ? `http_reqs ${pointTags.operation ?? ''} ${pointTags.status ?? ''}`
          : `checks ${pointTags.check ?? ''} ${pointTags.operation ?? ''} ${(l.data as { value?: number }).value === 1 ? 'pass' : 'fail'}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    const byKey = (tags[l.metric] ??= {});
    for (const [key, value] of Object.entries(pointTags)) (byKey[key] ??= new Set()).add(STABLE_TAGS.includes(key) ? value : '*');
  }
  for (const metric of lifecycleOnly) if (tags[metric] === undefined) delete metrics[metric];
  const sorted = Object.fromEntries(
    Object.entries(tags).map(([m, byKey]) => [
      m,
      Object.fromEntries(
        Object.entries(byKey)
          .map(([k, v]) => [k, [...v].sort()])
          .sort(),
      ),
    ]),
  );
  return { metrics, tags: sorted, counts };
}

async function observe(
  engine: Engine,
  scenario: ScenarioName,
  target: string,
  label: string,
  raw: Partial<RawLoadFlags> = {},
  credentials = { user: USER, password: PASSWORD },
): Promise<Observed> {
  const reportDir = join(workDir, label);
  const ndjson = join(reportDir, 'metrics.ndjson');
  const outcome = await runSmokeOn(engine, scenario, target, {
    target: { ...credentials, timeScale: TIME_SCALE },
    cwd: workDir,
    reportDir,
    flags: { out: [`json=${ndjson}`], ...raw },
  });
  const output = outcome.output();
  if (outcome.report.load === undefined)
    throw new Error(`${label}: no load section (exit ${outcome.exitCode}): ${outcome.report.verdictLine}\n${output.slice(-3000)}`);
  return { exitCode: outcome.exitCode, report: outcome.report, summary: outcome.report.load, ...readNdjson(ndjson), output };
}

/**
 * How close two runs must be. 'exact': a deterministic run (one VU, seeded faults): the same counts, failures and
 * problems too. 'same': the same verdict, thresholds (held, verified), checks (passed, ran, failed), metric
 * definitions, tag keys and stable tag values. 'outcome': setup() failed while its catalog reads were in flight
 * (concurrently, in no fixed order), so which of them got recorded is a race on either engine: verdict, thresholds
 * held, check names and metric definitions.
 */
type Likeness = 'exact' | 'same' | 'outcome';

/**
 * The verdict line without what differs by nature: the engine's name, latencies (timing, not behaviour), and the
 * request and check totals and the checks' observed rates (they hold the status polls' checks: `counts` compares
 * everything else exactly; seen beside a CPU hog: 84.78 % vs 84.44 % with equal counts).
 */
function comparableLine(line: string): string {
  return crossedCanonically(
    withoutSaturatedBeside(line)
      .replace(/\b\d+ (requests|checks passed|checks failed)/g, '… $1')
      .replace(/(checks\{[^}]*\} [^;,]*, observed )[\d.]+%/g, '$1…')
      // So is how far its latency is from the wire (reports/generator.ts accuracyOf): the report's statement, left out.
      .replace(/; latency outside the \+\d+ ms \+ 5 % accuracy goal: .*?so its figures can be that much above what the gateway served/g, '')
      .replace(/ \((node|k6[^)]*)\)/g, ' (engine)')
      .replace(/((?:http_req_duration|gateway_time_to_final)\S* [^;,]*, observed )[\d.]+(?: ?(?:ms|s)\b)?/g, '$1…'),
  );
}

const SATURATED_BESIDE = ' while the load generator was saturated (';
const SATURATED_TAIL =
  /^(?:: too few to set it(?:, or more than the [\d.]+ ?m?s a request it can have added)?|, by more than the [\d.]+ ?m?s a request it can have added)/;

/**
 * The clause beside a crossed latency threshold saying this machine's generator was saturated then (either wording of
 * reports/sections.ts saturatedBeside), left out: whether it was is the machine's, not the engine's. Its windows'
 * reasons can hold parentheses, so the clause ends at the parenthesis that closes it.
 */
function withoutSaturatedBeside(line: string): string {
  const start = line.indexOf(SATURATED_BESIDE);
  if (start < 0) return line;
  const end = closingParen(line, start + SATURATED_BESIDE.length);
  const tail = SATURATED_TAIL.exec(line.slice(end))?.[0] ?? '';
  return line.slice(0, start) + line.slice(end + tail.length);
}

const GENERATOR_CLAUSE = ', incomplete: the load generator was saturated';
const EXPLAINED = /: \d+ latency thresholds? crossed then measured the generator, not the gateway \(/;

/** The index just past the parenthesis that closes the one opened right before `from`. */
function closingParen(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i += 1) {
    if (text[i] === '(') depth += 1;
    else if (text[i] === ')' && --depth === 0) return i + 1;
  }
  return text.length;
}

/**
 * The crossed thresholds as one sorted list: a latency threshold this machine's saturated generator explains (one run
 * beside a CPU hog, the other not) is listed as crossed, as the other engine lists it; which run was starved is the
 * machine's, not the engine's (exit code, verdict and each threshold's ok are compared apart, exactly).
 */
function crossedCanonically(line: string): string {
  let explained: string[] = [];
  const clause = line.indexOf(GENERATOR_CLAUSE);
  const match = EXPLAINED.exec(line);
  if (clause >= 0 && match !== null && match.index > clause) {
    const listStart = match.index + match[0].length;
    const end = closingParen(line, listStart);
    explained = line.slice(listStart, end - 1).split('; ');
    line = line.slice(0, clause) + line.slice(end);
  }
  return line.replace(
    /(\d+) of (\d+) thresholds crossed \(([^()]*(?:\([^()]*\)[^()]*)*)\)/,
    (_, crossed: string, of: string, list: string) => {
      const all = [...list.split('; '), ...explained].sort();
      return `${Number(crossed) + explained.length} of ${of} thresholds crossed (${all.join('; ')})`;
    },
  );
}

function expectSame(engine: Observed, k6: Observed, likeness: Likeness): void {
  const why = `engine output:\n${engine.output.slice(-1500)}\nk6 output:\n${k6.output.slice(-1500)}`;
  expect(engine.exitCode, why).toBe(k6.exitCode);
  expect(engine.report.verdict).toBe(k6.report.verdict);
  const thresholds = (o: Observed) =>
    o.summary.thresholds
      .map((t) => `${t.metric} ${t.expression} ok=${t.ok}${likeness === 'outcome' ? '' : ` verified=${t.verified ?? true}`}`)
      .sort();
  expect(thresholds(engine)).toEqual(thresholds(k6));
  // 'exact' compares every check's count per operation below (status polls aside); here what each check did.
  const checks = (o: Observed) =>
    o.summary.checks.map((c) => (likeness === 'outcome' ? c.name : `${c.path} ran=${c.passes + c.fails > 0} failed=${c.fails > 0}`)).sort();
  expect(checks(engine)).toEqual(checks(k6));
  expect(engine.metrics).toEqual(k6.metrics);
  if (likeness === 'outcome') return;
  expect(engine.tags).toEqual(k6.tags);
  if (likeness === 'same') return;
  expect(Object.keys(k6.counts).length, 'the run recorded no request or check to compare').toBeGreaterThan(0);
  expect(engine.counts).toEqual(k6.counts);
  const lines = `engine: ${engine.report.verdictLine}\nk6: ${k6.report.verdictLine}`;
  expect(comparableLine(engine.report.verdictLine), lines).toBe(comparableLine(k6.report.verdictLine));
  const count = (o: Observed, metric: string): number => o.summary.metrics[metric]?.values.count ?? 0;
  const gateway = (o: Observed) => ({
    failed: o.summary.metrics.gateway_failed?.values.passes ?? 0,
    schemaViolations: count(o, 'gateway_schema_violations'),
    unresolved: count(o, 'gateway_unresolved'),
    faults: o.report.faults,
  });
  expect(gateway(engine)).toEqual(gateway(k6));
}

/** One engine run per key, shared by the comparisons with each k6 (the engine's result does not depend on which k6). */
const engineRuns = new Map<string, Promise<Observed>>();
function once(key: string, run: () => Promise<Observed>): Promise<Observed> {
  let found = engineRuns.get(key);
  if (found === undefined) {
    found = run();
    engineRuns.set(key, found);
  }
  return found;
}

const RUN_TIMEOUT_MS = 240_000;
let shared: RunningSandbox;

/** A target whose balance read answers and whose every other answer refuses the credentials (HTTP 401, code 041). */
let catalogRefused: { url: string; server: Server };

beforeAll(async () => {
  shared = await startLoadSandbox(SANDBOX);
  const server = createServer((req, res) => {
    const balance = (req.url ?? '').includes('/account/balance');
    res.writeHead(balance ? 200 : 401, { 'content-type': 'application/json' });
    res.end(
      balance
        ? '{"responseCode":"000","responseMessage":null,"payLoad":100}'
        : '{"responseCode":"041","responseMessage":"Authentication failed","payLoad":null}',
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  catalogRefused = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
});
afterAll(async () => {
  await shared?.close();
  await new Promise((done) => catalogRefused?.server.close(done));
});

/**
 * Faults for a deterministic comparison: on every eligible request in arrival order the same seeded draw, so with one
 * VU (requests one at a time) both engines meet the same faults on the same requests. Catalog discovery runs its reads
 * concurrently in setup(), in no fixed order, and is exempt (as is the status endpoint, as in every fault profile).
 */
const DIFF_FAULTS: SandboxProfile = {
  name: 'diff-faults',
  description: 'resets, 5xx, malformed and truncated bodies on 30% of the non-discovery requests',
  faults: {
    kinds: ['reset', 'status', 'malformed', 'truncate'],
    rate: 0.3,
    exemptOperations: [
      ...STATUS_OPERATIONS,
      'v1.catalog.skus',
      'v2.catalog.skus',
      'v1.catalog.countries',
      'v2.catalog.countries',
      'v2.catalog.skus-giftcards',
    ],
    slowMs: 0,
  },
};

async function withSandbox<T>(options: StartSandboxOptions, use: (url: string) => Promise<T>): Promise<T> {
  const sandbox = await startLoadSandbox(SANDBOX, options);
  try {
    return await use(sandbox.url);
  } finally {
    await sandbox.close();
  }
}

/**
 * A proxy to `upstream` that answers the first request for `path` with its headers at once and then its body in
 * pieces over `totalMs`, each gap far within the response timeout, the whole beyond it: k6's request timeout covers
 * the whole request, so it ends this one (status 0, error_code 1050).
 */
async function trickleProxy(upstream: string, path: string, totalMs: number): Promise<{ url: string; close: () => Promise<void> }> {
  let trickled = false;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const out = forward(`${upstream}${req.url ?? '/'}`, { method: req.method, headers: req.headers }, (up) => {
        const body: Buffer[] = [];
        up.on('data', (c: Buffer) => body.push(c));
        up.on('end', () => {
          const whole = Buffer.concat(body);
          const headers = { ...up.headers };
          if (trickled || !(req.url ?? '').startsWith(path)) {
            res.writeHead(up.statusCode ?? 502, headers).end(whole);
            return;
          }
          trickled = true;
          res.writeHead(up.statusCode ?? 502, headers);
          const pieces = 10;
          let sent = 0;
          const timer = setInterval(() => {
            const from = Math.floor((whole.length * sent) / pieces);
            sent += 1;
            res.write(whole.subarray(from, Math.floor((whole.length * sent) / pieces)));
            if (sent === pieces) {
              clearInterval(timer);
              res.end();
            }
          }, totalMs / pieces);
          res.on('close', () => clearInterval(timer));
        });
      });
      out.on('error', () => res.destroy());
      out.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

// Without a k6 the file still reports what it did not run (an empty describe.each would be "no test suite found").
if (binaries.length === 0) {
  describe('load suites on the engine vs k6', () => {
    it.skip('no k6 found (K6_BIN or PATH): the differential runs are not run', () => undefined);
  });
}

describe('comparableLine: what the machine, not the engine, adds to a verdict line is left out', () => {
  const crossed =
    'THRESHOLDS CROSSED: load catalog-browse/smoke (k6 v0.48.0): 2 of 25 thresholds crossed (checks{check:http status is 200} rate>=1, observed 97.56%; http_req_duration{operation:v2.promotion.current} p(95)<2000, observed 4.75 s)';
  const window =
    "20:01:02–20:01:04 UTC, CPU-starved: wanted 100 % of the cores it may use, got 40 % (its threads waited for a CPU 90 % of the cores' time)";

  it.each([
    ['no window', ''],
    [
      'a window too thin to set the statistic',
      ` while the load generator was saturated (${window}; 2.0 % of the requests measured then): too few to set it`,
    ],
    [
      'a thin bounded window',
      ` while the load generator was saturated (${window}; 2.0 % of the requests measured then): too few to set it, or more than the 26 ms a request it can have added`,
    ],
    [
      'a window bounded below the excess',
      ` while the load generator was saturated (${window}), by more than the 260 ms a request it can have added`,
    ],
    [
      'the accuracy statement',
      "; latency outside the +3 ms + 5 % accuracy goal: the generator's own delay added up to 7.53 ms in 1 of its 5 measured seconds (worst: event-loop delay p99 7.5 ms), so its figures can be that much above what the gateway served",
    ],
  ])('%s', (_, clause) => {
    expect(comparableLine(crossed + clause)).toBe(comparableLine(crossed.replace('(k6 v0.48.0)', '(node)')));
  });

  it('a different crossing still differs', () => {
    expect(comparableLine(crossed)).not.toBe(comparableLine(crossed.replace('p(95)<2000', 'p(99)<2000')));
  });
});

describe.skipIf(binaries.length === 0).each(binaries)('load suites on the engine vs k6 $version', ({ path, version }) => {
  const k6: Engine = { kind: 'k6', path };

  it.each(SCENARIO_NAMES)(
    '%s smoke: same exit code, verdict, thresholds, checks, metric names and tags',
    async (scenario) => {
      const [engine, real] = await Promise.all([
        once(`smoke-${scenario}`, () => observe({ kind: 'node' }, scenario, shared.url, `engine-smoke-${scenario}`)),
        observe(k6, scenario, shared.url, `${version}-smoke-${scenario}`),
      ]);
      expect(real.exitCode, real.output.slice(-2000)).toBe(0);
      expectSame(engine, real, 'same');
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'a crossed threshold: exit 99 on both, the same threshold named',
    async () => {
      // A count, not a latency: a crossed latency threshold in a window where the generator was starved is INCOMPLETE
      // by design (reports/generator.ts), and a loaded CI box starves either engine now and then.
      const raw = { threshold: ['http_reqs:count<1'] };
      const [engine, real] = await Promise.all([
        once('threshold', () => observe({ kind: 'node' }, 'catalog-browse', shared.url, 'engine-threshold', raw)),
        observe(k6, 'catalog-browse', shared.url, `${version}-threshold`, raw),
      ]);
      expect(real.exitCode).toBe(99);
      expectSame(engine, real, 'same');
    },
    RUN_TIMEOUT_MS,
  );

  it.each(['catalog-browse', 'topup-flow', 'mixed'] as ScenarioName[])(
    '%s against resets, 5xx, malformed and truncated bodies (one VU, same seed): the same counts, failures and verdict',
    async (scenario) => {
      const run = (engine: Engine, label: string) =>
        withSandbox({ profile: DIFF_FAULTS }, (url) => observe(engine, scenario, url, label, { vus: '1' }));
      const [engine, real] = await Promise.all([
        once(`faults-${scenario}`, () => run({ kind: 'node' }, `engine-faults-${scenario}`)),
        run(k6, `${version}-faults-${scenario}`),
      ]);
      expect(real.exitCode).toBe(99);
      expect(real.summary.checks.some((c) => c.fails > 0)).toBe(true);
      expectSame(engine, real, 'exact');
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "a body trickled past the response timeout times out on both (k6's timeout covers the whole request): exit 99",
    async () => {
      // The flows' response timeout at this time scale is its 5 s floor (load/run-settings.ts minResponseTimeoutMs).
      const run = (engine: Engine, label: string) =>
        withSandbox({}, async (upstream) => {
          const proxy = await trickleProxy(upstream, '/api/v2/promotion/current', 8_000);
          try {
            return await observe(engine, 'catalog-browse', proxy.url, label);
          } finally {
            await proxy.close();
          }
        });
      const [engine, real] = await Promise.all([
        once('trickle', () => run({ kind: 'node' }, 'engine-trickle')),
        run(k6, `${version}-trickle`),
      ]);
      expect(real.exitCode).toBe(99);
      expect(real.summary.checks.find((c) => c.name === 'http status is 200')?.fails).toBe(1);
      expectSame(engine, real, 'exact');
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'a target whose catalog cannot be read (its catalog refuses the credentials): unusable, exit 2 on both, reports written',
    async () => {
      // The balance read answers, so the preflight every command runs first passes, and every catalog read is refused:
      // setup() finds the target unusable, on each engine. (Credentials refused everywhere are the preflight's: #23.)
      const [engine, real] = await Promise.all([
        once('unusable', () => observe({ kind: 'node' }, 'lookup', catalogRefused.url, 'engine-unusable')),
        observe(k6, 'lookup', catalogRefused.url, `${version}-unusable`),
      ]);
      expect(real.exitCode).toBe(2);
      expect(real.report.verdict).toBe('unusable');
      expectSame(engine, real, 'outcome');
    },
    RUN_TIMEOUT_MS,
  );
});
