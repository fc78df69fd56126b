// The payload checks, layer by layer: each spec rule shown failing on the answer it exists to catch (naming the JSON
// path) and passing on what the spec allows (absent fields, unknown fields, null); observed findings are warnings
// unless promoted; one violation per path; samples are redacted and truncated.
import { describe, expect, it } from 'vitest';
import { getOperation, OPERATIONS } from './operations.ts';
import { checkResponseBody, OBSERVED_SCHEMAS, sampleValue, specValidatorOf, type PayloadViolation } from './payload-checks.ts';

const ok = (payLoad: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  responseCode: '000',
  responseMessage: null,
  payLoad,
  ...extra,
});
const check = (operationId: string, body: unknown, options = {}): readonly PayloadViolation[] =>
  checkResponseBody(getOperation(operationId), body, options);
const summary = (violations: readonly PayloadViolation[]): string[] => violations.map((v) => `${v.severity} ${v.layer} ${v.path}`);
/** The errors only: these bare records also lack what observed payloads list (warnings, shown in their own tests). */
const errors = (violations: readonly PayloadViolation[]): string[] => summary(violations).filter((line) => line.startsWith('error'));

describe('spec layer (errors)', () => {
  it('a record replaced by a scalar: $.payLoad[*]', () => {
    expect(errors(check('v2.catalog.countries', ok([{ countryCode: 'JM' }, 42])))).toEqual(['error spec $.payLoad[*]']);
  });

  // #31 item 2: the spec types ids in REQUESTS and parameters only; a record's id type is observed (a warning).
  it('an id typed otherwise in a record is a warning (observed), an error only when promoted', () => {
    const warnings = (violations: readonly PayloadViolation[]): string[] => summary(violations).filter((line) => line.includes('Id'));
    for (const skuId of ['12', 1.5, 2147483648]) {
      expect(errors(check('v1.catalog.sku-description', ok([{ skuId }]))), String(skuId)).toEqual([]);
      expect(warnings(check('v1.catalog.sku-description', ok([{ skuId }]))), String(skuId)).toEqual([
        'warning observed $.payLoad[*].skuId',
      ]);
      expect(errors(check('v1.catalog.sku-description', ok([{ skuId }]), { promoteObserved: true })), String(skuId)).toContain(
        'error observed $.payLoad[*].skuId',
      );
    }
    expect(errors(check('v2.catalog.skus', ok([{ skuId: '101', productId: '7', categoryId: '2' }])))).toEqual([]);
    expect(errors(check('v2.catalog.operators', ok([{ operatorId: '45' }])))).toEqual([]);
    expect(warnings(check('v2.transaction.topup', ok({ skuId: '101' })))).toContain('warning observed $.payLoad.skuId');
  });

  it('a localized field as a number, in either first-letter case: the field path (SKU, gift card and lookup records)', () => {
    expect(errors(check('v2.catalog.skus-giftcards', ok([{ productName: 7 }], { next: 0, next_cursor: 0 })))).toEqual([
      'error spec $.payLoad[*].productName',
    ]);
    expect(errors(check('v2.lookup.mobile', ok([{ OperatorName: 1 }])))).toEqual(['error spec $.payLoad[*].OperatorName']);
    expect(errors(check('v1.catalog.lookup-mobile', ok({ skuName: false })))).toEqual(['error spec $.payLoad.skuName']);
    // Not a localized record: the spec names no localized field there.
    expect(errors(check('v2.catalog.countries', ok([{ productName: 7 }])))).toEqual([]);
  });

  it('an AdditionalInfo element without its value (a pair has two members): $.payLoad[*].additionalInfos[*]', () => {
    expect(errors(check('v2.catalog.getproducts', ok([{ additionalInfos: [{ name: 'accountId' }] }])))).toEqual([
      'error spec $.payLoad[*].additionalInfos[*]',
    ]);
    expect(errors(check('v2.catalog.getproducts', ok([{ additionalInfos: [{ name: 'accountId', value: '1' }] }])))).toEqual([]);
    expect(errors(check('v2.catalog.getproducts', ok([{ additionalInfos: null }])))).toEqual([]);
  });

  it('next_cursor as a string and a v2 lookup as an object: the envelope layer names them', () => {
    expect(errors(check('v2.catalog.skus-giftcards', ok([], { next: 1, next_cursor: '5' })))).toEqual(['error envelope $.next_cursor']);
    expect(errors(check('v2.lookup.mobile', ok({ productId: 1 })))).toEqual(['error envelope $.payLoad']);
  });

  it('asserts no field the spec does not name as present, allows unknown fields and null localized text', () => {
    expect(errors(check('v2.catalog.getproducts', ok([{}])))).toEqual([]);
    expect(
      check('v2.catalog.skus-giftcards', ok([{ anything: { deep: [1] }, productName: null }], { next: 0, next_cursor: 0, extra: true })),
    ).toEqual([]);
    expect(check('v2.catalog.errors', ok(['001', { code: '002' }]))).toEqual([]);
  });

  it('checks only successful answers', () => {
    expect(check('v2.catalog.countries', { responseCode: '500', responseMessage: 'no', payLoad: null })).toEqual([]);
  });

  it('every operation has a spec schema; the observed table names only catalog operations', () => {
    for (const op of OPERATIONS) expect(specValidatorOf(op).schema, op.id).toMatch(/^payload-/);
    const ids = new Set(OPERATIONS.map((op) => op.id));
    for (const id of Object.keys(OBSERVED_SCHEMAS)) expect(ids.has(id), id).toBe(true);
  });
});

