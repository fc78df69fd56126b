// k6's end-of-test summary data (what handleSummary receives; the Node engine produces the same shape) into the
// report's load section: thresholds with observed values, checks from every group, and a subset of the metrics.
// Runtime-neutral: a k6 bundle's handleSummary may call it to write the same summary.json as the Node commands.
import { assembleReport, type ReportInput } from './assemble.ts';
import type { LoadCheck, LoadSection, LoadSeries, LoadThreshold, RunReport } from './model.ts';
import { loadVerdict } from './sections.ts';
import type { Verdict } from './verdict.ts';

/** One metric of `data.metrics` (k6 v0.48 to v2.x: type, contains, values, optional thresholds `{ expr: { ok } }`). */
export interface K6SummaryMetric {
  readonly type: string;
  readonly contains?: string;
  readonly values: Readonly<Record<string, number | null>>;
  readonly thresholds?: Readonly<Record<string, { readonly ok: boolean }>>;
}

export interface K6SummaryCheck {
  readonly name: string;
  readonly path?: string;
  readonly passes: number;
  readonly fails: number;
}

export interface K6SummaryGroup {
  readonly name?: string;
  readonly path?: string;
  readonly groups?: readonly K6SummaryGroup[];
  readonly checks?: readonly K6SummaryCheck[];
}

/** The handleSummary argument, as far as reports read it. */
export interface K6SummaryData {
  readonly metrics: Readonly<Record<string, K6SummaryMetric>>;
  readonly root_group?: K6SummaryGroup;
  readonly state?: { readonly testRunDurationMs?: number };
  readonly options?: { readonly summaryTrendStats?: readonly string[] };
  /** What setup() returned; k6 (v0.48 and v2) and the engine pass undefined when setup threw. */
  readonly setup_data?: unknown;
}

export interface LoadMeta {
  readonly scenario: string;
  readonly profile: string;
  /** 'k6 v0.48.0' for a real k6 (its version), 'node' for the Node engine. */
  readonly engine: string;
  /** Overrides the verdict the rules give (e.g. the engine's own exit state); use sparingly. */
  readonly verdict?: Verdict;
  /**
   * The script's setup() returns data whenever it completes (every harness scenario returns the catalog it read), so
   * missing setup data means the target could not be used. Leave unset for scripts without a setup.
   */
  readonly setupRequired?: boolean;
}

/** Metrics kept in summary.json besides every gateway_* metric and every metric or sub-metric with thresholds. */
export const SUMMARY_METRICS: readonly string[] = [
  'http_reqs',
  'http_req_duration',
  'http_req_failed',
  'http_req_waiting',
  'iterations',
  'iteration_duration',
  'checks',
  'vus',
  'vus_max',
  'data_received',
  'data_sent',
];
const KEPT_PREFIXES: readonly string[] = ['gateway_', 'http_req_duration{'];
const METRIC_TYPES = new Set(['counter', 'gauge', 'rate', 'trend']);

/** The statistic a threshold expression tests: `p(95)<500` → `p(95)`, `rate<0.01` → `rate`. */
export function thresholdStat(expression: string): string | undefined {
  const match = /^\s*(avg|min|max|med|count|rate|value|p\(\s*[0-9.]+\s*\))\s*(?:<=|>=|===|==|!=|<|>)/.exec(expression);
  return match?.[1]?.replace(/\s+/g, '');
}

function finiteValues(values: Readonly<Record<string, number | null>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(values)) if (typeof value === 'number' && Number.isFinite(value)) out[key] = value;
  return out;
}

/** Checks of every group, depth first, in k6's order. */
export function collectChecks(group: K6SummaryGroup | undefined): LoadCheck[] {
  if (group === undefined) return [];
  const own = (group.checks ?? []).map((c) => ({
    name: c.name,
    path: c.path ?? `::${c.name}`,
    passes: Math.max(0, Math.round(c.passes)),
    fails: Math.max(0, Math.round(c.fails)),
  }));
  return [...own, ...(group.groups ?? []).flatMap((g) => collectChecks(g))];
}

/**
 * Whether a metric got any sample. k6 calls a threshold without samples met; the harness calls it unverified. A
 * counter of events (violations, unresolved transactions) stays 0 when none happened: verified once requests were made.
 */
export function metricHasSamples(metric: K6SummaryMetric, requests: number): boolean {
  const v = metric.values;
  const num = (key: string): number => (typeof v[key] === 'number' ? (v[key] as number) : 0);
  switch (metric.type) {
    case 'rate':
      return num('passes') + num('fails') > 0;
    case 'trend':
      // `count` is in the harness profiles' summaryTrendStats; without it, any non-zero statistic proves a sample.
      return typeof v.count === 'number' ? v.count > 0 : Object.values(v).some((x) => typeof x === 'number' && x !== 0);
    case 'counter':
      return requests > 0;
    default:
      return Object.keys(v).length > 0;
  }
}

