// Boundary tests of the wire rules the spec states (Resources and their fields, Limits) through api/validation.ts.
// Tables of cases, written from the spec and not from the schemas, so a wrong schema fails here.
import { describe, expect, it } from 'vitest';
import { getOperation, OPERATIONS, type RequestBodyName } from './operations.ts';
import { formatIssues, isValidRequestBody, validateEnvelope, validateRequestBody, type ValidationResult } from './validation.ts';

/**
 * A minimal valid body per request table of the spec: exactly its required fields. Written from the spec for the bodies
 * it tables; a body added later is checked by its own schema's REQ conformance cases, so no entry here is forced.
 */
const VALID = {
  topup: { skuId: 193, amount: 10, mobile: '18761234567', correlationId: 'corr-1' },
  pin: { skuId: 11, correlationId: 'corr-1' },
  billpay: { skuId: 41, amount: 25.5, accountNumber: 'ACC-1', correlationId: 'corr-1' },
  giftcard: { skuId: 61, amount: 20, correlationId: 'corr-1' },
  'sim-activation': { skuId: 51, simNumber: '8901260000000000001', zipCode: 10001, correlationId: 'corr-1' },
  'sim-portin': { skuId: 52, simNumber: '8901260000000000002', zipCode: 10001, correlationId: 'corr-1' },
  esim: { skuId: 71, correlationId: 'corr-1' },
  'estimated-cost': { skuId: 193, amount: 10 },
} as const satisfies Partial<Record<RequestBodyName, Readonly<Record<string, unknown>>>>;

type TabledBody = keyof typeof VALID;

/** Required fields per request table of the spec. */
const REQUIRED: Readonly<Record<TabledBody, readonly string[]>> = {
  topup: ['skuId', 'amount', 'mobile', 'correlationId'],
  pin: ['skuId', 'correlationId'],
  billpay: ['skuId', 'amount', 'accountNumber', 'correlationId'],
  giftcard: ['skuId', 'amount', 'correlationId'],
  'sim-activation': ['skuId', 'simNumber', 'zipCode', 'correlationId'],
  'sim-portin': ['skuId', 'simNumber', 'zipCode', 'correlationId'],
  esim: ['skuId', 'correlationId'],
  'estimated-cost': ['skuId', 'amount'],
};

const BODIES = Object.keys(VALID) as TabledBody[];
const WITH_CORRELATION_ID = BODIES.filter((name) => REQUIRED[name].includes('correlationId'));
const WITH_ADDITIONAL_INFOS = BODIES.filter((name) => !['esim', 'estimated-cost'].includes(name));
const PORTIN_EXTRA_FIELDS = [
  'operatorCode',
  'mobileNumber',
  'accountNumber',
  'passwordPin',
  'firstName',
  'lastName',
  'address',
  'city',
  'state',
  'accountHolderZip',
  'equipmentType',
  'streetNumber',
  'streetName',
  'contactNumber',
];

interface BodyCase {
  readonly title: string;
  readonly body: TabledBody;
  /** Fields set on top of the valid body; `undefined` removes the field. */
  readonly patch: Readonly<Record<string, unknown>>;
  /** Undefined: the body must be accepted. Otherwise the one issue expected. */
  readonly issue?: { readonly path: string; readonly message: string; readonly keyword: string };
}

const accept = (body: TabledBody, title: string, patch: Record<string, unknown>): BodyCase => ({ title, body, patch });
const reject = (
  body: TabledBody,
  title: string,
  patch: Record<string, unknown>,
  path: string,
  message: string,
  keyword: string,
): BodyCase => ({
  title,
  body,
  patch,
  issue: { path, message, keyword },
});