describe('observed layer (warnings unless promoted)', () => {
  it('a field observed-payloads.md lists but the answer lacks is a warning, an error when promoted', () => {
    const body = ok([{ promotionName: 'x', startDate: 's', endDate: 'e', description: 'd', restriction: 'r', promotionMinMax: 'm' }]);
    expect(summary(check('v2.promotion.current', body))).toEqual(['warning observed $.payLoad[*].product']);
    expect(summary(check('v2.promotion.current', body, { promoteObserved: true }))).toEqual(['error observed $.payLoad[*].product']);
  });

  it('one violation per path: the error wins over a warning at the same path, and errors come first', () => {
    const violations = check('v2.catalog.operators', ok([{ operatorId: 'x', operatorName: 'n', additionalInfos: [{ name: 'a' }] }]));
    expect(summary(violations)).toEqual([
      'error spec $.payLoad[*].additionalInfos[*]',
      'warning observed $.payLoad[*].imageUrl',
      'warning observed $.payLoad[*].operatorId',
    ]);
  });
});

describe('baseline layer', () => {
  it('runs the given validator over the whole envelope and names its path', () => {
    const learned = Object.assign((data: unknown) => (data as { payLoad: unknown[] }).payLoad.length > 0, {
      errors: [{ instancePath: '/payLoad', schemaPath: '#/properties/payLoad/minItems', keyword: 'minItems', params: { limit: 1 } }],
    });
    const violations = check('v2.catalog.countries', ok([]), { baseline: { 'v2.catalog.countries': learned } });
    expect(summary(violations)).toEqual(['error baseline $.payLoad']);
    expect(check('v2.catalog.operators', ok([]), { baseline: { 'v2.catalog.countries': learned } })).toEqual([]);
  });
});

describe('body texts seen before (inside k6 the payload layers are memoized per operation, on V8 checked again: the same answers either way; the memo itself: body-memo.test.ts, and inside real k6: load/payload-violations.test.ts)', () => {
  const op = getOperation('v2.catalog.operators');
  const clean = ok([{ operatorId: 1, operatorName: 'n', imageUrl: 'u' }]);
  const broken = ok([{ operatorId: 1, operatorName: 'n', additionalInfos: [{ name: 'a' }] }]);
  const text = (body: unknown): string => JSON.stringify(body);

  it('an equal text gets the violations checking it again gives; a different text of the same operation is checked anew', () => {
    const options = {};
    const fresh = summary(checkResponseBody(op, broken, options));
    expect(fresh).toEqual(['error spec $.payLoad[*].additionalInfos[*]', 'warning observed $.payLoad[*].imageUrl']);
    for (let round = 0; round < 3; round++) {
      expect(summary(checkResponseBody(op, broken, options, text(broken))), `broken ${round}`).toEqual(fresh);
      expect(checkResponseBody(op, clean, options, text(clean)), `clean ${round}`).toEqual([]);
    }
  });

  it('keys on the options object: the same text under promoted options gets its own severities', () => {
    const plain = {};
    const promoted = { promoteObserved: true };
    expect(errors(checkResponseBody(op, broken, plain, text(broken)))).toEqual(['error spec $.payLoad[*].additionalInfos[*]']);
    expect(errors(checkResponseBody(op, broken, promoted, text(broken)))).toContain('error observed $.payLoad[*].imageUrl');
  });

  it("keys on the operation: the same text under another operation gets that operation's layers", () => {
    const options = {};
    const body = ok([{ productName: 7 }]);
    expect(errors(checkResponseBody(getOperation('v2.catalog.countries'), body, options, text(body)))).toEqual([]);
    expect(errors(checkResponseBody(getOperation('v2.lookup.mobile'), body, options, text(body)))).toEqual([
      'error spec $.payLoad[*].productName',
    ]);
  });

  it('never memoizes the envelope check: a text seen with a good envelope is still judged on its own envelope', () => {
    const options = {};
    const good = ok([]);
    expect(checkResponseBody(op, good, options, text(good))).toEqual([]);
    // The caller's text and body disagree only in this test; the envelope is always checked on the body.
    expect(summary(checkResponseBody(op, { ...good, responseMessage: 5 }, options, text(good)))).toEqual([
      'error envelope $.responseMessage',
    ]);
  });
});

describe('sampleValue', () => {
  it('shows the value at the violation with secret members redacted, and cuts long text', () => {
    const body = ok({ giftCardDetail: { cardNumber: '4111', pin: '1234', certificateLink: 'u' } });
    expect(sampleValue(body, { pointer: '/payLoad/giftCardDetail' })).toBe(
      '{"cardNumber":"[REDACTED]","pin":"[REDACTED]","certificateLink":"u"}',
    );
    const long = ok([{ text: 'x'.repeat(1000) }]);
    const text = sampleValue(long, { pointer: '/payLoad/0' });
    expect(text.length).toBe(301);
    expect(text.endsWith('…')).toBe(true);
    // A missing member: the object that lacks it.
    expect(sampleValue(ok([{ a: 1 }]), { pointer: '/payLoad/0/product' })).toBe('{"a":1}');
  });
});
