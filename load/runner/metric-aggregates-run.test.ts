// A real load run's report directory on the Node engine and every real k6 found: per-second aggregates and no raw
// stream (unless --out json= asks for one, here outside the directory); their request count is what the target served;
// merge-results and compare give the same verdicts on the aggregates as on the raw stream of the same runs.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparisonOf } from '../../compare/compare-runs.ts';
import { loadConfig } from '../../config/load-config.ts';
import { mergeResults } from '../../distributed/merge/merge-results.ts';
import { AGGREGATES_FILE } from '../../reports/metric-aggregates.ts';
import type { ComparisonSection } from '../../reports/model.ts';
import { createProgress } from '../../reports/progress.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { supportedK6s } from './k6-binaries.ts';
import { parseLoadFlags } from './load-options.ts';
import { runLoad, type LoadRun } from './run-load.ts';

const workDir = mkdtempSync(join(tmpdir(), 'gh-aggregates-run-'));
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, timeScale: 0.01 });
});
afterAll(async () => {
  await sandbox.close();
  rmSync(workDir, { recursive: true, force: true });
});

const served = (): number => sandbox.app.stats.snapshot().requestsTotal;

/** A short catalog-browse run against the counting sandbox (no preflight: every request it served is a VU's). */
async function browse(
  engine: { kind: 'node' } | { kind: 'k6'; path: string },
  label: string,
  rawOutside: boolean,
): Promise<{ run: LoadRun; served: number; raw?: string }> {
  const reportDir = join(workDir, label);
  const raw = rawOutside ? join(workDir, `${label}-raw.ndjson`) : undefined;
  const flags = parseLoadFlags({
    scenario: 'catalog-browse',
    profile: 'smoke',
    engine: engine.kind,
    api: 'both',
    reportDir,
    vus: '4',
    duration: '3s',
    out: raw === undefined ? [] : [`json=${raw}`],
  });
  const config = loadConfig({ cwd: workDir, env: { GATEWAY_TIME_SCALE: '0.01' } });
  const progress = createProgress({ stream: { write: () => undefined }, tty: false });
  const env = engine.kind === 'k6' ? { ...process.env, K6_BIN: engine.path } : { ...process.env };
  const before = served();
  const run = await runLoad(flags, config, { cwd: workDir, env, progress, sandbox: { url: sandbox.url, profile: 'faithful' } });
  progress.done();
  expect(run.engineExit, `${label}: engine exit`).toBe(0);
  return { run, served: served() - before, ...(raw === undefined ? {} : { raw }) };
}

/** A report dir that holds a run's raw stream only, as every run's did before the aggregates (an old baseline). */
function rawDir(label: string, raw: string): string {
  const dir = join(workDir, `${label}-as-raw`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'summary.json'),
    JSON.stringify({
      runId: label,
      load: { engine: 'x', scenario: 'catalog-browse', profile: 'smoke' },
      artifacts: { metricsNdjson: raw },
    }),
  );
  return dir;
}

const thresholds = {
  'http_req_duration{operation:v2.catalog.skus}': ['p(95)<0.001'],
  http_req_failed: ['rate<0.01'],
  checks: ['rate>0.99'],
};
const merged = (file: string, label: string) =>
  mergeResults({
    files: [file],
    plan: { source: 'test', thresholds, summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(95)'] },
    reportDir: join(workDir, `merged-${label}`),
    runId: label,
    series: false,
  });
const verdicts = (section: ComparisonSection): Record<string, string> =>
  Object.fromEntries(section.operations.map((o) => [o.operation, o.verdict]));

const engines = [
  { kind: 'node' as const, label: 'Node engine' },
  ...supportedK6s().map((b) => ({ kind: 'k6' as const, path: b.path, label: `k6 ${b.version}` })),
];

describe.each(engines)('catalog-browse smoke on $label', (engine) => {
  it('keeps per-second aggregates and no raw stream in its report dir, counting exactly what the target served', async () => {
    const { run, served: count } = await browse(engine, `${engine.kind}-${engine.label.replace(/\W/g, '')}-plain`, false);
    // Before: metrics.ndjson.gz, one line per sample, in every report dir.
    expect(readdirSync(run.reportDir).filter((f) => f.includes('ndjson'))).toEqual([AGGREGATES_FILE]);
    expect(run.ndjsonPath).toBeUndefined();
    const fromAggregates = await merged(run.aggregatesPath as string, `${engine.kind}-count`);
    expect(fromAggregates.data.metrics.http_reqs?.values.count).toBe(count);
    expect(run.summaryData?.metrics.http_reqs?.values.count).toBe(count);
  }, 240_000);

  it('merge-results and compare: the same verdicts on the aggregates as on the raw stream of the same runs', async () => {
    const tag = `${engine.kind}-${engine.label.replace(/\W/g, '')}`;
    const a = await browse(engine, `${tag}-a`, true);
    const b = await browse(engine, `${tag}-b`, true);
    const fromRaw = await merged(a.raw as string, `${tag}-raw`);
    const fromAgg = await merged(a.run.aggregatesPath as string, `${tag}-agg`);
    expect(fromAgg.report.load?.thresholds.map((t) => [t.metric, t.ok])).toEqual(
      fromRaw.report.load?.thresholds.map((t) => [t.metric, t.ok]),
    );
    expect(fromAgg.report.verdict).toBe(fromRaw.report.verdict);
    for (const metric of ['http_reqs', 'http_req_failed', 'checks', 'gateway_outcomes'])
      expect(fromAgg.data.metrics[metric]?.values, metric).toEqual(fromRaw.data.metrics[metric]?.values);
    const onAggregates = await comparisonOf({ baselineDir: a.run.reportDir, candidateDir: b.run.reportDir });
    const onRaw = await comparisonOf({
      baselineDir: rawDir(`${tag}-a`, a.raw as string),
      candidateDir: rawDir(`${tag}-b`, b.raw as string),
    });
    expect(verdicts(onAggregates)).toEqual(verdicts(onRaw));
    expect(onAggregates.verdict).toBe(onRaw.verdict);
  }, 480_000);
});
