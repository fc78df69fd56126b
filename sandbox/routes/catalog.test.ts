// Catalog reads in-process: filters really filter, categories and countries as the spec lists them, Arabic
// localization, the error-code list, exchange rates, and gift card paging walked end to end with no gap or duplicate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORY_IDS } from '../../api/operations.ts';
import { DEFAULT_RESPONSE_CODES } from '../error-codes.ts';
import { testClient } from './testing.ts';
import type { TestClient } from './testing.ts';

type Rec = Record<string, unknown>;
let c: TestClient;
beforeAll(async () => {
  c = await testClient();
});
afterAll(async () => {
  await c.close();
});

async function list(url: string, headers?: Record<string, string>): Promise<Rec[]> {
  const res = await c.get(url, headers);
  expect(res.status).toBe(200);
  expect(res.body.responseCode).toBe('000');
  expect(Array.isArray(res.body.payLoad)).toBe(true);
  return res.body.payLoad as Rec[];
}

const ARABIC = /[\u0600-\u06FF]/;

describe('catalog listings and filters', () => {
  it('v2 skus: every category except gift cards, as names', async () => {
    const skus = await list('/api/v2/catalog/skus');
    const categories = new Set(skus.map((s) => s['category']));
    expect([...categories].sort()).toEqual(['Bill Pay', 'Pin', 'Rtr', 'Sim', 'eSim']);
    expect(skus.some((s) => s['skuId'] === 193)).toBe(true);
  });

  it('v2 skus: productId and skuId filter', async () => {
    const productId = c.app.data.index.skuById.get(193)?.productId as number;
    const byProduct = await list(`/api/v2/catalog/skus?productId=${productId}`);
    expect(byProduct.length).toBeGreaterThan(1);
    expect(byProduct.every((s) => s['productId'] === productId)).toBe(true);
    const bySku = await list('/api/v2/catalog/skus?skuId=193');
    expect(bySku.map((s) => s['skuId'])).toEqual([193]);
    expect(await list('/api/v2/catalog/skus?skuId=193&productId=1')).toEqual([]);
  });

  it('v1 skus: flat records, productid filter (query names bind case-insensitively)', async () => {
    const productId = c.app.data.index.skuById.get(193)?.productId as number;
    const all = await list('/api/v1/catalog/skus');
    expect(all[0]).toHaveProperty('minAmount');
    for (const name of ['productid', 'productId', 'PRODUCTID']) {
      const filtered = await list(`/api/v1/catalog/skus?${name}=${productId}`);
      expect(filtered.length).toBeGreaterThan(0);
      expect(filtered.length).toBeLessThan(all.length);
      expect(filtered.every((s) => s['productId'] === productId)).toBe(true);
    }
  });

  it('getproducts: categoryId, operatorId and countryCode filter; category ids as the spec table', async () => {
    for (const [name, id] of Object.entries(CATEGORY_IDS)) {
      const products = await list(`/api/v2/catalog/getproducts?categoryId=${id}`);
      expect(products.length, name).toBeGreaterThan(0);
      expect(products.every((p) => p['category'] === name)).toBe(true);
    }
    const jm = await list('/api/v2/catalog/getproducts?countryCode=jm');
    expect(jm.length).toBeGreaterThan(0);
    expect(jm.every((p) => p['countryCode'] === 'JM')).toBe(true);
    const operatorId = jm[0]?.['operatorId'] as number;
    const byOperator = await list(`/api/v2/catalog/getproducts?operatorId=${operatorId}&categoryId=2`);
    expect(byOperator.every((p) => p['operatorId'] === operatorId && p['category'] === 'Rtr')).toBe(true);
  });

  it('operators: operatorId and countryCode filter', async () => {
    const all = await list('/api/v2/catalog/operators');
    const first = all[0] as Rec;
    expect(await list(`/api/v2/catalog/operators?operatorId=${String(first['operatorId'])}`)).toEqual([first]);
    const inOps = await list('/api/v2/catalog/operators?countryCode=IN');
    expect(inOps.length).toBeGreaterThan(0);
    expect(inOps.every((o) => o['countryCode'] === 'IN')).toBe(true);
  });

  it('carriers (v1): countryCode and currencyCode filter, empty default = no filter', async () => {
    const all = await list('/api/v1/catalog/carriers');
    expect(await list('/api/v1/catalog/carriers?countryCode=&currencyCode=')).toEqual(all);
    const mx = await list('/api/v1/catalog/carriers?countryCode=MX');
    expect(mx.length).toBeGreaterThan(0);
    expect(mx.every((r) => r['countryCode'] === 'MX')).toBe(true);
    const inr = await list('/api/v1/catalog/carriers?currencyCode=INR');
    expect(inr.length).toBeGreaterThan(0);
    expect(inr.every((r) => r['currencyCode'] === 'INR')).toBe(true);
  });

  it('sku description and logos (v1): skuId and productId filter', async () => {
    expect((await list('/api/v1/catalog/sku/description?skuId=193')).map((d) => d['skuId'])).toEqual([193]);
    const productId = c.app.data.index.skuById.get(193)?.productId as number;
    const descriptions = await list(`/api/v1/catalog/sku/description?productId=${productId}`);
    expect(descriptions.length).toBeGreaterThan(1);
    const logos = await list('/api/v1/catalog/sku/logos?skuId=193');
    expect(logos.map((l) => l['productId'])).toEqual([productId]);
    expect((await list(`/api/v1/catalog/sku/logos?productId=${productId}`)).every((l) => l['productId'] === productId)).toBe(true);
  });

  it('countries (v1 and v2): the spec countries with dialing code and number length as strings', async () => {
    for (const v of ['v1', 'v2']) {
      const countries = await list(`/api/${v}/catalog/countries`);
      expect(countries.length).toBeGreaterThanOrEqual(18);
      for (const code of ['JM', 'IN', 'PK', 'MX', 'US', 'ES']) {
        const country = countries.find((x) => x['countryCode'] === code) as Rec;
        expect(typeof country['internationalCountryCode']).toBe('string');
        expect(typeof country['numberLength']).toBe('string');
      }
    }
  });

  it('exchange rate by skuId (v1 and v2); an unknown SKU is a failure', async () => {
    for (const v of ['v1', 'v2']) {
      const res = await c.get(`/api/${v}/catalog/sku/exchangeRate/193`);
      expect(res.body.responseCode).toBe('000');
      expect((res.body.payLoad as Rec)['skuId']).toBe(193);
      expect((await c.get(`/api/${v}/catalog/sku/exchangeRate/987654`)).body.responseCode).not.toBe('000');
    }
  });

  it('errors list: the spec codes and every code the sandbox uses', async () => {
    const codes = (await list('/api/v2/catalog/errors')).map((e) => e['code']);
    for (const code of ['000', '001', '500', '501', '510', '852']) expect(codes).toContain(code);
    for (const entry of Object.values(DEFAULT_RESPONSE_CODES)) expect(codes).toContain(entry.code);
    expect(await list('/api/v1/catalog/errors')).toEqual(await list('/api/v2/catalog/errors'));
  });

  it('promotions: current and upcoming (v1 and v2)', async () => {
    expect(await list('/api/v1/catalog/promotion/current')).toEqual(await list('/api/v2/promotion/current'));
    expect(await list('/api/v1/catalog/promotion/upcoming')).toEqual(await list('/api/v2/promotion/upcoming'));
  });

  it('a parameter of the wrong type is a clear failure envelope', async () => {
    const res = await c.get('/api/v2/catalog/skus?skuId=12x');
    expect(res.status).toBe(200);
    expect(res.body.responseCode).toBe('003');
    expect(res.body.responseMessage).toContain('skuId');
    expect((await c.get('/api/v2/catalog/skus?skuId=99999999999')).body.responseCode).toBe('003');
  });
});

