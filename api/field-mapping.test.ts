// The payload field mapping: case-insensitive dotted reads, category names to the spec's ids, overrides, and the
// observed v2 SKU example of observed-payloads.md read through the defaults.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FIELD_MAPPING,
  FIELD_MAPPING_SECTIONS,
  FIELD_MAPPING_SOURCES,
  categoryIdOf,
  readBoolean,
  mergeFieldMapping,
  readCountry,
  readField,
  readSku,
  readTransaction,
  readV1Sku,
} from './field-mapping.ts';

// The example record of observed-payloads.md ("v2 SKU record"), trimmed.
const V2_SKU = {
  skuId: 1210,
  skuName: 'Airtel India Bundles 798.00 INR',
  productId: 77,
  category: 'Rtr',
  countryCode: 'IN',
  internationalCountryCode: ['91'],
  localPhoneNumberLength: 10,
  requireFetchBundle: true,
  min: { faceValue: 798, faceValueCurrency: 'INR', faceValueInWalletCurrency: 10.92 },
  max: { faceValue: 798, faceValueCurrency: 'INR', faceValueInWalletCurrency: 10.92 },
};

describe('readField', () => {
  it('reads dotted paths, exact first, then case-insensitively per segment', () => {
    expect(readField(V2_SKU, 'min.faceValue')).toBe(798);
    expect(readField({ Min: { FACEVALUE: 5 } }, 'min.faceValue')).toBe(5);
    expect(readField({ skuid: 1, skuId: 2 }, 'skuId')).toBe(2);
    expect(readField({ SkuName: 'x' }, 'skuName')).toBe('x');
  });
  it('is undefined when a segment is missing or not an object', () => {
    expect(readField(V2_SKU, 'min.nope')).toBeUndefined();
    expect(readField(V2_SKU, 'skuId.value')).toBeUndefined();
    expect(readField(null, 'a')).toBeUndefined();
    expect(readField([{ a: 1 }], 'a')).toBeUndefined();
  });
  it('keeps null values as null (present but empty)', () => {
    expect(readField({ a: null }, 'a')).toBeNull();
  });
});

describe('categoryIdOf', () => {
  it.each([
    ['Rtr', 2],
    ['RTR', 2],
    ['rtr', 2],
    ['Pin', 1],
    ['Bill Pay', 4],
    ['billpay', 4],
    ['BILL_PAY', 4],
    ['Sim', 5],
    ['Gift Card', 6],
    ['GiftCard', 6],
    ['gift_card', 6],
    ['eSim', 7],
    ['ESIM', 7],
    [2, 2],
    ['7', 7],
  ] as const)('%j -> %i', (value, id) => {
    expect(categoryIdOf(value)).toBe(id);
  });
  it.each([['Data'], [3], ['3'], [null], [undefined], ['']])('%j is no category', (value) => {
    expect(categoryIdOf(value)).toBeUndefined();
  });
});

