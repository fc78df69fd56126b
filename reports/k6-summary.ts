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
}

export interface LoadMeta {
  readonly scenario: string;
  readonly profile: string;
  /** 'k6 v0.48.0' for a real k6 (its version), 'node' for the Node engine. */
  readonly engine: string;
  /** Overrides the verdict the rules give (e.g. the engine's own exit state); use sparingly. */
  readonly verdict?: Verdict;
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

export function collectThresholds(metrics: K6SummaryData['metrics']): LoadThreshold[] {
  const out: LoadThreshold[] = [];
  for (const name of Object.keys(metrics).sort()) {
    const metric = metrics[name];
    for (const [expression, state] of Object.entries(metric?.thresholds ?? {})) {
      const stat = thresholdStat(expression);
      const observed = stat === undefined ? undefined : metric?.values[stat];
      out.push({ metric: name, expression, ok: state.ok === true, ...(typeof observed === 'number' && Number.isFinite(observed) ? { observed } : {}) });
    }
  }
  return out;
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
    out[name] = { type: metric.type as 'counter' | 'gauge' | 'rate' | 'trend', contains: metric.contains ?? 'default', values: finiteValues(metric.values) };
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
  const checks = collectChecks(data.root_group);
  return {
    verdict: meta.verdict ?? loadVerdict({ thresholds, checks, requests }),
    scenario: meta.scenario,
    profile: meta.profile,
    engine: meta.engine,
    durationMs: Math.max(0, data.state?.testRunDurationMs ?? 0),
    requests,
    thresholds,
    checks,
    metrics: summaryMetrics(metrics),
    ...(series === undefined ? {} : { series }),
  };
}

export type LoadReportMeta = Omit<ReportInput, 'load' | 'command' | 'durationMs'> & Partial<Pick<ReportInput, 'command' | 'durationMs'>> & LoadMeta;

/** A whole report of one load run (command `load` unless told); duration defaults to k6's testRunDurationMs. */
export function reportFromK6Summary(data: K6SummaryData, meta: LoadReportMeta, series?: LoadSeries): RunReport {
  const { scenario, profile, engine, verdict, ...rest } = meta;
  const load = buildLoadSection(data, { scenario, profile, engine, ...(verdict === undefined ? {} : { verdict }) }, series);
  return assembleReport({ command: 'load', durationMs: load.durationMs, ...rest, load });
}
