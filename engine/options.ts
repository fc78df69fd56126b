// Consolidates a script's exported `options` (plus run overrides) into the scenario list k6 would run: the shortcut
// options (vus/duration/iterations/stages) become a `default` scenario like lib/executor/execution_config_shortcuts.go.
import { dur, OptionsError } from './executors/config.ts';
import { parseScenario, stringMap, type ScenarioConfig } from './executors/registry.ts';
import { ExecutionSegmentError, executionTuple } from './execution-segment.ts';

// The executors' config types and parser live with the executors (engine/executors/registry.ts); re-exported for the
// engine's public API.
export { OptionsError, type Stage } from './executors/config.ts';
export { EXECUTORS, parseScenario, type ExecutorName, type ScenarioConfig } from './executors/registry.ts';

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

export const DEFAULT_TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)'];

/** Options the engine honours; other known k6 options are refused at load time (see IGNORED_OPTIONS for the harmless ones). */
const SUPPORTED_OPTIONS = new Set([
  'scenarios',
  'thresholds',
  'tags',
  'summaryTrendStats',
  'summaryTimeUnit',
  'setupTimeout',
  'teardownTimeout',
  'vus',
  'duration',
  'iterations',
  'stages',
  'discardResponseBodies',
  'userAgent',
  'noConnectionReuse',
  'noVUConnectionReuse',
  'maxRedirects',
  'executionSegment',
  'executionSegmentSequence',
]);
/** Options with no effect on what the engine measures (output, cloud and UI settings): accepted and ignored. */
const IGNORED_OPTIONS = new Set([
  'ext',
  'cloud',
  'noColor',
  'quiet',
  'noUsageReport',
  'systemTags',
  'insecureSkipTLSVerify',
  'minIterationDuration',
  'throw',
  'batch',
  'batchPerHost',
  'rps',
  'setupTimeout',
]);

/** The `default` scenario k6 derives from the shortcut options. */
function shortcutScenario(o: { vus?: unknown; duration?: unknown; iterations?: unknown; stages?: unknown }): ScenarioConfig {
  const raw: Record<string, unknown> = { vus: o.vus ?? 1 };
  if (o.stages !== undefined && o.stages !== null && o.duration === undefined && o.iterations === undefined) {
    return parseScenario('default', { executor: 'ramping-vus', startVUs: o.vus ?? 1, stages: o.stages });
  }
  if (o.iterations !== undefined && o.iterations !== null) {
    return parseScenario('default', {
      executor: 'shared-iterations',
      ...raw,
      iterations: o.iterations,
      ...(o.duration === undefined ? {} : { maxDuration: o.duration }),
    });
  }
  if (o.duration !== undefined && o.duration !== null && dur(o.duration, 'duration') > 0) {
    return parseScenario('default', { executor: 'constant-vus', ...raw, duration: o.duration });
  }
  return parseScenario('default', { executor: 'shared-iterations', ...raw, iterations: 1 });
}

/** Options k6 knows that the engine does not implement are refused (running such a script on k6 is the way). */
function refuseUnimplemented(o: Record<string, unknown>): void {
  for (const key of Object.keys(o)) {
    if (!SUPPORTED_OPTIONS.has(key) && !IGNORED_OPTIONS.has(key)) {
      throw new OptionsError(`option "${key}" is not implemented by the node engine; run this script with k6 (or remove the option)`);
    }
  }
}

/** The scenarios to run: the overrides' shortcut, else the script's `scenarios`, else its shortcut options. */
function scenariosOf(o: Record<string, unknown>, overrides: RunOverrides): ScenarioConfig[] {
  const hasScenarios = o.scenarios !== undefined && o.scenarios !== null && Object.keys(o.scenarios as object).length > 0;
  const scriptShortcut = ['duration', 'iterations', 'stages'].find((k) => o[k] !== undefined && o[k] !== null);
  const overrideShortcut = overrides.duration !== undefined || overrides.iterations !== undefined;
  if (overrideShortcut) {
    // Like k6's CLI flags: --duration/--iterations replace the script's scenarios by a shortcut scenario.
    return [shortcutScenario({ vus: overrides.vus ?? o.vus, duration: overrides.duration, iterations: overrides.iterations })];
  }
  if (!hasScenarios) {
    return [shortcutScenario({ vus: overrides.vus ?? o.vus, duration: o.duration, iterations: o.iterations, stages: o.stages })];
  }
  if (scriptShortcut !== undefined) {
    throw new OptionsError(
      `using an execution configuration shortcut (\`${scriptShortcut}\`) and \`scenarios\` simultaneously is not allowed`,
    );
  }
  if (typeof o.scenarios !== 'object' || Array.isArray(o.scenarios))
    throw new OptionsError('options.scenarios must be an object of name → scenario');
  return Object.entries(o.scenarios as Record<string, unknown>).map(([name, raw]) => parseScenario(name, raw));
}

/** summaryTrendStats, checked: each one k6's summary can compute. */
function trendStatsOf(o: Record<string, unknown>): string[] {
  const trendStats = o.summaryTrendStats === undefined ? DEFAULT_TREND_STATS : o.summaryTrendStats;
  if (
    !Array.isArray(trendStats) ||
    trendStats.some((s) => typeof s !== 'string' || !/^(avg|min|med|max|count|p\(\d+(\.\d+)?\))$/.test(s))
  ) {
    throw new OptionsError(`summaryTrendStats: each entry is one of avg, min, med, max, count, p(N); got ${JSON.stringify(trendStats)}`);
  }
  return trendStats as string[];
}

function segmentText(value: unknown, field: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new OptionsError(`${field} must be a string such as "1/3:2/3", got ${JSON.stringify(value)}`);
  return value;
}

/** The execution segment and its sequence ('' when absent), checked by building the tuple the workers will rebuild. */
function executionSegmentsOf(
  o: Record<string, unknown>,
  overrides: RunOverrides,
): Pick<ConsolidatedOptions, 'executionSegment' | 'executionSegmentSequence'> {
  // Like k6's CLI flags, --execution-segment(-sequence) win over the script's options of the same name.
  const executionSegment = overrides.executionSegment ?? segmentText(o.executionSegment, 'executionSegment');
  const executionSegmentSequence =
    overrides.executionSegmentSequence ?? segmentText(o.executionSegmentSequence, 'executionSegmentSequence');
  try {
    executionTuple(executionSegment, executionSegmentSequence);
  } catch (error) {
    if (error instanceof ExecutionSegmentError) throw new OptionsError(`execution segment: ${error.message}`);
    throw error;
  }
  return { executionSegment, executionSegmentSequence };
}

/** Consolidates exported options and overrides (overrides act like k6's --vus/--duration/--iterations flags). */
export function consolidateOptions(scriptOptions: unknown, overrides: RunOverrides = {}): ConsolidatedOptions {
  const o = (scriptOptions ?? {}) as Record<string, unknown>;
  if (typeof o !== 'object' || Array.isArray(o)) throw new OptionsError('the exported options must be an object');
  refuseUnimplemented(o);
  const scenarios = scenariosOf(o, overrides);
  const trendStats = trendStatsOf(o);
  const { executionSegment, executionSegmentSequence } = executionSegmentsOf(o, overrides);
  return {
    scenarios,
    thresholds: o.thresholds,
    tags: { ...stringMap(o.tags, 'tags'), ...overrides.tags },
    summaryTrendStats: trendStats,
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
