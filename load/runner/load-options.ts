// The `gateway-harness load` flags, validated with zod on the Node side (the bundles re-check what reaches them), so a
// bad value ends the command with exit 2 and one line before anything starts.
import { z } from 'zod';
import { HarnessError } from '../../api/errors.ts';
import { ENGINE_CHOICES, type EngineChoice } from '../engine-select.ts';
import { PROFILE_NAMES, overrideProblem, type ProfileName } from '../profiles.ts';
import { API_SELECTIONS, SCENARIO_NAMES, scenarioMetaOf, type ApiSelection, type ScenarioName, type ScenarioRef } from '../scenarios.ts';
import type { UserScript } from './user-script.ts';
import { durationSeconds, groupThresholds, parseThresholdOverride, type ThresholdOverride } from '../thresholds.ts';

/** Raw values as commander hands them over. */
export interface RawLoadFlags {
  scenario?: string;
  /** `--script FILE`: a user script instead of a built-in scenario (load/runner/user-script.ts). */
  script?: string;
  profile: string;
  engine: string;
  api: string;
  reportDir?: string;
  /** Repeatable: json=FILE, prometheus=URL. */
  out?: string[];
  /** `--dashboard [PORT]`: true without a port. */
  dashboard?: string | boolean;
  vus?: string;
  duration?: string;
  rate?: string;
  /** `-i/--iterations`, as k6's. */
  iterations?: string;
  /** `-e/--env-var KEY=VALUE` (repeatable): the script's __ENV, as k6 run -e. */
  envVar?: string[];
  /** `--summary-export FILE`: k6's summary-export JSON. */
  summaryExport?: string;
  threshold?: string[];
  funds?: string;
  baseline?: string;
  promoteObserved?: boolean;
}

export interface LoadFlags {
  /** A built-in scenario, or what a `--script` declared. */
  readonly scenario: ScenarioRef;
  /** `--script FILE`, bundled: its bundle runs instead of dist/k6/<scenario>.js. */
  readonly script?: UserScript;
  readonly profile: ProfileName;
  readonly engine: EngineChoice;
  readonly api: ApiSelection;
  readonly reportDir?: string;
  /** File of k6's NDJSON metric stream (`--out json=FILE`). */
  readonly outJson?: string;
  /** Prometheus remote-write endpoint (`--out prometheus=URL`). */
  readonly prometheusUrl?: string;
  /** `--dashboard [PORT]`: the live dashboard's port on 127.0.0.1 (0: any free port). */
  readonly dashboardPort?: number;
  readonly vus?: number;
  /** As given (a k6 duration string); durationSec is its value. */
  readonly duration?: string;
  readonly durationSec?: number;
  readonly rate?: number;
  readonly iterations?: number;
  /** `-e/--env-var`: variables of the script's __ENV (never the harness's own GATEWAY_* settings). */
  readonly envVars?: Readonly<Record<string, string>>;
  /** `--summary-export FILE`: k6's summary-export JSON of the run. */
  readonly summaryExport?: string;
  readonly thresholds: Readonly<Record<string, readonly string[]>>;
  /** Starting balance of the embedded sandbox (USD). */
  readonly funds?: number;
  /** A recorded baseline (`baseline record --out-dir DIR`): every payload is also checked against its learned schemas. */
  readonly baseline?: string;
  /** Observed-payload findings count as violations instead of warnings. */
  readonly promoteObserved?: boolean;
}

const list = (names: readonly string[]): string => names.join(', ');

const wholeNumber = (flag: string, max: number) =>
  z
    .string()
    .regex(/^-?\d{1,9}$/, `${flag} must be a whole number of at least 1`)
    .transform(Number)
    .pipe(z.number().int().min(1, `${flag} must be at least 1`).max(max, `${flag} must be at most ${max}`));

