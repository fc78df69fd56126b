// The zod schema of the target configuration (one layer: file, env or flags) and its resolution to a TargetConfig.
// Kept on the Node side: zod needs BigInt and does not load in k6 v0.48, so api/ holds only the types and defaults.
import { z } from 'zod';
import { OPERATIONS } from '../api/operations.ts';
import {
  DEFAULT_FIELD_MAPPING,
  FIELD_MAPPING_SECTIONS,
  mergeFieldMapping,
  type FieldMapping,
  type FieldMappingOverrides,
} from '../api/field-mapping.ts';
import { GIFTCARD_CURSOR_MEANINGS, type GiftcardCursorMeaning } from '../api/giftcard-paging.ts';
import { CONFIG_DEFAULTS, EMBEDDED_SANDBOX_TIME_SCALE, type TargetConfig } from '../api/target-config.ts';

const ms = (field: string) =>
  z
    .number({ error: `must be a number of milliseconds greater than 0` })
    .gt(0, { error: `must be a number of milliseconds greater than 0` })
    .max(24 * 3_600_000, { error: `must be at most 24 hours (86400000 ms) for ${field}` });

const fieldPath = z
  .string({ error: 'must be a dotted field path (a string)' })
  .regex(/^[^.\s]+(\.[^.\s]+)*$/, { error: 'must be a dotted field path such as "min.faceValue"' });

function mappingSectionSchema(section: keyof FieldMapping) {
  const shape: Record<string, z.ZodOptional<typeof fieldPath>> = {};
  for (const field of Object.keys(DEFAULT_FIELD_MAPPING[section])) shape[field] = fieldPath.optional();
  return z.strictObject(shape).optional();
}

const fieldMappingSchema = z.strictObject(
  Object.fromEntries(FIELD_MAPPING_SECTIONS.map((section) => [section, mappingSectionSchema(section)])),
);

const ASSUMED_PATH_IDS = new Set(OPERATIONS.filter((op) => op.pathAssumed).map((op) => op.id));
const KNOWN_IDS = new Set(OPERATIONS.map((op) => op.id));

/** Own keys a record schema would drop unseen (`__proto__` of JSON.parse): refused like any unknown id. */
const noProtoKey = z.unknown().superRefine((raw, ctx) => {
  if (raw !== null && typeof raw === 'object' && Object.prototype.hasOwnProperty.call(raw, '__proto__')) {
    ctx.addIssue({ code: 'custom', path: ['__proto__'], message: 'is not an operation id of the catalog' });
  }
});

