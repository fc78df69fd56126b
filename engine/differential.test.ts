// Differential tests: the same script on the engine and on real k6 binaries (load/runner/k6-binaries.ts: K6_BIN, else
// k6 on PATH; K6_LATEST_BIN, else k6-latest beside it; skipped, saying so, when absent) against the same sandbox must
// give the same checks, metric names, tag keys per metric, NDJSON metric definitions, threshold verdicts and exit codes.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../sandbox/server.ts';
import { k6ComparisonSlots } from '../load/runner/k6-binaries.ts';
import { runEngine } from './run.ts';
import type { K6SummaryData } from './summary.ts';

const FIXTURE = new URL('./fixtures/api-surface.js', import.meta.url).pathname;
const EXECUTORS = new URL('./fixtures/executors.js', import.meta.url).pathname;
const LIFECYCLE = new URL('./fixtures/lifecycle.js', import.meta.url).pathname;
const REQUEST_TIMEOUT = new URL('./fixtures/request-timeout.js', import.meta.url).pathname;
const SETUP_DATA = new URL('./fixtures/setup-data.js', import.meta.url).pathname;

const BINARIES = k6ComparisonSlots('differential tests');

interface Observed {
  exitCode: number;
  summary: K6SummaryData;
  tagKeys: Record<string, string[]>;
  /** NDJSON `Metric` lines: name → "type/contains", and the thresholds and submetric names they list. */
  metricLines: Record<string, string>;
}

function metricLinesOf(ndjsonPath: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(ndjsonPath, 'utf8').split('\n')) {
    if (line === '' || !line.includes('"type":"Metric"')) continue;
    const l = JSON.parse(line) as {
      data: { name: string; type: string; contains: string; thresholds: string[]; submetrics: Array<{ name: string }> | null };
    };
    if (l.data.name === 'vus' || l.data.name === 'vus_max') continue;
    const subs = (l.data.submetrics ?? []).map((x) => x.name).sort();
    out[l.data.name] =
      `${l.data.type}/${l.data.contains} thresholds=${[...l.data.thresholds].sort().join('|')} submetrics=${subs.join('|')}`;
  }
  return out;
}

function tagKeysOf(ndjsonPath: string): Record<string, string[]> {
  const keys: Record<string, Set<string>> = {};
  for (const line of readFileSync(ndjsonPath, 'utf8').split('\n')) {
    if (line === '') continue;
    const l = JSON.parse(line) as { type: string; metric: string; data: { tags?: Record<string, string> } };
    if (l.type !== 'Point' || l.metric === 'vus' || l.metric === 'vus_max') continue;
    const set = (keys[l.metric] ??= new Set());
    for (const k of Object.keys(l.data.tags ?? {})) set.add(k);
  }
  return Object.fromEntries(Object.entries(keys).map(([m, s]) => [m, [...s].sort()]));
}

function checks(g: K6SummaryData['root_group']): string[] {
  return [...g.checks.map((c) => `${c.path} ${c.passes}/${c.fails}`), ...g.groups.flatMap(checks)].sort();
}

function verdicts(s: K6SummaryData): Record<string, Record<string, { ok: boolean }>> {
  return Object.fromEntries(
    Object.entries(s.metrics)
      .filter(([, m]) => m.thresholds !== undefined)
      .map(([n, m]) => [n, m.thresholds ?? {}]),
  );
}

/** Metric names k6 reports; vus/vus_max depend on run length (k6 samples them once a second). */
function metricNames(s: K6SummaryData): string[] {
  return Object.keys(s.metrics)
    .filter((n) => n !== 'vus' && n !== 'vus_max')
    .sort();
}

let sandbox: RunningSandbox;
const dir = mkdtempSync(join(tmpdir(), 'gh-engine-diff-'));

