// How a load run's settings reach the bundle: environment variables only, read through k6's __ENV (k6 copies the
// system environment into it by default; the engine does the same). The CLI encodes them, the bundle decodes them here.
// Credentials travel as GATEWAY_USER / GATEWAY_PASSWORD in the child process environment, never as `-e` flags.
import { HarnessError } from '../api/errors.ts';
import { DEFAULT_FIELD_MAPPING, mergeFieldMapping, type FieldMapping } from '../api/field-mapping.ts';
import type { TargetConnection } from '../api/request-builder.ts';
import { clientTimings, scaleMs, type ClientTimings } from '../api/scale.ts';
import { SERVICE_TIMEOUT_MS } from '../api/spec-durations.ts';
import { CONFIG_DEFAULTS, giftcardCursorOf, type Environment } from '../api/target-config.ts';
import { GIFTCARD_CURSOR_MEANINGS, type GiftcardCursorMeaning } from '../api/giftcard-paging.ts';
import { isProfileName, type ProfileName, type ProfileOverrides } from './profiles.ts';
import { API_SELECTIONS, type ApiSelection } from './scenarios.ts';
import { THRESHOLD_EXPRESSION, THRESHOLD_METRIC, durationSeconds } from './thresholds.ts';

/** The environment variables of a load run (documented in load/README.md). */
export const LOAD_ENV = Object.freeze({
  baseUrl: 'GATEWAY_BASE_URL',
  user: 'GATEWAY_USER',
  password: 'GATEWAY_PASSWORD',
  environment: 'GATEWAY_ENV',
  timeScale: 'GATEWAY_TIME_SCALE',
  profile: 'GATEWAY_LOAD_PROFILE',
  api: 'GATEWAY_LOAD_API',
  vus: 'GATEWAY_LOAD_VUS',
  duration: 'GATEWAY_LOAD_DURATION',
  rate: 'GATEWAY_LOAD_RATE',
  iterations: 'GATEWAY_LOAD_ITERATIONS',
  thresholds: 'GATEWAY_LOAD_THRESHOLDS',
  config: 'GATEWAY_LOAD_CONFIG',
  targetLabel: 'GATEWAY_LOAD_TARGET_LABEL',
  runId: 'GATEWAY_LOAD_RUN_ID',
  schemaChecks: 'GATEWAY_LOAD_SCHEMA_CHECKS',
  measureChecks: 'GATEWAY_LOAD_MEASURE_CHECKS',
  promoteObserved: 'GATEWAY_LOAD_PROMOTE_OBSERVED',
  payloadChecks: 'GATEWAY_LOAD_PAYLOAD_CHECKS',
  reportDir: 'GATEWAY_REPORT_DIR',
  /** Which engine runs the bundle ('k6 v0.48.0', 'node'): named in its verdict line; a bare `k6 run` says k6. */
  engine: 'GATEWAY_LOAD_ENGINE',
} as const);

/** Values the flows need that the spec does not give (all assumed, overridable in GATEWAY_LOAD_CONFIG `data`). */
export interface LoadDataSettings {
  /** Account number for bill payment and fetch-account-detail. */
  readonly billpayAccountNumber: string;
  /** SIM number and zip code for SIM activation and port-in. */
  readonly simNumber: string;
  readonly zipCode: number;
  /** Real-time floor of the response timeout: a fast time scale must not turn a busy machine's 300 ms into "timed out". */
  readonly minResponseTimeoutMs: number;
  /** Real-time slack added to the polling deadline (same reason). */
  readonly pollSlackMs: number;
}

export const DEFAULT_LOAD_DATA: Readonly<LoadDataSettings> = Object.freeze({
  billpayAccountNumber: '1234567890',
  simNumber: '8901234567890123456',
  zipCode: 10001,
  minResponseTimeoutMs: 5_000,
  pollSlackMs: 5_000,
});