const CASES: BodyCase[] = [
  // Limits: correlationId length 1 to 50 characters.
  ...WITH_CORRELATION_ID.flatMap((body) => [
    reject(body, 'correlationId of 0 chars', { correlationId: '' }, '/correlationId', 'correlationId must not be empty', 'minLength'),
    accept(body, 'correlationId of 1 char', { correlationId: 'a' }),
    accept(body, 'correlationId of 50 chars', { correlationId: 'c'.repeat(50) }),
    reject(
      body,
      'correlationId of 51 chars',
      { correlationId: 'c'.repeat(51) },
      '/correlationId',
      'correlationId must be at most 50 characters',
      'maxLength',
    ),
    reject(body, 'correlationId null', { correlationId: null }, '/correlationId', 'correlationId must be a string', 'type'),
  ]),
  // Every required field, per request table.
  ...BODIES.flatMap((body) =>
    REQUIRED[body].map((field) =>
      reject(body, `missing ${field}`, { [field]: undefined }, `/${field}`, `${field} is required`, 'required'),
    ),
  ),
  // Versioning 3: new optional request fields are non-breaking, so unknown fields pass.
  ...BODIES.map((body) => accept(body, 'unknown extra field', { someFutureField: { nested: true }, another: 1 })),
  // skuId is integer int32 everywhere.
  ...BODIES.flatMap((body) => [
    accept(body, 'skuId at int32 max', { skuId: 2147483647 }),
    accept(body, 'skuId at int32 min', { skuId: -2147483648 }),
    reject(body, 'skuId int32 overflow', { skuId: 2147483648 }, '/skuId', 'skuId must be at most 2147483647 (int32 range)', 'maximum'),
    reject(body, 'skuId int32 underflow', { skuId: -2147483649 }, '/skuId', 'skuId must be at least -2147483648 (int32 range)', 'minimum'),
    reject(body, 'skuId not an integer', { skuId: 1.5 }, '/skuId', 'skuId must be an integer', 'type'),
    reject(body, 'skuId as a string', { skuId: '193' }, '/skuId', 'skuId must be an integer', 'type'),
  ]),
  // additionalInfos: array of AdditionalInfo, or null.
  ...WITH_ADDITIONAL_INFOS.flatMap((body) => [
    accept(body, 'additionalInfos null', { additionalInfos: null }),
    accept(body, 'additionalInfos of objects', { additionalInfos: [{ name: 'idNumber', value: '123' }, {}] }),
    reject(
      body,
      'additionalInfos element not an object',
      { additionalInfos: [{}, 'x'] },
      '/additionalInfos/1',
      'additionalInfos[1] must be an object',
      'type',
    ),
    reject(
      body,
      'additionalInfos not an array',
      { additionalInfos: { name: 'a' } },
      '/additionalInfos',
      'additionalInfos must be an array or null',
      'type',
    ),
  ]),
  // Top-up: amount number double, mobile non-empty, operatorPin 0..6 chars and 4..6 digits when used.
  accept('topup', 'amount with decimals', { amount: 12.75 }),
  reject('topup', 'amount as a string', { amount: '10' }, '/amount', 'amount must be a number', 'type'),
  reject('topup', 'mobile empty', { mobile: '' }, '/mobile', 'mobile must not be empty', 'minLength'),
  reject('topup', 'mobile as a number', { mobile: 18761234567 }, '/mobile', 'mobile must be a string', 'type'),
  accept('topup', "operatorPin ''", { operatorPin: '' }),
  accept('topup', 'operatorPin null', { operatorPin: null }),
  reject(
    'topup',
    'operatorPin of 3 digits',
    { operatorPin: '123' },
    '/operatorPin',
    'operatorPin must be empty or 4 to 6 digits',
    'pattern',
  ),
  accept('topup', 'operatorPin of 4 digits', { operatorPin: '1234' }),
  accept('topup', 'operatorPin of 6 digits', { operatorPin: '123456' }),
  reject(
    'topup',
    'operatorPin with a non-digit',
    { operatorPin: '12a4' },
    '/operatorPin',
    'operatorPin must be empty or 4 to 6 digits',
    'pattern',
  ),
  accept('topup', 'senderMobile null', { senderMobile: null }),
  reject('topup', 'senderMobile as a number', { senderMobile: 5 }, '/senderMobile', 'senderMobile must be a string or null', 'type'),
  accept('topup', 'numberOfPlanMonths', { numberOfPlanMonths: 3 }),
  reject(
    'topup',
    'numberOfPlanMonths null (not "or null" in the spec)',
    { numberOfPlanMonths: null },
    '/numberOfPlanMonths',
    'numberOfPlanMonths must be an integer',
    'type',
  ),
  accept('topup', 'transactionCurrencyCode null', { transactionCurrencyCode: null }),
  // Bill payment: transactionCurrencyCode at most 3 chars.
  accept('billpay', 'currency of 3 chars', { transactionCurrencyCode: 'JMD' }),
  accept('billpay', 'currency empty (wallet currency applies)', { transactionCurrencyCode: '' }),
  accept('billpay', 'currency null (wallet currency applies)', { transactionCurrencyCode: null }),
  reject(
    'billpay',
    'currency of 4 chars',
    { transactionCurrencyCode: 'JMDX' },
    '/transactionCurrencyCode',
    'transactionCurrencyCode must be at most 3 characters',
    'maxLength',
  ),
  reject('billpay', 'accountNumber empty', { accountNumber: '' }, '/accountNumber', 'accountNumber must not be empty', 'minLength'),
  // SIM: zipCode int32, simNumber non-empty; areaCode at most 3 chars in port-in only.
  reject('sim-activation', 'zipCode as a string', { zipCode: '10001' }, '/zipCode', 'zipCode must be an integer', 'type'),
  reject('sim-activation', 'simNumber empty', { simNumber: '' }, '/simNumber', 'simNumber must not be empty', 'minLength'),
  accept('sim-activation', 'areaCode of 4 chars (limit is port-in only)', { areaCode: '8765' }),
  accept('sim-portin', 'areaCode of 3 chars', { areaCode: '876' }),
  reject('sim-portin', 'areaCode of 4 chars', { areaCode: '8765' }, '/areaCode', 'areaCode must be at most 3 characters', 'maxLength'),
  reject(
    'sim-portin',
    'zipCode int32 overflow',
    { zipCode: 2147483648 },
    '/zipCode',
    'zipCode must be at most 2147483647 (int32 range)',
    'maximum',
  ),
  ...PORTIN_EXTRA_FIELDS.flatMap((field) => [
    accept('sim-portin', `${field} string`, { [field]: 'x' }),
    accept('sim-portin', `${field} null`, { [field]: null }),
    reject('sim-portin', `${field} number`, { [field]: 1 }, `/${field}`, `${field} must be a string or null`, 'type'),
  ]),
  // Estimated cost: transactionCurrencyCode must be upper case.
  accept('estimated-cost', 'upper-case currency', { transactionCurrencyCode: 'USD' }),
  accept('estimated-cost', 'currency null (optional, string or null)', { transactionCurrencyCode: null }),
  accept('estimated-cost', 'currency empty (no lower-case letter)', { transactionCurrencyCode: '' }),
  reject(
    'estimated-cost',
    'lower-case currency',
    { transactionCurrencyCode: 'usd' },
    '/transactionCurrencyCode',
    'transactionCurrencyCode must be upper case',
    'pattern',
  ),
  reject(
    'estimated-cost',
    'mixed-case currency',
    { transactionCurrencyCode: 'Usd' },
    '/transactionCurrencyCode',
    'transactionCurrencyCode must be upper case',
    'pattern',
  ),
  reject('estimated-cost', 'amount missing', { amount: undefined }, '/amount', 'amount is required', 'required'),
];

