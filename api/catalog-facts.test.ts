// Number plans, generated numbers, valid amounts and readable SKUs: what conformance, load and drift build requests
// from. A wrong number or amount here would make a faithful gateway look broken, so each rule is pinned.
import { describe, expect, test } from 'vitest';
import {
  SPEC_JAMAICA_PLAN,
  TRIGGER_SUFFIXES,
  countryPlan,
  isFaceRange,
  isRange,
  makeMobile,
  planOfCountry,
  prefixesInside,
  prefixesOfCountry,
  readCatalogSkus,
  validAmount,
} from './catalog-facts.ts';
import { DEFAULT_FIELD_MAPPING } from './field-mapping.ts';

describe('numbers', () => {
  test("the spec's Jamaica example: 1876 followed by 7 digits, ending with no trigger suffix", () => {
    for (let i = 0; i < 200; i++) {
      const mobile = makeMobile(SPEC_JAMAICA_PLAN) as string;
      expect(mobile).toMatch(/^1876[0-9]{7}$/);
      expect(
        TRIGGER_SUFFIXES.some((t) => mobile.endsWith(t)),
        mobile,
      ).toBe(false);
    }
  });

  test('a requested trigger suffix, and no other trigger', () => {
    for (const suffix of TRIGGER_SUFFIXES) {
      const mobile = makeMobile(SPEC_JAMAICA_PLAN, { suffix }) as string;
      expect(mobile).toMatch(/^1876[0-9]{7}$/);
      expect(mobile.endsWith(suffix)).toBe(true);
    }
    expect(makeMobile({ prefix: '91', nationalLength: 3 }, { suffix: '666666' })).toBeUndefined();
  });

  test('numbers of a wide plan keep out of the narrower plans inside it (US 1 vs Jamaica 1876)', () => {
    for (let i = 0; i < 300; i++) {
      const mobile = makeMobile({ prefix: '1', nationalLength: 10 }, { avoidPrefixes: ['1876', '1809', '1849'] }) as string;
      expect(mobile).toMatch(/^1[0-9]{10}$/);
      expect(
        ['1876', '1809', '1849'].some((p) => mobile.startsWith(p)),
        mobile,
      ).toBe(false);
    }
    expect(prefixesInside({ prefix: '1', nationalLength: 10 }, ['1876', '1', '91', '1809'])).toEqual(['1876', '1809']);
  });

  test('never an excluded number, never a leading 0 after the prefix; the random source is injectable', () => {
    const zeros = (): number => 0;
    expect(makeMobile({ prefix: '91', nationalLength: 4 }, { random: zeros })).toBe('917000');
    expect(makeMobile({ prefix: '91', nationalLength: 4 }, { random: zeros, exclude: new Set(['917000']) })).toBeUndefined();
  });

  test('plans from catalog/countries records (calling code + area code, numberLength after the calling code)', () => {
    const jm = { countryCode: 'JM', internationalCountryCode: '1', areaCodes: '876', numberLength: '10' };
    const dominican = { countryCode: 'DO', internationalCountryCode: '1', areaCodes: '809,829,849', numberLength: '10' };
    const india = { countryCode: 'IN', internationalCountryCode: '91', areaCodes: '', numberLength: '10' };
    expect(planOfCountry(jm, DEFAULT_FIELD_MAPPING)).toEqual({ prefix: '1876', nationalLength: 7 });
    expect(planOfCountry(india, DEFAULT_FIELD_MAPPING)).toEqual({ prefix: '91', nationalLength: 10 });
    expect(prefixesOfCountry(dominican, DEFAULT_FIELD_MAPPING)).toEqual(['1809', '1829', '1849']);
    expect(prefixesOfCountry(india, DEFAULT_FIELD_MAPPING)).toEqual(['91']);
    expect(planOfCountry({ countryCode: 'XX' }, DEFAULT_FIELD_MAPPING)).toBeUndefined();
  });

  test("Jamaica's plan is the spec's example whatever its record says", () => {
    expect(countryPlan('JM', { internationalCountryCode: '1', numberLength: '10' }, DEFAULT_FIELD_MAPPING)).toBe(SPEC_JAMAICA_PLAN);
    expect(countryPlan('IN', { internationalCountryCode: '91', numberLength: '10' }, DEFAULT_FIELD_MAPPING)).toEqual({
      prefix: '91',
      nationalLength: 10,
    });
  });
});

