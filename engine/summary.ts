// The end-of-test summary: the data handleSummary receives (k6's shape: root_group, options, state, metrics with
// values and thresholds, setup_data), the classic k6 text layout, and k6's --summary-export JSON.
import type { K6Group } from './metrics/groups.ts';
import type { MetricContains, MetricStore } from './metrics/store.ts';
import type { Sink } from './metrics/sinks.ts';
import type { MetricThresholds, MetricType } from './thresholds.ts';

export interface K6SummaryMetric {
  type: MetricType;
  contains: MetricContains;
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}

/** What handleSummary receives (stable across k6 v0.48 .. v2). */
export interface K6SummaryData {
  root_group: K6Group;
  options: { summaryTrendStats: string[]; summaryTimeUnit: string; noColor: boolean };
  state: { isStdOutTTY: boolean; isStdErrTTY: boolean; testRunDurationMs: number };
  metrics: Record<string, K6SummaryMetric>;
  setup_data?: unknown;
}

export interface SummaryInput {
  store: MetricStore;
  rootGroup: K6Group;
  thresholds: MetricThresholds[];
  /** Per (sub)metric summary name: threshold source → ok. */
  thresholdResults: Map<string, Record<string, { ok: boolean }>>;
  trendStats: string[];
  summaryTimeUnit: string;
  testRunDurationMs: number;
  setupData?: unknown;
  isStdOutTTY: boolean;
  isStdErrTTY: boolean;
}

export function buildSummaryData(input: SummaryInput): K6SummaryData {
  const metrics: Record<string, K6SummaryMetric> = {};
  const withThresholds = new Set(input.thresholds.map((t) => t.summaryName));
  for (const { name, def, sink, sub } of input.store.touched()) {
    // Submetrics show when they have samples or thresholds, like k6's summary.
    if (sub !== undefined && sink.empty && !withThresholds.has(name)) continue;
    metrics[name] = summaryMetric(def.type, def.contains, sink, input);
    const results = input.thresholdResults.get(name);
    if (results !== undefined) (metrics[name] as K6SummaryMetric).thresholds = results;
  }
  // Metrics with thresholds appear even without samples.
  for (const t of input.thresholds) {
    if (metrics[t.summaryName] !== undefined) continue;
    const def = input.store.get(t.metric);
    const sink = input.store.sinkOf(t.summaryName);
    if (def === undefined || sink === undefined) continue;
    metrics[t.summaryName] = {
      ...summaryMetric(def.type, def.contains, sink, input),
      thresholds: input.thresholdResults.get(t.summaryName) ?? {},
    };
  }
  const data: K6SummaryData = {
    root_group: input.rootGroup,
    options: { summaryTrendStats: input.trendStats, summaryTimeUnit: input.summaryTimeUnit, noColor: false },
    state: { isStdOutTTY: input.isStdOutTTY, isStdErrTTY: input.isStdErrTTY, testRunDurationMs: input.testRunDurationMs },
    metrics,
  };
  if (input.setupData !== undefined) data.setup_data = input.setupData;
  return data;
}

function summaryMetric(type: MetricType, contains: MetricContains, sink: Sink, input: SummaryInput): K6SummaryMetric {
  return { type, contains, values: sink.summaryValues(input.testRunDurationMs, input.trendStats) };
}

// ---- text layout (k6's classic end-of-test summary) ----

function formatTime(ms: number, unit: string): string {
  if (unit !== '') {
    const factor: Record<string, number> = { s: 1 / 1000, ms: 1, us: 1000 };
    return `${trim((ms * (factor[unit] ?? 1)).toFixed(2))}${unit}`;
  }
  const abs = Math.abs(ms);
  if (abs === 0) return '0s';
  if (abs < 0.001) return `${trim((ms * 1e6).toFixed(0))}ns`;
  if (abs < 1) return `${trim((ms * 1000).toFixed(2))}µs`;
  if (abs < 1000) return `${trim(ms.toFixed(2))}ms`;
  if (abs < 60_000) return `${trim((ms / 1000).toFixed(2))}s`;
  const m = Math.floor(ms / 60_000);
  return `${m}m${trim(((ms - m * 60_000) / 1000).toFixed(2))}s`;
}

function trim(n: string): string {
  return n.includes('.') ? n.replace(/0+$/, '').replace(/\.$/, '') : n;
}

