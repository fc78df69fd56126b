// One verdict for a distributed run: the instances' NDJSON merged into one store, the thresholds evaluated once over
// the whole (engine/thresholds.ts), k6's handleSummary data built from the merged store, and the same report files a
// single run writes (reports/: reportFromK6Summary + writeReports), with time series when the inputs can be re-read.
import { EXPECTED_RESPONSE_SUBMETRIC, type SubmetricDef } from '../../engine/metrics/store.ts';
import { buildSummaryData, type K6SummaryData } from '../../engine/summary.ts';
import { evaluateThresholds, parseThresholds, ThresholdError, type MetricThresholds, type MetricType } from '../../engine/thresholds.ts';
import { HarnessError } from '../../api/errors.ts';
import { realpathSync } from 'node:fs';
import { reportFromK6Summary, type LoadReportMeta } from '../../reports/k6-summary.ts';
import type { RunReport } from '../../reports/model.ts';
import type { Progress } from '../../reports/progress.ts';
import { writeReports, type WrittenReports } from '../../reports/write.ts';
import { describeInput, STDIN } from './input.ts';
import type { FileStats, MergedRun } from './merge-run.ts';
import { mergeInThread } from './merge-thread.ts';
import type { ThresholdPlan } from './threshold-source.ts';

export interface MergeResultsRequest {
  /** One k6 NDJSON file per instance (plain or gzip; '-' is standard input). */
  readonly files: readonly string[];
  readonly plan: ThresholdPlan;
  readonly reportDir: string;
  readonly runId: string;
  /** Time series for report.html: default on when every input is a regular file (they need a first pass). */
  readonly series?: boolean;
  readonly progress?: Progress;
}

export interface MergeResultsOutcome {
  readonly report: RunReport;
  readonly written: WrittenReports;
  readonly files: readonly FileStats[];
  /** Thresholds whose metric got no sample in any instance (the run is then incomplete, never passed). */
  readonly unverified: readonly string[];
  /** Disagreements between the plan and what the instances declared, unreadable lines: worth a look, not fatal. */
  readonly warnings: readonly string[];
  readonly data: K6SummaryData;
}

/** The sink type a threshold's aggregation implies, for a metric no instance ever emitted (k6 writes a Metric line
 * only with a metric's first sample): count → counter, rate → rate, value → gauge, the rest → trend. */
function typeFromThresholds(set: MetricThresholds): MetricType {
  const methods = new Set(set.thresholds.map((t) => t.parsed.method));
  if (methods.has('count')) return 'counter';
  if (methods.has('rate')) return 'rate';
  if (methods.has('value')) return 'gauge';
  return 'trend';
}

function percentilesOf(set: MetricThresholds): number[] {
  return set.thresholds.filter((t) => t.parsed.method === 'p').map((t) => t.parsed.percentile as number);
}

/**
 * What k6 hands handleSummary as `setup_data`: each instance ran its own setup(), whose data is not in the NDJSON.
 * A run whose setups failed sent no iteration requests, which the verdict calls incomplete.
 */
export const SETUP_NOT_RECORDED = 'each instance ran its own setup(); its data is not in the k6 NDJSON output';

function thresholdWarnings(run: MergedRun, sets: readonly MetricThresholds[]): string[] {
  const warnings: string[] = [];
  const planned = new Map(sets.filter((s) => s.tags.length === 0).map((s) => [s.metric, new Set(s.thresholds.map((t) => t.source))]));
  for (const [metric, exprs] of run.declared.thresholds) {
    const mine = planned.get(metric);
    const missing = [...exprs].filter((e) => mine?.has(e) !== true);
    if (missing.length > 0)
      warnings.push(`the instances ran with threshold(s) ${missing.join(', ')} on ${metric}, which the given thresholds do not have`);
  }
  const subs = new Set(sets.map((s) => s.summaryName));
  const extra = [...run.declared.submetrics].filter((s) => s !== EXPECTED_RESPONSE_SUBMETRIC.name && !subs.has(s));
  if (extra.length > 0) {
    warnings.push(
      `the instances had thresholds on ${extra.length} sub-metric(s) the given thresholds do not have (e.g. ${extra.slice(0, 3).join(', ')}): were they given the same scenario, profile and --threshold values?`,
    );
  }
  return warnings;
}

/** The same input named twice (another spelling, a symlink, '-' twice) would be read twice and counted twice. */
function refuseRepeatedPaths(files: readonly string[]): void {
  const seen = new Map<string, string>();
  for (const file of files) {
    let key = file;
    if (file !== STDIN) {
      try {
        key = realpathSync(file);
      } catch {
        // describeInput names the unreadable file.
      }
    }
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      throw new HarnessError(
        'GH_ERR_USAGE',
        `${file} is given twice${earlier === file ? '' : ` (also as ${earlier})`}: each instance's file once, or its samples count twice`,
      );
    }
    seen.set(key, file);
  }
}

