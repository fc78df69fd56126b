// Consolidates a script's exported `options` (plus run overrides) into the scenario list k6 would run: the shortcut
// options (vus/duration/iterations/stages) become a `default` scenario like lib/executor/execution_config_shortcuts.go.
import { parseDuration } from './durations.ts';
import { ExecutionSegmentError, executionTuple } from './execution-segment.ts';

export type ExecutorName = 'shared-iterations' | 'per-vu-iterations' | 'constant-vus' | 'ramping-vus' | 'constant-arrival-rate' | 'ramping-arrival-rate';

export const EXECUTORS: readonly ExecutorName[] = ['shared-iterations', 'per-vu-iterations', 'constant-vus', 'ramping-vus', 'constant-arrival-rate', 'ramping-arrival-rate'];

export interface Stage {
  durationMs: number;
  target: number;
}

interface ScenarioBase {
  name: string;
  startTimeMs: number;
  gracefulStopMs: number;
  /** Name of the exported function each iteration calls. */
  exec: string;
  env: Record<string, string>;
  tags: Record<string, string>;
}

export type ScenarioConfig = ScenarioBase &
  (
    | { executor: 'shared-iterations'; vus: number; iterations: number; maxDurationMs: number }
    | { executor: 'per-vu-iterations'; vus: number; iterations: number; maxDurationMs: number }
    | { executor: 'constant-vus'; vus: number; durationMs: number }
    | { executor: 'ramping-vus'; startVUs: number; stages: Stage[]; gracefulRampDownMs: number }
    | { executor: 'constant-arrival-rate'; rate: number; timeUnitMs: number; durationMs: number; preAllocatedVUs: number; maxVUs: number }
    | { executor: 'ramping-arrival-rate'; startRate: number; timeUnitMs: number; stages: Stage[]; preAllocatedVUs: number; maxVUs: number }
  );

export interface RunOverrides {
  vus?: number;
  duration?: string;
  iterations?: number;
  /** k6's --execution-segment (e.g. `1/3:2/3`): this instance's share of a split test. */
  executionSegment?: string;
  /** k6's --execution-segment-sequence (e.g. `0,1/3,2/3,1`): every instance's segment. */
  executionSegmentSequence?: string;
  /** k6's --tag NAME=VALUE: test-wide tags over the script's `options.tags`. */
  tags?: Record<string, string>;
}

export interface ConsolidatedOptions {
  scenarios: ScenarioConfig[];
  thresholds: unknown;
  tags: Record<string, string>;
  summaryTrendStats: string[];
  summaryTimeUnit: string;
  setupTimeoutMs: number;
  teardownTimeoutMs: number;
  discardResponseBodies: boolean;
  userAgent: string | undefined;
  noConnectionReuse: boolean;
  /** The execution segment and sequence ('' when absent: the whole test), validated; workers rebuild the tuple. */
  executionSegment: string;
  executionSegmentSequence: string;
  /** The options object as k6 would report it (exec.test.options). */
  raw: Record<string, unknown>;
}

export class OptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OptionsError';
  }
}

export const DEFAULT_TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)'];
const DEFAULT_GRACEFUL_STOP = 30_000;

/** Options the engine honours; other known k6 options are refused at load time (see IGNORED_OPTIONS for the harmless ones). */
const SUPPORTED_OPTIONS = new Set([
  'scenarios', 'thresholds', 'tags', 'summaryTrendStats', 'summaryTimeUnit', 'setupTimeout', 'teardownTimeout', 'vus', 'duration',
  'iterations', 'stages', 'discardResponseBodies', 'userAgent', 'noConnectionReuse', 'noVUConnectionReuse', 'maxRedirects',
  'executionSegment', 'executionSegmentSequence',
]);
/** Options with no effect on what the engine measures (output, cloud and UI settings): accepted and ignored. */
const IGNORED_OPTIONS = new Set(['ext', 'cloud', 'noColor', 'quiet', 'noUsageReport', 'systemTags', 'insecureSkipTLSVerify', 'minIterationDuration', 'throw', 'batch', 'batchPerHost', 'rps', 'setupTimeout']);

function num(value: unknown, field: string, fallback?: number): number {
  if (value === undefined || value === null) {
    if (fallback === undefined) throw new OptionsError(`${field} is required`);
    return fallback;
  }
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new OptionsError(`${field} must be a non-negative number, got ${JSON.stringify(value)}`);
  return value;
}

function int(value: unknown, field: string, fallback?: number): number {
  const n = num(value, field, fallback);
  if (!Number.isInteger(n)) throw new OptionsError(`${field} must be a whole number, got ${n}`);
  return n;
}

function dur(value: unknown, field: string, fallback?: number): number {
  if (value === undefined || value === null) {
    if (fallback === undefined) throw new OptionsError(`${field} is required`);
    return fallback;
  }
  try {
    return parseDuration(value, field);
  } catch (error) {
    throw new OptionsError((error as Error).message);
  }
}