function patched(name: TabledBody, patch: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...VALID[name] };
  for (const [field, value] of Object.entries(patch)) {
    if (value === undefined) delete body[field];
    else body[field] = value;
  }
  return body;
}

function issuesOf(result: ValidationResult): { path: string; message: string; keyword: string }[] {
  return result.valid ? [] : result.errors.map(({ path, message, keyword }) => ({ path, message, keyword }));
}

describe('validateRequestBody', () => {
  it.each(BODIES)('accepts the minimal valid %s body', (name) => {
    expect(validateRequestBody(name, VALID[name])).toEqual({ valid: true });
    expect(isValidRequestBody(name, VALID[name])).toBe(true);
  });

  it.each(CASES.map((c) => [`${c.body}: ${c.title}`, c] as const))('%s', (_title, c) => {
    const result = validateRequestBody(c.body, patched(c.body, c.patch));
    if (c.issue === undefined) expect(issuesOf(result)).toEqual([]);
    else expect(issuesOf(result)).toEqual([c.issue]);
  });

  it('reports operatorPin of 7 chars as too long and not 4 to 6 digits', () => {
    const result = validateRequestBody('topup', patched('topup', { operatorPin: '1234567' }));
    expect(issuesOf(result)).toEqual([
      { path: '/operatorPin', message: 'operatorPin must be at most 6 characters', keyword: 'maxLength' },
      { path: '/operatorPin', message: 'operatorPin must be empty or 4 to 6 digits', keyword: 'pattern' },
    ]);
  });

  it('reports every problem at once (allErrors), in one readable line', () => {
    const result = validateRequestBody('topup', { skuId: 'x', amount: 1, correlationId: 'c'.repeat(60) });
    expect(result.valid).toBe(false);
    const line = formatIssues(result.valid ? [] : result.errors);
    expect(line).toBe('mobile is required; skuId must be an integer; correlationId must be at most 50 characters');
    expect(line).not.toMatch(/\n/);
  });

  it.each([null, [], 'topup', 42])('rejects a body that is not an object (%j)', (body) => {
    expect(issuesOf(validateRequestBody('pin', body))).toEqual([{ path: '', message: 'request body must be an object', keyword: 'type' }]);
  });

  it("has a validator for every request body the operation catalog names, the spec's tables among them", () => {
    const names = new Set(OPERATIONS.flatMap((op) => (op.requestBody === undefined ? [] : [op.requestBody])));
    expect([...names]).toEqual(expect.arrayContaining([...BODIES]));
    for (const name of BODIES) expect(validateRequestBody(name, VALID[name]).valid).toBe(true);
    for (const name of names) expect(validateRequestBody(name, {}).valid, name).toBe(false);
  });
});

