// A load scenario split in three (k6-operator's execution segments) against ONE embedded sandbox, on the Node engine
// and on each real k6 found (skipped, saying so, without one): merged, it equals the unsplit run — every count exact
// (setup() runs once per instance, so its requests count three times), one verdict — and instances never collide.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FIELD_MAPPING } from '../api/field-mapping.ts';
import { CONFIG_DEFAULTS } from '../api/target-config.ts';
import { runEngine } from '../engine/run.ts';
import { findK6, findLatestK6 } from '../load/engine-select.ts';
import { k6Environment } from '../load/runner/k6-process.ts';
import { ensureBundle } from '../load/runner/run-load.ts';
import { runEnvironment } from '../load/run-settings.ts';
import type { ScenarioName } from '../load/scenarios.ts';
import { startSandbox, type RunningSandbox } from '../sandbox/server.ts';
import { mergeResults, type MergeResultsOutcome } from './merge/merge-results.ts';
import { thresholdsForProfile } from './merge/threshold-source.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** k6-operator's split for parallelism 3 (its segmentation.NewCommandFragments). */
const SEQUENCE = '0,1/3,2/3,1';
const SEGMENTS = ['0:1/3', '1/3:2/3', '2/3:1'];
const TIME_SCALE = 0.01;
const USER = 'split-agent';
const PASSWORD = 'split-secret-5d1e';

const first = findK6(process.env);
const latest = findLatestK6(process.env, first);
const K6S = [first?.path, latest].filter((p): p is string => p !== undefined);
if (K6S.length === 0)
  console.warn(
    'distributed/split-runs.test.ts: no k6 found (K6_BIN or k6 on PATH; k6-latest beside it): the real-k6 split runs are SKIPPED, the Node engine runs them',
  );

const dir = mkdtempSync(join(tmpdir(), 'gh-split-'));
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({
    host: '127.0.0.1',
    port: 0,
    timeScale: TIME_SCALE,
    user: USER,
    password: PASSWORD,
    behaviour: { initialBalance: 1_000_000_000 },
  });
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

function runEnv(scenario: ScenarioName, vus: number, reportDir: string): Record<string, string> {
  mkdirSync(reportDir, { recursive: true });
  return runEnvironment({
    baseUrl: sandbox.url,
    user: USER,
    password: PASSWORD,
    environment: 'sandbox',
    timeScale: TIME_SCALE,
    profile: 'smoke',
    api: 'both',
    vus,
    config: { timeouts: CONFIG_DEFAULTS.timeouts, poll: CONFIG_DEFAULTS.poll, writePaths: {}, fieldMapping: DEFAULT_FIELD_MAPPING },
    targetLabel: sandbox.url,
    runId: 'split',
    reportDir,
  });
}

interface Instance {
  readonly ndjson: string;
  readonly exitCode: number;
  readonly setupData?: unknown;
}

type Runner = (scenario: ScenarioName, vus: number, label: string, segment?: string) => Promise<Instance>;

const onEngine: Runner = async (scenario, vus, label, segment) => {
  const ndjson = join(dir, `${label}.ndjson`);
  const r = await runEngine({
    script: join(ROOT, 'load', `${scenario}.load.ts`),
    env: runEnv(scenario, vus, join(dir, label)),
    outJson: ndjson,
    progress: 'none',
    workers: 1,
    ...(segment === undefined ? {} : { overrides: { executionSegment: segment, executionSegmentSequence: SEQUENCE } }),
    stdout: new PassThrough().resume(),
    stderr: new PassThrough().resume(),
  });
  return { ndjson, exitCode: r.exitCode, setupData: r.summary.setup_data };
};

/** One build per scenario: concurrent builds in one process within the same millisecond share esbuild.config.mjs's
 * staging name (pid + time), so the three instances must not each build. */
const bundles = new Map<ScenarioName, Promise<string>>();
function bundleOf(scenario: ScenarioName): Promise<string> {
  let bundle = bundles.get(scenario);
  if (bundle === undefined) bundles.set(scenario, (bundle = ensureBundle(scenario)));
  return bundle;
}