/** The non-secret part of the target config the CLI resolved (file < env < flags), as GATEWAY_LOAD_CONFIG JSON. */
export interface LoadConfigPayload {
  readonly timeouts?: { readonly connectMs: number; readonly responseMs: number };
  readonly poll?: {
    readonly intervalMs: number;
    readonly deadlineMs: number;
    readonly maxAttempts?: number;
    readonly notFoundCodes: readonly string[];
  };
  readonly writePaths?: Readonly<Record<string, string>>;
  readonly fieldMapping?: FieldMapping;
  /** What the gift card list's next / next_cursor mean (config paging.giftcardCursor); absent: the spec's definition. */
  readonly paging?: { readonly giftcardCursor: GiftcardCursorMeaning };
  readonly data?: Partial<LoadDataSettings>;
}

export interface RunSettings {
  readonly target: TargetConnection;
  readonly environment: Environment;
  readonly timeScale: number;
  readonly timings: ClientTimings;
  readonly status: { readonly serviceTimeoutMs: number; readonly notFoundCodes: readonly string[]; readonly maxAttempts?: number };
  readonly profile: ProfileName;
  readonly api: ApiSelection;
  readonly overrides: ProfileOverrides;
  readonly thresholdOverrides: Readonly<Record<string, readonly string[]>>;
  readonly schemaChecks: boolean;
  readonly measureChecks: boolean;
  /** Observed-payload findings count as violations (`--promote-observed`); otherwise they are warnings. */
  readonly promoteObserved: boolean;
  /** Off: the envelope schema and payload kind only, as before the payload layers (the bench's comparison). */
  readonly payloadChecks: boolean;
  /** Where handleSummary writes; '' = the working directory. */
  readonly reportDir: string;
  readonly targetLabel: string;
  readonly runId: string;
  readonly fieldMapping: FieldMapping;
  /** How the gift card list's pages are followed (api/giftcard-paging.ts). */
  readonly giftcardCursor: GiftcardCursorMeaning;
  readonly data: LoadDataSettings;
  /** Longest a started iteration may still need (response timeout twice + the polling deadline), real ms. */
  readonly iterationGraceMs: number;
}

type Env = Readonly<Record<string, string | undefined>>;

function configError(message: string): HarnessError {
  return new HarnessError('GH_ERR_CONFIG', `load settings: ${message}`);
}

function present(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function positiveNumber(env: Env, name: string, integer: boolean): number | undefined {
  const text = present(env, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw configError(`${name} must be a ${integer ? 'whole ' : ''}number > 0`);
  }
  return value;
}

function parseJson<T>(env: Env, name: string): T | undefined {
  const text = present(env, name);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw configError(`${name} is not valid JSON`);
  }
}

