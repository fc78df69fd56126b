// Tests of the pair content comparison: declared views and renames, case-insensitive correspondence, keys, volatile
// fields and the spec-stated gift card exclusion of v2 catalog/skus; differences are counted with an example.
import { describe, expect, it } from 'vitest';
import { compareContent, correspondFields, flatten, toRecords } from './compare-content.ts';
import { normalizationOf, type PairNormalization } from './normalizations.ts';

describe('toRecords', () => {
  it('turns each declared view into records', () => {
    expect(toRecords([{ a: 1 }, 2], { kind: 'records' })).toEqual([{ a: 1 }, { value: 2 }]);
    expect(toRecords({ a: 1 }, { kind: 'object' })).toEqual([{ a: 1 }]);
    expect(toRecords(-5.5, { kind: 'value' })).toEqual([{ value: -5.5 }]);
    expect(toRecords({ productId: 1, skus: [{ skuId: 9 }] }, { kind: 'pluck', field: 'skus' })).toEqual([{ skuId: 9 }]);
  });

  it('says when a payload does not have the declared shape', () => {
    expect(toRecords({ a: 1 }, { kind: 'records' })).toBeUndefined();
  });
});

describe('correspondFields', () => {
  it('prefers a declared rename, then the same name, then the same name in another letter case', () => {
    expect(
      correspondFields(['minAmount', 'skuId', 'SkuName', 'pricing'], ['min.faceValue', 'skuId', 'skuName'], { minAmount: 'min.faceValue' }),
    ).toEqual([
      { v1Field: 'SkuName', v2Field: 'skuName' },
      { v1Field: 'minAmount', v2Field: 'min.faceValue' },
      { v1Field: 'pricing', v2Field: null },
      { v1Field: 'skuId', v2Field: 'skuId' },
    ]);
  });
});

describe('flatten', () => {
  it('walks nested objects, keeps arrays as leaves and drops volatile subtrees', () => {
    const flat = flatten(
      { a: { b: 1, c: { d: 2 } }, list: [1, 2], pins: [{ pin: '1' }], topupDetail: { operatorTransactionId: 'x', amount: 3 } },
      ['pins', 'topupDetail.operatorTransactionId'],
    );
    expect([...flat.entries()]).toEqual([
      ['a.b', 1],
      ['a.c.d', 2],
      ['list', [1, 2]],
      ['topupDetail.amount', 3],
    ]);
  });
});

describe('compareContent', () => {
  it('finds no difference in the same records under declared renames', () => {
    const v1 = [[{ skuId: 1, minAmount: 5, category: 'Rtr' }]];
    const v2 = [[{ skuId: 1, min: { faceValue: 5 }, category: 'Rtr' }]];
    const result = compareContent(v1, v2, normalizationOf('catalog.skus'));
    expect(result.contentDiffs).toEqual([]);
    expect(result.matchedRecords).toBe(1);
  });

  it('counts differing values per field with the first example', () => {
    const v1 = [
      [
        { countryCode: 'JM', countryName: 'Jamaica' },
        { countryCode: 'IN', countryName: 'India' },
      ],
    ];
    const v2 = [
      [
        { countryCode: 'IN', countryName: 'Bharat' },
        { countryCode: 'JM', countryName: 'Jamaica' },
      ],
    ];
    const [diff] = compareContent(v1, v2, normalizationOf('catalog.countries')).contentDiffs;
    expect(diff).toMatchObject({ path: 'countryName', change: 'value-differs', count: 1, of: 2 });
    expect(diff?.detail).toContain('v1 "India", v2 "Bharat"');
  });

  it('reports v1 records missing in v2 and v2-only records separately', () => {
    const v1 = [[{ code: '001' }, { code: '002' }]];
    const v2 = [[{ code: '002' }, { code: '003' }]];
    const changes = compareContent(v1, v2, normalizationOf('catalog.errors')).contentDiffs.map((d) => `${d.change} ${d.count}/${d.of}`);
    expect(changes).toEqual(['record-missing-in-v2 1/2', 'record-only-in-v2 1/2']);
  });

  it('leaves v1 gift card SKUs out of the v2 catalog/skus comparison (spec: v2 lists all products except gift cards)', () => {
    const v1 = [
      [
        { skuId: 1, category: 'Rtr' },
        { skuId: 5000, category: 'Gift Card' },
      ],
    ];
    const v2 = [[{ skuId: 1, category: 'Rtr' }]];
    expect(compareContent(v1, v2, normalizationOf('catalog.skus')).contentDiffs).toEqual([]);
  });

  it("compares the v1 lookup object's skus with the v2 lookup array", () => {
    const v1 = [{ productId: 7, operator: 'Voxa', skus: [{ skuId: 11, productName: 'A' }] }];
    const v2 = [
      [
        { skuId: 11, productName: 'A' },
        { skuId: 12, productName: 'PIN' },
      ],
    ];
    const changes = compareContent(v1, v2, normalizationOf('lookup.mobile')).contentDiffs.map((d) => d.change);
    expect(changes).toEqual(['record-only-in-v2']);
  });

  it('ignores per-transaction values of two transactions made with the same request', () => {
    const v1 = [{ transactionId: 1, transactionDate: '1/1/2025 10:00', invoiceAmount: 9.5, pins: [{ pinNumber: '1111' }] }];
    const v2 = [{ transactionId: 2, transactionDate: '1/1/2025 10:01', invoiceAmount: 9.5, pins: [{ pinNumber: '2222' }] }];
    expect(compareContent(v1, v2, normalizationOf('transaction.pin')).contentDiffs).toEqual([]);
    const dearer = [{ transactionId: 2, transactionDate: '1/1/2025 10:01', invoiceAmount: 9.75, pins: [] }];
    expect(compareContent(v1, dearer, normalizationOf('transaction.pin')).contentDiffs.map((d) => d.path)).toEqual(['invoiceAmount']);
  });

  it('reports a payload that does not have the declared shape', () => {
    const norm: PairNormalization = normalizationOf('catalog.countries');
    expect(compareContent([[{ countryCode: 'JM' }]], [{ countryCode: 'JM' }], norm).contentDiffs.map((d) => d.change)).toEqual([
      'payload-shape-differs',
    ]);
  });
});
