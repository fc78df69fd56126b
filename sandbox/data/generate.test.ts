// Tests of the seeded catalog generator: determinism, seed variation, counts, the skuId 193 anchor and record shapes.
// Shapes are checked key by key against spec/observed-payloads.md, so a served record never gains or loses a field silently.
import { describe, expect, it } from 'vitest';
import { generateSandboxData, MIN_GIFTCARD_SKUS, SAMPLE_LOAN_NUMBERS } from './index.ts';
import type { CategoryName, SandboxData, Sku } from './index.ts';
import { CATEGORY_ID_BY_NAME } from './types.ts';

const NOW = Date.UTC(2025, 0, 15, 12, 30);
const gen = (seed: number, now = NOW): SandboxData => generateSandboxData(seed, { now });
const data = gen(1);

const V2_SKU_KEYS = [
  'skuId',
  'skuName',
  'productId',
  'productName',
  'category',
  'subCategory',
  'operatorId',
  'operatorName',
  'countryCode',
  'region',
  'imageUrl',
  'productDescription',
  'additionalInformation',
  'benefitType',
  'validity',
  'discount',
  'fee',
  'exchangeRate',
  'isSalesTaxCharged',
  'salesTax',
  'localPhoneNumberLength',
  'internationalCountryCode',
  'allowDecimal',
  'deliveryAmountType',
  'requireFetchBundle',
  'loanAmountInFaceValueCurrency',
  'loanAmountInDeliveryCurrency',
  'loanAmountInWalletCurrency',
  'min',
  'max',
].sort();
const AMOUNT_KEYS = [
  'faceValue',
  'faceValueCurrency',
  'deliveredAmount',
  'deliveryCurrencyCode',
  'cost',
  'costCurrency',
  'faceValueInWalletCurrency',
].sort();
const V1_SKU_KEYS = [
  'skuId',
  'productId',
  'productName',
  'productDescription',
  'benefitType',
  'validity',
  'faceValue',
  'minAmount',
  'maxAmount',
  'discount',
  'pricing',
  'category',
  'region',
  'isSalesTaxCharged',
  'salesTax',
  'exchangeRate',
  'currencyCode',
  'countryCode',
  'localPhoneNumberLength',
  'internationalCountryCode',
  'allowDecimal',
  'fee',
  'operatorName',
  'deliveryCurrencyCode',
  'supportedTransactionCurrencies',
  'carrierName',
  'additionalInformation',
  'loanAmount',
].sort();
const COUNTRY_KEYS = ['countryCode', 'countryName', 'region', 'internationalCountryCode', 'areaCodes', 'numberLength'].sort();
const PRODUCT_KEYS = [
  'productId',
  'productName',
  'category',
  'categoryId',
  'countryCode',
  'operatorId',
  'operatorName',
  'imageUrl',
  'description',
  'requireFetchBundle',
  'currencyCode',
].sort();

const keys = (o: object): string[] => Object.keys(o).sort();

describe('determinism', () => {
  it('gives deep-equal data for the same seed and clock', () => {
    expect(gen(7)).toEqual(gen(7));
    expect(JSON.stringify(gen(7).served)).toBe(JSON.stringify(gen(7).served));
  });

  it('varies names, prices and ids with the seed but keeps the country list and skuId 193', () => {
    const a = gen(1);
    const b = gen(2);
    expect(b.served.countries).toEqual(a.served.countries);
    expect(b.operators.map((o) => o.operatorName)).not.toEqual(a.operators.map((o) => o.operatorName));
    expect(b.skus.map((s) => s.skuId)).not.toEqual(a.skus.map((s) => s.skuId));
    expect(b.giftcardSkus.map((s) => s.skuId)).not.toEqual(a.giftcardSkus.map((s) => s.skuId));
    expect(b.skus.map((s) => s.min.cost)).not.toEqual(a.skus.map((s) => s.min.cost));
    expect(b.products.map((p) => p.productId)).not.toEqual(a.products.map((p) => p.productId));
    for (const d of [a, b]) expect(d.index.skuById.get(193)?.countryCode).toBe('JM');
  });

  it('moves only promotion dates when the clock changes', () => {
    const later = gen(1, NOW + 3 * 86_400_000);
    expect(later.skus).toEqual(data.skus);
    expect(later.promotions.current.map((p) => p.promotionName)).toEqual(data.promotions.current.map((p) => p.promotionName));
    expect(later.promotions.current.map((p) => p.startDate)).not.toEqual(data.promotions.current.map((p) => p.startDate));
    expect(later.generatedAt).toBe(NOW + 3 * 86_400_000);
  });
});

