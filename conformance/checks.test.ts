// Each named check against responses that satisfy and that break its rule (table-driven).
// The checks are the suite's only judges, so each must be able to fail as well as pass.
import { describe, expect, test } from 'vitest';
import { toGatewayResponse, type GatewayResponse } from '../api/envelope.ts';
import {
  ENVELOPE_INVARIANTS,
  clientTimedOut,
  envelopeFieldTypes,
  envelopeIsJson,
  envelopeMatchesSchema,
  giftcardListCursorIntegers,
  http200,
  itemCount,
  message001Shape,
  messageNullOnSuccess,
  messageOnFailure,
  noPayload,
  notSuccessful,
  payloadNullUnlessSuccess,
  payloadMatchesSchema,
  payloadOfDocumentedKind,
  rejected,
  responseCodeIs,
  successful,
} from './checks.ts';
import type { Check } from './types.ts';

function res(operationId: string, body: unknown, httpStatus = 200): GatewayResponse {
  return toGatewayResponse({
    operationId,
    httpStatus,
    bodyText: typeof body === 'string' ? body : JSON.stringify(body),
    timedOut: false,
    timings: { startedAt: 0, totalMs: 1 },
  });
}
const timeout = (operationId: string): GatewayResponse =>
  toGatewayResponse({
    operationId,
    timedOut: true,
    transportError: { code: 'GH_ERR_TIMEOUT', message: 'response timeout' },
    timings: { startedAt: 0, totalMs: 300 },
  });

const ok = (payLoad: unknown, op = 'v2.catalog.skus') => res(op, { responseCode: '000', responseMessage: null, payLoad });
const fail = (code: string, message: unknown = 'explained', payLoad: unknown = null, op = 'v2.transaction.topup') =>
  res(op, { responseCode: code, responseMessage: message, payLoad });

const MESSAGE_001 = 'The charge amount for Denomination Digicel Jamaica Open should be between 5.00 USD and 100.00 USD';

const TABLE: ReadonlyArray<{ name: string; check: Check; pass: GatewayResponse[]; fail: GatewayResponse[] }> = [
  {
    name: 'envelopeIsJson',
    check: envelopeIsJson,
    pass: [ok([]), res('v2.catalog.skus', 'nope', 401), timeout('v2.catalog.skus')],
    fail: [res('v2.catalog.skus', '<html>'), res('v2.catalog.skus', { code: 1 })],
  },
  {
    name: 'envelopeFieldTypes',
    check: envelopeFieldTypes,
    pass: [ok([]), fail('510')],
    fail: [
      res('v2.catalog.skus', { responseCode: '000', payLoad: [] }),
      res('v2.catalog.skus', { responseCode: '000', responseMessage: null }),
      fail('510', 5),
      fail('510', 'x', 'text'),
    ],
  },
  {
    name: 'payloadNullUnlessSuccess',
    check: payloadNullUnlessSuccess,
    pass: [ok([1]), fail('510')],
    fail: [fail('510', 'x', { a: 1 }), fail('852', 'wait', [])],
  },
  {
    name: 'messageNullOnSuccess',
    check: messageNullOnSuccess,
    pass: [ok([]), fail('510')],
    fail: [res('v2.catalog.skus', { responseCode: '000', responseMessage: 'OK', payLoad: [] })],
  },
  {
    name: 'messageOnFailure',
    check: messageOnFailure,
    pass: [ok([]), fail('510', 'The SKU is out of stock')],
    fail: [fail('510', null), fail('852', '  ')],
  },
  {
    name: 'payloadOfDocumentedKind',
    check: payloadOfDocumentedKind,
    pass: [ok([]), ok(-10.5, 'v2.account.balance'), ok({}, 'v2.transaction.topup'), fail('510')],
    fail: [ok({}), ok('-10', 'v2.account.balance'), ok([], 'v2.transaction.topup'), ok(null, 'v1.catalog.countries')],
  },
  {
    name: 'giftcardListCursorIntegers',
    check: giftcardListCursorIntegers,
    pass: [
      res('v2.catalog.skus-giftcards', { responseCode: '000', responseMessage: null, payLoad: [], next: 1, next_cursor: 120 }),
      ok([]),
      fail('003', 'bad', null, 'v2.catalog.skus-giftcards'),
    ],
    fail: [
      res('v2.catalog.skus-giftcards', { responseCode: '000', responseMessage: null, payLoad: [], next: '1', next_cursor: 120 }),
      res('v2.catalog.skus-giftcards', { responseCode: '000', responseMessage: null, payLoad: [] }),
    ],
  },
  {
    name: 'envelopeMatchesSchema',
    check: envelopeMatchesSchema,
    pass: [
      ok([]),
      fail('510'),
      res('v2.catalog.skus', 'not json'),
      res('v2.catalog.skus-giftcards', { responseCode: '000', responseMessage: null, payLoad: [], next: 0, next_cursor: 0 }),
    ],
    fail: [
      res('v2.catalog.skus', { responseCode: '000', responseMessage: 'x', payLoad: [] }),
      ok({}, 'v2.catalog.skus'),
      fail('510', 'x', [1]),
    ],
  },
  {
    name: 'payloadMatchesSchema',
    check: payloadMatchesSchema,
    pass: [
      ok([]),
      ok([{ skuId: 1, productName: 'x', unknown: [1] }], 'v2.catalog.bundles'),
      fail('510'),
      ok([42], 'v2.catalog.errors'),
      res('v2.catalog.skus', 'not json'),
    ],
    fail: [ok([42]), ok([{ productName: 3 }]), ok([{ additionalInfos: [{ name: 'x' }] }], 'v2.catalog.getproducts')],
  },
  { name: 'http200', check: http200, pass: [ok([]), fail('510')], fail: [res('v2.catalog.skus', '', 401), timeout('v2.catalog.skus')] },
  {
    name: 'successful',
    check: successful,
    pass: [ok([])],
    fail: [
      fail('510'),
      fail('852'),
      res('v2.catalog.skus', { responseCode: '000', responseMessage: null, payLoad: [] }, 500),
      timeout('x'),
    ],
  },
  { name: 'notSuccessful', check: notSuccessful, pass: [fail('510'), res('v2.catalog.skus', '', 401), timeout('x')], fail: [ok([])] },
  { name: 'rejected', check: rejected, pass: [fail('003'), res('v2.catalog.skus', '', 401)], fail: [ok([]), fail('852'), timeout('x')] },
  {
    name: 'noPayload',
    check: noPayload,
    pass: [fail('510'), res('v2.catalog.skus', '', 401), res('v2.catalog.skus', { responseCode: '041', responseMessage: 'no' }, 401)],
    fail: [ok([]), res('v2.catalog.skus', { responseCode: '041', responseMessage: 'no', payLoad: [1] }, 401)],
  },
  {
    name: "responseCodeIs('510')",
    check: responseCodeIs('510'),
    pass: [fail('510')],
    fail: [fail('500'), res('v2.transaction.topup', { responseCode: '510', responseMessage: 'x', payLoad: null }, 500), timeout('x')],
  },
  {
    name: 'clientTimedOut',
    check: clientTimedOut,
    pass: [timeout('v2.transaction.topup')],
    fail: [ok({}, 'v2.transaction.topup'), fail('510')],
  },
  {
    name: 'message001Shape',
    check: message001Shape,
    pass: [fail('001', MESSAGE_001), fail('001', 'The charge amount for Denomination X should be between 5 JMD and 5 JMD')],
    fail: [
      fail('001', 'Amount outside the allowed range'),
      fail('001', null),
      fail('001', 'The charge amount for Denomination X should be between 9 USD and 5 USD'),
    ],
  },
  { name: 'itemCount(2, exactly)', check: itemCount(2, 'exactly'), pass: [ok([1, 2])], fail: [ok([1]), ok([1, 2, 3]), fail('510')] },
  { name: 'itemCount(2, at-most)', check: itemCount(2, 'at-most'), pass: [ok([]), ok([1, 2])], fail: [ok([1, 2, 3])] },
];

