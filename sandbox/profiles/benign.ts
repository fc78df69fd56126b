// Benign profiles: one per kind of non-breaking change the spec lets a gateway make without notice (Versioning 3).
// The whole conformance plan must PASS against each (conformance/benign-profiles.test.ts): a case that fails asserts more than the spec.
import { findOperation } from '../../api/operations.ts';
import { createRng } from '../data/rng.ts';
import { DEFAULT_RESPONSE_CODES } from '../error-codes.ts';
import type { ResponseCodeEntry, ResponseCodeKey } from '../error-codes.ts';
import type { SandboxProfile } from './types.ts';
import type { EnvelopeChange, ProfileEnvelopeContext, ProfileHooks } from './hooks.ts';

/** Spec, Versioning rule 3, verbatim. */
export const VERSIONING_RULE_3 =
  'Non-breaking changes need no new version and are made without prior notice. They are: new endpoints, new optional request fields or headers, new response fields or headers, and data changes (new countries, operators, products, services; changed names, prices, rates, status and error descriptions). Clients must tolerate them.';

type Rec = Record<string, unknown>;

function isRecord(value: unknown): value is Rec {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isRead(ctx: ProfileEnvelopeContext): boolean {
  return findOperation(ctx.operationId)?.method === 'GET';
}

/** Adds `fields` to every object of the value (records, nested blocks), never replacing a field that exists. */
function addFields(value: unknown, fields: Readonly<Rec>, depth = 0): void {
  if (depth > 4) return;
  if (Array.isArray(value)) {
    for (const item of value) addFields(item, fields, depth + 1);
    return;
  }
  if (!isRecord(value)) return;
  for (const child of Object.values(value)) addFields(child, fields, depth + 1);
  for (const [key, added] of Object.entries(fields)) if (!(key in value)) value[key] = added;
}

/** A deterministic shuffle that is never the identity for two or more items (a reversed list is also "another order"). */
function reorder<T>(items: readonly T[], seed: number): T[] {
  if (items.length < 2) return items.slice();
  const shuffled = createRng(seed).shuffle(items);
  return shuffled.every((item, i) => item === items[i]) ? items.slice().reverse() : shuffled;
}

function seedOf(text: string): number {
  let h = 7;
  for (let i = 0; i < text.length; i += 1) h = (h * 31 + text.charCodeAt(i)) | 0;
  return h;
}

let responseCounter = 0;
/** A per-response id, as gateways behind a proxy add (unique per response, so never comparable between two reads). */
function nextRequestId(): string {
  responseCounter += 1;
  return `req-${Date.now().toString(36)}-${responseCounter.toString(36)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// One hook per kind of change (the combined profile applies them all, in this order)

const envelopeFields: ProfileHooks['onEnvelope'] = (ctx) => {
  ctx.envelope['requestId'] = nextRequestId();
  ctx.envelope['serverTime'] = new Date().toISOString();
  ctx.envelope['meta'] = { apiRevision: '2.7.1', region: 'sandbox-east' };
  return { envelope: ctx.envelope };
};

const PAYLOAD_FIELDS: Readonly<Rec> = Object.freeze({
  lastModified: '2025-01-01T00:00:00Z',
  channelTags: ['web', 'api'],
  extensionData: { source: 'gateway', version: 3 },
});

const payloadFields: ProfileHooks['onEnvelope'] = (ctx) => {
  addFields(ctx.envelope['payLoad'], PAYLOAD_FIELDS);
  return { envelope: ctx.envelope };
};

const responseHeaders: ProfileHooks['onEnvelope'] = () => ({
  headers: {
    'x-request-id': nextRequestId(),
    'x-api-revision': '2.7.1',
    'cache-control': 'no-store',
    'x-ratelimit-limit': '600',
    'x-ratelimit-remaining': '599',
    'server-timing': 'app;dur=3',
    'set-cookie': 'AWSALB=sandbox-benign; Path=/; HttpOnly',
    vary: 'Accept-Language',
  },
});

const listOrder: ProfileHooks['onEnvelope'] = (ctx) => {
  const payload = ctx.envelope['payLoad'];
  if (!isRead(ctx) || !Array.isArray(payload)) return undefined;
  // The gift card list is reordered within its page: cursor paging selects by skuId ("starting from that skuId value"),
  // so which SKUs a page holds stays the spec's; the order they come in is not stated anywhere.
  ctx.envelope['payLoad'] = reorder(payload, seedOf(`${ctx.operationId}|${JSON.stringify(ctx.query)}`));
  return { envelope: ctx.envelope };
};

/** Reworded messages: the meaning stays, the text changes (spec: "changed names, prices, rates, status and error descriptions"). */
const REWORDED: Readonly<Record<ResponseCodeKey, string>> = {
  success: 'Completed',
  amountOutOfRange: DEFAULT_RESPONSE_CODES.amountOutOfRange.message,
  accountNotActivated: 'The subscriber account cannot be recharged at the moment; please retry later',
  invalidNumber: 'Invalid subscriber number for this product',
  outOfStock: 'This product is temporarily unavailable',
  inProgress: 'Your transaction is still being processed',
  invalidRequest: 'The request could not be understood',
  unknownSku: 'Unknown product denomination',
  wrongCategory: 'This denomination cannot be used with this operation',
  insufficientFunds: 'Your wallet balance is too low for this transaction',
  duplicateCorrelationId: 'This reference has already been used',
  notFound: 'Nothing matches the given reference',
  currencyNotAllowed: 'Currency not accepted for this denomination',
  lookupUnsupported: 'Lookup is unavailable for this destination',
  loanDue: 'Outstanding dues must be settled with this purchase',
  unauthorized: 'Access denied',
  unknownPath: 'No such resource',
  internalError: 'Something went wrong on our side',
};

const REWORDED_CODES: Partial<Record<ResponseCodeKey, ResponseCodeEntry>> = Object.fromEntries(
  Object.entries(DEFAULT_RESPONSE_CODES).map(([key, entry]) => [key, { ...entry, message: REWORDED[key as ResponseCodeKey] }]),
);
const REWORDED_BY_CODE = new Map(
  Object.entries(DEFAULT_RESPONSE_CODES).map(([key, entry]) => [entry.code, REWORDED[key as ResponseCodeKey]]),
);
/** The spec states the 001 message's shape ('The charge amount for Denomination <name> should be between ...'): kept. */
const SHAPE_STATED_BY_SPEC = new Set([DEFAULT_RESPONSE_CODES.amountOutOfRange.code]);

const errorDescriptions: ProfileHooks['onEnvelope'] = (ctx) => {
  const code = ctx.envelope['responseCode'];
  if (typeof code !== 'string' || typeof ctx.envelope['responseMessage'] !== 'string' || SHAPE_STATED_BY_SPEC.has(code)) return undefined;
  ctx.envelope['responseMessage'] = `${REWORDED_BY_CODE.get(code) ?? 'Request declined'} (ref ${code})`;
  return { envelope: ctx.envelope };
};

/** A code the gateway added to its list; nothing in the sandbox answers with it. */
export const NEW_ERROR_CODE = { code: '777', description: 'Daily limit for this destination reached' };

const newErrorCode: ProfileHooks['onEnvelope'] = (ctx) => {
  const payload = ctx.envelope['payLoad'];
  if (findOperation(ctx.operationId)?.purpose !== 'catalog.errors' || !Array.isArray(payload)) return undefined;
  const records = [...payload, { ...NEW_ERROR_CODE }];
  ctx.envelope['payLoad'] = records.sort((a, b) => String((a as Rec)['code']).localeCompare(String((b as Rec)['code'])));
  return { envelope: ctx.envelope };
};

const connectionClose: ProfileHooks['onEnvelope'] = () => ({ headers: { connection: 'close' } });

/** Runs envelope hooks in order; each sees the previous one's envelope and status; headers accumulate. */
function chain(...hooks: ReadonlyArray<NonNullable<ProfileHooks['onEnvelope']>>): NonNullable<ProfileHooks['onEnvelope']> {
  return (ctx) => {
    let envelope = ctx.envelope;
    let httpStatus = ctx.httpStatus;
    const headers: Record<string, string> = {};
    for (const hook of hooks) {
      const change: EnvelopeChange | void = hook({ ...ctx, envelope, httpStatus });
      if (change?.envelope !== undefined) envelope = change.envelope;
      if (change?.httpStatus !== undefined) httpStatus = change.httpStatus;
      Object.assign(headers, change?.headers ?? {});
    }
    return { envelope, httpStatus, headers };
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The profiles

/** Latency within timeouts: 1 s plus up to 4 s (seeded), scaled; the harness's default response timeout is 30 s. */
const LATENCY = { responseLatencyMs: 1_000, responseLatencyJitterMs: 4_000 };
const EXTRA_COUNTRIES = ['LK'];

export const BENIGN_PROFILES: readonly SandboxProfile[] = [
  {
    name: 'benign-envelope-fields',
    description: 'Benign: every envelope carries new fields (requestId, serverTime, meta).',
    benign: { rule: VERSIONING_RULE_3, change: 'new response fields: envelope' },
    hooks: { onEnvelope: envelopeFields },
  },
  {
    name: 'benign-payload-fields',
    description: 'Benign: every payload object (catalog records, transaction results, nested blocks) carries new fields.',
    benign: { rule: VERSIONING_RULE_3, change: 'new response fields: payload records and transaction results' },
    hooks: { onEnvelope: payloadFields },
  },
  {
    name: 'benign-response-headers',
    description: 'Benign: every response carries new headers (X-Request-Id, rate-limit, Cache-Control, Set-Cookie, ...).',
    benign: { rule: VERSIONING_RULE_3, change: 'new response headers' },
    hooks: { onEnvelope: responseHeaders },
  },
  {
    name: 'benign-list-order',
    description: 'Benign: every list a read returns comes in another (seeded) order; gift card pages are reordered within the page.',
    benign: { rule: VERSIONING_RULE_3, change: 'data changes: catalog lists in another order (the spec states no order)' },
    hooks: { onEnvelope: listOrder },
  },
  {
    name: 'benign-error-descriptions',
    description: "Benign: every failure's responseMessage and every catalog/errors description is reworded ('001' keeps the spec's shape).",
    benign: { rule: VERSIONING_RULE_3, change: 'data changes: changed error descriptions (responseMessage texts and catalog/errors)' },
    behaviour: { responseCodes: REWORDED_CODES },
    hooks: { onEnvelope: errorDescriptions },
  },
  {
    name: 'benign-new-error-code',
    description: `Benign: catalog/errors lists a new code (${NEW_ERROR_CODE.code}).`,
    benign: { rule: VERSIONING_RULE_3, change: 'data changes: a new error code in catalog/errors' },
    hooks: { onEnvelope: newErrorCode },
  },
  {
    name: 'benign-new-records',
    description: 'Benign: the catalog gains a country (Sri Lanka) with its operators, products, SKUs and gift cards.',
    benign: { rule: VERSIONING_RULE_3, change: 'data changes: new countries, operators, products, SKUs and gift cards' },
    catalog: { extraCountries: EXTRA_COUNTRIES },
  },
  {
    name: 'benign-latency',
    description: 'Benign: every response takes 1-5 s longer (seeded, scaled), within the default 30 s response timeout.',
    benign: { rule: VERSIONING_RULE_3, change: 'added latency within timeouts (no rule states a response time)' },
    behaviour: LATENCY,
  },
  {
    name: 'benign-connection-close',
    description: 'Benign: every response closes its connection (Connection: close); clients reconnect for the next call.',
    benign: { rule: VERSIONING_RULE_3, change: 'new response headers: Connection: close after each response' },
    hooks: { onEnvelope: connectionClose },
  },
  {
    name: 'benign-combined',
    description: 'Benign: every change above at once.',
    benign: { rule: VERSIONING_RULE_3, change: 'all of the above together' },
    catalog: { extraCountries: EXTRA_COUNTRIES },
    behaviour: { ...LATENCY, responseCodes: REWORDED_CODES },
    hooks: {
      onEnvelope: chain(envelopeFields, payloadFields, responseHeaders, listOrder, errorDescriptions, newErrorCode, connectionClose),
    },
  },
];