const positiveNumber = (flag: string, max: number) =>
  z
    .string()
    // The bound is said whatever the text is (1e9 is more than the bound, not "not a number").
    .regex(/^\d{1,12}(\.\d{1,6})?$/, `${flag} must be a decimal number greater than 0 and at most ${max} (e.g. 10 or 2.5)`)
    .transform(Number)
    .pipe(z.number().positive(`${flag} must be greater than 0`).max(max, `${flag} must be at most ${max}`));

const FLAGS = z.object({
  scenario: z
    .enum(SCENARIO_NAMES as [ScenarioName, ...ScenarioName[]], { error: `--scenario must be one of ${list(SCENARIO_NAMES)}` })
    .optional(),
  profile: z.enum(PROFILE_NAMES as [ProfileName, ...ProfileName[]], { error: `--profile must be one of ${list(PROFILE_NAMES)}` }),
  engine: z.enum(ENGINE_CHOICES as [EngineChoice, ...EngineChoice[]], { error: `--engine must be one of ${list(ENGINE_CHOICES)}` }),
  api: z.enum(API_SELECTIONS as [ApiSelection, ...ApiSelection[]], { error: '--api must be v1, v2 or both' }),
  reportDir: z.string().min(1, '--report-dir must not be empty').optional(),
  out: z
    .array(
      z
        .string()
        .regex(
          /^(json=.+|prometheus=https?:\/\/.+)$/,
          "--out must be json=FILE (k6's NDJSON metric stream) or prometheus=URL (a remote-write endpoint, e.g. http://localhost:9090/api/v1/write)",
        ),
    )
    .default([])
    .refine((outs) => outs.filter((o) => o.startsWith('json=')).length <= 1, '--out json=FILE may be given once')
    .refine((outs) => outs.filter((o) => o.startsWith('prometheus=')).length <= 1, '--out prometheus=URL may be given once')
    .refine(
      (outs) => outs.every((o) => !o.startsWith('prometheus=') || URL.canParse(o.slice('prometheus='.length))),
      '--out prometheus=URL: not a URL',
    ),
  dashboard: z
    .union([z.literal(true), z.string()])
    .optional()
    .refine((v) => v === undefined || v === true || /^\d{1,5}$/.test(v), '--dashboard takes a port number (or none)')
    .transform((v) => (v === undefined ? undefined : v === true ? 0 : Number(v)))
    .refine((v) => v === undefined || v <= 65_535, '--dashboard port must be at most 65535'),
  vus: wholeNumber('--vus', 100_000).optional(),
  duration: z
    .string()
    .refine((value) => (durationSeconds(value) ?? 0) >= 1, '--duration must be a k6 duration of at least 1s, e.g. 90s, 5m, 1h30m')
    .refine((value) => (durationSeconds(value) ?? 0) <= 7 * 24 * 3600, '--duration must be at most 7 days')
    .optional(),
  rate: positiveNumber('--rate', 100_000).optional(),
  iterations: wholeNumber('--iterations', 100_000_000).optional(),
  envVar: z.array(z.string()).optional(),
  summaryExport: z.string().min(1, '--summary-export must name a file').optional(),
  threshold: z.array(z.string()).default([]),
  funds: positiveNumber('--funds', 1e12).optional(),
  baseline: z.string().min(1, '--baseline must name a directory').optional(),
  promoteObserved: z.boolean().optional(),
});

function usage(message: string): HarnessError {
  return new HarnessError('GH_ERR_USAGE', message.replace(/\s+/g, ' '));
}

/** The variables of `-e/--env-var`, checked: KEY=VALUE each, keys as k6 takes them. */
export function parseEnvVars(values: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const text of values) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) throw usage(`-e/--env-var takes KEY=VALUE (got "${text.slice(0, 40)}")`);
    const at = text.indexOf('=');
    out[text.slice(0, at)] = text.slice(at + 1);
  }
  return out;
}

