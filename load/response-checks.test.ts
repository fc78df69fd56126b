// The checks every load response goes through: each one is shown passing on a faithful answer and failing on the
// answer it exists to catch (HTTP status, envelope schema, payload kind, outcome), so none of them can pass on anything.
import { describe, expect, it } from 'vitest';
import type { CoreExchange } from '../api/client-core.ts';
import { toGatewayResponse, type RawResponse } from '../api/envelope.ts';
import { getOperation } from '../api/operations.ts';
import type { BaselineValidators } from '../api/payload-checks.ts';
import { inspectExchange, payloadKindOf, type Inspection } from './response-checks.ts';

const options = { schemaChecks: true, notFoundCodes: ['027'] };

function exchange(operationId: string, raw: Partial<RawResponse>): CoreExchange {
  const operation = getOperation(operationId);
  const response = toGatewayResponse({ operationId, timedOut: false, timings: { startedAt: 0, totalMs: 1 }, ...raw });
  return { operation, built: { operationId, method: operation.method, url: `http://127.0.0.1${operation.path}`, headers: {} }, response };
}

function http200(operationId: string, body: unknown): CoreExchange {
  return exchange(operationId, { httpStatus: 200, bodyText: typeof body === 'string' ? body : JSON.stringify(body) });
}

function results(inspection: Inspection): Record<string, boolean> {
  return Object.fromEntries(inspection.checks.map((c) => [c.name, c.ok]));
}

