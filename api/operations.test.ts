// Pins the operation catalog to the spec: every id, method, path, payload kind and parameter, written out by hand from
// gateway-api.md "Endpoints" (not dumped from the catalog), so any drift in api/operations.ts fails here.
import { describe, expect, it } from 'vitest';
import { CATEGORY_IDS, OPERATIONS, findOperation, getOperation, operationPairs, operationsOf, unpairedOperations } from './operations.ts';

type Row = readonly [id: string, method: 'GET' | 'POST', path: string, payload: 'number' | 'object' | 'array', params: readonly string[]];

// Parameters as `in:name` (path params are required, query and header params optional, as the spec lists them).
const AL = 'header:Accept-Language';
const SPEC: readonly Row[] = [
  // Version v1 read operations (GET)
  ['v1.account.balance', 'GET', '/api/v1/account/balance', 'number', []],
  ['v1.catalog.skus', 'GET', '/api/v1/catalog/skus', 'array', ['query:productid']],
  ['v1.catalog.sku-description', 'GET', '/api/v1/catalog/sku/description', 'array', ['query:skuId', 'query:productId']],
  ['v1.catalog.lookup-mobile', 'GET', '/api/v1/catalog/lookup/mobile/{mobile}', 'object', ['path:mobile']],
  ['v1.catalog.promotion-current', 'GET', '/api/v1/catalog/promotion/current', 'array', []],
  ['v1.catalog.promotion-upcoming', 'GET', '/api/v1/catalog/promotion/upcoming', 'array', []],
  ['v1.catalog.sku-exchange-rate', 'GET', '/api/v1/catalog/sku/exchangeRate/{skuId}', 'object', ['path:skuId']],
  ['v1.catalog.sku-logos', 'GET', '/api/v1/catalog/sku/logos', 'array', ['query:skuId', 'query:productId']],
  ['v1.catalog.errors', 'GET', '/api/v1/catalog/errors', 'array', []],
  ['v1.catalog.carriers', 'GET', '/api/v1/catalog/carriers', 'array', ['query:countryCode', 'query:currencyCode']],
  ['v1.catalog.countries', 'GET', '/api/v1/catalog/countries', 'array', []],
  ['v1.esim.status', 'GET', '/api/v1/esim/status/{Iccid}', 'array', ['path:Iccid']],
  [
    'v1.transaction.billpay-fetch-account-detail',
    'GET',
    '/api/v1/transaction/billpay/fetch-account-detail',
    'object',
    ['query:skuId', 'query:accountNumber'],
  ],
  ['v1.transaction.status', 'GET', '/api/v1/transaction/status/{correlationId}', 'object', ['path:correlationId']],
  ['v1.transaction.giftcard-fetch', 'GET', '/api/v1/transaction/giftcard/fetch/{id}', 'object', ['path:id']],
  ['v1.transaction.sim-portin-status', 'GET', '/api/v1/transaction/sim/portin/status/{id}', 'object', ['path:id']],
  // Write operations, v1 (top-up's path is in the spec; the others are "not shown": DESIGN.md defaults)
  ['v1.transaction.topup', 'POST', '/api/v1/transaction/topup', 'object', []],
  ['v1.transaction.pin', 'POST', '/api/v1/transaction/pin', 'object', []],
  ['v1.transaction.billpay', 'POST', '/api/v1/transaction/billpay', 'object', []],
  ['v1.transaction.giftcard', 'POST', '/api/v1/transaction/giftcard/order', 'object', []],
  ['v1.transaction.sim-activation', 'POST', '/api/v1/transaction/sim/activate', 'object', []],
  ['v1.transaction.sim-portin', 'POST', '/api/v1/transaction/sim/portin', 'object', []],
  ['v1.transaction.esim', 'POST', '/api/v1/esim/order', 'object', []],
  // Version v2 read operations (GET)
  ['v2.account.balance', 'GET', '/api/v2/account/balance', 'number', []],
  ['v2.catalog.countries', 'GET', '/api/v2/catalog/countries', 'array', []],
  ['v2.catalog.operators', 'GET', '/api/v2/catalog/operators', 'array', ['query:operatorId', 'query:countryCode']],
  ['v2.catalog.getproducts', 'GET', '/api/v2/catalog/getproducts', 'array', ['query:operatorId', 'query:categoryId', 'query:countryCode']],
  ['v2.catalog.skus', 'GET', '/api/v2/catalog/skus', 'array', ['query:productId', 'query:skuId', AL]],
  ['v2.catalog.sku-exchange-rate', 'GET', '/api/v2/catalog/sku/exchangeRate/{skuId}', 'object', ['path:skuId']],
  ['v2.catalog.errors', 'GET', '/api/v2/catalog/errors', 'array', []],
  ['v2.catalog.bundles', 'GET', '/api/v2/catalog/bundles/{productId}/{mobileNumber}', 'array', ['path:productId', 'path:mobileNumber']],
  [
    'v2.catalog.skus-giftcards',
    'GET',
    '/api/v2/catalog/skus/giftcards',
    'array',
    ['query:cursor', 'query:pageSize', 'query:productId', 'query:skuId', 'query:countryCode', AL],
  ],
  ['v2.esim.status', 'GET', '/api/v2/esim/status/{Iccid}', 'array', ['path:Iccid']],
  ['v2.lookup.mobile', 'GET', '/api/v2/lookup/mobile/{mobile}', 'array', ['path:mobile', AL]],
  [
    'v2.lookup.billpay-fetch-account-detail',
    'GET',
    '/api/v2/lookup/billpay/fetch-account-detail',
    'object',
    ['query:skuId', 'query:accountNumber'],
  ],
  ['v2.promotion.current', 'GET', '/api/v2/promotion/current', 'array', []],
  ['v2.promotion.upcoming', 'GET', '/api/v2/promotion/upcoming', 'array', []],
  ['v2.transaction.status', 'GET', '/api/v2/transaction/status/{correlationId}', 'object', ['path:correlationId']],
  ['v2.transaction.giftcard-fetch', 'GET', '/api/v2/transaction/giftcard/fetch/{id}', 'object', ['path:id']],
  ['v2.transaction.sim-portin-status', 'GET', '/api/v2/transaction/sim/portin/status/{id}', 'object', ['path:id']],
  // Write operations, v2
  ['v2.transaction.topup', 'POST', '/api/v2/transaction/topup', 'object', []],
  ['v2.transaction.pin', 'POST', '/api/v2/transaction/pin', 'object', []],
  ['v2.transaction.billpay', 'POST', '/api/v2/transaction/billpay', 'object', []],
  ['v2.transaction.giftcard', 'POST', '/api/v2/transaction/giftcard/order', 'object', []],
  ['v2.transaction.sim-activation', 'POST', '/api/v2/transaction/sim/activate', 'object', []],
  ['v2.transaction.sim-portin', 'POST', '/api/v2/sim/port-in', 'object', []],
  ['v2.transaction.esim', 'POST', '/api/v2/esim/order', 'object', []],
  ['v2.transaction.estimated-cost', 'POST', '/api/v2/transaction/estimatecost', 'object', []],
];

