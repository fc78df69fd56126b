// AMOUNT's arithmetic and its reading of the '001' message: amounts at and beyond the bounds, and a message that must
// name this denomination's bounds in the currency it names.
import { describe, expect, test } from 'vitest';
import type { SkuFixture } from '../../target/fixtures.ts';
import { amountAt, boundsOf, judge001Message } from './amount.ts';

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
    expect([amountAt(wallet, 'BELOW-MIN'), amountAt(wallet, 'AT-MIN'), amountAt(wallet, 'AT-MAX'), amountAt(wallet, 'ABOVE-MAX')]).toEqual([1.14, 1.15, 86.18, 86.19]);
    const face = boundsOf(SKU, 'FACE')!;
    expect(face.currency).toBe('INR');
    expect([amountAt(face, 'BELOW-MIN'), amountAt(face, 'ABOVE-MAX')]).toEqual([83, 6301]);
  });

  test('a fixed denomination has no range to test; no positive amount below a minimum of 0.01', () => {
    expect(boundsOf({ ...SKU, maxFaceValue: 84 }, 'FACE')).toBeUndefined();
    expect(amountAt({ min: 0.01, max: 5 }, 'BELOW-MIN')).toBeUndefined();
  });
});

describe("the '001' message names the denomination's bounds", () => {
  const msg = (min: string, max: string, cur: string) => `The charge amount for Denomination Nimbo India Top-up should be between ${min} ${cur} and ${max} ${cur}`;

  test('face value bounds in the face currency, or wallet bounds in another currency: holds', () => {
    expect(judge001Message(msg('84.00', '6300.00', 'INR'), SKU, boundsOf(SKU, 'FACE')!)).toBeUndefined();
    expect(judge001Message(msg('1.15', '86.18', 'USD'), SKU, boundsOf(SKU, 'WALLET')!)).toBeUndefined();
  });

  test("another denomination's bounds, or not the spec's shape: reported", () => {
    expect(judge001Message(msg('5.00', '100.00', 'USD'), SKU, boundsOf(SKU, 'WALLET')!)?.message).toMatch(/does not name this denomination/);
    expect(judge001Message('Amount out of range', SKU, boundsOf(SKU, 'WALLET')!)?.message).toMatch(/documented shape/);
    expect(judge001Message(null, SKU, boundsOf(SKU, 'WALLET')!)).toBeDefined();
  });
});