describe('localization (Accept-Language)', () => {
  const FIELDS = ['skuName', 'productName', 'benefitType', 'productDescription', 'operatorName', 'additionalInformation'];

  it('v2 skus and gift cards: Arabic for ar, English by default and for en', async () => {
    for (const url of ['/api/v2/catalog/skus?skuId=193', `/api/v2/catalog/skus/giftcards?pageSize=3`]) {
      const english = await list(url);
      expect(await list(url, { 'accept-language': 'en' })).toEqual(english);
      const arabic = await list(url, { 'accept-language': 'ar' });
      expect(arabic.length).toBe(english.length);
      for (const [i, record] of arabic.entries()) {
        for (const field of FIELDS) {
          const text = record[field] as string;
          if ((english[i]?.[field] as string) === '') continue;
          expect(text, field).toMatch(ARABIC);
          expect(english[i]?.[field] as string).not.toMatch(ARABIC);
        }
        expect(record['skuId']).toBe(english[i]?.['skuId']);
      }
      expect(await list(url, { 'accept-language': 'ar-SA,en;q=0.5' })).toEqual(arabic);
    }
  });

  it('is off under the localize toggle', async () => {
    const plain = await testClient({ behaviour: { localize: false } });
    try {
      const res = await plain.get('/api/v2/catalog/skus?skuId=193', { 'accept-language': 'ar' });
      expect(JSON.stringify(res.body.payLoad)).not.toMatch(ARABIC);
    } finally {
      await plain.close();
    }
  });
});

