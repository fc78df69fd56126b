// Threshold and duration syntax shared by the CLI (validated with zod there) and the k6 bundles (which re-check what
// they receive through __ENV). Runtime-neutral; k6's own grammar, narrowed to what the harness documents.
import { parseDuration } from '../engine/durations.ts';
import { KIND_AGGREGATIONS, RUN_METRICS } from './metric-names.ts';

/** `metric` or `metric{tag:value,...}`: k6 metric names are letters, digits and underscores; tag values may hold dots and spaces. */
export const THRESHOLD_METRIC = /^[A-Za-z_][A-Za-z0-9_]*(\{[A-Za-z_][A-Za-z0-9_]*:[^{},:]+(,[A-Za-z_][A-Za-z0-9_]*:[^{},:]+)*\})?$/;

/** `aggregation operator number`, e.g. `p(95)<500`, `rate<=0.01`, `count==0`. */
export const THRESHOLD_EXPRESSION = /^(avg|min|max|med|count|rate|value|p\(\d{1,2}(\.\d+)?\))\s*(<=|>=|==|===|!=|<|>)\s*-?\d+(\.\d+)?$/;

/** Closest known name by edit distance (a typo's likely intent), when it is close enough to suggest. */
function closest(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 4)) + 1;
  for (const candidate of known) {
    const d = editDistance(name, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1)
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * Why a threshold cannot judge this run, or undefined: its metric is none the run has (a typo would otherwise end the
 * run without a summary), or its aggregation is one the metric's kind does not have (p(95) of a counter).
 */
export function thresholdProblem(metric: string, expression: string): string | undefined {
  const base = metric.replace(/\{.*$/, '');
  const kind = RUN_METRICS[base];
  if (kind === undefined) {
    const hint = closest(base, Object.keys(RUN_METRICS));
    return `unknown metric "${base.slice(0, 60)}"${hint === undefined ? '' : ` (did you mean ${hint}?)`}: a run has ${Object.keys(RUN_METRICS).join(', ')}`;
  }
  const aggregation = /^[a-z]+/.exec(expression)?.[0] ?? '';
  if (!KIND_AGGREGATIONS[kind].includes(aggregation)) {
    return `"${expression.slice(0, 40)}" does not apply to ${base}, a ${kind}: use ${KIND_AGGREGATIONS[kind].map((a) => (a === 'p' ? 'p(N)' : a)).join(', ')}`;
  }
  return undefined;
}

export interface ThresholdOverride {
  readonly metric: string;
  readonly expression: string;
}

/** Parses `--threshold 'metric:expr'`; the metric part may itself hold `tag:value` pairs inside braces. */
export function parseThresholdOverride(text: string): ThresholdOverride | { error: string } {
  const trimmed = text.trim();
  const close = trimmed.indexOf('}');
  const split = trimmed.indexOf(':', close === -1 ? 0 : close);
  if (split <= 0) return { error: `threshold "${trimmed.slice(0, 80)}" must be metric:expression, e.g. "http_req_duration:p(95)<500"` };
  const metric = trimmed.slice(0, split).trim();
  const expression = trimmed.slice(split + 1).trim();
  if (!THRESHOLD_METRIC.test(metric))
    return { error: `threshold metric "${metric.slice(0, 80)}" is not a k6 metric name (optionally with {tag:value})` };
  if (!THRESHOLD_EXPRESSION.test(expression)) {
    return {
      error: `threshold expression "${expression.slice(0, 80)}" must be aggregation operator number, e.g. p(95)<500, rate<0.01, count==0`,
    };
  }
  const problem = thresholdProblem(metric, expression);
  if (problem !== undefined) return { error: problem };
  return { metric, expression };
}

/** Overrides grouped by metric, in the shape k6's `thresholds` option takes (and GATEWAY_LOAD_THRESHOLDS carries). */
export function groupThresholds(overrides: readonly ThresholdOverride[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const { metric, expression } of overrides) (out[metric] ??= []).push(expression);
  return out;
}

/** The units the harness documents for --duration (k6 reads more: ns, us, d); the value is read by k6's one parser. */
const DURATION = /^(\d+(\.\d+)?(ms|s|m|h))+$/;

/** Seconds of a k6 duration (`90s`, `5m`, `1h30m`, `500ms`); undefined when it is not one. */
export function durationSeconds(text: string): number | undefined {
  const value = text.trim();
  if (!DURATION.test(value)) return undefined;
  return parseDuration(value) / 1000;
}

/** A whole-second k6 duration string (k6 accepts `Ns` everywhere). */
export function seconds(value: number): string {
  return `${Math.max(1, Math.ceil(value))}s`;
}