describe('counts and anchors', () => {
  it('has at least 18 countries, including Jamaica, India, Pakistan, Mexico, the US and Spain', () => {
    const codes = data.countries.map((c) => c.countryCode);
    expect(codes.length).toBeGreaterThanOrEqual(18);
    expect(codes).toEqual(expect.arrayContaining(['JM', 'IN', 'PK', 'MX', 'US', 'ES']));
    expect(new Set(codes).size).toBe(codes.length);
  });

  it.each([1, 2, 3, 42, 1000, 2 ** 31 - 1])('seed %i: skuId 193 is a Jamaica RTR open range from 5.00 USD', (seed) => {
    const d = gen(seed);
    const sku = d.index.skuById.get(193);
    expect(sku).toBeDefined();
    expect(sku?.category).toBe('Rtr');
    expect(sku?.countryCode).toBe('JM');
    expect(sku?.min.faceValueInWalletCurrency).toBe(5);
    expect(sku?.min.faceValueCurrency).toBe('USD');
    expect(sku?.max.faceValue).toBeGreaterThan(sku?.min.faceValue ?? Infinity);
    expect(d.index.skuMetaById.get(193)?.denominationType).toBe('Range');
    expect(d.giftcardSkus.length).toBeGreaterThanOrEqual(MIN_GIFTCARD_SKUS);
  });

  it('has SKUs in every category: gift cards only in the gift card list', () => {
    const catalog = new Set(data.skus.map((s) => s.category));
    expect([...catalog].sort()).toEqual((['Bill Pay', 'Pin', 'Rtr', 'Sim', 'eSim'] as CategoryName[]).sort());
    expect(data.giftcardSkus.every((s) => s.category === 'Gift Card')).toBe(true);
  });

  it.each(['JM', 'IN', 'PK', 'MX'])('%s has several RTR SKUs, fixed and range', (code) => {
    const rtr = data.skus.filter((s) => s.countryCode === code && s.category === 'Rtr');
    const types = new Set(rtr.map((s) => data.index.skuMetaById.get(s.skuId)?.denominationType));
    expect(rtr.length).toBeGreaterThanOrEqual(4);
    expect(types).toEqual(new Set(['Fixed', 'Range']));
  });

  it.each<[CategoryName, number]>([
    ['Pin', 3],
    ['Bill Pay', 3],
    ['Sim', 2],
    ['eSim', 3],
  ])('%s SKUs exist in at least %i countries', (category, n) => {
    expect(new Set(data.skus.filter((s) => s.category === category).map((s) => s.countryCode)).size).toBeGreaterThanOrEqual(n);
  });

  it('has gift cards of several countries and products, sorted by skuId, ids unique across both lists', () => {
    const ids = data.giftcardSkus.map((s) => s.skuId);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(data.giftcardSkus.map((s) => s.countryCode)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(data.giftcardSkus.map((s) => s.productId)).size).toBeGreaterThanOrEqual(20);
    const all = [...data.skus, ...data.giftcardSkus].map((s) => s.skuId);
    expect(new Set(all).size).toBe(all.length);
    expect(data.skus.map((s) => s.skuId)).toEqual(data.skus.map((s) => s.skuId).sort((a, b) => a - b));
  });

  it('offers bundles in Jamaica and India, and the sample loan numbers cover both', () => {
    expect(data.index.bundleProductsByCountry.get('JM')?.length).toBeGreaterThan(0);
    expect(data.index.bundleProductsByCountry.get('IN')?.length).toBeGreaterThan(0);
    expect(SAMPLE_LOAN_NUMBERS.some((n) => n.startsWith('1876'))).toBe(true);
    expect(SAMPLE_LOAN_NUMBERS.some((n) => n.startsWith('91'))).toBe(true);
  });
});