function onK6(bin: string): Runner {
  return async (scenario, vus, label, segment) => {
    const ndjson = join(dir, `${label}.ndjson.gz`);
    const bundle = await bundleOf(scenario);
    // What k6-operator's pods run: the segment pair, the instance tag, `--out json=` gzip-compressed.
    const args = [
      'run',
      ...(segment === undefined
        ? []
        : [
            '--execution-segment',
            segment,
            '--execution-segment-sequence',
            SEQUENCE,
            '--tag',
            `instance_id=${SEGMENTS.indexOf(segment) + 1}`,
          ]),
      '--out',
      `json=${ndjson}`,
      bundle,
    ];
    const env = k6Environment(process.env, runEnv(scenario, vus, join(dir, label)));
    const exitCode = await new Promise<number>((resolve, reject) => {
      const child = spawn(bin, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (c: string) => (err = (err + c).slice(-2000)));
      child.once('error', reject);
      child.once('close', (code) => (code === null ? reject(new Error(`k6 killed: ${err}`)) : resolve(code)));
    });
    return { ndjson, exitCode };
  };
}

/** Independent of merge-results: counts from the raw NDJSON, by metric|operation|check, setup() apart. */
interface Counts {
  readonly run: Record<string, number>;
  readonly setup: Record<string, number>;
  readonly durations: number[];
}

function countsOf(files: readonly string[]): Counts {
  const run: Record<string, number> = {};
  const setup: Record<string, number> = {};
  const durations: number[] = [];
  for (const file of files) {
    const bytes = readFileSync(file);
    const text = (bytes[0] === 0x1f ? gunzipSync(bytes) : bytes).toString('utf8');
    for (const line of text.split('\n')) {
      if (!line.includes('"type":"Point"')) continue;
      const p = JSON.parse(line) as { metric: string; data: { value: number; tags: Record<string, string> } };
      const tags = p.data.tags;
      let key: string | undefined;
      if (p.metric === 'http_reqs') key = `http_reqs|${tags.operation ?? '?'}`;
      else if (p.metric === 'iterations') key = 'iterations';
      else if (p.metric === 'checks') key = `checks|${tags.check ?? '?'}|${p.data.value}`;
      else if (p.metric === 'gateway_outcomes') key = `outcomes|${tags.operation ?? '?'}|${tags.outcome ?? '?'}`;
      if (p.metric === 'http_req_duration') durations.push(p.data.value);
      if (key === undefined) continue;
      const into = tags.group === '::setup' ? setup : run;
      // A check's sample is 1 (passed) or 0 (failed), both in its key: count them; counters add their values.
      into[key] = (into[key] ?? 0) + (p.metric === 'checks' ? 1 : p.data.value);
    }
  }
  return { run, setup, durations };
}

function sumOf(counts: Record<string, number>, prefix: string): number {
  return Object.entries(counts)
    .filter(([k]) => k.startsWith(prefix))
    .reduce((s, [, v]) => s + v, 0);
}

interface Split {
  readonly whole: Instance;
  readonly parts: Instance[];
  readonly merged: MergeResultsOutcome;
  readonly mergedWhole: MergeResultsOutcome;
  /** Requests per operation the sandbox received during the split run. */
  readonly sandboxRequests: Record<string, number>;
  /** Transactions the sandbox stored during the split run (a duplicate correlationId is refused, never stored). */
  readonly storedTransactions: number;
}

async function split(runner: Runner, scenario: ScenarioName, vus: number, label: string): Promise<Split> {
  const whole = await runner(scenario, vus, `${label}-whole`);
  const before = sandbox.app.stats.snapshot().requests;
  const storedBefore = sandbox.app.store.size;
  // The three instances run at once against the one sandbox, as k6-operator's pods do.
  const parts = await Promise.all(SEGMENTS.map((segment, i) => runner(scenario, vus, `${label}-${i + 1}`, segment)));
  const after = sandbox.app.stats.snapshot().requests;
  const sandboxRequests = Object.fromEntries(
    Object.entries(after)
      .map(([op, n]) => [op, n - (before[op] ?? 0)])
      .filter(([, n]) => (n as number) > 0),
  );
  const storedTransactions = sandbox.app.store.size - storedBefore;
  const plan = thresholdsForProfile({
    scenario,
    profile: 'smoke',
    api: 'both',
    timeScale: TIME_SCALE,
    environment: 'sandbox',
    thresholdOverrides: {},
    target: sandbox.url,
  });
  const merged = await mergeResults({
    files: parts.map((p) => p.ndjson),
    plan,
    reportDir: join(dir, `${label}-merged`),
    runId: `${label}-merged`,
  });
  const mergedWhole = await mergeResults({
    files: [whole.ndjson],
    plan,
    reportDir: join(dir, `${label}-merged-whole`),
    runId: `${label}-merged-whole`,
  });
  return { whole, parts, merged, mergedWhole, sandboxRequests, storedTransactions };
}