/** `-e` variables: KEY=VALUE each; the harness's own GATEWAY_* and K6_* settings are not the user's to set this way. */
function scriptEnv(values: readonly string[] | undefined): Record<string, string> | undefined {
  if (values === undefined || values.length === 0) return undefined;
  const vars = parseEnvVars(values);
  const reserved = Object.keys(vars).find((key) => /^(GATEWAY_|K6_)/.test(key));
  if (reserved !== undefined)
    throw usage(
      `-e ${reserved}: GATEWAY_* and K6_* variables are the harness's own settings (use its flags, the config file or the environment)`,
    );
  return vars;
}

/** `--scenario` or `--script`, never both: the command bundles a script (user-script.ts) before parsing the rest. */
export function checkScenarioChoice(raw: Pick<RawLoadFlags, 'scenario' | 'script'>): void {
  if (raw.scenario !== undefined && raw.script !== undefined) throw usage('give --scenario NAME or --script FILE, not both');
  if (raw.scenario === undefined && raw.script === undefined)
    throw usage(`--scenario is required (one of ${list(SCENARIO_NAMES)}), or --script FILE for your own script`);
}

/** Validates the flags; throws GH_ERR_USAGE with the first problem on one line. `script`: the bundled `--script`. */
export function parseLoadFlags(raw: RawLoadFlags, script?: UserScript): LoadFlags {
  checkScenarioChoice(raw);
  if (raw.script !== undefined && script === undefined) throw usage('--script: the script must be bundled first (prepareUserScript)');
  const result = FLAGS.safeParse(raw);
  if (!result.success) throw usage(result.error.issues[0]?.message ?? 'invalid load flags');
  const flags = result.data;
  const overrides: ThresholdOverride[] = [];
  for (const text of flags.threshold) {
    const parsed = parseThresholdOverride(text);
    if ('error' in parsed) throw usage(`--threshold: ${parsed.error}`);
    overrides.push(parsed);
  }
  const json = flags.out.find((o) => o.startsWith('json='));
  const prometheus = flags.out.find((o) => o.startsWith('prometheus='));
  const durationSec = flags.duration === undefined ? undefined : durationSeconds(flags.duration);
  const problem = overrideProblem(flags.profile, {
    ...(flags.rate === undefined ? {} : { rate: flags.rate }),
    ...(flags.iterations === undefined ? {} : { iterations: flags.iterations }),
    ...(flags.vus === undefined ? {} : { vus: flags.vus }),
  });
  const envVars = scriptEnv(flags.envVar);
  if (problem !== undefined) throw usage(problem);
  const scenario: ScenarioRef = script?.meta ?? (flags.scenario as ScenarioName);
  if (scenarioMetaOf(scenario).requiresBothVersions && flags.api !== 'both') {
    throw usage(`--scenario ${flags.scenario ?? ''} compares v1 and v2: it needs --api both`);
  }
  return {
    scenario,
    ...(script === undefined ? {} : { script }),
    profile: flags.profile,
    engine: flags.engine,
    api: flags.api,
    thresholds: groupThresholds(overrides),
    ...(flags.reportDir === undefined ? {} : { reportDir: flags.reportDir }),
    ...(json === undefined ? {} : { outJson: json.slice('json='.length) }),
    ...(prometheus === undefined ? {} : { prometheusUrl: prometheus.slice('prometheus='.length) }),
    ...(flags.dashboard === undefined ? {} : { dashboardPort: flags.dashboard }),
    ...(flags.vus === undefined ? {} : { vus: flags.vus }),
    ...(flags.duration === undefined || durationSec === undefined ? {} : { duration: flags.duration, durationSec }),
    ...(flags.rate === undefined ? {} : { rate: flags.rate }),
    ...(flags.iterations === undefined ? {} : { iterations: flags.iterations }),
    ...(envVars === undefined ? {} : { envVars }),
    ...(flags.summaryExport === undefined ? {} : { summaryExport: flags.summaryExport }),
    ...(flags.funds === undefined ? {} : { funds: flags.funds }),
    ...(flags.baseline === undefined ? {} : { baseline: flags.baseline }),
    ...(flags.promoteObserved === true ? { promoteObserved: true } : {}),
  };
}