const ids = (ops: readonly { id: string }[]) => ops.map((op) => op.id).sort();

describe('operation catalog vs the spec', () => {
  it('has exactly the 48 operations of the table, no more, no fewer', () => {
    expect(SPEC).toHaveLength(48);
    expect(ids(OPERATIONS)).toEqual(SPEC.map((row) => row[0]).sort());
    expect(new Set(OPERATIONS.map((op) => op.id)).size).toBe(OPERATIONS.length);
  });

  it.each(SPEC)('%s: %s %s (%s)', (id, method, path, payload, params) => {
    const op = getOperation(id);
    expect(op.method).toBe(method);
    expect(op.path).toBe(path);
    expect(op.payloadKind).toBe(payload);
    expect(op.version).toBe(id.slice(0, 2));
    expect(op.path.startsWith(`/api/${op.version}/`)).toBe(true);
    expect(op.params.map((p) => `${p.in}:${p.name}`).sort()).toEqual([...params].sort());
    for (const param of op.params) expect(param.required).toBe(param.in === 'path');
    // Every {placeholder} of the path is a declared path parameter, and vice versa.
    const placeholders = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
    expect(
      op.params
        .filter((p) => p.in === 'path')
        .map((p) => p.name)
        .sort(),
    ).toEqual(placeholders);
  });

  it('counts: 16 v1 reads, 17 v2 reads, 15 writes (7 v1 + 8 v2)', () => {
    const reads = (v: 'v1' | 'v2') => operationsOf(v).filter((op) => op.method === 'GET');
    expect(reads('v1')).toHaveLength(16);
    expect(reads('v2')).toHaveLength(17);
    const writes = OPERATIONS.filter((op) => op.method === 'POST');
    expect(writes).toHaveLength(15);
    expect(operationsOf('v1').filter((op) => op.method === 'POST')).toHaveLength(7);
    expect(operationsOf('v2').filter((op) => op.method === 'POST')).toHaveLength(8);
    expect(writes.every((op) => op.requestBody !== undefined)).toBe(true);
    expect(OPERATIONS.filter((op) => op.method === 'GET').every((op) => op.requestBody === undefined)).toBe(true);
  });

  it('pathAssumed exactly on the writes other than top-up (the spec says "not shown")', () => {
    const assumed = OPERATIONS.filter((op) => op.pathAssumed).map((op) => op.id);
    const expected = SPEC.filter(([id, method]) => method === 'POST' && !id.endsWith('.topup')).map((row) => row[0]);
    expect(assumed.sort()).toEqual(expected.sort());
    expect(assumed).toHaveLength(13);
  });

  it('charges exactly on the 14 charging writes (every write but estimated cost)', () => {
    const charging = OPERATIONS.filter((op) => op.charges)
      .map((op) => op.id)
      .sort();
    expect(charging).toEqual(
      SPEC.filter(([id, method]) => method === 'POST' && id !== 'v2.transaction.estimated-cost')
        .map((row) => row[0])
        .sort(),
    );
    expect(charging).toHaveLength(14);
  });

  it('localized exactly where Accept-Language is accepted (Versioning 2: SKU list, gift card list, mobile lookup)', () => {
    expect(ids(OPERATIONS.filter((op) => op.localized))).toEqual(['v2.catalog.skus', 'v2.catalog.skus-giftcards', 'v2.lookup.mobile']);
  });

  it('only the gift card SKU list has the paging envelope (next, next_cursor)', () => {
    expect(ids(OPERATIONS.filter((op) => op.envelope === 'giftcard-list'))).toEqual(['v2.catalog.skus-giftcards']);
  });

  it("only carriers' countryCode and currencyCode have a spec default (empty string)", () => {
    const withDefault = OPERATIONS.flatMap((op) =>
      op.params.filter((p) => p.default !== undefined).map((p) => `${op.id}:${p.name}=${JSON.stringify(p.default)}`),
    );
    expect(withDefault.sort()).toEqual(['v1.catalog.carriers:countryCode=""', 'v1.catalog.carriers:currencyCode=""']);
  });
});