export function collectThresholds(metrics: K6SummaryData['metrics']): LoadThreshold[] {
  const requests = metrics.http_reqs?.values.count ?? 0;
  const out: LoadThreshold[] = [];
  for (const name of Object.keys(metrics).sort()) {
    const metric = metrics[name];
    if (metric === undefined) continue;
    const verified = metricHasSamples(metric, typeof requests === 'number' ? requests : 0);
    for (const [expression, state] of Object.entries(metric.thresholds ?? {})) {
      const stat = thresholdStat(expression);
      const observed = stat === undefined ? undefined : metric.values[stat];
      out.push({
        metric: name,
        expression,
        ok: state.ok === true,
        ...(typeof observed === 'number' && Number.isFinite(observed) && verified ? { observed } : {}),
        ...(verified ? {} : { verified: false }),
      });
    }
  }
  return out;
}

const CHECK_THRESHOLD = /^checks\{check:(.+)\}$/;

/** The check a `checks{check:<name>}` threshold metric is about, if it is one. */
export function checkOfThreshold(metric: string): string | undefined {
  return CHECK_THRESHOLD.exec(metric)?.[1];
}

/** Checks the profile expects (a threshold on `checks{check:<name>}`) that never ran, as rows with no pass and no fail. */
function checksNeverRan(checks: readonly LoadCheck[], thresholds: readonly LoadThreshold[]): LoadCheck[] {
  const seen = new Set(checks.map((c) => c.name));
  const missing: LoadCheck[] = [];
  for (const t of thresholds) {
    const name = checkOfThreshold(t.metric);
    if (name === undefined || seen.has(name)) continue;
    seen.add(name);
    missing.push({ name, path: `::${name}`, passes: 0, fails: 0 });
  }
  return missing;
}

function keepMetric(name: string, metric: K6SummaryMetric): boolean {
  if (!METRIC_TYPES.has(metric.type)) return false;
  return SUMMARY_METRICS.includes(name) || KEPT_PREFIXES.some((p) => name.startsWith(p)) || Object.keys(metric.thresholds ?? {}).length > 0;
}

export function summaryMetrics(metrics: K6SummaryData['metrics']): LoadSection['metrics'] {
  const out: LoadSection['metrics'] = {};
  for (const name of Object.keys(metrics).sort()) {
    const metric = metrics[name];
    if (metric === undefined || !keepMetric(name, metric)) continue;
    out[name] = {
      type: metric.type as 'counter' | 'gauge' | 'rate' | 'trend',
      contains: metric.contains ?? 'default',
      values: finiteValues(metric.values),
    };
  }
  return out;
}

/** The load section of one run. `series` comes from the NDJSON stream when it was kept (reports/k6-series.ts). */
export function buildLoadSection(data: K6SummaryData, meta: LoadMeta, series?: LoadSeries): LoadSection {
  const metrics = data.metrics ?? {};
  const reqs = metrics.http_reqs?.values ?? {};
  const failedRate = metrics.http_req_failed?.values.rate;
  const requests: LoadSection['requests'] = {
    count: Math.max(0, reqs.count ?? 0),
    rate: Math.max(0, reqs.rate ?? 0),
    ...(typeof failedRate === 'number' && Number.isFinite(failedRate) ? { failedRate } : {}),
  };
  const thresholds = collectThresholds(metrics);
  const seen = collectChecks(data.root_group);
  const checks = [...seen, ...checksNeverRan(seen, thresholds)];
  const setup = meta.setupRequired === true ? { setupCompleted: data.setup_data !== undefined && data.setup_data !== null } : {};
  return {
    verdict: meta.verdict ?? loadVerdict({ thresholds, checks, requests, ...setup }),
    scenario: meta.scenario,
    profile: meta.profile,
    engine: meta.engine,
    durationMs: Math.max(0, data.state?.testRunDurationMs ?? 0),
    requests,
    thresholds,
    checks,
    metrics: summaryMetrics(metrics),
    ...(series === undefined ? {} : { series }),
    ...setup,
  };
}

export type LoadReportMeta = Omit<ReportInput, 'load' | 'command' | 'durationMs'> &
  Partial<Pick<ReportInput, 'command' | 'durationMs'>> &
  LoadMeta;

/** A whole report of one load run (command `load` unless told); duration defaults to k6's testRunDurationMs. */
export function reportFromK6Summary(data: K6SummaryData, meta: LoadReportMeta, series?: LoadSeries): RunReport {
  const { scenario, profile, engine, verdict, setupRequired, ...rest } = meta;
  const load = buildLoadSection(
    data,
    { scenario, profile, engine, ...(verdict === undefined ? {} : { verdict }), ...(setupRequired === undefined ? {} : { setupRequired }) },
    series,
  );
  return assembleReport({ command: 'load', durationMs: load.durationMs, ...rest, load });
}
