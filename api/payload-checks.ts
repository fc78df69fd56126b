// The payload checks of every response, one implementation for conformance, both load engines and real k6: the envelope,
// then the payload in three layers — what the spec states (error), what observed payloads show (warning unless
// promoted), what the learned baseline says (error where the drift rules call the difference breaking).
// Runtime-neutral: only pre-compiled standalone validators run here (schemas/generated, or a baseline's, built with the bundle).
import { BodyMemo } from './body-memo.ts';
import { pathOfPointer } from './json-path.ts';
import { OPERATIONS, type Operation } from './operations.ts';
import { issuesOf, validateEnvelope, type ValidationIssue } from './validation.ts';

const NO_ISSUES: readonly ValidationIssue[] = Object.freeze([]);
import {
  validateObservedCarriers,
  validateObservedCountries,
  validateObservedExchangeRate,
  validateObservedLogos,
  validateObservedOperators,
  validateObservedProducts,
  validateObservedPromotions,
  validateObservedRecordIds,
  validateObservedSkuDescriptions,
  validateObservedTransaction,
  validateObservedV1Lookup,
  validateObservedV1Skus,
  validateObservedV2Skus,
  validatePayloadArray,
  validatePayloadLocalizedList,
  validatePayloadLocalizedRecord,
  validatePayloadNumber,
  validatePayloadRecord,
  validatePayloadRecordList,
  type SchemaValidator,
} from '../schemas/generated/validators.js';

/** Which rulebook a violation comes from: the envelope schema, the spec's payload rules, observed payloads, the baseline. */
export type PayloadLayer = 'envelope' | 'spec' | 'observed' | 'baseline';
export type ViolationSeverity = 'error' | 'warning';

export interface PayloadViolation {
  readonly layer: PayloadLayer;
  /** error: counted in gateway_schema_violations and fails checks; warning: reported only. */
  readonly severity: ViolationSeverity;
  /** JSON path of the schema position (`$.payLoad[*].skuId`): indices are `[*]`, so it is a bounded label. */
  readonly path: string;
  /** JSON pointer of the value in this response (`/payLoad/3/skuId`), for samples. */
  readonly pointer: string;
  /** One sentence naming the field (api/validation.ts wording). */
  readonly message: string;
}

/** A learned baseline's validators, one per operation id, each over the whole successful envelope. */
export type BaselineValidators = Readonly<Record<string, SchemaValidator<unknown>>>;

export interface PayloadCheckOptions {
  /** Observed-layer findings count as errors (the user promoted them: `--promote-observed`). */
  readonly promoteObserved?: boolean;
  /** The baseline's validators (`load --baseline DIR`), when given. */
  readonly baseline?: BaselineValidators;
  /** The envelope schema (with the payload kind) only: what the checks were before the payload layers (the bench's baseline). */
  readonly envelopeOnly?: boolean;
}

/**
 * Spec layer, per operation: the kind, and for records the rules the spec states (spec: Catalog and other payload
 * records). "array of error codes" is the one list the spec does not call records, so its elements stay unchecked.
 */
// Records that carry the localized fields, by purpose: not the catalog's `localized` flag (which operations take
// Accept-Language). v1's lookup takes none, yet its record has the same SkuName the spec types as text.
const LOCALIZED_PURPOSES: ReadonlySet<string> = new Set(['catalog.skus', 'catalog.skus-giftcards', 'lookup.mobile']);
const UNTYPED_ELEMENT_PURPOSES: ReadonlySet<string> = new Set(['catalog.errors']);

export function specValidatorOf(op: Pick<Operation, 'payloadKind' | 'purpose'>): {
  readonly schema: string;
  readonly validate: SchemaValidator<unknown>;
} {
  if (op.payloadKind === 'number') return { schema: 'payload-number', validate: validatePayloadNumber };
  const localized = LOCALIZED_PURPOSES.has(op.purpose);
  if (op.payloadKind === 'object') {
    return localized
      ? { schema: 'payload-localized-record', validate: validatePayloadLocalizedRecord }
      : { schema: 'payload-record', validate: validatePayloadRecord };
  }
  if (UNTYPED_ELEMENT_PURPOSES.has(op.purpose)) return { schema: 'payload-array', validate: validatePayloadArray };
  return localized
    ? { schema: 'payload-localized-list', validate: validatePayloadLocalizedList }
    : { schema: 'payload-record-list', validate: validatePayloadRecordList };
}

/** specValidatorOf per catalog operation, chosen once (this runs on every response inside k6). */
const SPEC_VALIDATORS: ReadonlyMap<string, SchemaValidator<unknown>> = new Map(
  OPERATIONS.map((op) => [op.id, specValidatorOf(op).validate]),
);

function specValidatorFor(op: Pick<Operation, 'id' | 'payloadKind' | 'purpose'>): SchemaValidator<unknown> {
  return SPEC_VALIDATORS.get(op.id) ?? specValidatorOf(op).validate;
}