interface EnvelopeCase {
  readonly title: string;
  readonly operation: string;
  readonly body: unknown;
  readonly issues: readonly { readonly path: string; readonly message: string; readonly keyword: string }[];
}

const ok = (title: string, operation: string, body: unknown): EnvelopeCase => ({ title, operation, body, issues: [] });
const bad = (title: string, operation: string, body: unknown, ...issues: [string, string, string][]): EnvelopeCase => ({
  title,
  operation,
  body,
  issues: issues.map(([path, message, keyword]) => ({ path, message, keyword })),
});

const ENVELOPE_CASES: EnvelopeCase[] = [
  ok('success: null message, number payload', 'v1.account.balance', { responseCode: '000', responseMessage: null, payLoad: -125.5 }),
  ok('success: null message, array payload', 'v2.catalog.skus', { responseCode: '000', responseMessage: null, payLoad: [{ skuId: 1 }] }),
  ok('success: null message, object payload', 'v2.transaction.topup', { responseCode: '000', responseMessage: null, payLoad: { id: 1 } }),
  ok('failure: message and null payload', 'v2.transaction.topup', {
    responseCode: '510',
    responseMessage: 'The SKU is out of stock',
    payLoad: null,
  }),
  ok('failure: null message (type is string or null)', 'v2.transaction.topup', {
    responseCode: '500',
    responseMessage: null,
    payLoad: null,
  }),
  ok('in progress 852 with null payload', 'v2.transaction.status', {
    responseCode: '852',
    responseMessage: 'Transaction in progress',
    payLoad: null,
  }),
  ok('unknown envelope field tolerated (Versioning 3)', 'v1.account.balance', {
    responseCode: '000',
    responseMessage: null,
    payLoad: 1,
    traceId: 'abc',
    meta: { x: 1 },
  }),
  bad('success with a message', 'v1.account.balance', { responseCode: '000', responseMessage: 'OK', payLoad: 10 }, [
    '/responseMessage',
    "responseMessage must be null when responseCode is '000'",
    'type',
  ]),
  bad(
    'failure with a payload',
    'v2.transaction.topup',
    { responseCode: '501', responseMessage: 'the service number is not valid', payLoad: { id: 1 } },
    ['/payLoad', "payLoad must be null when responseCode is not '000'", 'type'],
  ),
  bad('failure with an empty-array payload', 'v2.catalog.skus', { responseCode: '001', responseMessage: 'x', payLoad: [] }, [
    '/payLoad',
    "payLoad must be null when responseCode is not '000'",
    'type',
  ]),
  bad(
    'payload kind mismatch: array for a number operation',
    'v1.account.balance',
    { responseCode: '000', responseMessage: null, payLoad: [] },
    ['/payLoad', 'payLoad must be a number (payload kind of v1.account.balance is number)', 'type'],
  ),
  bad(
    'payload kind mismatch: object for an array operation',
    'v2.catalog.skus',
    { responseCode: '000', responseMessage: null, payLoad: {} },
    ['/payLoad', 'payLoad must be an array (payload kind of v2.catalog.skus is array)', 'type'],
  ),
  bad(
    'payload kind mismatch: array for an object operation',
    'v1.transaction.topup',
    { responseCode: '000', responseMessage: null, payLoad: [] },
    ['/payLoad', 'payLoad must be an object (payload kind of v1.transaction.topup is object)', 'type'],
  ),
  bad('success with a null payload', 'v1.transaction.topup', { responseCode: '000', responseMessage: null, payLoad: null }, [
    '/payLoad',
    'payLoad must be an object (payload kind of v1.transaction.topup is object)',
    'type',
  ]),
  bad(
    'payLoad of a type no operation has: one type issue, the precise one',
    'v2.transaction.topup',
    { responseCode: '510', responseMessage: 'x', payLoad: 'text' },
    ['/payLoad', "payLoad must be null when responseCode is not '000'", 'type'],
  ),
  bad(
    'missing payLoad and responseMessage',
    'v2.transaction.topup',
    { responseCode: '510' },
    ['/responseMessage', 'responseMessage is required', 'required'],
    ['/payLoad', 'payLoad is required', 'required'],
  ),
  bad('responseCode not a string', 'v2.transaction.topup', { responseCode: 0, responseMessage: null, payLoad: null }, [
    '/responseCode',
    'responseCode must be a string',
    'type',
  ]),
  bad('not an object', 'v2.transaction.topup', [], ['', 'envelope must be an object', 'type']),
  ok('standard envelope needs no next/next_cursor', 'v2.catalog.skus', { responseCode: '000', responseMessage: null, payLoad: [] }),
  ok('gift card list success with integer paging fields', 'v2.catalog.skus-giftcards', {
    responseCode: '000',
    responseMessage: null,
    payLoad: [],
    next: 1,
    next_cursor: 1200,
  }),
  ok('gift card list failure without paging fields', 'v2.catalog.skus-giftcards', {
    responseCode: '500',
    responseMessage: 'x',
    payLoad: null,
  }),
  ok('gift card list failure with null paging fields', 'v2.catalog.skus-giftcards', {
    responseCode: '500',
    responseMessage: 'x',
    payLoad: null,
    next: null,
    next_cursor: null,
  }),
  bad(
    'gift card list with a non-integer next',
    'v2.catalog.skus-giftcards',
    { responseCode: '000', responseMessage: null, payLoad: [], next: 1.5, next_cursor: 2 },
    ['/next', "next must be an integer when responseCode is '000'", 'type'],
  ),
  bad(
    'gift card list with a string next_cursor on failure',
    'v2.catalog.skus-giftcards',
    { responseCode: '500', responseMessage: 'x', payLoad: null, next_cursor: '2' },
    ['/next_cursor', 'next_cursor must be an integer or null', 'type'],
  ),
  bad(
    'gift card list success without paging fields',
    'v2.catalog.skus-giftcards',
    { responseCode: '000', responseMessage: null, payLoad: [] },
    ['/next', "next is required when responseCode is '000'", 'required'],
    ['/next_cursor', "next_cursor is required when responseCode is '000'", 'required'],
  ),
  bad(
    'gift card list keeps the base invariants',
    'v2.catalog.skus-giftcards',
    { responseCode: '000', responseMessage: 'OK', payLoad: [], next: 0, next_cursor: 0 },
    ['/responseMessage', "responseMessage must be null when responseCode is '000'", 'type'],
  ),
];

describe('validateEnvelope', () => {
  it.each(ENVELOPE_CASES.map((c) => [`${c.operation}: ${c.title}`, c] as const))('%s', (_title, c) => {
    const result = validateEnvelope(getOperation(c.operation), c.body);
    expect(issuesOf(result)).toEqual(c.issues);
  });

  it('formats issues on one line naming each field', () => {
    const result = validateEnvelope(getOperation('v1.account.balance'), { responseCode: '000', responseMessage: 'x', payLoad: 'y' });
    expect(result.valid).toBe(false);
    expect(formatIssues(result.valid ? [] : result.errors)).toBe(
      "responseMessage must be null when responseCode is '000'; payLoad must be an object, an array, a number or null",
    );
  });
});