function parseThresholds(env: Env): Record<string, string[]> {
  const raw = parseJson<unknown>(env, LOAD_ENV.thresholds);
  if (raw === undefined) return {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw configError(`${LOAD_ENV.thresholds} must be a JSON object of metric → [expression]`);
  const out: Record<string, string[]> = {};
  for (const [metric, list] of Object.entries(raw as Record<string, unknown>)) {
    if (!THRESHOLD_METRIC.test(metric)) throw configError(`${LOAD_ENV.thresholds}: "${metric.slice(0, 60)}" is not a metric name`);
    if (!Array.isArray(list) || list.some((e) => typeof e !== 'string' || !THRESHOLD_EXPRESSION.test(e))) {
      throw configError(`${LOAD_ENV.thresholds}: ${metric.slice(0, 60)} needs a list of expressions such as "p(95)<500"`);
    }
    out[metric] = list as string[];
  }
  return out;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const text = present(env, name)?.toLowerCase();
  if (text === undefined) return fallback;
  if (['1', 'true', 'on', 'yes'].includes(text)) return true;
  if (['0', 'false', 'off', 'no'].includes(text)) return false;
  throw configError(`${name} must be on or off`);
}

/** The payload's paging.giftcardCursor, checked (the CLI validated it; the bundle may be run by hand). */
function cursorMeaningOf(payload: LoadConfigPayload): GiftcardCursorMeaning {
  const meaning = giftcardCursorOf(payload);
  if (!GIFTCARD_CURSOR_MEANINGS.includes(meaning))
    throw configError(`${LOAD_ENV.config}: paging.giftcardCursor must be one of ${GIFTCARD_CURSOR_MEANINGS.join(', ')}`);
  return meaning;
}

/** The gateway's base URL, its environment and the time scale, checked. */
function targetBasicsOf(env: Env): { baseUrl: string; environment: Environment; timeScale: number } {
  const baseUrl = present(env, LOAD_ENV.baseUrl);
  if (baseUrl === undefined) throw configError(`${LOAD_ENV.baseUrl} is not set (the gateway's base URL; \`gateway-harness load\` sets it)`);
  if (!/^https?:\/\/[^/@\s?#]+(?:[/?#]|$)/.test(baseUrl))
    throw configError(`${LOAD_ENV.baseUrl} must be an http(s) URL without credentials`);
  const environment = present(env, LOAD_ENV.environment) ?? CONFIG_DEFAULTS.environment;
  if (environment !== 'sandbox' && environment !== 'production') throw configError(`${LOAD_ENV.environment} must be sandbox or production`);
  const timeScaleText = present(env, LOAD_ENV.timeScale);
  const timeScale = timeScaleText === undefined ? CONFIG_DEFAULTS.timeScale : Number(timeScaleText);
  if (!Number.isFinite(timeScale) || timeScale < 0) throw configError(`${LOAD_ENV.timeScale} must be a number >= 0`);
  return { baseUrl, environment, timeScale };
}

/** What the run is: its profile, the API versions it uses, and what the flags change of the profile. */
function runShapeOf(env: Env): { profile: ProfileName; api: ApiSelection; overrides: ProfileOverrides } {
  const profile = present(env, LOAD_ENV.profile) ?? 'smoke';
  if (!isProfileName(profile)) throw configError(`${LOAD_ENV.profile}: unknown profile "${profile.slice(0, 40)}"`);
  const api = (present(env, LOAD_ENV.api) ?? 'both') as ApiSelection;
  if (!API_SELECTIONS.includes(api)) throw configError(`${LOAD_ENV.api} must be v1, v2 or both`);
  const durationText = present(env, LOAD_ENV.duration);
  const durationSec = durationText === undefined ? undefined : durationSeconds(durationText);
  if (durationText !== undefined && (durationSec === undefined || durationSec <= 0))
    throw configError(`${LOAD_ENV.duration} must be a k6 duration such as 90s or 5m`);
  const vus = positiveNumber(env, LOAD_ENV.vus, true);
  const rate = positiveNumber(env, LOAD_ENV.rate, false);
  const iterations = positiveNumber(env, LOAD_ENV.iterations, true);
  const overrides: ProfileOverrides = {
    ...(vus === undefined ? {} : { vus }),
    ...(durationSec === undefined ? {} : { durationSec }),
    ...(rate === undefined ? {} : { rate }),
    ...(iterations === undefined ? {} : { iterations }),
  };
  return { profile, api, overrides };
}

/** The client's real-time timings: the config's, scaled, with the real-time floors of `data` (LoadDataSettings). */
function timingsOf(
  timeScale: number,
  payload: LoadConfigPayload,
  poll: NonNullable<LoadConfigPayload['poll']>,
  data: LoadDataSettings,
): ClientTimings {
  const scaled = clientTimings({ timeScale, timeouts: payload.timeouts ?? CONFIG_DEFAULTS.timeouts, poll });
  return {
    connectTimeoutMs: scaled.connectTimeoutMs,
    responseTimeoutMs: Math.max(scaled.responseTimeoutMs, data.minResponseTimeoutMs),
    pollIntervalMs: scaled.pollIntervalMs,
    pollDeadlineMs: scaled.pollDeadlineMs + data.pollSlackMs,
  };
}

/** Decodes a run's settings from the environment (k6 __ENV). Throws GH_ERR_CONFIG with one line on a bad value. */
export function readRunSettings(env: Env): RunSettings {
  const { baseUrl, environment, timeScale } = targetBasicsOf(env);
  const { profile, api, overrides } = runShapeOf(env);
  const payload = parseJson<LoadConfigPayload>(env, LOAD_ENV.config) ?? {};
  const data: LoadDataSettings = { ...DEFAULT_LOAD_DATA, ...(payload.data ?? {}) };
  const poll: NonNullable<LoadConfigPayload['poll']> = payload.poll ?? CONFIG_DEFAULTS.poll;
  const timings = timingsOf(timeScale, payload, poll, data);
  return {
    target: {
      baseUrl,
      user: env[LOAD_ENV.user] ?? CONFIG_DEFAULTS.user,
      password: env[LOAD_ENV.password] ?? CONFIG_DEFAULTS.password,
      writePaths: { ...(payload.writePaths ?? {}) },
    },
    environment,
    timeScale,
    timings,
    status: {
      serviceTimeoutMs: scaleMs(timeScale, SERVICE_TIMEOUT_MS),
      notFoundCodes: [...poll.notFoundCodes],
      ...(poll.maxAttempts === undefined ? {} : { maxAttempts: poll.maxAttempts }),
    },
    profile,
    api,
    overrides,
    thresholdOverrides: parseThresholds(env),
    schemaChecks: flag(env, LOAD_ENV.schemaChecks, true),
    measureChecks: flag(env, LOAD_ENV.measureChecks, false),
    promoteObserved: flag(env, LOAD_ENV.promoteObserved, false),
    payloadChecks: flag(env, LOAD_ENV.payloadChecks, true),
    reportDir: present(env, LOAD_ENV.reportDir) ?? '',
    targetLabel: present(env, LOAD_ENV.targetLabel) ?? baseUrl,
    runId: present(env, LOAD_ENV.runId) ?? '',
    fieldMapping:
      payload.fieldMapping === undefined
        ? mergeFieldMapping(DEFAULT_FIELD_MAPPING, undefined)
        : mergeFieldMapping(DEFAULT_FIELD_MAPPING, payload.fieldMapping),
    giftcardCursor: cursorMeaningOf(payload),
    data,
    iterationGraceMs: timings.responseTimeoutMs * 2 + timings.pollDeadlineMs,
  };
}

/** What the CLI knows about a run, to be encoded for the bundle. */
export interface RunEnvironmentInput {
  readonly baseUrl: string;
  readonly user: string;
  readonly password: string;
  readonly environment: Environment;
  readonly timeScale: number;
  readonly profile: ProfileName;
  readonly api: ApiSelection;
  readonly vus?: number;
  /** A k6 duration string, as given. */
  readonly duration?: string;
  readonly rate?: number;
  readonly iterations?: number;
  readonly thresholds?: Readonly<Record<string, readonly string[]>>;
  readonly config: LoadConfigPayload;
  readonly targetLabel: string;
  readonly runId: string;
  readonly reportDir: string;
  readonly schemaChecks?: boolean;
  readonly measureChecks?: boolean;
  readonly promoteObserved?: boolean;
  readonly payloadChecks?: boolean;
}

/** The environment variables of a run (to be merged into the child process environment; never passed as `-e`). */
export function runEnvironment(input: RunEnvironmentInput): Record<string, string> {
  const env: Record<string, string> = {
    [LOAD_ENV.baseUrl]: input.baseUrl,
    [LOAD_ENV.user]: input.user,
    [LOAD_ENV.password]: input.password,
    [LOAD_ENV.environment]: input.environment,
    [LOAD_ENV.timeScale]: String(input.timeScale),
    [LOAD_ENV.profile]: input.profile,
    [LOAD_ENV.api]: input.api,
    [LOAD_ENV.config]: JSON.stringify(input.config),
    [LOAD_ENV.targetLabel]: input.targetLabel,
    [LOAD_ENV.runId]: input.runId,
    [LOAD_ENV.reportDir]: input.reportDir,
    [LOAD_ENV.schemaChecks]: input.schemaChecks === false ? 'off' : 'on',
    [LOAD_ENV.measureChecks]: input.measureChecks === true ? 'on' : 'off',
    [LOAD_ENV.promoteObserved]: input.promoteObserved === true ? 'on' : 'off',
    [LOAD_ENV.payloadChecks]: input.payloadChecks === false ? 'off' : 'on',
    // Cleared, not inherited: a value left in the caller's shell must not leak into this run.
    [LOAD_ENV.vus]: input.vus === undefined ? '' : String(input.vus),
    [LOAD_ENV.duration]: input.duration ?? '',
    [LOAD_ENV.rate]: input.rate === undefined ? '' : String(input.rate),
    [LOAD_ENV.iterations]: input.iterations === undefined ? '' : String(input.iterations),
    [LOAD_ENV.thresholds]:
      input.thresholds === undefined || Object.keys(input.thresholds).length === 0 ? '' : JSON.stringify(input.thresholds),
  };
  return env;
}
