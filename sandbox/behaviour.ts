// Every behaviour of the sandbox that the spec states as a table, or leaves open, kept as data with faithful defaults.
// Profiles and options override these fields (never code paths), so a planted bug or a different gateway is one object.
import { CATALOG_TRIGGERS, type CatalogTrigger } from '../api/operations.ts';
import type { TriggerMatch } from '../api/triggers.ts';
import { DEFAULT_RESPONSE_CODES } from './error-codes.ts';
import { TRANSACTION_KINDS } from './store.ts';
import type { TransactionKind } from './store.ts';
import type { ResponseCodeEntry, ResponseCodeKey, ResponseCodeTable } from './error-codes.ts';

/** What a trigger looks at (api/triggers.ts); every field given must match. */
export type { TriggerMatch };

/** What a matching trigger does: hold the response (status answers '852' meanwhile) or answer with a code. */
export type TriggerEffect = { readonly delayMs: number } | { readonly respond: ResponseCodeKey };

export interface TriggerRule {
  readonly id: string;
  /** The purpose of the writes it applies to (api/operations.ts), e.g. 'transaction.topup'. */
  readonly purpose: string;
  /** The spec's row, quoted. */
  readonly rule: string;
  readonly match: TriggerMatch;
  readonly effect: TriggerEffect;
}

/**
 * A write that can be asked to answer '852' first and finish later: a purpose of api/operations.ts among the
 * transaction kinds (checkBehaviour refuses any other), e.g. 'transaction.giftcard'.
 */
export type AsyncPurpose = TransactionKind;

export interface SandboxBehaviour {
  /** Spec "Sandbox simulation triggers (top-up operation)", in table order; only in sandbox mode. Delays are real-time ms, scaled. */
  triggers: TriggerRule[];
  /**
   * How long an asynchronous write stays '852' before its final result (real-time ms, scaled). Named for the spec's
   * case (gift card); it applies to every purpose in asyncOperations. Assumed.
   */
  giftcardProcessingMs: number;
  /** Writes (catalog purposes) that answer '852' at once and finish after giftcardProcessingMs (spec: gift card). */
  asyncOperations: AsyncPurpose[];
  /** How long a port-in stays 'Pending' before 'Completed' (real-time ms, scaled). Assumed. */
  portinProcessingMs: number;
  giftcardPageDefault: number;
  giftcardPageMin: number;
  giftcardPageMax: number;
  /**
   * What the gift card list's envelope next / next_cursor mean (the spec names them, not their meaning). Assumed
   * 'next-start': next_cursor = the skuId the next page starts at, next = 1 while more follow. 'last-of-page':
   * next_cursor = the last skuId of this page. 'page-count': next = how many pages follow. Both 0 on the last page.
   */
  giftcardCursorMeaning: 'next-start' | 'last-of-page' | 'page-count';
  /** Spec: sandbox lookup supports four countries; production all except the United States and Spain. */
  lookupCountries: { sandbox: string[]; productionExcluded: string[] };
  /**
   * Available funds (wallet currency) at start and after reset(); the balance endpoint returns it negated (prepaid
   * terms). The `funds` option (CLI --funds) sets it; a drained wallet answers '009' (insufficient funds, assumed code).
   */
  initialBalance: number;
  /** Planted-bug toggle: charge the wallet for failed transactions too. */
  chargeFailures: boolean;
  /** Localize SkuName, ProductName, ... for Accept-Language: ar (spec Versioning 2). */
  localize: boolean;
  requireAuth: boolean;
  /** Validate write bodies against the project's schemas (spec "Resources and their fields" and Limits). */
  validateRequests: boolean;
  /** Top-up (and PIN recipient) numbers must follow the country's format and belong to the SKU's country. */
  checkNumberFormat: boolean;
  /** transactionCurrencyCode must be one of the SKU's FaceValueCurrency. */
  checkCurrency: boolean;
  /** Each write only accepts SKUs of its own category (top-up: RTR, PIN: Pin, ...). */
  checkCategory: boolean;
  /** Amount within the denomination's bounds, else '001'. */
  checkAmountBounds: boolean;
  /** A transaction proceeds only with sufficient funds (spec Balance). */
  checkFunds: boolean;
  /** A correlationId already used by this account is refused (assumed). */
  uniqueCorrelationIds: boolean;
  /** A bundle top-up to a number with an outstanding loan must add the loan to the face value (spec two-step flow). */
  enforceLoans: boolean;
  /** Transactions remembered for status/fetch; the oldest is evicted beyond this. */
  statusRetentionMax: number;
  /** Serialized catalog listings kept per (operation, filters, language). */
  listingCacheMax: number;
  /** Added to every response (real-time ms, scaled); the `slow` profile sets it. */
  responseLatencyMs: number;
  /** Plus a seeded uniform extra of 0 up to this (real-time ms, scaled) per response; the benign-latency profile sets it. */
  responseLatencyJitterMs: number;
  /**
   * Operation id → fraction: that operation's responses are held longer by this fraction of the time the sandbox takes
   * over them (its response latency plus its handling time). Profile slow-op:<operationId>:<pct>%. Default none.
   */
  operationSlowdown: Readonly<Record<string, number>>;
  /**
   * Operation id → the share (0..1) of its requests answered, before any processing, with HTTP 200 and a business
   * failure code (`key`, default internalError), evenly spread and exact. Profile fail-op:<operationId>:<pct>%. Default none.
   */
  operationFailures: Readonly<Record<string, { readonly share: number; readonly key: ResponseCodeKey }>>;
  /**
   * An unknown path or method is answered with the envelope (`998`, HTTP 404) instead of a web server's plain 404. Off
   * by default: a gateway's router answers a path it lacks without its envelope, which is how the harness tells an
   * assumed path the target lacks (its own gap, api/assumed-path.ts) from the gateway's refusal.
   */
  unknownPathEnvelope: boolean;
  /** responseCode and default message per outcome; overrides merge per key. */
  responseCodes: ResponseCodeTable;
}