describe('record shapes (observed-payloads.md)', () => {
  it('serves countries with exactly the observed string fields', () => {
    for (const c of data.served.countries) {
      expect(keys(c)).toEqual(COUNTRY_KEYS);
      for (const v of Object.values(c)) expect(typeof v).toBe('string');
    }
    const jm = data.served.countries.find((c) => c.countryCode === 'JM');
    expect(jm).toEqual({
      countryCode: 'JM',
      countryName: 'Jamaica',
      region: 'Caribbean',
      internationalCountryCode: '1',
      areaCodes: '876',
      numberLength: '10',
    });
  });

  it('gives every v2 SKU (both lists, both languages) exactly the observed keys', () => {
    for (const list of [data.served.skus.en, data.served.skus.ar, data.served.giftcardSkus.en, data.served.giftcardSkus.ar]) {
      for (const sku of list) {
        expect(keys(sku)).toEqual(V2_SKU_KEYS);
        expect(keys(sku.min)).toEqual(AMOUNT_KEYS);
        expect(keys(sku.max)).toEqual(AMOUNT_KEYS);
      }
    }
  });

  it('gives every v1 SKU exactly the observed keys, bounds in its face currency', () => {
    expect(data.served.v1Skus.length).toBe(data.skus.length + data.giftcardSkus.length);
    for (const v1 of data.served.v1Skus) {
      expect(keys(v1)).toEqual(V1_SKU_KEYS);
      const v2 = data.index.skuById.get(v1.skuId) as Sku;
      expect([v1.minAmount, v1.maxAmount, v1.currencyCode]).toEqual([v2.min.faceValue, v2.max.faceValue, v2.min.faceValueCurrency]);
      expect(v1.supportedTransactionCurrencies).toEqual([v2.min.faceValueCurrency]);
    }
  });

  it('keeps amounts coherent: min <= max, one face currency, wallet cost in USD', () => {
    for (const sku of [...data.skus, ...data.giftcardSkus]) {
      const meta = data.index.skuMetaById.get(sku.skuId);
      expect(sku.min.faceValue).toBeLessThanOrEqual(sku.max.faceValue);
      expect(sku.min.faceValueInWalletCurrency).toBeLessThanOrEqual(sku.max.faceValueInWalletCurrency);
      expect(sku.min.faceValueCurrency).toBe(sku.max.faceValueCurrency);
      expect(meta?.faceValueCurrencies).toEqual([sku.min.faceValueCurrency]);
      expect(sku.min.costCurrency).toBe('USD');
      expect(sku.min.faceValueCurrency).toMatch(/^[A-Z]{3}$/);
      expect(sku.min.faceValue).toBeGreaterThan(0);
      expect(sku.min.faceValueInWalletCurrency).toBeGreaterThan(0);
      expect(sku.validity).toMatch(/^(\d+D)?$/);
    }
  });

  it('links SKUs, products, operators and countries consistently (what the filters rely on)', () => {
    const countryCodes = new Set(data.countries.map((c) => c.countryCode));
    for (const p of data.products) {
      expect(keys(p)).toEqual(PRODUCT_KEYS);
      expect(p.categoryId).toBe(CATEGORY_ID_BY_NAME[p.category]);
      expect(countryCodes.has(p.countryCode)).toBe(true);
      const op = data.index.operatorById.get(p.operatorId);
      expect(op?.operatorName).toBe(p.operatorName);
      expect(op?.countryCode).toBe(p.countryCode);
      expect(p.currencyCode).toBe(data.index.countryByCode.get(p.countryCode)?.currencyCode);
    }
    for (const s of [...data.skus, ...data.giftcardSkus]) {
      const p = data.index.productById.get(s.productId);
      expect([p?.productName, p?.category, p?.operatorId, p?.countryCode, p?.requireFetchBundle]).toEqual([
        s.productName,
        s.category,
        s.operatorId,
        s.countryCode,
        s.requireFetchBundle,
      ]);
    }
    for (const o of data.operators) expect(keys(o)).toEqual(['countryCode', 'imageUrl', 'operatorId', 'operatorName']);
  });

  it('has an exchange rate and a description per SKU, and a logo and a carrier per product', () => {
    const skuIds = [...data.skus, ...data.giftcardSkus].map((s) => s.skuId).sort((a, b) => a - b);
    expect(data.exchangeRates.map((r) => r.skuId)).toEqual(skuIds);
    expect(data.skuDescriptions.map((r) => r.skuId)).toEqual(skuIds);
    for (const r of data.exchangeRates) expect(keys(r)).toEqual(['currencyCode', 'exchangeRate', 'productName', 'skuId']);
    expect(data.logos.map((l) => l.productId)).toEqual(data.products.map((p) => p.productId));
    expect(data.carriers.map((c) => c.productId)).toEqual(data.products.map((p) => p.productId));
    for (const c of data.carriers)
      expect(keys(c)).toEqual(['carrierName', 'category', 'countryCode', 'currencyCode', 'denominationType', 'productId']);
  });
});

