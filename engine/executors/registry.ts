// The one table of executors: every executor is one module (config, description, plan, share, run, money bound) and
// is registered here once. Everything that depends on the kind of executor asks this table, never a switch of its own.
import { WHOLE_TUPLE, type ExecutionTuple } from '../execution-segment.ts';
import { DEFAULT_GRACEFUL_STOP, OptionsError, ScenarioFields, type ScenarioBase } from './config.ts';
import { constantArrivalRate, type ConstantArrivalRateConfig } from './constant-arrival-rate.ts';
import { constantVUs, type ConstantVUsConfig } from './constant-vus.ts';
import type { Executor } from './executor.ts';
import type { ExecutorHost } from './host.ts';
import { perVUIterations, type PerVUIterationsConfig } from './per-vu-iterations.ts';
import { rampingArrivalRate, type RampingArrivalRateConfig } from './ramping-arrival-rate.ts';
import { rampingVUs, type RampingVUsConfig } from './ramping-vus.ts';
import type { Segment } from './schedule.ts';
import type { ScenarioShare } from './segment-share.ts';
import { sharedIterations, type SharedIterationsConfig } from './shared-iterations.ts';

export type ScenarioConfig =
  | SharedIterationsConfig
  | PerVUIterationsConfig
  | ConstantVUsConfig
  | RampingVUsConfig
  | ConstantArrivalRateConfig
  | RampingArrivalRateConfig;
export type ExecutorName = ScenarioConfig['executor'];

/** Each executor by its k6 name; the `satisfies` makes a config type without a module (or the reverse) a compile error. */
const TABLE = {
  'shared-iterations': sharedIterations,
  'per-vu-iterations': perVUIterations,
  'constant-vus': constantVUs,
  'ramping-vus': rampingVUs,
  'constant-arrival-rate': constantArrivalRate,
  'ramping-arrival-rate': rampingArrivalRate,
} satisfies { [N in ExecutorName]: Executor<Extract<ScenarioConfig, { executor: N }>> };

export const EXECUTORS = Object.keys(TABLE) as readonly ExecutorName[];

/** Executors k6 has that the engine does not run: refused with a pointer to k6 rather than as unknown. */
const K6_ONLY = new Set(['externally-controlled']);

/** The module of a config's executor (one cast, here: the table's key and the config's tag always agree). */
export function executorOf<C extends ScenarioConfig>(config: C): Executor<C> {
  return TABLE[config.executor] as unknown as Executor<C>;
}

function isExecutorName(value: unknown): value is ExecutorName {
  return typeof value === 'string' && Object.hasOwn(TABLE, value);
}

/** Turns one entry of `options.scenarios` into a checked ScenarioConfig (k6's defaults filled in). */
export function parseScenario(name: string, raw: unknown): ScenarioConfig {
  if (raw === null || typeof raw !== 'object') throw new OptionsError(`scenarios.${name} must be an object`);
  const fields = new ScenarioFields(name, raw as Record<string, unknown>);
  const executor = fields.raw.executor;
  if (typeof executor === 'string' && K6_ONLY.has(executor)) {
    throw new OptionsError(`scenarios.${name}: the ${executor} executor is not implemented by the node engine; run this script with k6`);
  }
  if (!isExecutorName(executor))
    throw new OptionsError(`scenarios.${name}.executor: unknown executor ${JSON.stringify(executor)} (one of ${EXECUTORS.join(', ')})`);
  const exec = fields.raw.exec;
  const base: ScenarioBase = {
    name,
    startTimeMs: fields.dur('startTime', 0),
    gracefulStopMs: fields.dur('gracefulStop', DEFAULT_GRACEFUL_STOP),
    exec: typeof exec === 'string' && exec !== '' ? exec : 'default',
    env: stringMap(fields.raw.env, fields.path('env')),
    tags: stringMap(fields.raw.tags, fields.path('tags')),
  };
  return (TABLE[executor] as Executor<ScenarioConfig>).parse(fields, base);
}

export function stringMap(value: unknown, field: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new OptionsError(`${field} must be an object of strings`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = String(v);
  return out;
}

/** How long a scenario runs before its graceful stop (without startTime), as k6 plans it. */
export const scenarioDurationMs = (s: ScenarioConfig): number => executorOf(s).durationMs(s);

/** Most VUs a scenario needs (vus_max contribution). */
export const scenarioMaxVUs = (s: ScenarioConfig): number => executorOf(s).maxVUs(s);

/** k6's one-line description of a scenario's executor. */
export const describeScenario = (s: ScenarioConfig): string => executorOf(s).describe(s);

/** Most iterations a scenario can start; undefined when only time bounds it. */
export const iterationBound = (s: ScenarioConfig): number | undefined => executorOf(s).iterationBound(s);

/** Iterations after which the scenario ends by itself (0 when it ends by time): what progress counts against. */
export function iterationGoal(s: ScenarioConfig): number {
  const executor = executorOf(s);
  return executor.endsAfterIterations ? (executor.iterationBound(s) ?? 0) : 0;
}

/** The share of `scenario` that the instance described by `tuple` runs (the whole scenario for an unsplit test). */
export const scenarioShare = (s: ScenarioConfig, tuple: ExecutionTuple = WHOLE_TUPLE): ScenarioShare => executorOf(s).share(s, tuple);

/** VUs a scenario initializes in a segment before it starts (the init phase). */
export function plannedVUs(s: ScenarioConfig, seg: Segment, share: ScenarioShare = scenarioShare(s)): number {
  return share.hasWork ? executorOf(s).plannedVUs(s, seg, share) : 0;
}

/**
 * Runs the scenario's share from now (the caller waits for startTime); resolves when it is fully stopped. `share` is
 * this instance's part of a test split with execution segments; `seg` is the worker's stripe of that part.
 */
export async function runScenario<V>(
  s: ScenarioConfig,
  seg: Segment,
  host: ExecutorHost<V>,
  share: ScenarioShare = scenarioShare(s),
): Promise<void> {
  // k6 does not start an executor with no work on this instance (its HasWork()).
  if (!share.hasWork) return;
  await executorOf(s).run(s, seg, host, share);
}
