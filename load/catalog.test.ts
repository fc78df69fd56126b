// The load flows' compact view of the catalog: SKU picks carry an amount their bounds accept (api/catalog-facts.ts),
// plans carry the other countries' prefixes inside them, and a plan's numbers keep out of those prefixes.
import { describe, expect, test } from 'vitest';
import { readCatalogSkus } from '../api/catalog-facts.ts';
import { DEFAULT_FIELD_MAPPING } from '../api/field-mapping.ts';
import type { ClientCore } from '../api/client-core.ts';
import { discoverCatalog, mobileOf, plansOf, toSkuPick } from './catalog.ts';

describe('SKU picks', () => {
  test('a v2 open range: the smallest valid amount (its wallet minimum), no currency; marked range (never a bundle), its wallet price (a charging write picks the cheaper first)', () => {
    const record = {
      skuId: 5,
      productId: 9,
      countryCode: 'in',
      category: 'Rtr',
      min: { faceValue: 400, faceValueCurrency: 'INR', faceValueInWalletCurrency: 5 },
      max: { faceValue: 8000, faceValueCurrency: 'INR', faceValueInWalletCurrency: 100 },
    };
    const [sku] = readCatalogSkus([record], 'v2', DEFAULT_FIELD_MAPPING);
    expect(toSkuPick(sku ?? ({} as never))).toEqual({
      skuId: 5,
      productId: 9,
      countryCode: 'IN',
      categoryId: 2,
      range: true,
      amount: 5,
      price: 5,
    });
  });

  test('a v1 range: its minimum in its currencyCode', () => {
    const [sku] = readCatalogSkus([{ skuId: 6, minAmount: 10, maxAmount: 100, currencyCode: 'MXN' }], 'v1', DEFAULT_FIELD_MAPPING);
    expect(toSkuPick(sku ?? ({} as never))).toEqual({ skuId: 6, range: true, amount: 10, currency: 'MXN' });
  });

  test('a fixed v1 denomination: its face value in its currency, not a range', () => {
    const [sku] = readCatalogSkus([{ skuId: 8, minAmount: 50, maxAmount: 50, currencyCode: 'INR' }], 'v1', DEFAULT_FIELD_MAPPING);
    expect(toSkuPick(sku ?? ({} as never))).toEqual({ skuId: 8, range: false, amount: 50, currency: 'INR' });
  });
});

describe('number plans', () => {
  const records = [
    { countryCode: 'US', internationalCountryCode: '1', areaCodes: '', numberLength: '10' },
    { countryCode: 'JM', internationalCountryCode: '1', areaCodes: '876', numberLength: '10' },
    { countryCode: 'DO', internationalCountryCode: '1', areaCodes: '809,829', numberLength: '10' },
    { countryCode: 'XX' },
  ];

  test("each country with a readable plan, Jamaica's from the spec, other countries' prefixes inside it to avoid", () => {
    const plans = plansOf(records, DEFAULT_FIELD_MAPPING);
    expect(plans.map((p) => p.country)).toEqual(['US', 'JM', 'DO']);
    expect(plans[0]).toEqual({ country: 'US', prefix: '1', nationalLength: 10, avoid: ['1876', '1809', '1829'] });
    expect(plans[1]).toEqual({ country: 'JM', prefix: '1876', nationalLength: 7, avoid: [] });
  });

  test("a US number never starts with Jamaica's or the Dominican Republic's prefix", () => {
    const us = plansOf(records, DEFAULT_FIELD_MAPPING)[0];
    for (let i = 0; i < 300; i++) {
      const mobile = us === undefined ? undefined : mobileOf(us);
      expect(mobile).toMatch(/^1[0-9]{10}$/);
      expect(['1876', '1809', '1829'].some((p) => mobile?.startsWith(p))).toBe(false);
    }
  });
});

describe('gift card SKUs', () => {
  // #31 item 6: as conformance, from the v2 gift card list for v1 too (the v1 SKU list is no source of them).
  test('a v1 run takes its gift card SKUs from the v2 gift card list, not from v1 catalog/skus', async () => {
    const lists: Record<string, unknown[]> = {
      'v1.catalog.skus': [{ skuId: 1, category: 'Gift Card', minAmount: 5, maxAmount: 5, currencyCode: 'USD' }],
      'v2.catalog.skus-giftcards': [
        {
          skuId: 77,
          productId: 7,
          category: 'Gift Card',
          min: { faceValue: 10, faceValueInWalletCurrency: 10 },
          max: { faceValue: 10, faceValueInWalletCurrency: 10 },
        },
      ],
    };
    const asked: string[] = [];
    const client = {
      call: async (operationId: string) => {
        asked.push(operationId);
        return {
          response: {
            envelope: { responseCode: '000', responseMessage: null, payLoad: lists[operationId] ?? [] },
            classification: { outcome: 'Successful' },
          },
        };
      },
    } as unknown as ClientCore;
    const catalog = await discoverCatalog(client, 'v1', DEFAULT_FIELD_MAPPING, { giftcards: true });
    expect(catalog.giftcards.map((g) => g.skuId)).toEqual([77]);
    expect(asked).toEqual(['v2.catalog.skus-giftcards']);
  });

  test('a v1 load takes its SKUs cheapest first: their wallet prices come from the v2 list of the same SKU ids (before: none, so by skuId)', async () => {
    const rtr = (skuId: number, wallet: number) => ({
      skuId,
      countryCode: 'JM',
      category: 'Rtr',
      min: { faceValue: wallet, faceValueCurrency: 'USD', faceValueInWalletCurrency: wallet },
      max: { faceValue: wallet * 10, faceValueCurrency: 'USD', faceValueInWalletCurrency: wallet * 10 },
    });
    const lists: Record<string, unknown[]> = {
      'v1.catalog.skus': [
        { skuId: 1, category: 'Rtr', countryCode: 'JM', minAmount: 50, maxAmount: 500, currencyCode: 'USD' },
        { skuId: 2, category: 'Rtr', countryCode: 'JM', minAmount: 5, maxAmount: 50, currencyCode: 'USD' },
      ],
      'v2.catalog.skus': [rtr(1, 50), rtr(2, 5)],
    };
    const fake = (fail: boolean) =>
      ({
        call: async (operationId: string) => ({
          response: {
            envelope: {
              responseCode: fail && operationId.startsWith('v2') ? '999' : '000',
              responseMessage: null,
              payLoad: lists[operationId] ?? [],
            },
            classification: { outcome: fail && operationId.startsWith('v2') ? 'Failed' : 'Successful' },
          },
        }),
      }) as unknown as ClientCore;
    const catalog = await discoverCatalog(fake(false), 'v1', DEFAULT_FIELD_MAPPING, { skus: true });
    expect(catalog.skus.map((s) => [s.skuId, s.price])).toEqual([
      [1, 50],
      [2, 5],
    ]);
    // A v2 list that cannot be read: the v1 SKUs stay unpriced, the load goes ahead.
    const unpriced = await discoverCatalog(fake(true), 'v1', DEFAULT_FIELD_MAPPING, { skus: true });
    expect(unpriced.skus.map((s) => s.price)).toEqual([undefined, undefined]);
  });
});
