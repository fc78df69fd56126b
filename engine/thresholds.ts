// k6 thresholds, usable on their own: parse `options.thresholds` (k6's syntax, k6's parser rules), evaluate them over
// aggregated sink values, and decide abortOnFail / delayAbortEval. Used by the engine and by merge-results on k6 NDJSON.
import { parseDuration } from './durations.ts';

/** k6's metric kinds; each supports its own aggregation methods (metrics/metric_type.go). */
export type MetricType = 'counter' | 'gauge' | 'rate' | 'trend';

export type ThresholdOperator = '<' | '<=' | '>' | '>=' | '==' | '===' | '!=';

export interface ThresholdExpression {
  /** 'count' | 'rate' | 'value' | 'avg' | 'min' | 'med' | 'max' | 'p' */
  method: 'count' | 'rate' | 'value' | 'avg' | 'min' | 'med' | 'max' | 'p';
  /** The N of p(N), 0..100. */
  percentile?: number;
  operator: ThresholdOperator;
  value: number;
}

export interface Threshold {
  /** The expression exactly as written: the key of `thresholds` in the summary. */
  source: string;
  parsed: ThresholdExpression;
  abortOnFail: boolean;
  /** delayAbortEval in ms: no abort before this much test time has passed. */
  delayAbortEvalMs?: number;
}

export interface MetricThresholds {
  /** The key as written in options.thresholds, e.g. `http_req_duration{operation:v2.catalog.skus}`. */
  key: string;
  /** The metric the thresholds apply to (`http_req_duration`). */
  metric: string;
  /** Tag filter of a submetric, in written order; empty for the whole metric. */
  tags: Array<[string, string]>;
  /** Name of the (sub)metric in the summary: `metric` or `metric{inner}` with the inner text trimmed, like k6. */
  summaryName: string;
  thresholds: Threshold[];
}

export class ThresholdError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ThresholdError';
  }
}

// k6 scans operators in this order and cuts at the first one found with a non-empty right side.
const OPERATORS: ThresholdOperator[] = ['<=', '<', '>=', '>', '===', '==', '!='];
const METHODS = ['value', 'count', 'rate', 'avg', 'min', 'med', 'max'] as const;

/** Parses one expression such as `p(95)<500`, `rate<=0.01`, `count > 10`; throws ThresholdError like k6's parser. */
export function parseThresholdExpression(input: string): ThresholdExpression {
  let found: { left: string; op: ThresholdOperator; right: string } | undefined;
  for (const op of OPERATORS) {
    const at = input.indexOf(op);
    if (at < 0) continue;
    const right = input.slice(at + op.length);
    if (right !== '') {
      found = { left: input.slice(0, at).trim(), op, right: right.trim() };
      break;
    }
  }
  if (found === undefined)
    throw new ThresholdError(`failed parsing threshold expression ${JSON.stringify(input)}; reason: malformed threshold expression`);
  const value = Number(found.right);
  if (found.right === '' || !Number.isFinite(value)) {
    throw new ThresholdError(
      `failed parsing threshold expression's ${JSON.stringify(input)} right hand side; reason: ${JSON.stringify(found.right)} is not a number`,
    );
  }
  if ((METHODS as readonly string[]).includes(found.left)) {
    return { method: found.left as ThresholdExpression['method'], operator: found.op, value };
  }
  if (found.left.startsWith('p(') && found.left.endsWith(')')) {
    const raw = found.left.slice(2, -1);
    const percentile = Number(raw);
    if (raw.trim() === '' || Number.isNaN(percentile) || percentile < 0 || percentile > 100) {
      throw new ThresholdError(
        `failed parsing threshold expression's ${JSON.stringify(input)} left hand side; reason: malformed percentile value, provide a number between 0 and 100`,
      );
    }
    return { method: 'p', percentile, operator: found.op, value };
  }
  throw new ThresholdError(
    `failed parsing threshold expression's ${JSON.stringify(input)} left hand side; reason: failed parsing method from expression`,
  );
}

/** The sink key an expression reads: `p(95)`, `avg`, ... (k6 formats the percentile with %g). */
export function sinkKey(expr: ThresholdExpression): string {
  return expr.method === 'p' ? `p(${String(expr.percentile)})` : expr.method;
}