const SECOND = 1_000;

/** Starting funds of a sandbox (wallet currency, USD): enough for tests and a conformance run (~2,000 top-ups of 5 USD). */
export const DEFAULT_FUNDS = 10_000;
/**
 * Starting funds the harness gives the sandbox it starts for a load run: a soak must not drain the wallet (every charge
 * would then answer '009' and measure the refusal instead of the gateway). 10^9 USD is ~200 million 5 USD top-ups.
 */
export const LOAD_SANDBOX_FUNDS = 1_000_000_000;

/** The answer a trigger's code is: the faithful table's key for it (a profile that renumbers codes keeps the meaning). */
function respondKey(code: string): ResponseCodeKey {
  const key = (Object.keys(DEFAULT_RESPONSE_CODES) as ResponseCodeKey[]).find((k) => DEFAULT_RESPONSE_CODES[k].code === code);
  if (key === undefined) throw new Error(`trigger responseCode '${code}' is not in sandbox/error-codes.ts`);
  return key;
}

function triggerRule(row: CatalogTrigger): TriggerRule {
  const effect: TriggerEffect = 'code' in row.effect ? { respond: respondKey(row.effect.code) } : { delayMs: row.effect.delayMs };
  return { id: `TRG-${row.key}`, purpose: row.purpose, rule: row.rule, match: row.match, effect };
}

/** The catalog's trigger tables (the spec's, for top-up), row by row. */
export const SPEC_TRIGGERS: readonly TriggerRule[] = Object.freeze(CATALOG_TRIGGERS.map(triggerRule));