const writePathsRecord = z
  .record(
    z.string(),
    z
      .string({ error: 'must be a path string' })
      .regex(/^\/[^\s?#]*$/, { error: "must be a path starting with '/' with no spaces, query or fragment" })
      .refine((path) => !path.split('/').includes('..'), { error: "must not contain '..' segments" }),
  )
  .superRefine((paths, ctx) => {
    for (const id of Object.keys(paths)) {
      if (!KNOWN_IDS.has(id)) {
        ctx.addIssue({ code: 'custom', path: [id], message: 'is not an operation id of the catalog' });
      } else if (!ASSUMED_PATH_IDS.has(id)) {
        ctx.addIssue({
          code: 'custom',
          path: [id],
          message: 'names an operation whose path the spec shows; only assumed write paths can be overridden',
        });
      }
    }
  });

const writePathsSchema = noProtoKey.pipe(writePathsRecord);

const credential = (what: string) => z.string({ error: `must be a string` }).min(1, { error: `must not be empty (${what})` });

/**
 * The one time-scale rule of every command, the config file, GATEWAY_TIME_SCALE and the sandbox's own --time-scale:
 * a factor on the gateway's documented durations, greater than 0 (0 would make every delay, timeout and polling
 * deadline zero: nothing could be judged) and at most TIME_SCALE_MAX.
 */
export const TIME_SCALE_MAX = 1000;
export const TIME_SCALE_MESSAGES = Object.freeze({
  positive: 'must be a number greater than 0',
  max: `must be at most ${TIME_SCALE_MAX}`,
});

/** The message of the time-scale rule for a value, or undefined when the value is a valid time scale. */
export function timeScaleProblem(value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return TIME_SCALE_MESSAGES.positive;
  if (value > TIME_SCALE_MAX) return TIME_SCALE_MESSAGES.max;
  return undefined;
}

/** A base URL only: every operation's path (/api/v1/..., /api/v2/...) is appended to it, so a path would double up. */
export const BASE_URL_MESSAGES = Object.freeze({
  shape: 'must be an http:// or https:// URL with a host, no credentials, query or fragment',
  path: 'must be the base URL without a path, e.g. https://host or https://host:8443 (the operation paths /api/v1/... and /api/v2/... are appended to it)',
});

/** One layer of configuration (file, env, flags): every key optional, unknown keys rejected. */
export const targetConfigInputSchema = z.strictObject({
  $schema: z.string().optional(),
  baseUrl: z
    .string({ error: 'must be an http(s) URL string' })
    .regex(/^https?:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/i, { error: BASE_URL_MESSAGES.shape, abort: true })
    // A trailing slash is harmless (the request builder strips it); any path segment is refused.
    .regex(/^https?:\/\/[^/]+\/?$/i, { error: BASE_URL_MESSAGES.path })
    .optional(),
  user: credential('user id').optional(),
  password: credential('password').optional(),
  environment: z.enum(['sandbox', 'production'], { error: 'must be "sandbox" or "production"' }).optional(),
  walletTerms: z.enum(['auto', 'prepaid', 'credit'], { error: 'must be "auto", "prepaid" or "credit"' }).optional(),
  timeScale: z
    .number({ error: TIME_SCALE_MESSAGES.positive })
    .gt(0, { error: TIME_SCALE_MESSAGES.positive })
    .max(TIME_SCALE_MAX, { error: TIME_SCALE_MESSAGES.max })
    .optional(),
  timeouts: z.strictObject({ connectMs: ms('timeouts.connectMs').optional(), responseMs: ms('timeouts.responseMs').optional() }).optional(),
  poll: z
    .strictObject({
      intervalMs: ms('poll.intervalMs').optional(),
      deadlineMs: ms('poll.deadlineMs').optional(),
      notFoundCodes: z
        .array(z.string({ error: 'must be a list of responseCode strings' }).min(1, { error: 'must not contain an empty code' }), {
          error: 'must be a list of responseCode strings',
        })
        .max(50, { error: 'must list at most 50 codes' })
        .optional(),
      maxAttempts: z
        .number({ error: 'must be an integer from 1 to 10000' })
        .int({ error: 'must be an integer from 1 to 10000' })
        .min(1, { error: 'must be an integer from 1 to 10000' })
        .max(10_000, { error: 'must be an integer from 1 to 10000' })
        .optional(),
    })
    .optional(),
  writePaths: writePathsSchema.optional(),
  fieldMapping: fieldMappingSchema.optional(),
  paging: z
    .strictObject({
      giftcardCursor: z
        .enum(GIFTCARD_CURSOR_MEANINGS as [GiftcardCursorMeaning, ...GiftcardCursorMeaning[]], {
          error: `must be one of ${GIFTCARD_CURSOR_MEANINGS.map((m) => `"${m}"`).join(', ')}`,
        })
        .optional(),
    })
    .optional(),
  sandbox: z
    .strictObject({
      seed: z
        .number({ error: 'must be an integer >= 0' })
        .int({ error: 'must be an integer >= 0' })
        .min(0, { error: 'must be an integer >= 0' })
        .optional(),
      profile: z.string({ error: 'must be a profile name' }).min(1, { error: 'must be a profile name' }).optional(),
    })
    .optional(),
});

export type TargetConfigInput = z.infer<typeof targetConfigInputSchema>;

/** One problem, located by a path into the config (e.g. ['timeouts', 'responseMs']); messages never carry values. */
export interface ConfigIssue {
  readonly path: readonly string[];
  readonly message: string;
}

export type ConfigParse = { ok: true; value: TargetConfigInput } | { ok: false; issues: ConfigIssue[] };

/** Validates one layer (or the merge of all layers). Issue messages name the problem, never the offending value. */
export function parseTargetConfigInput(raw: unknown): ConfigParse {
  const result = targetConfigInputSchema.safeParse(raw);
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues.map((issue): ConfigIssue => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return {
        path,
        message: `has unknown key${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`,
      };
    }
    if (issue.code === 'invalid_type' && issue.expected === 'object') return { path, message: 'must be an object' };
    return { path, message: issue.message };
  });
  return { ok: false, issues };
}