beforeAll(async () => {
  sandbox = await startSandbox({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

async function onEngine(tag: string, env: Record<string, string>, script = FIXTURE, base = sandbox.url): Promise<Observed> {
  const summaryPath = join(dir, `${tag}-engine.json`);
  const ndjson = join(dir, `${tag}-engine.ndjson`);
  const out = new PassThrough().resume();
  const r = await runEngine({
    script,
    env: { ...env, BASE: base, SUMMARY_JSON: summaryPath },
    outJson: ndjson,
    progress: 'none',
    workers: 2,
    stdout: out,
    stderr: new PassThrough().resume(),
  });
  const summary = existsSync(summaryPath) ? (JSON.parse(readFileSync(summaryPath, 'utf8')) as K6SummaryData) : r.summary;
  return { exitCode: r.exitCode, summary, tagKeys: tagKeysOf(ndjson), metricLines: metricLinesOf(ndjson) };
}

function onK6(bin: string, tag: string, env: Record<string, string>, script = FIXTURE, base = sandbox.url): Promise<Observed> {
  const summaryPath = join(dir, `${tag}-k6.json`);
  const ndjson = join(dir, `${tag}-k6.ndjson`);
  const flags = Object.entries({ ...env, BASE: base, SUMMARY_JSON: summaryPath }).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  return new Promise((resolve, reject) => {
    execFile(
      bin,
      ['run', '-q', '--out', `json=${ndjson}`, '--summary-export', `${summaryPath}.export`, ...flags, script],
      { timeout: 60_000 },
      (error, _stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        const path = existsSync(summaryPath) ? summaryPath : `${summaryPath}.export`;
        if (!existsSync(path)) return reject(new Error(`k6 wrote no summary (exit ${code}): ${stderr.slice(-400)}`));
        resolve({
          exitCode: code,
          summary: JSON.parse(readFileSync(path, 'utf8')) as K6SummaryData,
          tagKeys: tagKeysOf(ndjson),
          metricLines: metricLinesOf(ndjson),
        });
      },
    );
  });
}

describe.each(BINARIES)('engine vs %s', (label, bin) => {
  it.skipIf(bin === undefined).each([
    ['passing thresholds', {}],
    ['a crossed threshold', { EXPECT_MORE: '1' }],
  ] as Array<[string, Record<string, string>]>)('same checks, metrics, tags, verdicts and exit code with %s', async (name, env) => {
    const tag = `${label.split(' ')[1]}-${name.replace(/\W+/g, '-')}`;
    const [engine, k6] = await Promise.all([onEngine(tag, env), onK6(bin as string, tag, env)]);
    expect(engine.exitCode).toBe(k6.exitCode);
    expect(checks(engine.summary.root_group)).toEqual(checks(k6.summary.root_group));
    expect(metricNames(engine.summary)).toEqual(metricNames(k6.summary));
    expect(verdicts(engine.summary)).toEqual(verdicts(k6.summary));
    expect(engine.tagKeys).toEqual(k6.tagKeys);
    expect(engine.metricLines).toEqual(k6.metricLines);
    expect(engine.summary.metrics.iterations?.values.count).toBe(k6.summary.metrics.iterations?.values.count);
    expect(engine.summary.metrics.http_reqs?.values.count).toBe(k6.summary.metrics.http_reqs?.values.count);
  });
});

/** iterations (+ dropped) of a summary, from handleSummary data or a --summary-export file alike. */
function started(s: K6SummaryData): number {
  const m = s.metrics as unknown as Record<string, { values?: Record<string, number>; count?: number }>;
  const count = (name: string): number => m[name]?.values?.count ?? m[name]?.count ?? 0;
  return count('iterations') + count('dropped_iterations');
}

describe.each(BINARIES)('executors on the engine vs %s', (_label, bin) => {
  it.skipIf(bin === undefined).each([
    ['shared', 0],
    ['pervu', 0],
    // k6's arrival-rate timers race the end of the scenario on a loaded machine: it starts a few more or fewer now and
    // then (200..203 for car; 146..151 for rar, seen on a busy 2-core machine, 4 off once in about ten runs); the engine
    // starts or drops exactly what the schedule says. 5 % still catches a wrong ramp (the first stage alone is a third
    // of the run); the exact schedule is compared per iteration with k6 in engine/segments.test.ts.
    ['rar', 0.05],
    ['car', 0.05],
  ] as Array<[string, number]>)('%s starts the same iterations (tolerance %s)', async (scenario, tolerance) => {
    const env = { SCENARIO: scenario };
    const [engine, k6] = await Promise.all([
      onEngine(`exec-${scenario}`, env, EXECUTORS),
      onK6(bin as string, `exec-${scenario}`, env, EXECUTORS),
    ]);
    expect(engine.exitCode).toBe(0);
    expect(k6.exitCode).toBe(0);
    const e = started(engine.summary);
    const k = started(k6.summary);
    expect(Math.abs(e - k)).toBeLessThanOrEqual(Math.ceil(k * tolerance));
  });
});

/**
 * k6 v0.48 also times setup() and teardown() as iterations (`iteration_duration{group:::setup}`); k6 v2 and the engine
 * do not. Where no iteration ran, that is the only trace of the metric.
 */
function withoutSetupIterations(names: string[], engine: string[]): string[] {
  return engine.includes('iteration_duration') ? names : names.filter((n) => n !== 'iteration_duration');
}

describe.each(BINARIES)('a failing setup() or teardown() on the engine vs %s', (label, bin) => {
  it.skipIf(bin === undefined).each([
    ['setup() throws', { SETUP: 'throw' }],
    ['setup() rejects', { SETUP: 'reject' }],
    ['setup() aborts the test', { SETUP: 'abort' }],
    ['setup() times out', { SETUP: 'timeout' }],
    ['teardown() throws', { TEARDOWN: 'throw' }],
    ['teardown() rejects', { TEARDOWN: 'reject' }],
  ] as Array<[string, Record<string, string>]>)(
    '%s: same exit code, checks, metrics and verdicts, handleSummary still runs',
    async (name, env) => {
      const tag = `${label.split(' ')[1]}-life-${name.replace(/\W+/g, '-')}`;
      const [engine, k6] = await Promise.all([onEngine(tag, env, LIFECYCLE), onK6(bin as string, tag, env, LIFECYCLE)]);
      expect(engine.exitCode).toBe(k6.exitCode);
      if (env.SETUP !== undefined) expect(engine.summary.setup_data).toBeUndefined();
      expect(checks(engine.summary.root_group)).toEqual(checks(k6.summary.root_group));
      // A setup() still blocked at its timeout never hands over its network trail on the engine (README, differences).
      const k6Names = metricNames(k6.summary).filter((n) => env.SETUP !== 'timeout' || !n.startsWith('data_'));
      expect(metricNames(engine.summary)).toEqual(withoutSetupIterations(k6Names, metricNames(engine.summary)));
      expect(verdicts(engine.summary)).toEqual(verdicts(k6.summary));
      expect(engine.summary.metrics.http_reqs?.values.count).toBe(k6.summary.metrics.http_reqs?.values.count);
      const k6Tags = Object.fromEntries(
        Object.entries(k6.tagKeys).filter(
          ([m]) => m in engine.tagKeys || !(m === 'iteration_duration' || (env.SETUP === 'timeout' && m.startsWith('data_'))),
        ),
      );
      expect(engine.tagKeys).toEqual(k6Tags);
    },
  );
});

describe.each(BINARIES)('setup() data on the engine vs %s', (label, bin) => {
  it.skipIf(bin === undefined)('is each VU own copy: changes persist in the VU, never reach another VU or teardown()', async () => {
    const tag = `${label.split(' ')[1]}-setup-data`;
    const [engine, k6] = await Promise.all([onEngine(tag, {}, SETUP_DATA), onK6(bin as string, tag, {}, SETUP_DATA)]);
    expect(k6.exitCode).toBe(0);
    expect(engine.exitCode).toBe(0);
    // 4 VUs x 3 iterations x 5 checks, and teardown's: every one passes on k6, and on the engine.
    expect(checks(k6.summary.root_group)).toHaveLength(6);
    expect(checks(k6.summary.root_group).every((c) => c.endsWith(' 12/0') || c.endsWith(' 1/0'))).toBe(true);
    expect(checks(engine.summary.root_group)).toEqual(checks(k6.summary.root_group));
  });
});

/** Answers its headers at once, then trickles the body: 20 pieces 100 ms apart, each far within the client's timeout. */
function trickler(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    let sent = 0;
    const timer = setInterval(() => {
      sent += 1;
      if (sent < 20) res.write(' ');
      else {
        clearInterval(timer);
        res.end('{}');
      }
    }, 100);
    res.on('close', () => clearInterval(timer));
  });
  return new Promise((resolveServer) =>
    server.listen(0, '127.0.0.1', () => resolveServer({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })),
  );
}

describe.each(BINARIES)('request timeout on the engine vs %s', (label, bin) => {
  it.skipIf(bin === undefined)('bounds the whole request (headers and body), status 0 and error_code 1050 on both', async () => {
    const { server, url } = await trickler();
    try {
      const tag = `${label.split(' ')[1]}-timeout`;
      const env = { TIMEOUT_MS: '700' };
      const [engine, k6] = await Promise.all([
        onEngine(tag, env, REQUEST_TIMEOUT, url),
        onK6(bin as string, tag, env, REQUEST_TIMEOUT, url),
      ]);
      expect(engine.exitCode).toBe(k6.exitCode);
      expect(checks(k6.summary.root_group)).toEqual([
        '::asyncRequest timed out (status 0, error_code 1050) 1/0',
        '::get timed out (status 0, error_code 1050) 1/0',
      ]);
      expect(checks(engine.summary.root_group)).toEqual(checks(k6.summary.root_group));
      expect(engine.tagKeys).toEqual(k6.tagKeys);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});