describe('promotions', () => {
  const isoLocal = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;
  const instant = (text: string): number => Date.parse(text);

  it('has current promotions around now and upcoming ones after it, in the destination time zone', () => {
    expect(data.promotions.current.length).toBeGreaterThan(0);
    expect(data.promotions.upcoming.length).toBeGreaterThan(0);
    for (const p of data.promotions.current) {
      expect(p.startDate).toMatch(isoLocal);
      expect(instant(p.startDate)).toBeLessThanOrEqual(NOW);
      expect(instant(p.endDate)).toBeGreaterThan(NOW);
    }
    for (const p of data.promotions.upcoming) expect(instant(p.startDate)).toBeGreaterThan(NOW);
    for (const p of [...data.promotions.current, ...data.promotions.upcoming]) {
      expect(keys(p)).toEqual(['description', 'endDate', 'product', 'promotionMinMax', 'promotionName', 'restriction', 'startDate']);
      expect(data.index.productById.get(p.product.productId)?.countryCode).toBe(p.product.countryCode);
      const tz = data.index.countryByCode.get(p.product.countryCode)?.timeZone as string;
      const hour = new Intl.DateTimeFormat('en-US', { timeZone: tz, hour: '2-digit', hourCycle: 'h23' }).format(
        new Date(instant(p.startDate)),
      );
      expect(p.startDate.slice(11, 13)).toBe(hour);
    }
  });
});

describe('extra countries (the benign new-records profile)', () => {
  it('adds the country with operators, products, SKUs and gift cards, and leaves every base record as it was', () => {
    const base = generateSandboxData(1, { now: NOW });
    const grown = generateSandboxData(1, { now: NOW, extraCountries: ['LK'] });
    const sameRecords = <T>(a: readonly T[], b: readonly T[]): void => {
      const keys = new Set(b.map((r) => JSON.stringify(r)));
      expect(a.filter((r) => !keys.has(JSON.stringify(r)))).toEqual([]);
      expect(b.length).toBeGreaterThan(a.length);
    };
    sameRecords(base.countries, grown.countries);
    sameRecords(base.operators, grown.operators);
    sameRecords(base.products, grown.products);
    sameRecords(base.skus, grown.skus);
    sameRecords(base.giftcardSkus, grown.giftcardSkus);
    expect(grown.promotions).toEqual(base.promotions);
    expect(grown.samples.rtrFixedSkuId).toBe(base.samples.rtrFixedSkuId);
    const maxBase = Math.max(...base.skus.map((s) => s.skuId));
    expect(grown.skus.filter((s) => s.countryCode === 'LK').every((s) => s.skuId > maxBase)).toBe(true);
    expect(grown.giftcardSkus.some((s) => s.countryCode === 'LK')).toBe(true);
  });

  it('refuses an unknown extra country', () => {
    expect(() => generateSandboxData(1, { extraCountries: ['ZZ'] })).toThrow(/no extra country plan 'ZZ'/);
  });
});
