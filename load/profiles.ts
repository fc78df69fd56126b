// Load profiles as data (executor shape + limits) and the one function that turns scenario × profile × overrides into
// k6 `options` (scenarios and thresholds). Runtime-neutral: the bundles call it at init, the CLI to validate and print.
import { checksInUse } from './checks.ts';
import { scheduledOperations } from './mix.ts';
import { scenarioMetaOf, scenarioNameOf, scenarioOperations, type ApiSelection, type ScenarioRef } from './scenarios.ts';
import { seconds } from './thresholds.ts';

export type ProfileName = 'smoke' | 'load' | 'stress' | 'spike' | 'soak' | 'breakpoint';

/** A fixed number of iterations shared by a few VUs: proves the script and the target work, nothing more. */
interface IterationShape {
  readonly kind: 'iterations';
  readonly vus: number;
  /** Hard cap on the run (k6 `maxDuration`). */
  readonly maxDurationSec: number;
}

/**
 * An open model (k6 ramping-arrival-rate): iterations start at a rate whatever the target's latency, so a slow target
 * cannot slow the load down. Stages are fractions of `durationSec` ramping to multiples of `rate` (iterations/s), so
 * `--duration` stretches the shape and `--rate` scales it.
 */
interface ArrivalShape {
  readonly kind: 'arrival';
  readonly rate: number;
  readonly durationSec: number;
  readonly stages: ReadonlyArray<readonly [fraction: number, rateMultiple: number]>;
  readonly preAllocatedVUs: number;
  readonly maxVUs: number;
}

/** Limits the thresholds are built from. Latency budgets are assumed (the spec states none): override with --threshold. */
export interface ProfileLimits {
  /** Least pass rate of each check. */
  readonly checkPassRate: number;
  /** Largest share of responses whose outcome is Failed (gateway_failed). */
  readonly failedRate: number;
  /** p(95) of http_req_duration per read operation (ms). */
  readonly readP95Ms: number;
  /** p(95) of http_req_duration per write operation (ms). */
  readonly writeP95Ms: number;
  /** Stop the run as soon as a threshold is crossed (breakpoint). */
  readonly abortOnFail: boolean;
}

export interface ProfileDef {
  readonly name: ProfileName;
  readonly description: string;
  readonly shape: IterationShape | ArrivalShape;
  readonly limits: ProfileLimits;
}

export const PROFILES: Readonly<Record<ProfileName, ProfileDef>> = Object.freeze({
  smoke: {
    name: 'smoke',
    description: 'A few iterations on 2 VUs, enough to send every operation of the scenario once; every check must pass.',
    // A cap, not a target: at time scale 1 a gift card takes 20 s; the run ends as soon as the iterations are done.
    shape: { kind: 'iterations', vus: 2, maxDurationSec: 600 },
    limits: { checkPassRate: 1, failedRate: 0, readP95Ms: 2_000, writeP95Ms: 5_000, abortOnFail: false },
  },
  load: {
    name: 'load',
    description: 'Expected traffic: ramp to the target rate, hold it, ramp down (6 min at 10 iterations/s).',
    shape: {
      kind: 'arrival',
      rate: 10,
      durationSec: 360,
      stages: [
        [0.15, 1],
        [0.8, 1],
        [0.05, 0],
      ],
      preAllocatedVUs: 10,
      maxVUs: 100,
    },
    limits: { checkPassRate: 0.99, failedRate: 0.01, readP95Ms: 1_000, writeP95Ms: 3_000, abortOnFail: false },
  },
  stress: {
    name: 'stress',
    description: 'Steps of 1x, 2x, 3x and 4x the target rate (10 min, up to 40 iterations/s), then recovery.',
    shape: {
      kind: 'arrival',
      rate: 10,
      durationSec: 600,
      stages: [
        [0.05, 1],
        [0.15, 1],
        [0.05, 2],
        [0.15, 2],
        [0.05, 3],
        [0.15, 3],
        [0.05, 4],
        [0.15, 4],
        [0.1, 0],
      ],
      preAllocatedVUs: 20,
      maxVUs: 300,
    },
    limits: { checkPassRate: 0.95, failedRate: 0.05, readP95Ms: 2_000, writeP95Ms: 5_000, abortOnFail: false },
  },
  spike: {
    name: 'spike',
    description: 'A calm baseline at a tenth of the rate, a sudden spike to the full rate, and back (4 min, peak 50 iterations/s).',
    shape: {
      kind: 'arrival',
      rate: 50,
      durationSec: 240,
      stages: [
        [0.1, 0.1],
        [0.3, 0.1],
        [0.05, 1],
        [0.15, 1],
        [0.05, 0.1],
        [0.3, 0.1],
        [0.05, 0],
      ],
      preAllocatedVUs: 20,
      maxVUs: 300,
    },
    limits: { checkPassRate: 0.95, failedRate: 0.05, readP95Ms: 3_000, writeP95Ms: 8_000, abortOnFail: false },
  },
  soak: {
    name: 'soak',
    description: 'The target rate held for hours (2 h at 5 iterations/s): leaks, wallet drain, growing latency.',
    shape: {
      kind: 'arrival',
      rate: 5,
      durationSec: 7_200,
      stages: [
        [0.02, 1],
        [0.96, 1],
        [0.02, 0],
      ],
      preAllocatedVUs: 10,
      maxVUs: 100,
    },
    limits: { checkPassRate: 0.99, failedRate: 0.01, readP95Ms: 1_000, writeP95Ms: 3_000, abortOnFail: false },
  },
  breakpoint: {
    name: 'breakpoint',
    description: 'A linear ramp to a high rate (20 min to 200 iterations/s) that stops at the first crossed threshold.',
    shape: { kind: 'arrival', rate: 200, durationSec: 1_200, stages: [[1, 1]], preAllocatedVUs: 50, maxVUs: 1_000 },
    limits: { checkPassRate: 0.99, failedRate: 0.01, readP95Ms: 1_000, writeP95Ms: 3_000, abortOnFail: true },
  },
});