describe('readers with the default mapping', () => {
  it('v2 SKU', () => {
    expect(readSku(V2_SKU, DEFAULT_FIELD_MAPPING.v2Sku)).toEqual({
      skuId: 1210,
      productId: 77,
      name: 'Airtel India Bundles 798.00 INR',
      categoryId: 2,
      countryCode: 'IN',
      minFaceValue: 798,
      maxFaceValue: 798,
      faceValueCurrency: 'INR',
      maxFaceValueCurrency: 'INR',
      minWalletAmount: 10.92,
      maxWalletAmount: 10.92,
      dialingPrefixes: ['91'],
      localPhoneNumberLength: 10,
      requireFetchBundle: true,
    });
  });

  it('v1 flat SKU, numbers as strings tolerated', () => {
    const v1 = {
      skuId: '193',
      productId: 5,
      productName: 'Digicel Jamaica',
      category: 'RTR',
      countryCode: 'JM',
      minAmount: 5,
      maxAmount: '100.5',
      currencyCode: 'USD',
      internationalCountryCode: '1876',
      localPhoneNumberLength: 7,
    };
    expect(readV1Sku(v1, DEFAULT_FIELD_MAPPING.v1Sku)).toEqual({
      skuId: 193,
      productId: 5,
      name: 'Digicel Jamaica',
      categoryId: 2,
      countryCode: 'JM',
      minWalletAmount: 5,
      maxWalletAmount: 100.5,
      faceValueCurrency: 'USD',
      dialingPrefixes: ['1876'],
      localPhoneNumberLength: 7,
    });
  });

  it('country records, area codes split and cleaned', () => {
    expect(
      readCountry(
        {
          countryCode: 'DO',
          countryName: 'Dominican Republic',
          internationalCountryCode: '1',
          numberLength: '10',
          areaCodes: '809, 829,x,849',
        },
        DEFAULT_FIELD_MAPPING.country,
      ),
    ).toEqual({
      countryCode: 'DO',
      countryName: 'Dominican Republic',
      dialingPrefixes: ['1'],
      numberLength: 10,
      areaCodes: ['809', '829', '849'],
    });
  });

  it('transaction results: id, charged amount, eSIM ICCID', () => {
    expect(
      readTransaction({ transactionId: 9001, invoiceAmount: 4.5, esimDetail: { iccid: 8944 } }, DEFAULT_FIELD_MAPPING.transaction),
    ).toEqual({
      transactionId: 9001,
      chargedAmount: 4.5,
      esimIccid: '8944',
    });
    expect(readTransaction({ transactionId: '' }, DEFAULT_FIELD_MAPPING.transaction)).toEqual({});
  });

  it('booleans: true/false or their text, nothing else', () => {
    expect(readBoolean({ a: true }, 'a')).toBe(true);
    expect(readBoolean({ a: 'FALSE' }, 'a')).toBe(false);
    expect(readBoolean({ a: 1 }, 'a')).toBeUndefined();
  });

  it('missing fields are left out, never invented', () => {
    expect(readSku({ skuId: 1 }, DEFAULT_FIELD_MAPPING.v2Sku)).toEqual({ skuId: 1, dialingPrefixes: [] });
  });
});

describe('mergeFieldMapping', () => {
  it('overrides single fields and keeps the rest; defaults stay untouched', () => {
    const merged = mergeFieldMapping(DEFAULT_FIELD_MAPPING, {
      v2Sku: { category: 'kind', minFaceValue: 'limits.low' },
      transaction: { transactionId: 'txId' },
    });
    expect(merged.v2Sku.category).toBe('kind');
    expect(merged.v2Sku.minFaceValue).toBe('limits.low');
    expect(merged.v2Sku.skuId).toBe('skuId');
    expect(merged.transaction).toEqual({ transactionId: 'txId', chargedAmount: 'invoiceAmount', esimIccid: 'esimDetail.iccid' });
    expect(merged.giftcardSku).toEqual(DEFAULT_FIELD_MAPPING.giftcardSku);
    expect(DEFAULT_FIELD_MAPPING.v2Sku.category).toBe('category');
    expect(readSku({ kind: 'Pin', limits: { low: 3 } }, merged.v2Sku)).toMatchObject({ categoryId: 1, minFaceValue: 3 });
  });
  it('with no overrides equals the defaults', () => {
    expect(mergeFieldMapping(DEFAULT_FIELD_MAPPING, undefined)).toEqual(DEFAULT_FIELD_MAPPING);
  });
});

describe('labels of the defaults', () => {
  it('every default is labelled spec, observed or assumed, and every label names a default', () => {
    for (const section of FIELD_MAPPING_SECTIONS) {
      const defaults = Object.keys(DEFAULT_FIELD_MAPPING[section]).sort();
      const labels = FIELD_MAPPING_SOURCES[section] as Record<string, string>;
      expect(Object.keys(labels).sort(), section).toEqual(defaults);
      for (const [field, label] of Object.entries(labels)) expect(['spec', 'observed', 'assumed'], `${section}.${field}`).toContain(label);
    }
  });

  it('only the six localized fields the spec names are labelled spec', () => {
    const spec = FIELD_MAPPING_SECTIONS.flatMap((section) =>
      Object.entries(FIELD_MAPPING_SOURCES[section] as Record<string, string>)
        .filter(([, label]) => label === 'spec')
        .map(([field]) => `${section}.${field}`),
    );
    expect(spec).toEqual(Object.keys(DEFAULT_FIELD_MAPPING.localized).map((f) => `localized.${f}`));
  });
});
