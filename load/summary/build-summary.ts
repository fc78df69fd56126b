// Turns k6's end-of-test data into the harness's load summary: every threshold (crossed? verified by samples?), every
// check, the envelope-aware metrics, and one verdict from reports/verdict.ts. Runtime-neutral: it runs inside k6.
import type { FaultKind } from '../../api/faults.ts';
import { combineVerdicts, VERDICT_EXIT, VERDICT_WORD, type Verdict } from '../../reports/verdict.ts';
import { CHECKS } from '../checks.ts';
import { METRICS } from '../metric-names.ts';
import { allChecks, type K6SummaryData, type K6SummaryMetric } from './k6-summary-data.ts';

export const LOAD_SUMMARY_SCHEMA = 'gateway-harness/load-summary/1';

/** What the run was, for the reports (no credentials: the target is a label). */
export interface RunInfo {
  readonly scenario: string;
  readonly profile: string;
  readonly api: string;
  readonly target: string;
  readonly environment: string;
  readonly timeScale: number;
  readonly runId: string;
  readonly schemaChecks: boolean;
}

export interface ThresholdResult {
  readonly metric: string;
  readonly expression: string;
  readonly ok: boolean;
  /** False when the metric got no samples: k6 calls such a threshold passed, the harness calls it unverified. */
  readonly verified: boolean;
  /** The observed value of the threshold's aggregation, when there is one. */
  readonly observed?: number;
}

export interface CheckSummary {
  readonly name: string;
  readonly passes: number;
  readonly fails: number;
  /** The check's own threshold (`checks{check:<name>}`), when the profile set one. */
  readonly threshold?: ThresholdResult;
  /** Passed: its threshold held (or, without one, it never failed), and it ran at least once. */
  readonly ok: boolean;
  readonly rule?: string;
}

export interface LoadSummary {
  readonly schema: typeof LOAD_SUMMARY_SCHEMA;
  readonly verdict: Verdict;
  /** The exit code the verdict means (reports/verdict.ts); k6's own code may be more specific (e.g. 107 script error). */
  readonly exitCode: number;
  /** First line of every report: the verdict and why. */
  readonly headline: string;
  readonly run: RunInfo;
  readonly durationSec: number;
  readonly iterations: number;
  readonly requests: number;
  /** k6's own rates (count / test run duration), per second. */
  readonly iterationRate: number;
  readonly requestRate: number;
  readonly thresholds: readonly ThresholdResult[];
  readonly checks: readonly CheckSummary[];
  readonly gateway: {
    readonly responses: number;
    readonly failedRate?: number;
    readonly failed: number;
    readonly schemaViolations: number;
    readonly unresolved: number;
    /** Charging requests the money guard did not send (spend cap reached, charge not bounded, no ledger). */
    readonly refusedCharges: number;
    /** Responses that were no gateway answer, per fault kind (api/faults.ts): each also counted as its outcome. */
    readonly faults: Readonly<Record<FaultKind, number>>;
    readonly timeToFinalMs?: Readonly<Record<string, number>>;
    readonly checkDurationMs?: Readonly<Record<string, number>>;
  };
  /** http_req_duration per operation (ms), from the per-operation threshold submetrics. */
  readonly operations: ReadonlyArray<{ readonly id: string; readonly latencyMs: Readonly<Record<string, number>> }>;
  readonly problems: readonly string[];
}

const CHECK_METRIC = /^checks\{check:(.+)\}$/;
const OPERATION_LATENCY = /^http_req_duration\{operation:([^,}]+)\}$/;

/** The value a threshold expression aggregates: `p(95)<500` → values['p(95)']. */
function aggregationOf(expression: string): string {
  return expression.replace(/\s*(<=|>=|===|==|!=|<|>).*$/, '').trim();
}

function hasSamples(metric: K6SummaryMetric, requests: number): boolean {
  switch (metric.type) {
    case 'rate':
      return (metric.values.passes ?? 0) + (metric.values.fails ?? 0) > 0;
    case 'trend':
      // `count` is in summaryTrendStats (load/profiles.ts); without it, any non-zero statistic proves a sample.
      return metric.values.count !== undefined ? metric.values.count > 0 : Object.values(metric.values).some((v) => v !== 0);
    case 'counter':
      // A counter of events (violations, unresolved) is 0 when none happened: verified once requests were made.
      return requests > 0;
    default:
      return Object.keys(metric.values).length > 0;
  }
}

function count(data: K6SummaryData, name: string, field = 'count'): number {
  return data.metrics[name]?.values[field] ?? 0;
}

export function thresholdResults(data: K6SummaryData): ThresholdResult[] {
  const requests = count(data, 'http_reqs');
  const out: ThresholdResult[] = [];
  for (const [metric, summary] of Object.entries(data.metrics)) {
    for (const [expression, state] of Object.entries(summary.thresholds ?? {})) {
      const observed = summary.values[aggregationOf(expression)];
      out.push({
        metric,
        expression,
        ok: state.ok,
        verified: hasSamples(summary, requests),
        ...(observed === undefined ? {} : { observed }),
      });
    }
  }
  return out.sort((a, b) => a.metric.localeCompare(b.metric) || a.expression.localeCompare(b.expression));
}