/** The same instance's samples under two names (a copy, or a gunzipped copy): identical decoded content. */
function refuseRepeatedContent(files: readonly FileStats[]): void {
  const byDigest = new Map<string, FileStats>();
  for (const f of files) {
    if (f.points === 0) continue;
    const earlier = byDigest.get(f.digest);
    if (earlier !== undefined) {
      throw new HarnessError(
        'GH_ERR_USAGE',
        `${f.path} holds the same ${f.points} points as ${earlier.path} (identical content, sha256 ${f.digest.slice(0, 12)}…): one instance given twice counts twice; give each instance's file once`,
      );
    }
    byDigest.set(f.digest, f);
  }
}

/** An input read only in part: its points so far are merged, and the run cannot pass on them. */
function cutShortMessage(files: readonly FileStats[]): string | undefined {
  const cut = files.filter((f) => f.readError !== undefined);
  if (cut.length === 0) return undefined;
  const what = cut.map((f) => `${f.path} (${f.readError ?? ''}, after ${f.lines} lines)`).join('; ');
  return `${cut.length} of ${files.length} input(s) could not be read to the end, merged up to there: ${what}`;
}

/** The target's origin from an `http_reqs` sample's `url` tag, when the plan does not name it. */
function originOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return undefined;
  }
}

/** The given thresholds, parsed (a bad expression is the plan file's config error). */
function thresholdSets(request: MergeResultsRequest): MetricThresholds[] {
  try {
    return parseThresholds(request.plan.thresholds);
  } catch (error) {
    throw new HarnessError('GH_ERR_CONFIG', `${request.plan.source}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The sub-metrics the store keeps: expected_response, and every tagged threshold's own. */
function submetricsOf(sets: readonly MetricThresholds[]): SubmetricDef[] {
  const submetrics: SubmetricDef[] = [EXPECTED_RESPONSE_SUBMETRIC];
  for (const s of sets) {
    if (s.tags.length > 0)
      submetrics.push({ metric: s.metric, name: s.summaryName, suffix: s.summaryName.slice(s.metric.length + 1, -1), tags: s.tags });
  }
  return submetrics;
}

type MergePass = Awaited<ReturnType<typeof mergeInThread>>;

/** Every instance's file read into one store, with progress in MB; the same input given twice is refused. */
async function readInstances(request: MergeResultsRequest, submetrics: SubmetricDef[], warnings: string[]): Promise<MergePass> {
  // Series need the time range first: a cheap pass over each file, possible only for regular files.
  refuseRepeatedPaths(request.files);
  const inputs = request.files.map(describeInput);
  const rereadable = inputs.every((i) => i.rereadable);
  const wantSeries = request.series ?? rereadable;
  if (wantSeries && !rereadable)
    warnings.push('time series skipped: an input is a pipe or standard input (they need two passes); report.html has no charts');
  const totalBytes = inputs.reduce<number | undefined>(
    (sum, i) => (sum === undefined || i.size === undefined ? undefined : sum + i.size),
    0,
  );
  const task = request.progress?.start({
    label: `merge-results (${request.files.length} files)`,
    ...(totalBytes === undefined ? {} : { total: Math.max(1, Math.round(totalBytes / 1e6)) }),
    unit: 'MB',
  });
  let readBytes = 0;
  // The reading runs on its own thread with a bounded young generation: constant memory on every Node (merge-thread.ts).
  const pass = await mergeInThread({ files: request.files, submetrics, series: wantSeries && rereadable }, (n) => {
    readBytes += n;
    task?.update({ done: Math.round(readBytes / 1e6) });
  });
  task?.done({ detail: `${pass.run.files.reduce((s, f) => s + f.points, 0)} points` });
  refuseRepeatedContent(pass.run.files);
  return pass;
}

/** A threshold on a metric no instance emitted still gets a row (unverified, or verified-zero for event counters). */
function defineUnseenMetrics(request: MergeResultsRequest, sets: readonly MetricThresholds[], run: MergedRun): void {
  for (const s of sets)
    if (run.store.get(s.metric) === undefined) run.store.define({ name: s.metric, type: typeFromThresholds(s), contains: 'default' });
  try {
    // Parsed again against the metrics' types: an aggregation the type has not is the plan's config error.
    parseThresholds(request.plan.thresholds, run.store.typeOf);
  } catch (error) {
    if (error instanceof ThresholdError) throw new HarnessError('GH_ERR_CONFIG', `${request.plan.source}: ${error.message}`);
    throw error;
  }
}

/** The thresholds evaluated once over the whole, and k6's handleSummary data built from the merged store. */
function mergedSummary(request: MergeResultsRequest, sets: MetricThresholds[], run: MergedRun, durationMs: number): K6SummaryData {
  const results = new Map<string, Record<string, { ok: boolean }>>();
  for (const set of sets) {
    const sink = run.store.sinkOf(set.summaryName);
    if (sink === undefined) continue;
    results.set(set.summaryName, evaluateThresholds(set, sink.thresholdValues(durationMs, percentilesOf(set)), durationMs).results);
  }
  const trendStats = [...request.plan.summaryTrendStats];
  for (const set of sets) for (const p of percentilesOf(set)) if (!trendStats.includes(`p(${p})`)) trendStats.push(`p(${p})`);
  return buildSummaryData({
    store: run.store,
    rootGroup: run.groups.toK6(),
    thresholds: sets,
    thresholdResults: results,
    trendStats,
    summaryTimeUnit: '',
    testRunDurationMs: durationMs,
    isStdOutTTY: false,
    isStdErrTTY: false,
    setupData: SETUP_NOT_RECORDED,
  });
}

/** What is worth a look in the inputs: cut short, lines that are no k6 output, an instance with no points. */
function fileWarnings(files: readonly FileStats[]): string[] {
  const warnings: string[] = [];
  for (const f of files) {
    if (f.readError !== undefined)
      warnings.push(
        `${f.path}: cut short after ${f.lines} lines (${f.readError}); its ${f.points} points before that are merged, the run is incomplete`,
      );
    if (f.badLines > 0) warnings.push(`${f.path}: ${f.badLines} of ${f.lines} lines are not k6 JSON output (skipped)`);
    if (f.points === 0) warnings.push(`${f.path}: no metric points (was this instance's --out json file complete?)`);
  }
  return warnings;
}

/** The report's run fields: the plan's target and scenario when it names them, else what the samples show. */
function reportMeta(request: MergeResultsRequest, pass: MergePass, durationMs: number): LoadReportMeta {
  const { run, scenarios, firstUrl } = pass;
  const plan = request.plan.run;
  const cutShort = cutShortMessage(run.files);
  return {
    runId: request.runId,
    command: 'merge-results',
    startedAt: run.firstTime > 0 ? run.firstTime : Date.now(),
    durationMs,
    target: {
      url: plan?.target !== undefined && plan.target !== '' ? plan.target : (originOf(firstUrl) ?? '(unknown target)'),
      ...(plan === undefined ? {} : { environment: plan.environment, timeScale: plan.timeScale, api: plan.api }),
    },
    scenario: plan?.scenario ?? ([...scenarios].sort().join('+') || 'unknown'),
    profile: plan?.profile ?? 'unknown',
    engine: run.files.every((f) => f.timePrecision === 'ms') ? 'node' : 'k6',
    // An input read in part: the counts miss what it held after that, so the run is incomplete whatever the thresholds say.
    ...(cutShort === undefined ? {} : { error: { code: 'GH_ERR_PARSE', message: cutShort, verdict: 'incomplete' as const } }),
  };
}

export async function mergeResults(request: MergeResultsRequest): Promise<MergeResultsOutcome> {
  if (request.files.length === 0)
    throw new HarnessError('GH_ERR_USAGE', 'no NDJSON file given (one per instance, e.g. results/*.ndjson.gz)');
  const sets = thresholdSets(request);
  const warnings: string[] = [];
  const pass = await readInstances(request, submetricsOf(sets), warnings);
  const { run, series } = pass;
  defineUnseenMetrics(request, sets, run);
  const durationMs = Math.max(0, run.lastTime - run.firstTime);
  const data = mergedSummary(request, sets, run, durationMs);
  warnings.push(...fileWarnings(run.files), ...thresholdWarnings(run, sets));
  // The verdict a single `load` run gets (reports/sections.ts): checks judged by their own thresholds, a threshold
  // without samples unverified (incomplete, never passed), crossed thresholds 99; the files come from reports/.
  const report = reportFromK6Summary(data, reportMeta(request, pass, durationMs), series);
  const unverified = (report.load?.thresholds ?? []).filter((t) => t.verified === false).map((t) => `${t.metric} ${t.expression}`);
  const written = writeReports(report, request.reportDir);
  return { report: written.report, written, files: run.files, unverified, warnings, data };
}