function stringMap(value: unknown, field: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new OptionsError(`${field} must be an object of strings`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = String(v);
  return out;
}

function stages(value: unknown, field: string, targetName: string): Stage[] {
  if (!Array.isArray(value) || value.length === 0) throw new OptionsError(`${field} must be a non-empty list of { duration, target }`);
  return value.map((s: unknown, i) => {
    const stage = (s ?? {}) as { duration?: unknown; target?: unknown };
    return { durationMs: dur(stage.duration, `${field}[${i}].duration`), target: (targetName === 'rate' ? num : int)(stage.target, `${field}[${i}].target`) };
  });
}

/** Turns one entry of `options.scenarios` into a checked ScenarioConfig (k6's defaults filled in). */
export function parseScenario(name: string, raw: unknown): ScenarioConfig {
  if (raw === null || typeof raw !== 'object') throw new OptionsError(`scenarios.${name} must be an object`);
  const s = raw as Record<string, unknown>;
  const f = (key: string): string => `scenarios.${name}.${key}`;
  const base: ScenarioBase = {
    name,
    startTimeMs: dur(s.startTime, f('startTime'), 0),
    gracefulStopMs: dur(s.gracefulStop, f('gracefulStop'), DEFAULT_GRACEFUL_STOP),
    exec: typeof s.exec === 'string' && s.exec !== '' ? s.exec : 'default',
    env: stringMap(s.env, f('env')),
    tags: stringMap(s.tags, f('tags')),
  };
  const executor = s.executor;
  switch (executor) {
    case 'shared-iterations':
    case 'per-vu-iterations': {
      const vus = int(s.vus, f('vus'), 1);
      if (vus < 1) throw new OptionsError(`${f('vus')} must be at least 1`);
      const iterations = int(s.iterations, f('iterations'), 1);
      if (executor === 'shared-iterations' && iterations < vus) {
        throw new OptionsError(`${f('iterations')} (${iterations}) must be at least the number of VUs (${vus}) in a shared-iterations scenario`);
      }
      return { ...base, executor, vus, iterations, maxDurationMs: dur(s.maxDuration, f('maxDuration'), 600_000) };
    }
    case 'constant-vus': {
      const vus = int(s.vus, f('vus'), 1);
      if (vus < 1) throw new OptionsError(`${f('vus')} must be at least 1`);
      const durationMs = dur(s.duration, f('duration'));
      if (durationMs <= 0) throw new OptionsError(`${f('duration')} must be more than 0`);
      return { ...base, executor, vus, durationMs };
    }
    case 'ramping-vus':
      return { ...base, executor, startVUs: int(s.startVUs, f('startVUs'), 1), stages: stages(s.stages, f('stages'), 'target'), gracefulRampDownMs: dur(s.gracefulRampDown, f('gracefulRampDown'), DEFAULT_GRACEFUL_STOP) };
    case 'constant-arrival-rate': {
      const rate = int(s.rate, f('rate'));
      if (rate <= 0) throw new OptionsError(`${f('rate')} must be more than 0`);
      const preAllocatedVUs = int(s.preAllocatedVUs, f('preAllocatedVUs'));
      const maxVUs = int(s.maxVUs, f('maxVUs'), preAllocatedVUs);
      if (maxVUs < preAllocatedVUs) throw new OptionsError(`${f('maxVUs')} must not be less than preAllocatedVUs`);
      const durationMs = dur(s.duration, f('duration'));
      if (durationMs <= 0) throw new OptionsError(`${f('duration')} must be more than 0`);
      return { ...base, executor, rate, timeUnitMs: dur(s.timeUnit, f('timeUnit'), 1_000), durationMs, preAllocatedVUs, maxVUs };
    }
    case 'ramping-arrival-rate': {
      const preAllocatedVUs = int(s.preAllocatedVUs, f('preAllocatedVUs'));
      const maxVUs = int(s.maxVUs, f('maxVUs'), preAllocatedVUs);
      if (maxVUs < preAllocatedVUs) throw new OptionsError(`${f('maxVUs')} must not be less than preAllocatedVUs`);
      return { ...base, executor, startRate: num(s.startRate, f('startRate'), 0), timeUnitMs: dur(s.timeUnit, f('timeUnit'), 1_000), stages: stages(s.stages, f('stages'), 'rate'), preAllocatedVUs, maxVUs };
    }
    case 'externally-controlled':
      throw new OptionsError(`scenarios.${name}: the externally-controlled executor is not implemented by the node engine; run this script with k6`);
    default:
      throw new OptionsError(`scenarios.${name}.executor: unknown executor ${JSON.stringify(executor)} (one of ${EXECUTORS.join(', ')})`);
  }
}

/** The `default` scenario k6 derives from the shortcut options. */
function shortcutScenario(o: { vus?: unknown; duration?: unknown; iterations?: unknown; stages?: unknown }): ScenarioConfig {
  const raw: Record<string, unknown> = { vus: o.vus ?? 1 };
  if (o.stages !== undefined && o.stages !== null && o.duration === undefined && o.iterations === undefined) {
    return parseScenario('default', { executor: 'ramping-vus', startVUs: o.vus ?? 1, stages: o.stages });
  }
  if (o.iterations !== undefined && o.iterations !== null) {
    return parseScenario('default', { executor: 'shared-iterations', ...raw, iterations: o.iterations, ...(o.duration === undefined ? {} : { maxDuration: o.duration }) });
  }
  if (o.duration !== undefined && o.duration !== null && dur(o.duration, 'duration') > 0) {
    return parseScenario('default', { executor: 'constant-vus', ...raw, duration: o.duration });
  }
  return parseScenario('default', { executor: 'shared-iterations', ...raw, iterations: 1 });
}

/** Consolidates exported options and overrides (overrides act like k6's --vus/--duration/--iterations flags). */
export function consolidateOptions(scriptOptions: unknown, overrides: RunOverrides = {}): ConsolidatedOptions {
  const o = (scriptOptions ?? {}) as Record<string, unknown>;
  if (typeof o !== 'object' || Array.isArray(o)) throw new OptionsError('the exported options must be an object');
  for (const key of Object.keys(o)) {
    if (!SUPPORTED_OPTIONS.has(key) && !IGNORED_OPTIONS.has(key)) {
      throw new OptionsError(`option "${key}" is not implemented by the node engine; run this script with k6 (or remove the option)`);
    }
  }
  const hasScenarios = o.scenarios !== undefined && o.scenarios !== null && Object.keys(o.scenarios as object).length > 0;
  const scriptShortcut = ['duration', 'iterations', 'stages'].find((k) => o[k] !== undefined && o[k] !== null);
  const overrideShortcut = overrides.duration !== undefined || overrides.iterations !== undefined;
  let scenarios: ScenarioConfig[];
  if (overrideShortcut) {
    // Like k6's CLI flags: --duration/--iterations replace the script's scenarios by a shortcut scenario.
    scenarios = [shortcutScenario({ vus: overrides.vus ?? o.vus, duration: overrides.duration, iterations: overrides.iterations })];
  } else if (hasScenarios) {
    if (scriptShortcut !== undefined) {
      throw new OptionsError(`using an execution configuration shortcut (\`${scriptShortcut}\`) and \`scenarios\` simultaneously is not allowed`);
    }
    if (typeof o.scenarios !== 'object' || Array.isArray(o.scenarios)) throw new OptionsError('options.scenarios must be an object of name → scenario');
    scenarios = Object.entries(o.scenarios as Record<string, unknown>).map(([name, raw]) => parseScenario(name, raw));
  } else {
    scenarios = [shortcutScenario({ vus: overrides.vus ?? o.vus, duration: o.duration, iterations: o.iterations, stages: o.stages })];
  }
  const trendStats = o.summaryTrendStats === undefined ? DEFAULT_TREND_STATS : o.summaryTrendStats;
  if (!Array.isArray(trendStats) || trendStats.some((s) => typeof s !== 'string' || !/^(avg|min|med|max|count|p\(\d+(\.\d+)?\))$/.test(s))) {
    throw new OptionsError(`summaryTrendStats: each entry is one of avg, min, med, max, count, p(N); got ${JSON.stringify(trendStats)}`);
  }
  // Like k6's CLI flags, --execution-segment(-sequence) win over the script's options of the same name.
  const segmentText = (value: unknown, field: string): string => {
    if (value === undefined || value === null) return '';
    if (typeof value !== 'string') throw new OptionsError(`${field} must be a string such as "1/3:2/3", got ${JSON.stringify(value)}`);
    return value;
  };
  const executionSegment = overrides.executionSegment ?? segmentText(o.executionSegment, 'executionSegment');
  const executionSegmentSequence = overrides.executionSegmentSequence ?? segmentText(o.executionSegmentSequence, 'executionSegmentSequence');
  try {
    executionTuple(executionSegment, executionSegmentSequence);
  } catch (error) {
    if (error instanceof ExecutionSegmentError) throw new OptionsError(`execution segment: ${error.message}`);
    throw error;
  }
  return {
    scenarios,
    thresholds: o.thresholds,
    tags: { ...stringMap(o.tags, 'tags'), ...overrides.tags },
    summaryTrendStats: trendStats as string[],
    summaryTimeUnit: typeof o.summaryTimeUnit === 'string' ? o.summaryTimeUnit : '',
    setupTimeoutMs: dur(o.setupTimeout, 'setupTimeout', 60_000),
    teardownTimeoutMs: dur(o.teardownTimeout, 'teardownTimeout', 60_000),
    discardResponseBodies: o.discardResponseBodies === true,
    userAgent: typeof o.userAgent === 'string' ? o.userAgent : undefined,
    noConnectionReuse: o.noConnectionReuse === true,
    executionSegment,
    executionSegmentSequence,
    raw: o,
  };
}
