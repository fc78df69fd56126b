// AMOUNT's arithmetic and its reading of the '001' message: amounts at and beyond the bounds, and a message that must
// name this denomination's bounds in the currency it names.
import { describe, expect, test } from 'vitest';
import type { SkuFixture } from '../../target/fixtures.ts';
import { amountAt, amountBody, amountCandidates, amountPick, boundsOf, judge001Message } from './amount.ts';

const SKU = {
  skuId: 520,
  record: {},
  dialingPrefixes: ['91'],
  minFaceValue: 84,
  maxFaceValue: 6300,
  faceValueCurrency: 'INR',
  minWalletAmount: 1.15,
  maxWalletAmount: 86.18,
} as SkuFixture;

describe('bounds and amounts', () => {
  test('wallet bounds step by a cent, whole-unit bounds by 1', () => {
    const wallet = boundsOf(SKU, 'WALLET')!;
    expect([amountAt(wallet, 'BELOW-MIN'), amountAt(wallet, 'AT-MIN'), amountAt(wallet, 'AT-MAX'), amountAt(wallet, 'ABOVE-MAX')]).toEqual([
      1.14, 1.15, 86.18, 86.19,
    ]);
    const face = boundsOf(SKU, 'FACE')!;
    expect(face.currency).toBe('INR');
    expect([amountAt(face, 'BELOW-MIN'), amountAt(face, 'ABOVE-MAX')]).toEqual([83, 6301]);
  });

  test('a fixed denomination has no range to test; no positive amount below a minimum of 0.01', () => {
    expect(boundsOf({ ...SKU, maxFaceValue: 84 }, 'FACE')).toBeUndefined();
    expect(amountAt({ min: 0.01, max: 5 }, 'BELOW-MIN')).toBeUndefined();
  });

  // #31 item 6: a whole minimum was undercut by a cent when the maximum had cents (5 → 4.99): a gateway of a currency
  // without decimals refuses 4.99 for its cents, not for the bound, and the case failed a faithful gateway.
  test('each side steps by its own bound: a whole minimum by 1 even when the maximum has cents', () => {
    expect(amountAt({ min: 5, max: 86.18 }, 'BELOW-MIN')).toBe(4);
    expect(amountAt({ min: 1.15, max: 86 }, 'ABOVE-MAX')).toBe(87);
    expect(amountAt({ min: 1.15, max: 86 }, 'BELOW-MIN')).toBe(1.14);
  });
});

describe("the '001' message names the denomination's bounds", () => {
  const msg = (min: string, max: string, cur: string) =>
    `The charge amount for Denomination Nimbo India Top-up should be between ${min} ${cur} and ${max} ${cur}`;

  test('face value bounds in the face currency, or wallet bounds in another currency: holds', () => {
    expect(judge001Message(msg('84.00', '6300.00', 'INR'), SKU, boundsOf(SKU, 'FACE')!)).toBeUndefined();
    expect(judge001Message(msg('1.15', '86.18', 'USD'), SKU, boundsOf(SKU, 'WALLET')!)).toBeUndefined();
  });

  test("another denomination's bounds, or not the spec's shape: reported", () => {
    expect(judge001Message(msg('5.00', '100.00', 'USD'), SKU, boundsOf(SKU, 'WALLET')!)?.message).toMatch(
      /does not name this denomination/,
    );
    expect(judge001Message('Amount out of range', SKU, boundsOf(SKU, 'WALLET')!)?.message).toMatch(/documented shape/);
    expect(judge001Message(null, SKU, boundsOf(SKU, 'WALLET')!)).toBeDefined();
  });
});

describe('the SKU an AMOUNT case charges: the cheapest at the bound it sends (a test run spends little)', () => {
  const rtr = (skuId: number, countryCode: string, min: number, max: number): SkuFixture =>
    ({ skuId, record: {}, categoryId: 2, countryCode, minWalletAmount: min, maxWalletAmount: max, dialingPrefixes: [] }) as SkuFixture;
  const SKUS = [rtr(1, 'JM', 5, 200), rtr(2, 'JM', 1, 500), rtr(3, 'MX', 10, 50), rtr(4, 'MX', 20, 30)];
  const found = amountCandidates((code) => SKUS.filter((s) => s.countryCode === code), ['JM', 'MX'], 'WALLET');

  test('AT-MAX takes the smallest maximum, AT-MIN the smallest minimum, the refused bounds the first candidate', () => {
    expect(amountBody(amountPick(found, 'WALLET', 'AT-MAX')!, 'AT-MAX')).toEqual({ skuId: 4, amount: 30 });
    expect(amountBody(amountPick(found, 'WALLET', 'AT-MIN')!, 'AT-MIN')).toEqual({ skuId: 2, amount: 1 });
    expect(amountPick(found, 'WALLET', 'ABOVE-MAX')?.sku.skuId).toBe(1);
  });

  test('only the countries given (those with numbers) are candidates', () => {
    const jm = amountCandidates((code) => SKUS.filter((s) => s.countryCode === code), ['JM'], 'WALLET');
    expect(amountPick(jm, 'WALLET', 'AT-MAX')?.sku.skuId).toBe(1);
  });
});