function formatData(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${i === 0 ? String(Math.round(v)) : trim(v.toFixed(v < 10 ? 1 : 0))} ${units[i]}`;
}

function formatValue(v: number, contains: MetricContains, timeUnit: string): string {
  if (contains === 'time') return formatTime(v, timeUnit);
  if (contains === 'data') return formatData(v);
  return trim(v.toFixed(6));
}

function metricLineValue(m: K6SummaryMetric, trendStats: string[], timeUnit: string): string {
  const v = m.values;
  switch (m.type) {
    case 'counter':
      return m.contains === 'data'
        ? `${formatData(v.count ?? 0).padEnd(7)} ${formatData(v.rate ?? 0)}/s`
        : `${String(v.count ?? 0).padEnd(7)} ${trim((v.rate ?? 0).toFixed(6))}/s`;
    case 'gauge':
      return `${formatValue(v.value ?? 0, m.contains, timeUnit).padEnd(7)} min=${formatValue(v.min ?? 0, m.contains, timeUnit).padEnd(8)} max=${formatValue(v.max ?? 0, m.contains, timeUnit)}`;
    case 'rate':
      return `${((v.rate ?? 0) * 100).toFixed(2)}%`.padEnd(7) + ` ✓ ${String(v.passes ?? 0).padEnd(10)} ✗ ${String(v.fails ?? 0)}`;
    case 'trend':
      return trendStats
        .filter((s) => v[s] !== undefined)
        .map((s) => `${s}=${s === 'count' ? String(v[s]) : formatValue(v[s] as number, m.contains, timeUnit)}`.padEnd(s.length + 9))
        .join(' ')
        .trimEnd();
  }
}

function checkLines(group: K6Group, indent: string, out: string[]): void {
  for (const c of group.checks) {
    const total = c.passes + c.fails;
    if (c.fails === 0) out.push(`${indent}✓ ${c.name}`);
    else {
      out.push(`${indent}✗ ${c.name}`);
      out.push(`${indent} ↳  ${total === 0 ? 0 : Math.floor((c.passes / total) * 100)}% — ✓ ${c.passes} / ✗ ${c.fails}`);
    }
  }
  for (const g of group.groups) {
    if (out.length > 0) out.push('');
    out.push(`${indent}█ ${g.name}`);
    out.push('');
    checkLines(g, `${indent}  `, out);
  }
}

/** Renders the classic k6 end-of-test summary (checks and groups, then every metric, thresholds marked ✓/✗). */
export function renderTextSummary(data: K6SummaryData): string {
  const lines: string[] = [''];
  const checks: string[] = [];
  checkLines(data.root_group, '     ', checks);
  if (checks.length > 0) lines.push(...checks, '');
  const names = Object.keys(data.metrics).sort((a, b) => {
    const pa = a.split('{')[0] as string;
    const pb = b.split('{')[0] as string;
    return pa === pb ? (a.includes('{') ? 1 : 0) - (b.includes('{') ? 1 : 0) || a.localeCompare(b) : pa.localeCompare(pb);
  });
  // k6's layout: a metric at 5 columns (3 and a ✓/✗ when it has thresholds), its submetrics 2 further in.
  const head = (name: string): string => {
    const m = data.metrics[name] as K6SummaryMetric;
    const results = Object.values(m.thresholds ?? {});
    const mark = results.length === 0 ? '  ' : results.every((r) => r.ok) ? '✓ ' : '✗ ';
    const brace = name.indexOf('{');
    return brace < 0 ? `   ${mark}${name}` : `     ${mark}{ ${name.slice(brace + 1, -1)} }`;
  };
  const width = Math.max(...names.map((n) => head(n).length), 0) + 3;
  for (const name of names) {
    const m = data.metrics[name] as K6SummaryMetric;
    lines.push(`${head(name).padEnd(width, '.')}: ${metricLineValue(m, data.options.summaryTrendStats, data.options.summaryTimeUnit)}`);
  }
  lines.push('', '');
  return lines.join('\n');
}

/** k6's --summary-export format: flat values per metric, thresholds as source → failed. */
export function summaryExport(data: K6SummaryData): Record<string, unknown> {
  const metrics: Record<string, unknown> = {};
  for (const [name, m] of Object.entries(data.metrics)) {
    const values: Record<string, unknown> =
      m.type === 'rate' ? { passes: m.values.passes, fails: m.values.fails, value: m.values.rate } : { ...m.values };
    if (m.thresholds !== undefined) values.thresholds = Object.fromEntries(Object.entries(m.thresholds).map(([src, r]) => [src, !r.ok]));
    metrics[name] = values;
  }
  return { root_group: data.root_group, metrics };
}