describe('inspectExchange', () => {
  it('passes every check on a faithful answer', () => {
    const inspection = inspectExchange(
      http200('v2.account.balance', { responseCode: '000', responseMessage: null, payLoad: -100 }),
      options,
    );
    expect(results(inspection)).toEqual({
      'http status is 200': true,
      'envelope matches schema': true,
      'payload kind matches': true,
      'payload matches schema': true,
      'outcome is not Failed': true,
    });
    expect(inspection.violations).toEqual([]);
    expect(inspection).toMatchObject({ operation: 'v2.account.balance', api: 'v2', outcome: 'Successful', failed: false });
    expect(inspection.schemaProblem).toBeUndefined();
  });

  // #31 item 2: an assumed path the target lacks is the harness's gap, not a failed check or a Failed outcome.
  it("judges nothing on an assumed path's 404 without an envelope (pathMissing); a 404 with an envelope, or on a spec path, stays the gateway's", () => {
    const missing = inspectExchange(exchange('v2.transaction.sim-portin', { httpStatus: 404, bodyText: 'Not Found' }), options);
    expect(missing).toMatchObject({ operation: 'v2.transaction.sim-portin', failed: false, checks: [], violations: [], pathMissing: true });
    const enveloped = inspectExchange(
      exchange('v2.transaction.sim-portin', {
        httpStatus: 404,
        bodyText: JSON.stringify({ responseCode: '998', responseMessage: 'no', payLoad: null }),
      }),
      options,
    );
    expect(enveloped.pathMissing).toBeUndefined();
    expect(results(enveloped)).toMatchObject({ 'http status is 200': false, 'outcome is not Failed': false });
    const specPath = inspectExchange(exchange('v2.transaction.topup', { httpStatus: 404, bodyText: 'Not Found' }), options);
    expect(specPath.pathMissing).toBeUndefined();
    expect(specPath.failed).toBe(true);
  });

  it("fails the HTTP status check and counts Failed on a non-200 (spec: 'HTTP status other than 200 | Failed')", () => {
    const inspection = inspectExchange(exchange('v2.account.balance', { httpStatus: 503, bodyText: '' }), options);
    expect(results(inspection)).toEqual({ 'http status is 200': false, 'outcome is not Failed': false });
    expect(inspection.failed).toBe(true);
  });

  it("fails the schema check when '000' carries a responseMessage (spec: 'null on success')", () => {
    const inspection = inspectExchange(http200('v2.account.balance', { responseCode: '000', responseMessage: 'ok', payLoad: 1 }), options);
    expect(results(inspection)['envelope matches schema']).toBe(false);
    expect(inspection.schemaProblem).toMatch(/responseMessage/);
  });

  it("fails the schema check when a failure carries a payLoad (spec: 'otherwise always null')", () => {
    const inspection = inspectExchange(
      http200('v2.catalog.countries', { responseCode: '003', responseMessage: 'bad', payLoad: [] }),
      options,
    );
    expect(results(inspection)['envelope matches schema']).toBe(false);
  });

  it('fails the schema check on a body that is not an envelope', () => {
    const inspection = inspectExchange(http200('v2.catalog.countries', '<html>'), options);
    expect(results(inspection)['envelope matches schema']).toBe(false);
    expect(inspection.schemaProblem).toMatch(/not JSON/);
  });

  it("fails the payload kind check when the payload is not the operation's kind (balance: number)", () => {
    const inspection = inspectExchange(
      http200('v2.account.balance', { responseCode: '000', responseMessage: null, payLoad: [1] }),
      options,
    );
    expect(results(inspection)['payload kind matches']).toBe(false);
  });

  it('checks the gift card list envelope with its next/next_cursor', () => {
    const good = { responseCode: '000', responseMessage: null, payLoad: [], next: 0, next_cursor: 0 };
    expect(results(inspectExchange(http200('v2.catalog.skus-giftcards', good), options))['envelope matches schema']).toBe(true);
    const { next_cursor: _drop, ...missing } = good;
    expect(results(inspectExchange(http200('v2.catalog.skus-giftcards', missing), options))['envelope matches schema']).toBe(false);
  });

  it("counts an HTTP 200 business failure as Failed (k6's http_req_failed cannot see it)", () => {
    const inspection = inspectExchange(
      http200('v2.transaction.topup', { responseCode: '009', responseMessage: 'Insufficient funds', payLoad: null }),
      options,
    );
    expect(results(inspection)).toMatchObject({
      'http status is 200': true,
      'envelope matches schema': true,
      'outcome is not Failed': false,
    });
    expect(inspection).toMatchObject({ outcome: 'Failed', failed: true });
  });

  it("does not count '852' or a client timeout as failures (spec: In progress / Unknown, the account may be charged)", () => {
    const inProgress = inspectExchange(
      http200('v2.transaction.giftcard', { responseCode: '852', responseMessage: 'in progress', payLoad: null }),
      options,
    );
    expect(inProgress).toMatchObject({ outcome: 'InProgress', failed: false });
    const timedOut = inspectExchange(
      exchange('v2.transaction.topup', { timedOut: true, transportError: { code: 'GH_ERR_TIMEOUT', message: 'late' } }),
      options,
    );
    expect(timedOut).toMatchObject({ outcome: 'Unknown', failed: false, answered: false });
    // No answer: the outcome check is not recorded (#23: a green check on no answer), the status check fails.
    expect(results(timedOut)).toEqual({ 'http status is 200': false });
  });

  it('leaves a status check answering "not found" Unknown: the poller, which knows the submission time, decides', () => {
    const inspection = inspectExchange(
      http200('v2.transaction.status', { responseCode: '027', responseMessage: 'not found', payLoad: null }),
      options,
    );
    expect(inspection).toMatchObject({ outcome: 'Unknown', failed: false });
  });

  it('fails the payload check on a record the spec rules reject, naming the path, and counts one violation per path', () => {
    const body = {
      responseCode: '000',
      responseMessage: null,
      payLoad: [{ operatorId: 45, operatorName: 'x', imageUrl: 'u', additionalInfos: [{ name: 'a' }] }, 42],
    };
    const inspection = inspectExchange(http200('v2.catalog.operators', body), options);
    expect(results(inspection)).toMatchObject({
      'envelope matches schema': true,
      'payload kind matches': true,
      'payload matches schema': false,
    });
    expect(inspection.violations.map((v) => `${v.severity} ${v.path}`)).toEqual([
      'error $.payLoad[*].additionalInfos[*]',
      'error $.payLoad[*]',
    ]);
    expect(inspection.schemaProblem).toMatch(/additionalInfos/);
  });

  it('passes the payload check with an observed-payload warning, and fails it once the user promotes observed payloads', () => {
    const body = { responseCode: '000', responseMessage: null, payLoad: [{ operatorId: 45, operatorName: 'x' }] };
    const warned = inspectExchange(http200('v2.catalog.operators', body), options);
    expect(results(warned)['payload matches schema']).toBe(true);
    expect(warned.violations.map((v) => `${v.severity} ${v.path}`)).toEqual(['warning $.payLoad[*].imageUrl']);
    expect(warned.schemaProblem).toBeUndefined();
    const promoted = inspectExchange(http200('v2.catalog.operators', body), { ...options, promoteObserved: true });
    expect(results(promoted)['payload matches schema']).toBe(false);
  });

  it('fails the payload check where the baseline validator fails', () => {
    const body = { responseCode: '000', responseMessage: null, payLoad: [] };
    const learned = Object.assign(() => false, {
      errors: [{ instancePath: '/payLoad', schemaPath: '#/type', keyword: 'type', params: { type: 'object' } }],
    }) as unknown as BaselineValidators[string];
    const inspection = inspectExchange(http200('v2.catalog.countries', body), {
      ...options,
      baseline: { 'v2.catalog.countries': learned },
    });
    expect(results(inspection)['payload matches schema']).toBe(false);
    expect(inspection.violations.map((v) => `${v.layer} ${v.path}`)).toEqual(['baseline $.payLoad']);
  });

  it('skips the schema checks when they are off (the bench), keeping status and outcome', () => {
    const inspection = inspectExchange(http200('v2.account.balance', { responseCode: '000', responseMessage: 'x', payLoad: [] }), {
      ...options,
      schemaChecks: false,
    });
    expect(Object.keys(results(inspection))).toEqual(['http status is 200', 'outcome is not Failed']);
  });
});

describe('payloadKindOf', () => {
  it.each([
    [[], 'array'],
    [{}, 'object'],
    [1.5, 'number'],
    [null, undefined],
    ['1', undefined],
  ])('%j is %s', (value, kind) => {
    expect(payloadKindOf(value)).toBe(kind);
  });
});