/** Observed layer: the operations observed-payloads.md describes ([doc] and [seen]; [weak] and "not seen" get none). */
const CHARGING_WRITES = OPERATIONS.filter((op) => op.charges).map((op) => op.id);
export const OBSERVED_SCHEMAS: Readonly<Record<string, { readonly schema: string; readonly validate: SchemaValidator<unknown> }>> =
  Object.freeze({
    'v1.catalog.countries': { schema: 'observed-countries', validate: validateObservedCountries },
    'v2.catalog.countries': { schema: 'observed-countries', validate: validateObservedCountries },
    'v2.catalog.operators': { schema: 'observed-operators', validate: validateObservedOperators },
    'v2.catalog.getproducts': { schema: 'observed-products', validate: validateObservedProducts },
    'v1.catalog.skus': { schema: 'observed-v1-skus', validate: validateObservedV1Skus },
    'v2.catalog.skus': { schema: 'observed-v2-skus', validate: validateObservedV2Skus },
    'v1.catalog.sku-exchange-rate': { schema: 'observed-exchange-rate', validate: validateObservedExchangeRate },
    'v2.catalog.sku-exchange-rate': { schema: 'observed-exchange-rate', validate: validateObservedExchangeRate },
    'v1.catalog.lookup-mobile': { schema: 'observed-v1-lookup', validate: validateObservedV1Lookup },
    'v1.catalog.carriers': { schema: 'observed-carriers', validate: validateObservedCarriers },
    'v1.catalog.sku-logos': { schema: 'observed-logos', validate: validateObservedLogos },
    'v1.catalog.sku-description': { schema: 'observed-sku-descriptions', validate: validateObservedSkuDescriptions },
    'v1.catalog.promotion-current': { schema: 'observed-promotions', validate: validateObservedPromotions },
    'v1.catalog.promotion-upcoming': { schema: 'observed-promotions', validate: validateObservedPromotions },
    'v2.promotion.current': { schema: 'observed-promotions', validate: validateObservedPromotions },
    'v2.promotion.upcoming': { schema: 'observed-promotions', validate: validateObservedPromotions },
    ...Object.fromEntries(CHARGING_WRITES.map((id) => [id, { schema: 'observed-transaction', validate: validateObservedTransaction }])),
  });

/**
 * Operations whose payload is a record or a list of records (the spec layer's record schemas): their ids are checked as
 * int32 in the observed layer (schemas/observed-record-ids.schema.json), a warning unless promoted.
 */
const RECORD_ID_OPERATIONS: ReadonlySet<string> = new Set(
  OPERATIONS.filter((op) => op.payloadKind !== 'number' && !UNTYPED_ELEMENT_PURPOSES.has(op.purpose)).map((op) => op.id),
);

const SEVERITY_RANK: Readonly<Record<ViolationSeverity, number>> = { error: 0, warning: 1 };

/** Adds issues as violations, one per path: an error replaces a warning at the same path, otherwise the first stays. */
function collect(
  out: Map<string, PayloadViolation>,
  issues: readonly ValidationIssue[],
  layer: PayloadLayer,
  severity: ViolationSeverity,
  body: unknown,
): void {
  for (const issue of issues) {
    const path = pathOfPointer(issue.path, body);
    const earlier = out.get(path);
    if (earlier !== undefined && SEVERITY_RANK[earlier.severity] <= SEVERITY_RANK[severity]) continue;
    out.set(path, { layer, severity, path, pointer: issue.path, message: issue.message });
  }
}

const NO_VIOLATIONS: readonly PayloadViolation[] = Object.freeze([]);

/** What the payload layers found in one successful envelope (each NO_ISSUES when clean). */
interface LayerIssues {
  readonly spec: readonly ValidationIssue[];
  readonly baseline: readonly ValidationIssue[];
  readonly observed: readonly ValidationIssue[];
}

const CLEAN_LAYERS: LayerIssues = Object.freeze({ spec: NO_ISSUES, baseline: NO_ISSUES, observed: NO_ISSUES });

function layerIssues(
  operation: Pick<Operation, 'id' | 'payloadKind' | 'purpose'>,
  body: Record<string, unknown>,
  options: PayloadCheckOptions,
): LayerIssues {
  const spec = issuesOf(specValidatorFor(operation), body.payLoad, 'payLoad', '/payLoad');
  const learned = options.baseline?.[operation.id];
  const baseline = learned === undefined ? NO_ISSUES : issuesOf(learned, body, 'envelope');
  const observedSchema = OBSERVED_SCHEMAS[operation.id];
  const own = observedSchema === undefined ? NO_ISSUES : issuesOf(observedSchema.validate, body.payLoad, 'payLoad', '/payLoad');
  // The spec types ids in requests only: a record's id types are observed, every operation whose payload holds records.
  const ids = RECORD_ID_OPERATIONS.has(operation.id) ? issuesOf(validateObservedRecordIds, body.payLoad, 'payLoad', '/payLoad') : NO_ISSUES;
  const observed = ids.length === 0 ? own : own.length === 0 ? ids : [...own, ...ids];
  return spec.length === 0 && baseline.length === 0 && observed.length === 0 ? CLEAN_LAYERS : { spec, baseline, observed };
}