describe('gift card list paging', () => {
  const URL = '/api/v2/catalog/skus/giftcards';

  it('no cursor and no pageSize: the first 100, with integer next / next_cursor', async () => {
    const res = await c.get(URL);
    expect(res.body.responseCode).toBe('000');
    expect((res.body.payLoad as Rec[]).length).toBe(100);
    expect(Number.isInteger(res.body['next'])).toBe(true);
    expect(Number.isInteger(res.body['next_cursor'])).toBe(true);
    expect((res.body.payLoad as Rec[]).every((s) => s['category'] === 'Gift Card')).toBe(true);
  });

  it('pageSize 1 and 100 are accepted; 0, 101 and -1 are failures', async () => {
    expect((await list(`${URL}?pageSize=1`)).length).toBe(1);
    expect((await list(`${URL}?pageSize=100`)).length).toBe(100);
    for (const size of [0, 101, -1]) {
      const res = await c.get(`${URL}?pageSize=${size}`);
      expect(res.status).toBe(200);
      expect(res.body.responseCode).not.toBe('000');
      expect(res.body.responseMessage).toContain('pageSize');
    }
  });

  it('cursor starts at that skuId', async () => {
    const all = c.app.data.giftcardSkus;
    const third = all[2]?.skuId as number;
    const page = await list(`${URL}?cursor=${third}&pageSize=2`);
    expect(page.map((s) => s['skuId'])).toEqual([all[2]?.skuId, all[3]?.skuId]);
  });

  for (const pageSize of [1, 7, 100]) {
    it(`walking with pageSize ${pageSize} visits every gift card exactly once`, async () => {
      const seen: number[] = [];
      let cursor: number | undefined;
      for (let page = 0; page < 400; page += 1) {
        const res = await c.get(`${URL}?pageSize=${pageSize}${cursor === undefined ? '' : `&cursor=${cursor}`}`);
        expect(res.body.responseCode).toBe('000');
        seen.push(...(res.body.payLoad as Rec[]).map((s) => s['skuId'] as number));
        if (res.body['next'] === 0) {
          expect(res.body['next_cursor']).toBe(0);
          break;
        }
        cursor = res.body['next_cursor'] as number;
      }
      expect(seen.length).toBeGreaterThanOrEqual(250);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual(c.app.data.giftcardSkus.map((s) => s.skuId));
    });
  }

  it('productId, skuId and countryCode filter', async () => {
    const sample = c.app.data.giftcardSkus[10];
    const byProduct = await list(`${URL}?productId=${sample?.productId}&pageSize=100`);
    expect(byProduct.length).toBeGreaterThan(0);
    expect(byProduct.every((s) => s['productId'] === sample?.productId)).toBe(true);
    expect((await list(`${URL}?skuId=${sample?.skuId}`)).map((s) => s['skuId'])).toEqual([sample?.skuId]);
    const byCountry = await list(`${URL}?countryCode=${sample?.countryCode}`);
    expect(byCountry.every((s) => s['countryCode'] === sample?.countryCode)).toBe(true);
  });
});

describe('listing cache', () => {
  it('stays within listingCacheMax however many distinct filters are asked', async () => {
    const small = await testClient({ behaviour: { listingCacheMax: 3 } });
    try {
      for (let skuId = 100; skuId < 140; skuId += 1) await small.get(`/api/v2/catalog/skus?skuId=${skuId}`);
      expect(small.app.env.cache.size).toBeLessThanOrEqual(3);
    } finally {
      await small.close();
    }
  });
});