export const PROFILE_NAMES = Object.freeze(Object.keys(PROFILES)) as readonly ProfileName[];

export function isProfileName(name: string): name is ProfileName {
  return Object.prototype.hasOwnProperty.call(PROFILES, name);
}

/** CLI overrides, already validated (zod on the Node side, re-checked in the bundle). */
export interface ProfileOverrides {
  /** VUs (iteration profiles) or the VU pool (arrival profiles: preAllocatedVUs and maxVUs). */
  readonly vus?: number;
  /** Seconds: an iteration profile becomes constant VUs for this long; an arrival profile's shape is stretched to it. */
  readonly durationSec?: number;
  /** Iterations per second at multiple 1 of an arrival profile's shape. */
  readonly rate?: number;
  /** k6's --iterations: an iteration profile runs this many iterations shared by its VUs (within --duration if given). */
  readonly iterations?: number;
}

/** Why an override cannot apply to a profile (the CLI turns it into a usage error); undefined when it can. */
export function overrideProblem(profile: ProfileName, overrides: ProfileOverrides): string | undefined {
  if (overrides.rate !== undefined && PROFILES[profile].shape.kind !== 'arrival') {
    return `--rate applies to the arrival-rate profiles (${PROFILE_NAMES.filter((p) => PROFILES[p].shape.kind === 'arrival').join(', ')}), not to ${profile}`;
  }
  if (overrides.iterations !== undefined && PROFILES[profile].shape.kind !== 'iterations') {
    return `--iterations applies to the iteration profiles (${PROFILE_NAMES.filter((p) => PROFILES[p].shape.kind === 'iterations').join(', ')}), not to ${profile} (an arrival-rate shape)`;
  }
  if (overrides.iterations !== undefined && overrides.vus !== undefined && overrides.iterations < overrides.vus) {
    return `--iterations (${overrides.iterations}) must be at least --vus (${overrides.vus}): k6 shares the iterations among the VUs`;
  }
  return undefined;
}

export type K6Threshold = string | { readonly threshold: string; readonly abortOnFail: boolean; readonly delayAbortEval: string };

export interface K6Options {
  readonly scenarios: Record<string, Record<string, unknown>>;
  readonly thresholds: Record<string, K6Threshold[]>;
  readonly summaryTrendStats: string[];
  readonly setupTimeout: string;
  readonly teardownTimeout: string;
}

export interface BuildOptionsInput {
  readonly scenario: ScenarioRef;
  readonly profile: ProfileName;
  readonly api: ApiSelection;
  readonly overrides?: ProfileOverrides;
  /** `--threshold` values: each replaces the profile's list for its metric (or adds a metric). */
  readonly thresholdOverrides?: Readonly<Record<string, readonly string[]>>;
  readonly schemaChecks: boolean;
  /**
   * Time-to-final budget (real ms): the service-side transaction timeout on this target (scaled) plus the real-time
   * polling slack, so a fast time scale does not turn a busy machine's jitter into a crossed threshold.
   */
  readonly timeToFinalBudgetMs: number;
  /** Longest a started iteration may need to finish (response timeout + poll deadline, real ms): its graceful stop. */
  readonly iterationGraceMs: number;
}

/** The trend statistics every summary needs: `count` proves a trend threshold had samples. */
export const SUMMARY_TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'count'];