describe('checks', () => {
  for (const row of TABLE) {
    test(`${row.name} passes what the rule allows and fails what it forbids`, () => {
      for (const [i, response] of row.pass.entries()) {
        expect(row.check({ caseId: 'T-1', operationId: response.operationId }, response), `pass[${i}]`).toBeUndefined();
      }
      for (const [i, response] of row.fail.entries()) {
        const failure = row.check({ caseId: 'T-1', operationId: response.operationId }, response);
        expect(failure, `fail[${i}]`).toBeDefined();
        expect(failure?.caseId).toBe('T-1');
        expect(failure?.severity).toBe('error');
        expect(failure?.expected.length).toBeGreaterThan(0);
        expect(failure?.received.length).toBeGreaterThan(0);
      }
    });
  }

  test('the envelope invariants accept a clean success and a clean failure', () => {
    for (const response of [ok([]), fail('510', 'The SKU is out of stock')]) {
      expect(
        ENVELOPE_INVARIANTS.map((check) => check({ caseId: 'T', operationId: response.operationId }, response)).filter(Boolean),
      ).toEqual([]);
    }
  });

  test('payloadMatchesSchema names the JSON path; what only observed payloads show is a warning', () => {
    const broken = payloadMatchesSchema(
      { caseId: 'T', operationId: 'v2.catalog.operators' },
      ok([{ operatorId: 45, operatorName: 'n', imageUrl: 'u', additionalInfos: [{ name: 'x' }] }], 'v2.catalog.operators'),
    );
    expect(broken).toMatchObject({
      check: 'payload-schema',
      severity: 'error',
      expected: 'schemas/payload-record-list.schema.json',
      received: '$.payLoad[*].additionalInfos[*]: {"name":"x"}',
    });
    expect(broken?.message).toContain('$.payLoad[*].additionalInfos[*]');
    // The spec types ids in requests only (#31 item 2): an id as a string in a record is a warning.
    const stringId = payloadMatchesSchema(
      { caseId: 'T', operationId: 'v2.catalog.operators' },
      ok([{ operatorId: '45', operatorName: 'n', imageUrl: 'u' }], 'v2.catalog.operators'),
    );
    expect(stringId).toMatchObject({ check: 'payload-schema', severity: 'warning' });
    expect(stringId?.message).toContain('$.payLoad[*].operatorId');
    const observed = payloadMatchesSchema(
      { caseId: 'T', operationId: 'v2.catalog.operators' },
      ok([{ operatorId: 45, operatorName: 'n' }], 'v2.catalog.operators'),
    );
    expect(observed).toMatchObject({ check: 'payload-schema', severity: 'warning' });
    expect(observed?.message).toContain('$.payLoad[*].imageUrl');
  });

  test('a failure carries the request it was about', () => {
    const request = {
      operationId: 'v2.transaction.topup',
      method: 'POST',
      url: 'http://h/api/v2/transaction/topup',
      headers: { Authorization: 'Basic [REDACTED]' },
    };
    const failure = successful({ caseId: 'T', operationId: request.operationId, request }, fail('510'));
    expect(failure?.request).toEqual(request);
  });
});