/** Splits `name{k:v,k2:v2}` like k6's ParseMetricName + AddSubmetric (values trimmed, quotes stripped). */
export function parseMetricName(name: string): { metric: string; tags: Array<[string, string]>; summaryName: string } {
  const open = name.indexOf('{');
  const close = name.lastIndexOf('}');
  if (open === -1 && close === -1) return { metric: name, tags: [], summaryName: name };
  if (open === -1 || close === -1)
    throw new ThresholdError(`parsing metric name failed, metric ${JSON.stringify(name)} has unmatched opening/close curly brace`);
  if (close < open)
    throw new ThresholdError(`parsing metric name failed, metric ${JSON.stringify(name)} closing curly brace appears before opening one`);
  if (close !== name.length - 1)
    throw new ThresholdError(`parsing metric name failed, metric ${JSON.stringify(name)} lacks a closing curly brace in its last position`);
  const inner = name.slice(open + 1, close);
  const tags: Array<[string, string]> = [];
  for (const part of inner.split(',')) {
    const colon = part.indexOf(':');
    const rawValue = colon < 0 ? '' : part.slice(colon + 1);
    if (rawValue === '') throw new ThresholdError(`parsing metric name failed, metric ${JSON.stringify(part)} tag expression is malformed`);
    const key = part
      .slice(0, colon)
      .trim()
      .replace(/^["']+|["']+$/g, '');
    const value = rawValue.trim().replace(/^["']+|["']+$/g, '');
    tags.push([key, value]);
  }
  return { metric: name.slice(0, open), tags, summaryName: `${name.slice(0, open)}{${inner.trim()}}` };
}

/** Aggregation methods each metric type supports (k6 metric_type.go). */
export const SUPPORTED_METHODS: Record<MetricType, readonly string[]> = {
  counter: ['count', 'rate'],
  gauge: ['value'],
  rate: ['rate'],
  trend: ['avg', 'min', 'max', 'med', 'p(N)'],
};

function supports(type: MetricType, method: ThresholdExpression['method']): boolean {
  if (type === 'trend') return ['avg', 'min', 'max', 'med', 'p'].includes(method);
  return SUPPORTED_METHODS[type].includes(method);
}

function parseOne(raw: unknown, key: string): Threshold {
  if (typeof raw === 'string') return { source: raw, parsed: parseThresholdExpression(raw), abortOnFail: false };
  if (raw !== null && typeof raw === 'object' && typeof (raw as { threshold?: unknown }).threshold === 'string') {
    const cfg = raw as { threshold: string; abortOnFail?: unknown; delayAbortEval?: unknown };
    const t: Threshold = { source: cfg.threshold, parsed: parseThresholdExpression(cfg.threshold), abortOnFail: cfg.abortOnFail === true };
    if (cfg.delayAbortEval !== undefined && cfg.delayAbortEval !== null)
      t.delayAbortEvalMs = parseDuration(cfg.delayAbortEval, `thresholds[${key}].delayAbortEval`);
    return t;
  }
  throw new ThresholdError(
    `thresholds[${JSON.stringify(key)}]: each threshold is a string like "p(95)<500" or { threshold, abortOnFail, delayAbortEval }`,
  );
}

/**
 * Parses `options.thresholds`. With `typeOf` (metric name → type, undefined when unknown), also validates like k6:
 * an unknown metric or an aggregation the metric type does not support is an error (k6 exits 104).
 */
export function parseThresholds(input: unknown, typeOf?: (metric: string) => MetricType | undefined): MetricThresholds[] {
  if (input === undefined || input === null) return [];
  if (typeof input !== 'object' || Array.isArray(input))
    throw new ThresholdError('options.thresholds must be an object of metric name → list of thresholds');
  const out: MetricThresholds[] = [];
  for (const [key, list] of Object.entries(input as Record<string, unknown>)) {
    const { metric, tags, summaryName } = parseMetricName(key);
    const items = Array.isArray(list) ? list : [list];
    const thresholds = items.map((raw) => parseOne(raw, key));
    if (typeOf !== undefined) {
      const type = typeOf(metric);
      if (type === undefined)
        throw new ThresholdError(`invalid threshold defined on ${key}; reason: no metric name ${JSON.stringify(metric)} found`);
      for (const t of thresholds) {
        if (!supports(type, t.parsed.method)) {
          throw new ThresholdError(
            `invalid threshold ${JSON.stringify(t.source)} applied on metric ${key}; reason: unsupported aggregation method ${t.parsed.method} on metric of type ${type}. supported aggregation methods for this metric are: ${SUPPORTED_METHODS[type].join(', ')}`,
          );
        }
      }
    }
    out.push({ key, metric, tags, summaryName, thresholds });
  }
  return out;
}

/** Compares like k6's Threshold.run: a method missing from the sink values (e.g. rate of an empty Rate) passes. */
export function thresholdPasses(expr: ThresholdExpression, values: Readonly<Record<string, number>>): boolean {
  const lhs = values[sinkKey(expr)];
  if (lhs === undefined) return true;
  switch (expr.operator) {
    case '>':
      return lhs > expr.value;
    case '>=':
      return lhs >= expr.value;
    case '<=':
      return lhs <= expr.value;
    case '<':
      return lhs < expr.value;
    case '==':
    case '===':
      return lhs === expr.value;
    case '!=':
      return lhs !== expr.value;
  }
}

export interface ThresholdVerdict {
  /** Per threshold source: ok (the shape k6 gives handleSummary under metrics[name].thresholds). */
  results: Record<string, { ok: boolean }>;
  passed: boolean;
  /** True when a failed threshold has abortOnFail and its delayAbortEval has passed. */
  abort: boolean;
}

/**
 * Evaluates one metric's thresholds over its sink values (see metrics/sinks.ts `thresholdValues`).
 * `elapsedMs` is the test time so far (for delayAbortEval).
 */
export function evaluateThresholds(set: MetricThresholds, values: Readonly<Record<string, number>>, elapsedMs: number): ThresholdVerdict {
  const results: Record<string, { ok: boolean }> = {};
  let passed = true;
  let abort = false;
  for (const t of set.thresholds) {
    const ok = thresholdPasses(t.parsed, values);
    results[t.source] = { ok };
    if (ok) continue;
    passed = false;
    if (t.abortOnFail && (t.delayAbortEvalMs === undefined || t.delayAbortEvalMs < elapsedMs)) abort = true;
  }
  return { results, passed, abort };
}