/** Defaults applied to a validated input, plus the cross-field rules; issues instead of throwing so callers can locate them. */
export function resolveTargetConfig(input: TargetConfigInput): { ok: true; config: TargetConfig } | { ok: false; issues: ConfigIssue[] } {
  const environment = input.environment ?? CONFIG_DEFAULTS.environment;
  if (environment === 'production' && input.baseUrl === undefined) {
    return {
      ok: false,
      issues: [
        { path: ['environment'], message: 'is production but no baseUrl (--target) is given: the embedded sandbox is not production' },
      ],
    };
  }
  const poll = {
    intervalMs: input.poll?.intervalMs ?? CONFIG_DEFAULTS.poll.intervalMs,
    deadlineMs: input.poll?.deadlineMs ?? CONFIG_DEFAULTS.poll.deadlineMs,
    notFoundCodes: [...(input.poll?.notFoundCodes ?? CONFIG_DEFAULTS.poll.notFoundCodes)],
    ...(input.poll?.maxAttempts === undefined ? {} : { maxAttempts: input.poll.maxAttempts }),
  };
  if (poll.intervalMs > poll.deadlineMs) {
    return { ok: false, issues: [{ path: ['poll', 'intervalMs'], message: 'must not exceed poll.deadlineMs' }] };
  }
  const config: TargetConfig = {
    // URL schemes are case-insensitive (RFC 3986 3.1): `HTTP://` is normalised here, once, for every consumer (the k6 bundle included).
    ...(input.baseUrl === undefined ? {} : { baseUrl: input.baseUrl.replace(/^https?:/i, (scheme) => scheme.toLowerCase()) }),
    user: input.user ?? CONFIG_DEFAULTS.user,
    password: input.password ?? CONFIG_DEFAULTS.password,
    environment,
    timeScale: input.timeScale ?? (input.baseUrl === undefined ? EMBEDDED_SANDBOX_TIME_SCALE : CONFIG_DEFAULTS.timeScale),
    timeouts: {
      connectMs: input.timeouts?.connectMs ?? CONFIG_DEFAULTS.timeouts.connectMs,
      responseMs: input.timeouts?.responseMs ?? CONFIG_DEFAULTS.timeouts.responseMs,
    },
    poll,
    writePaths: { ...(input.writePaths ?? {}) },
    fieldMapping: mergeFieldMapping(DEFAULT_FIELD_MAPPING, input.fieldMapping as FieldMappingOverrides | undefined),
    sandbox: {
      seed: input.sandbox?.seed ?? CONFIG_DEFAULTS.sandbox.seed,
      ...(input.sandbox?.profile === undefined ? {} : { profile: input.sandbox.profile }),
    },
    ...(input.walletTerms === undefined ? {} : { walletTerms: input.walletTerms }),
    ...(input.paging?.giftcardCursor === undefined ? {} : { paging: { giftcardCursor: input.paging.giftcardCursor } }),
  };
  return { ok: true, config };
}