function roundRate(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function executorOf(def: ProfileDef, input: BuildOptionsInput): Record<string, unknown> {
  const overrides = input.overrides ?? {};
  const gracefulStop = seconds(input.iterationGraceMs / 1000);
  const shape = def.shape;
  if (shape.kind === 'iterations') {
    if (overrides.iterations !== undefined) {
      // As k6 --iterations: shared by the VUs (never more VUs than iterations), within --duration if given.
      const vus = overrides.vus ?? Math.min(shape.vus, overrides.iterations);
      const maxDuration = seconds(overrides.durationSec ?? shape.maxDurationSec);
      return { executor: 'shared-iterations', vus, iterations: overrides.iterations, maxDuration, gracefulStop };
    }
    const vus = overrides.vus ?? shape.vus;
    if (overrides.durationSec !== undefined) {
      return { executor: 'constant-vus', vus, duration: seconds(overrides.durationSec), gracefulStop };
    }
    // shared-iterations refuses fewer iterations than VUs.
    const iterations = Math.max(scenarioMetaOf(input.scenario).smokeIterations, vus);
    return { executor: 'shared-iterations', vus, iterations, maxDuration: seconds(shape.maxDurationSec), gracefulStop };
  }
  const rate = overrides.rate ?? shape.rate;
  const durationSec = overrides.durationSec ?? shape.durationSec;
  const targets = shape.stages.map(([, multiple]) => roundRate(rate * multiple));
  // k6 rates are whole iterations per time unit: per second when that is exact, else per minute.
  const perSecond = targets.every((t) => Number.isInteger(t));
  const unit = perSecond ? 1 : 60;
  const stages = shape.stages.map(([fraction], index) => ({
    target: Math.round((targets[index] as number) * unit),
    duration: seconds(fraction * durationSec),
  }));
  const pool = overrides.vus;
  return {
    executor: 'ramping-arrival-rate',
    startRate: 0,
    timeUnit: perSecond ? '1s' : '1m',
    preAllocatedVUs: pool ?? shape.preAllocatedVUs,
    maxVUs: pool ?? shape.maxVUs,
    stages,
    gracefulStop,
  };
}

/** The profile's thresholds for a scenario: latency per operation tag, the envelope-aware metrics, each check. */
/**
 * The scenario's operations a run sends: the mixed scenario on an iteration profile with fewer iterations than its
 * cycle (`--iterations`, the gate's smoke load cut to fit the wallet) reaches only the first slots of its schedule; an
 * operation it never reaches gets no latency threshold (it would be unverified for want of a sample, not by the target).
 */
function reachedOperations(def: ProfileDef, input: BuildOptionsInput): ReturnType<typeof scenarioOperations> {
  const all = scenarioOperations(input.scenario, input.api);
  const iterations = input.overrides?.iterations;
  if (scenarioNameOf(input.scenario) !== 'mixed' || def.shape.kind !== 'iterations' || iterations === undefined) return all;
  const reached = new Set(scheduledOperations(input.api === 'both' ? ['v1', 'v2'] : [input.api], iterations));
  return all.filter((op) => reached.has(op.id));
}

export function profileThresholds(def: ProfileDef, input: BuildOptionsInput): Record<string, string[]> {
  const meta = scenarioMetaOf(input.scenario);
  const limits = def.limits;
  const out: Record<string, string[]> = {};
  for (const op of reachedOperations(def, input)) {
    out[`http_req_duration{operation:${op.id}}`] = [`p(95)<${op.method === 'POST' ? limits.writeP95Ms : limits.readP95Ms}`];
  }
  out.gateway_failed = [`rate<=${limits.failedRate}`];
  if (input.schemaChecks) out.gateway_schema_violations = ['count==0'];
  for (const check of checksInUse({ schemaChecks: input.schemaChecks, readsBackStatus: meta.readsBackStatus })) {
    out[`checks{check:${check.name}}`] = [`rate>=${limits.checkPassRate}`];
  }
  if (meta.followsTransactions) {
    // Spec Limits: "Service-side transaction timeout | 2 minutes": a transaction should be final within it.
    out.gateway_time_to_final = [`p(95)<${Math.round(input.timeToFinalBudgetMs)}`];
    // Money safety: a transaction never seen final may have charged the account.
    out.gateway_unresolved = ['count==0'];
  }
  return out;
}

/** k6 `options` for a scenario run: one k6 scenario named after it, thresholds, summary statistics. */
export function buildK6Options(input: BuildOptionsInput): K6Options {
  const def = PROFILES[input.profile];
  const thresholds: Record<string, readonly string[]> = { ...profileThresholds(def, input), ...(input.thresholdOverrides ?? {}) };
  const k6Thresholds: Record<string, K6Threshold[]> = {};
  for (const [metric, expressions] of Object.entries(thresholds)) {
    k6Thresholds[metric] = expressions.map((expression) =>
      def.limits.abortOnFail ? { threshold: expression, abortOnFail: true, delayAbortEval: '10s' } : expression,
    );
  }
  const setup = seconds((input.iterationGraceMs * 4) / 1000 + 60);
  return {
    scenarios: { [scenarioNameOf(input.scenario)]: executorOf(def, input) },
    thresholds: k6Thresholds,
    summaryTrendStats: [...SUMMARY_TREND_STATS],
    setupTimeout: setup,
    teardownTimeout: setup,
  };
}