export const DEFAULT_BEHAVIOUR: Readonly<SandboxBehaviour> = Object.freeze<SandboxBehaviour>({
  triggers: [...SPEC_TRIGGERS],
  giftcardProcessingMs: 20 * SECOND,
  asyncOperations: ['transaction.giftcard'],
  portinProcessingMs: 30 * SECOND,
  giftcardPageDefault: 100,
  giftcardPageMin: 1,
  giftcardPageMax: 100,
  giftcardCursorMeaning: 'next-start',
  lookupCountries: { sandbox: ['JM', 'IN', 'PK', 'MX'], productionExcluded: ['US', 'ES'] },
  initialBalance: DEFAULT_FUNDS,
  chargeFailures: false,
  localize: true,
  requireAuth: true,
  validateRequests: true,
  checkNumberFormat: true,
  checkCurrency: true,
  checkCategory: true,
  checkAmountBounds: true,
  checkFunds: true,
  uniqueCorrelationIds: true,
  enforceLoans: true,
  statusRetentionMax: 10_000,
  listingCacheMax: 256,
  responseLatencyMs: 0,
  responseLatencyJitterMs: 0,
  operationSlowdown: {},
  operationFailures: {},
  unknownPathEnvelope: false,
  responseCodes: DEFAULT_RESPONSE_CODES,
});

/** Overrides of a behaviour: top-level fields replace, except responseCodes which merge per key. */
export type BehaviourOverride = Partial<Omit<SandboxBehaviour, 'responseCodes'>> & {
  responseCodes?: Partial<Record<ResponseCodeKey, ResponseCodeEntry>>;
};

/** Applies overrides left to right (defaults < profile < options). */
export function mergeBehaviour(
  base: Readonly<SandboxBehaviour>,
  ...overrides: ReadonlyArray<BehaviourOverride | undefined>
): SandboxBehaviour {
  let merged: SandboxBehaviour = { ...base };
  for (const override of overrides) {
    if (override === undefined) continue;
    const { responseCodes, ...rest } = override;
    const defined = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined)) as Partial<SandboxBehaviour>;
    merged = { ...merged, ...defined, responseCodes: { ...merged.responseCodes, ...responseCodes } };
  }
  return merged;
}

/** One-line reason when a behaviour cannot work (bad page bounds, negative times); undefined when it is usable. */
export function checkBehaviour(behaviour: SandboxBehaviour): string | undefined {
  const nonNegative: Array<keyof SandboxBehaviour> = [
    'giftcardProcessingMs',
    'portinProcessingMs',
    'initialBalance',
    'responseLatencyMs',
    'responseLatencyJitterMs',
  ];
  for (const key of nonNegative) {
    const value = behaviour[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return `behaviour.${key} must be a finite number >= 0`;
  }
  for (const key of ['statusRetentionMax', 'listingCacheMax', 'giftcardPageDefault', 'giftcardPageMin', 'giftcardPageMax'] as const) {
    const value = behaviour[key];
    if (!Number.isInteger(value) || value < 1) return `behaviour.${key} must be an integer >= 1`;
  }
  if (behaviour.giftcardPageMin > behaviour.giftcardPageMax) return 'behaviour.giftcardPageMin must not exceed giftcardPageMax';
  const unknownAsync = behaviour.asyncOperations.find((purpose) => !TRANSACTION_KINDS.includes(purpose));
  if (unknownAsync !== undefined) {
    return `behaviour.asyncOperations: '${String(unknownAsync)}' is not the purpose of a transaction write (known: ${TRANSACTION_KINDS.join(', ')})`;
  }
  for (const [operation, fraction] of Object.entries(behaviour.operationSlowdown)) {
    if (!Number.isFinite(fraction) || fraction < 0) return `behaviour.operationSlowdown.${operation} must be a finite fraction >= 0`;
  }
  for (const [operation, failure] of Object.entries(behaviour.operationFailures)) {
    if (!(failure.share >= 0 && failure.share <= 1)) return `behaviour.operationFailures.${operation}.share must be within 0..1`;
    if (!(failure.key in behaviour.responseCodes))
      return `behaviour.operationFailures.${operation}.key: unknown response code key '${String(failure.key)}'`;
  }
  for (const trigger of behaviour.triggers) {
    if ('delayMs' in trigger.effect && !(Number.isFinite(trigger.effect.delayMs) && trigger.effect.delayMs >= 0)) {
      return `trigger ${trigger.id}: delayMs must be a finite number >= 0`;
    }
  }
  return undefined;
}
