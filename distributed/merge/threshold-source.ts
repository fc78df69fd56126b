// Where merge-results takes the thresholds it evaluates once over the whole run: the run plan `k6-operator` wrote (or
// any k6 thresholds JSON), or the scenario and profile, computed by load/profiles.ts exactly as the pods computed them.
// The NDJSON streams cannot be the source: k6 does not write thresholds on sub-metrics into them (checked on v0.48, v2.2).
import { readFileSync } from 'node:fs';
import { HarnessError, parseJsonFile } from '../../api/errors.ts';
import { parseThresholds, ThresholdError } from '../../engine/thresholds.ts';
import { SUMMARY_TREND_STATS, type ProfileName } from '../../load/profiles.ts';
import { LOAD_ENV } from '../../load/run-settings.ts';
import type { ApiSelection, ScenarioName } from '../../load/scenarios.ts';
import { k6OptionsFor } from '../../load/run-options.ts';

/** What the plan knows of the run, for the reports (no credentials). */
export interface PlanRun {
  readonly scenario: string;
  readonly profile: string;
  readonly api: ApiSelection;
  /** The target's URL (or label) the pods used. */
  readonly target: string;
  readonly environment: 'sandbox' | 'production';
  readonly timeScale: number;
  readonly runId?: string;
  readonly parallelism?: number;
  readonly testRun?: string;
  readonly namespace?: string;
}

export interface ThresholdPlan {
  /** Where the thresholds came from, for the output ("run plan k8s/thresholds.json", "profile mixed/load"). */
  readonly source: string;
  /** k6 `options.thresholds`: metric (or `metric{tag:value}`) → expressions or `{ threshold, abortOnFail }`. */
  readonly thresholds: Readonly<Record<string, unknown>>;
  readonly summaryTrendStats: readonly string[];
  readonly run?: PlanRun;
}

/** The schema tag of the run plan `k6-operator` writes. */
export const RUN_PLAN_SCHEMA = 'gateway-harness/distributed-run/1';

function configError(message: string): HarnessError {
  return new HarnessError('GH_ERR_CONFIG', message);
}

function checked(thresholds: unknown, where: string): Record<string, unknown> {
  if (thresholds === null || typeof thresholds !== 'object' || Array.isArray(thresholds)) {
    throw configError(`${where}: expected a JSON object of metric → thresholds (k6's options.thresholds)`);
  }
  try {
    parseThresholds(thresholds);
  } catch (error) {
    if (error instanceof ThresholdError) throw configError(`${where}: ${error.message}`);
    throw error;
  }
  if (Object.keys(thresholds).length === 0) throw configError(`${where}: no thresholds (a verdict needs at least one)`);
  return thresholds as Record<string, unknown>;
}

function planRun(value: unknown): PlanRun | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const r = value as Record<string, unknown>;
  if (typeof r.scenario !== 'string' || typeof r.profile !== 'string') return undefined;
  const api = r.api === 'v1' || r.api === 'v2' ? r.api : 'both';
  return {
    scenario: r.scenario,
    profile: r.profile,
    api,
    target: typeof r.target === 'string' ? r.target : '',
    environment: r.environment === 'production' ? 'production' : 'sandbox',
    timeScale: typeof r.timeScale === 'number' && Number.isFinite(r.timeScale) && r.timeScale >= 0 ? r.timeScale : 1,
    ...(typeof r.runId === 'string' ? { runId: r.runId } : {}),
    ...(typeof r.parallelism === 'number' ? { parallelism: r.parallelism } : {}),
    ...(typeof r.testRun === 'string' ? { testRun: r.testRun } : {}),
    ...(typeof r.namespace === 'string' ? { namespace: r.namespace } : {}),
  };
}

/**
 * `--thresholds FILE`: the run plan written by `gateway-harness k6-operator` (`{ schema, run, thresholds,
 * summaryTrendStats }`), any JSON with a `thresholds` object (k6 options), or a bare k6 thresholds object.
 */
export function readThresholdsFile(path: string): ThresholdPlan {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw configError(`cannot read the thresholds file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const json = parseJsonFile(text, `the thresholds file ${path}`);
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw configError(`${path}: expected a JSON object`);
  const o = json as Record<string, unknown>;
  const wrapped = o.thresholds !== null && typeof o.thresholds === 'object' && !Array.isArray(o.thresholds);
  const stats =
    Array.isArray(o.summaryTrendStats) && o.summaryTrendStats.every((s) => typeof s === 'string')
      ? (o.summaryTrendStats as string[])
      : SUMMARY_TREND_STATS;
  const run = wrapped ? planRun(o.run) : undefined;
  return {
    source: o.schema === RUN_PLAN_SCHEMA ? `run plan ${path}` : `thresholds file ${path}`,
    thresholds: checked(wrapped ? o.thresholds : o, path),
    summaryTrendStats: stats,
    ...(run === undefined ? {} : { run }),
  };
}

export interface ProfileThresholdsInput {
  readonly scenario: ScenarioName;
  readonly profile: ProfileName;
  readonly api: ApiSelection;
  readonly timeScale: number;
  readonly environment: 'sandbox' | 'production';
  /** `--threshold` values, as the load command takes them. */
  readonly thresholdOverrides: Readonly<Record<string, readonly string[]>>;
  readonly target?: string;
}

/** The URL readRunSettings requires; never contacted (only thresholds are computed from these settings). */
const PLACEHOLDER_TARGET = 'http://merge-results.invalid';

/** `--scenario S --profile P`: the thresholds load/profiles.ts gives the pods for these settings. */
export function thresholdsForProfile(input: ProfileThresholdsInput): ThresholdPlan {
  const env: Record<string, string> = {
    [LOAD_ENV.baseUrl]: PLACEHOLDER_TARGET,
    [LOAD_ENV.profile]: input.profile,
    [LOAD_ENV.api]: input.api,
    [LOAD_ENV.timeScale]: String(input.timeScale),
    [LOAD_ENV.environment]: input.environment,
    ...(Object.keys(input.thresholdOverrides).length === 0 ? {} : { [LOAD_ENV.thresholds]: JSON.stringify(input.thresholdOverrides) }),
  };
  const options = k6OptionsFor(input.scenario, env);
  return {
    source: `profile ${input.scenario}/${input.profile} (api ${input.api}, time scale ${input.timeScale})`,
    thresholds: options.thresholds,
    summaryTrendStats: options.summaryTrendStats,
    run: {
      scenario: input.scenario,
      profile: input.profile,
      api: input.api,
      target: input.target ?? '',
      environment: input.environment,
      timeScale: input.timeScale,
    },
  };
}