/**
 * The payload layers' findings for the last two body texts of each operation, per runtime instance (a k6 VU, an engine
 * VU). A load run fetches the same catalog lists again and again (countries, gift card pages, promotions), and inside
 * k6 the layers cost ~2x the envelope check per response; an equal text (with the same options object) gets the same
 * issues, so counts, paths and samples are those of checking it again. Texts over 64 Ki characters are always checked
 * (the memo then holds at most 2 x 64 Ki characters per operation). The envelope check is never memoized.
 */
const LAYER_MEMO = new BodyMemo<LayerIssues>(2, 64 * 1024);

/**
 * Whether this runtime is V8 (the Node engine, conformance): V8 alone has Error.captureStackTrace, k6's goja and sobek
 * do not. On V8 the memo does not pay: the compiled validators run faster than comparing the texts, and the texts it
 * holds are memory per VU. Measured with bench:engine (catalog-browse, quiet 2-core box, one run): without the memo the
 * engine made 14 % more iterations at 50 VUs and its peak RSS at 1,000 VUs fell from 843 to 738 MB (one worker).
 */
const MEMO_PAYS = typeof (Error as { captureStackTrace?: unknown }).captureStackTrace !== 'function';

/**
 * Every violation of one response body (HTTP 200, parsed JSON): the envelope schema (with the payload kind), then on
 * '000' the spec, baseline and observed layers. One violation per JSON path; errors first in the result. Runs on every
 * response inside k6, so a clean answer allocates nothing beyond the validators' own work. `bodyText`: the text `body`
 * was parsed from, when the caller has it, so inside k6 a text seen before skips the payload layers (LAYER_MEMO).
 */
export function checkResponseBody(
  operation: Pick<Operation, 'id' | 'envelope' | 'payloadKind' | 'purpose'>,
  body: unknown,
  options: PayloadCheckOptions = {},
  bodyText?: string,
): readonly PayloadViolation[] {
  const envelope = validateEnvelope(operation, body);
  const record = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  const payloadLayers = record !== undefined && record.responseCode === '000' && 'payLoad' in record && options.envelopeOnly !== true;
  const layers = !payloadLayers
    ? CLEAN_LAYERS
    : MEMO_PAYS
      ? LAYER_MEMO.value(operation.id, bodyText, options, () => layerIssues(operation, record, options))
      : layerIssues(operation, record, options);
  if (envelope.valid && layers === CLEAN_LAYERS) return NO_VIOLATIONS;
  const out = new Map<string, PayloadViolation>();
  if (!envelope.valid) collect(out, envelope.errors, 'envelope', 'error', body);
  collect(out, layers.spec, 'spec', 'error', body);
  collect(out, layers.baseline, 'baseline', 'error', body);
  collect(out, layers.observed, 'observed', options.promoteObserved === true ? 'error' : 'warning', body);
  const all = [...out.values()];
  return [...all.filter((v) => v.severity === 'error'), ...all.filter((v) => v.severity === 'warning')];
}

/** Member names whose values never leave the run in a sample: credentials and the secrets a purchase returns. */
const SECRET_MEMBER = /pin|password|passcode|cardnumber|token|secret|activationcode|authorization/i;
const SAMPLE_MAX_CHARS = 300;

function redactMembers(value: unknown, depth = 0): unknown {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.slice(0, 3).map((item) => redactMembers(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value as Record<string, unknown>))
    out[key] = SECRET_MEMBER.test(key) ? '[REDACTED]' : redactMembers(member, depth + 1);
  return out;
}

/**
 * What a person sees of a violating response: the value at the violation (for a missing member, the object that
 * lacks it), secret members redacted, arrays cut to three items, the text cut to 300 characters.
 */
export function sampleValue(body: unknown, violation: Pick<PayloadViolation, 'pointer'>): string {
  const tokens =
    violation.pointer === ''
      ? []
      : violation.pointer
          .slice(1)
          .split('/')
          .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: unknown = body;
  for (const token of tokens) {
    if (node === null || typeof node !== 'object') break;
    const next = (node as Record<string, unknown>)[token];
    if (next === undefined) break;
    node = next;
  }
  let text: string;
  try {
    text = JSON.stringify(redactMembers(node)) ?? 'undefined';
  } catch {
    text = String(node);
  }
  return text.length <= SAMPLE_MAX_CHARS ? text : `${text.slice(0, SAMPLE_MAX_CHARS)}…`;
}