describe('amounts', () => {
  test('open wallet range: the smallest valid amount, its minimum (bounds inclusive), no currency sent', () => {
    expect(
      validAmount({
        dialingPrefixes: [],
        minWalletAmount: 5,
        maxWalletAmount: 100,
        minFaceValue: 400,
        maxFaceValue: 8000,
        faceValueCurrency: 'INR',
      }),
    ).toEqual({ amount: 5 });
    expect(validAmount({ dialingPrefixes: [], minWalletAmount: 5, maxWalletAmount: 5.5 })).toEqual({ amount: 5 });
  });

  test('open face value range without wallet bounds: its minimum in the face value currency', () => {
    expect(validAmount({ dialingPrefixes: [], minFaceValue: 10, maxFaceValue: 100, faceValueCurrency: 'MXN' })).toEqual({
      amount: 10,
      transactionCurrencyCode: 'MXN',
    });
  });

  test('fixed denomination: the face value in its own currency', () => {
    expect(
      validAmount({ dialingPrefixes: [], minWalletAmount: 10.92, maxWalletAmount: 10.92, minFaceValue: 798, faceValueCurrency: 'INR' }),
    ).toEqual({
      amount: 798,
      transactionCurrencyCode: 'INR',
    });
  });

  test('only a wallet minimum: that, in the wallet currency; no bounds at all: none', () => {
    expect(validAmount({ dialingPrefixes: [], minWalletAmount: 7 })).toEqual({ amount: 7 });
    expect(validAmount({ dialingPrefixes: [] })).toBeUndefined();
  });

  test('ranges: wallet and face bounds are told apart', () => {
    expect(isRange({ dialingPrefixes: [], minWalletAmount: 1, maxWalletAmount: 2 })).toBe(true);
    expect(isRange({ dialingPrefixes: [], minWalletAmount: 2, maxWalletAmount: 2 })).toBe(false);
    expect(isFaceRange({ dialingPrefixes: [], minFaceValue: 1, maxFaceValue: 2 })).toBe(true);
    expect(isFaceRange({ dialingPrefixes: [], minWalletAmount: 1, maxWalletAmount: 2 })).toBe(false);
  });
});

describe('readable SKUs', () => {
  test('only records with a whole skuId, through the field mapping, the record kept', () => {
    const records = [
      { skuId: 7, productId: 3, min: { faceValue: 10, faceValueCurrency: 'USD' } },
      { skuId: 'x' },
      { skuId: 1.5 },
      null,
      'text',
      [1],
    ];
    const skus = readCatalogSkus(records, 'v2', DEFAULT_FIELD_MAPPING);
    expect(skus.map((s) => s.skuId)).toEqual([7]);
    expect(skus[0]).toMatchObject({ productId: 3, record: records[0] });
  });

  test('v1 records: minAmount/maxAmount are bounds in currencyCode, so an amount is sent in that currency', () => {
    const [range, fixed] = readCatalogSkus(
      [
        { skuId: 1, minAmount: 10, maxAmount: 100, currencyCode: 'MXN' },
        { skuId: 2, minAmount: 50, maxAmount: 50, currencyCode: 'INR' },
      ],
      'v1',
      DEFAULT_FIELD_MAPPING,
    );
    expect(range).toMatchObject({ minFaceValue: 10, maxFaceValue: 100, faceValueCurrency: 'MXN' });
    expect(range?.minWalletAmount).toBeUndefined();
    expect(validAmount(range ?? { dialingPrefixes: [] })).toEqual({ amount: 10, transactionCurrencyCode: 'MXN' });
    expect(validAmount(fixed ?? { dialingPrefixes: [] })).toEqual({ amount: 50, transactionCurrencyCode: 'INR' });
    // Without a currencyCode the bounds stay wallet-currency bounds.
    const [plain] = readCatalogSkus([{ skuId: 3, minAmount: 5, maxAmount: 9 }], 'v1', DEFAULT_FIELD_MAPPING);
    expect(validAmount(plain ?? { dialingPrefixes: [] })).toEqual({ amount: 5 });
  });
});