describe('v1/v2 pairs (Versioning 5)', () => {
  it('pairs same-purpose operations, e.g. balance, skus, status and every write but estimated cost', () => {
    const pairs = operationPairs().map((pair) => `${pair.v1.id} <> ${pair.v2.id}`);
    expect(pairs).toEqual(
      expect.arrayContaining([
        'v1.account.balance <> v2.account.balance',
        'v1.catalog.skus <> v2.catalog.skus',
        'v1.transaction.status <> v2.transaction.status',
        'v1.catalog.lookup-mobile <> v2.lookup.mobile',
        'v1.catalog.promotion-current <> v2.promotion.current',
        'v1.transaction.billpay-fetch-account-detail <> v2.lookup.billpay-fetch-account-detail',
        'v1.transaction.topup <> v2.transaction.topup',
        'v1.transaction.sim-portin <> v2.transaction.sim-portin',
      ]),
    );
    expect(pairs).toHaveLength(20);
  });

  it('v1-only: carriers, logos, sku/description; v2-only: operators, getproducts, bundles, gift card list, estimated cost', () => {
    expect(ids(unpairedOperations())).toEqual(
      [
        'v1.catalog.carriers',
        'v1.catalog.sku-logos',
        'v1.catalog.sku-description',
        'v2.catalog.operators',
        'v2.catalog.getproducts',
        'v2.catalog.bundles',
        'v2.catalog.skus-giftcards',
        'v2.transaction.estimated-cost',
      ].sort(),
    );
  });
});

describe('lookups and categories', () => {
  it('getOperation throws on an unknown id; findOperation returns undefined', () => {
    expect(() => getOperation('v3.account.balance')).toThrow(/unknown operation id/);
    expect(findOperation('v3.account.balance')).toBeUndefined();
  });

  it('category ids as the spec lists them: Pin 1, Rtr 2, Bill Pay 4, Sim 5, Gift Card 6, eSim 7', () => {
    expect(CATEGORY_IDS).toEqual({ Pin: 1, Rtr: 2, 'Bill Pay': 4, Sim: 5, 'Gift Card': 6, eSim: 7 });
  });
});