function checkSummaries(data: K6SummaryData, thresholds: readonly ThresholdResult[]): CheckSummary[] {
  const rules = new Map(Object.values(CHECKS).map((c) => [c.name, c.rule]));
  const byCheck = new Map(thresholds.flatMap((t) => {
    const m = CHECK_METRIC.exec(t.metric);
    return m === null ? [] : [[m[1] as string, t] as const];
  }));
  const seen = allChecks(data.root_group);
  // A check the profile expects that never ran still gets a row (unverified), so it cannot vanish silently.
  for (const name of byCheck.keys()) if (!seen.some((c) => c.name === name)) seen.push({ name, passes: 0, fails: 0 });
  return seen.map((c) => {
    const threshold = byCheck.get(c.name);
    const ran = c.passes + c.fails > 0;
    const ok = ran && (threshold === undefined ? c.fails === 0 : threshold.ok);
    const rule = rules.get(c.name);
    return { name: c.name, passes: c.passes, fails: c.fails, ok, ...(threshold === undefined ? {} : { threshold }), ...(rule === undefined ? {} : { rule }) };
  });
}

function trendValues(data: K6SummaryData, name: string): Record<string, number> | undefined {
  const metric = data.metrics[name];
  if (metric === undefined || (metric.values.count !== undefined && metric.values.count === 0)) return undefined;
  return { ...metric.values };
}

/**
 * Whether setup() completed: k6 (v0.48 and v2) hands `setup_data: undefined` to handleSummary when setup threw. Every
 * scenario's setup returns an object (the catalog it discovered), so undefined means the target could not be used.
 */
export function setupCompleted(data: K6SummaryData): boolean {
  return data.setup_data !== undefined && data.setup_data !== null;
}

export function buildLoadSummary(data: K6SummaryData, run: RunInfo): LoadSummary {
  const thresholds = thresholdResults(data);
  const checks = checkSummaries(data, thresholds);
  const plainThresholds = thresholds.filter((t) => !CHECK_METRIC.test(t.metric));
  const iterations = count(data, 'iterations');
  const requests = count(data, 'http_reqs');
  const problems: string[] = [];
  const usable = setupCompleted(data);
  if (!usable) problems.push('setup() did not complete: the target could not be used (catalog discovery failed; see the error above)');

  const crossed = thresholds.filter((t) => !t.ok);
  const unverified = plainThresholds.filter((t) => t.verified === false);
  const checksNeverRan = checks.filter((c) => c.passes + c.fails === 0);
  const checksFailedWithoutThreshold = checks.filter((c) => c.threshold === undefined && c.fails > 0);
  for (const t of crossed) problems.push(`threshold crossed: ${t.metric} ${t.expression}${t.observed === undefined ? '' : ` (observed ${round(t.observed)})`}`);
  for (const c of checksFailedWithoutThreshold) problems.push(`check failed: ${c.name} (${c.fails} of ${c.passes + c.fails})`);
  for (const t of unverified) problems.push(`threshold unverified (no samples): ${t.metric} ${t.expression}`);
  for (const c of checksNeverRan) problems.push(`check never ran: ${c.name}`);
  if (requests === 0) problems.push('no request was sent');

  const parts: Verdict[] = [usable ? 'pass' : 'unusable'];
  if (crossed.length > 0) parts.push('thresholds');
  if (checksFailedWithoutThreshold.length > 0) parts.push('fail');
  if (unverified.length > 0 || checksNeverRan.length > 0 || requests === 0 || iterations === 0) parts.push('incomplete');
  const verdict = combineVerdicts(parts);

  const failedMetric = data.metrics[METRICS.failed];
  const timeToFinal = trendValues(data, METRICS.timeToFinal);
  const checkDuration = trendValues(data, METRICS.checkDuration);
  const operations = Object.entries(data.metrics)
    .map(([name, metric]) => ({ id: OPERATION_LATENCY.exec(name)?.[1], metric }))
    .filter((entry): entry is { id: string; metric: K6SummaryMetric } => entry.id !== undefined && hasSamples(entry.metric, requests))
    .map(({ id, metric }) => ({ id, latencyMs: { ...metric.values } }))
    .sort((a, b) => a.id.localeCompare(b.id));

  const headline =
    `${VERDICT_WORD[verdict]}: load ${run.scenario} (${run.profile}, api ${run.api}) against ${run.target}` +
    (problems.length === 0 ? ` — ${thresholds.length} thresholds held, ${iterations} iterations, ${requests} requests` : ` — ${problems[0]}${problems.length > 1 ? ` (+${problems.length - 1} more)` : ''}`);

  return {
    schema: LOAD_SUMMARY_SCHEMA,
    verdict,
    exitCode: VERDICT_EXIT[verdict],
    headline,
    run,
    durationSec: round((data.state?.testRunDurationMs ?? 0) / 1000),
    iterations,
    requests,
    iterationRate: round(count(data, 'iterations', 'rate')),
    requestRate: round(count(data, 'http_reqs', 'rate')),
    thresholds,
    checks,
    gateway: {
      responses: count(data, METRICS.outcomes),
      ...(failedMetric === undefined ? {} : { failedRate: failedMetric.values.rate ?? 0 }),
      failed: failedMetric?.values.passes ?? 0, // a Rate's "passes" are its true values: failed responses
      schemaViolations: count(data, METRICS.schemaViolations),
      unresolved: count(data, METRICS.unresolved),
      refusedCharges: count(data, METRICS.chargesRefused),
      faults: {
        timeout: count(data, METRICS.faults.timeout),
        connection: count(data, METRICS.faults.connection),
        'server-error': count(data, METRICS.faults['server-error']),
        malformed: count(data, METRICS.faults.malformed),
      },
      ...(timeToFinal === undefined ? {} : { timeToFinalMs: timeToFinal }),
      ...(checkDuration === undefined ? {} : { checkDurationMs: checkDuration }),
    },
    operations,
    problems,
  };
}

export function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