function expectSameAsUnsplit(s: Split, iterations: number): void {
  const whole = countsOf([s.whole.ndjson]);
  const parts = countsOf(s.parts.map((p) => p.ndjson));
  // The iterations' work: identical, count by count (operations, checks, outcomes), whatever the split.
  expect(parts.run).toEqual(whole.run);
  expect(whole.run.iterations).toBe(iterations);
  // setup() runs in every instance (k6-operator runs it in each pod): three times the unsplit run's.
  expect(Object.keys(parts.setup).sort()).toEqual(Object.keys(whole.setup).sort());
  for (const [key, n] of Object.entries(whole.setup)) expect(parts.setup[key], key).toBe(3 * n);
  // The merged run counts exactly what the instances sent, which is what the sandbox received.
  const mergedReqs = s.merged.data.metrics.http_reqs?.values.count;
  expect(mergedReqs).toBe(sumOf(parts.run, 'http_reqs|') + sumOf(parts.setup, 'http_reqs|'));
  expect(Object.values(s.sandboxRequests).reduce((a, b) => a + b, 0)).toBe(mergedReqs);
  expect(s.merged.data.metrics.iterations?.values.count).toBe(iterations);
  expect(s.mergedWhole.data.metrics.iterations?.values.count).toBe(iterations);
  // Percentiles of the merged run: those of all the raw samples (k6's interpolation; well under 1,000 samples).
  const sorted = [...parts.durations].sort((a, b) => a - b);
  const r = 0.95 * (sorted.length - 1);
  const lo = sorted[Math.floor(r)] as number;
  const hi = sorted[Math.ceil(r)] as number;
  expect(s.merged.data.metrics.http_req_duration?.values['p(95)']).toBeCloseTo(lo + (hi - lo) * (r - Math.floor(r)), 6);
  // One verdict over the whole: every operation exercised, every check passed, thresholds held.
  expect(s.merged.report.verdictLine).toMatch(/^PASS/);
  expect([s.merged.report.exitCode, s.mergedWhole.report.exitCode]).toEqual([0, 0]);
  expect(s.merged.unverified).toEqual([]);
}

const RUNNERS: Array<[string, () => Runner]> = [
  ['the Node engine', () => onEngine],
  ...K6S.map((bin): [string, () => Runner] => [bin.replace(/.*\//, ''), () => onK6(bin)]),
];

describe.each(RUNNERS)('catalog-browse split in three on %s', (label, runner) => {
  it('merges to the unsplit run: same counts, one verdict', async () => {
    // 12 VUs, 12 shared iterations: 4 VUs and 4 iterations per instance; v1 and v2 alternate by iterationInTest.
    const s = await split(runner(), 'catalog-browse', 12, `browse-${label.replace(/\W+/g, '-')}`);
    expectSameAsUnsplit(s, 12);
    if (label === 'the Node engine') {
      // setup() is consistent: each instance read the same catalog as the unsplit run.
      for (const p of s.parts) expect(p.setupData).toEqual(s.whole.setupData);
      expect(s.whole.setupData).toBeDefined();
    }
  }, 300_000);
});

// Transactions on the engine and the newest k6 found (k6 v0.48 spends seconds of CPU per instance on its Babel pass).
const newest = latest ?? first?.path;
const TOPUP_RUNNERS: Array<[string, () => Runner]> = [
  ['the Node engine', () => onEngine],
  ...(newest === undefined ? [] : [[newest.replace(/.*\//, ''), () => onK6(newest)] as [string, () => Runner]]),
];

describe.each(TOPUP_RUNNERS)('topup-flow split in three on %s', (label, runner) => {
  it('keeps correlationIds unique across instances: every top-up is stored, none refused as a duplicate', async () => {
    const s = await split(runner(), 'topup-flow', 6, `topup-${label.replace(/\W+/g, '-')}`);
    expectSameAsUnsplit(s, 6);
    const topups = (s.sandboxRequests['v1.transaction.topup'] ?? 0) + (s.sandboxRequests['v2.transaction.topup'] ?? 0);
    expect(topups).toBe(6);
    // The sandbox refuses a reused correlationId without storing it (spec: correlationId identifies a transaction).
    expect(s.storedTransactions).toBe(topups);
  }, 300_000);
});
