// Threshold and duration syntax shared by the CLI (validated with zod there) and the k6 bundles (which re-check what
// they receive through __ENV). Runtime-neutral; k6's own grammar, narrowed to what the harness documents.

/** `metric` or `metric{tag:value,...}`: k6 metric names are letters, digits and underscores; tag values may hold dots and spaces. */
export const THRESHOLD_METRIC = /^[A-Za-z_][A-Za-z0-9_]*(\{[A-Za-z_][A-Za-z0-9_]*:[^{},:]+(,[A-Za-z_][A-Za-z0-9_]*:[^{},:]+)*\})?$/;

/** `aggregation operator number`, e.g. `p(95)<500`, `rate<=0.01`, `count==0`. */
export const THRESHOLD_EXPRESSION = /^(avg|min|max|med|count|rate|value|p\(\d{1,2}(\.\d+)?\))\s*(<=|>=|==|===|!=|<|>)\s*-?\d+(\.\d+)?$/;

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
  if (!THRESHOLD_METRIC.test(metric)) return { error: `threshold metric "${metric.slice(0, 80)}" is not a k6 metric name (optionally with {tag:value})` };
  if (!THRESHOLD_EXPRESSION.test(expression)) {
    return { error: `threshold expression "${expression.slice(0, 80)}" must be aggregation operator number, e.g. p(95)<500, rate<0.01, count==0` };
  }
  return { metric, expression };
}

/** Overrides grouped by metric, in the shape k6's `thresholds` option takes (and GATEWAY_LOAD_THRESHOLDS carries). */
export function groupThresholds(overrides: readonly ThresholdOverride[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const { metric, expression } of overrides) (out[metric] ??= []).push(expression);
  return out;
}

const DURATION = /^(\d+(\.\d+)?(ms|s|m|h))+$/;
const UNIT_SECONDS: Readonly<Record<string, number>> = { ms: 0.001, s: 1, m: 60, h: 3600 };

/** Seconds of a k6 duration (`90s`, `5m`, `1h30m`, `500ms`); undefined when it is not one. */
export function durationSeconds(text: string): number | undefined {
  const value = text.trim();
  if (!DURATION.test(value)) return undefined;
  let total = 0;
  for (const match of value.match(/\d+(\.\d+)?(ms|s|m|h)/g) ?? []) {
    const unit = /(ms|s|m|h)$/.exec(match)?.[1] ?? 's';
    total += parseFloat(match) * (UNIT_SECONDS[unit] ?? 1);
  }
  return total;
}

/** A whole-second k6 duration string (k6 accepts `Ns` everywhere). */
export function seconds(value: number): string {
  return `${Math.max(1, Math.ceil(value))}s`;
}
