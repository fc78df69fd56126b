// buildRequest: URL, path parameters, query, headers and body of a catalog operation, with no I/O.
import { describe, expect, it } from 'vitest';
import { harnessErrorOf } from './fixtures/harness-error-of.ts';
import { getOperation } from './operations.ts';
import { basicAuthorization, buildRequest, resolveOperationPath } from './request-builder.ts';

const target = { baseUrl: 'https://gw.example/', user: 'agent', password: 'p@ss:wörd' };

describe('buildRequest', () => {
  it('GET with no input: base URL with a trailing slash, Basic auth, Accept, no body', () => {
    const built = buildRequest('v2.account.balance', {}, target);
    expect(built).toEqual({
      operationId: 'v2.account.balance',
      method: 'GET',
      url: 'https://gw.example/api/v2/account/balance',
      headers: { Accept: 'application/json', Authorization: `Basic ${Buffer.from('agent:p@ss:wörd').toString('base64')}` },
    });
  });

  it('keeps a base path of the base URL', () => {
    expect(buildRequest('v1.catalog.countries', {}, { ...target, baseUrl: 'http://h:8080/prefix//' }).url).toBe(
      'http://h:8080/prefix/api/v1/catalog/countries',
    );
  });

  it('encodes path parameters with encodeURIComponent', () => {
    const built = buildRequest(getOperation('v2.catalog.bundles'), { path: { productId: 12, mobileNumber: '+91 98/76?#' } }, target);
    expect(built.url).toBe('https://gw.example/api/v2/catalog/bundles/12/%2B91%2098%2F76%3F%23');
    expect(buildRequest('v1.esim.status', { path: { Iccid: 'ABC' } }, target).url).toBe('https://gw.example/api/v1/esim/status/ABC');
  });

  it('a missing required path parameter is GH_ERR_PARAM', () => {
    const error = harnessErrorOf(() => buildRequest('v2.transaction.status', {}, target));
    expect(error.code).toBe('GH_ERR_PARAM');
    expect(error.message).toContain('correlationId');
    expect(harnessErrorOf(() => buildRequest('v2.transaction.status', { path: { correlationId: '' } }, target)).code).toBe('GH_ERR_PARAM');
  });

  it('sends only the query parameters given (spec defaults are not filled in), skipping undefined', () => {
    expect(buildRequest('v1.catalog.carriers', {}, target).url).toBe('https://gw.example/api/v1/catalog/carriers');
    const built = buildRequest(
      'v2.catalog.skus-giftcards',
      { query: { cursor: 100, pageSize: 50, countryCode: undefined, productId: 'a&b' } },
      target,
    );
    expect(built.url).toBe('https://gw.example/api/v2/catalog/skus/giftcards?cursor=100&pageSize=50&productId=a%26b');
  });

  it('POST: JSON body and Content-Type; Accept-Language when given', () => {
    const body = { skuId: 193, amount: 4.99, mobile: '18761234888', correlationId: 'c-1' };
    const built = buildRequest('v1.transaction.topup', { body, acceptLanguage: 'ar' }, target);
    expect(built.method).toBe('POST');
    expect(built.body).toBe(JSON.stringify(body));
    expect(built.headers['Content-Type']).toBe('application/json');
    expect(built.headers['Accept-Language']).toBe('ar');
  });

  it('sends a string body as-is and keeps a caller Content-Type', () => {
    const built = buildRequest('v2.transaction.topup', { body: '{bad', headers: { 'content-type': 'text/plain' } }, target);
    expect(built.body).toBe('{bad');
    expect(built.headers['content-type']).toBe('text/plain');
    expect(built.headers['Content-Type']).toBeUndefined();
  });

  it('caller headers cannot replace Authorization; omitAuthorization sends none', () => {
    const built = buildRequest('v2.account.balance', { headers: { authorization: 'Basic Zm9vOmJhcg==', 'X-Trace': '1' } }, target);
    expect(built.headers.Authorization).toBe(basicAuthorization('agent', 'p@ss:wörd'));
    expect(built.headers.authorization).toBeUndefined();
    expect(built.headers['X-Trace']).toBe('1');
    const none = buildRequest('v2.account.balance', { omitAuthorization: true }, target);
    expect(Object.keys(none.headers).map((h) => h.toLowerCase())).not.toContain('authorization');
  });

  it('an unknown operation id is GH_ERR_UNKNOWN_OPERATION', () => {
    expect(harnessErrorOf(() => buildRequest('v3.nope', {}, target)).code).toBe('GH_ERR_UNKNOWN_OPERATION');
  });
});

describe('write path overrides', () => {
  it('applies an override to an assumed path', () => {
    const writePaths = { 'v2.transaction.giftcard': '/api/v2/giftcard/purchase' };
    expect(resolveOperationPath('v2.transaction.giftcard', writePaths)).toBe('/api/v2/giftcard/purchase');
    expect(buildRequest('v2.transaction.giftcard', { body: {} }, { ...target, writePaths }).url).toBe(
      'https://gw.example/api/v2/giftcard/purchase',
    );
    expect(resolveOperationPath('v2.transaction.pin', writePaths)).toBe('/api/v2/transaction/pin');
  });

  it('refuses to override a path the spec shows (GH_ERR_CONFIG)', () => {
    const error = harnessErrorOf(() => resolveOperationPath('v1.transaction.topup', { 'v1.transaction.topup': '/x' }));
    expect(error.code).toBe('GH_ERR_CONFIG');
    expect(error.exitCode).toBe(2);
    expect(harnessErrorOf(() => resolveOperationPath('v2.account.balance', { 'v2.account.balance': '/x' })).code).toBe('GH_ERR_CONFIG');
  });

  it('refuses a relative override', () => {
    expect(harnessErrorOf(() => resolveOperationPath('v2.transaction.pin', { 'v2.transaction.pin': 'api/pin' })).code).toBe(
      'GH_ERR_CONFIG',
    );
  });
});
