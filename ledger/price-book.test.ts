// What one charging request can cost at most, in the wallet currency: its amount, converted with the SKU's catalog
// figures, or the SKU's highest price when it carries none; anything that cannot be bounded is said so.
import { describe, expect, it } from 'vitest';
import { DEFAULT_FIELD_MAPPING } from '../api/field-mapping.ts';
import { getOperation } from '../api/operations.ts';
import { buildPriceBook, estimateCharge, priceOfV1Record, priceOfV2Record, type PriceBook } from './price-book.ts';

const topup = getOperation('v2.transaction.topup');
const pin = getOperation('v2.transaction.pin');
const sim = getOperation('v2.transaction.sim-activation');

/** A v2 SKU record as observed (spec observed-payloads: min/max with faceValue, faceValueCurrency, faceValueInWalletCurrency). */
const v2Record = {
  skuId: 1210,
  fee: 0.3,
  min: { faceValue: 100, faceValueCurrency: 'INR', faceValueInWalletCurrency: 1.2 },
  max: { faceValue: 1000, faceValueCurrency: 'INR', faceValueInWalletCurrency: 12.5 },
};
const book: PriceBook = buildPriceBook([priceOfV2Record(v2Record, DEFAULT_FIELD_MAPPING.v2Sku), [77, { w: 15 }]]);

describe('price book', () => {
  it('reads a v2 record: face currency, the higher wallet/face ratio, the highest wallet price, the fee', () => {
    expect(book.skus['1210']).toEqual({ f: 'INR', r: 0.0125, w: 12.5, fee: 0.3 });
  });

  it('reads a v1 record as wallet bounds (no conversion ratio)', () => {
    expect(priceOfV1Record({ skuId: 5, minAmount: 2, maxAmount: 20, fee: 0 }, DEFAULT_FIELD_MAPPING.v1Sku)).toEqual([5, { w: 20 }]);
  });

  it('keeps the first figures seen for a SKU (v2 records go first)', () => {
    const merged = buildPriceBook([
      [1, { f: 'JMD', r: 0.01 }],
      [1, { w: 9 }],
    ]);
    expect(merged.skus['1']).toEqual({ f: 'JMD', r: 0.01, w: 9 });
  });
});

describe('estimateCharge', () => {
  it('counts an amount without transactionCurrencyCode as wallet money, plus the SKU fee', () => {
    expect(estimateCharge(topup, { skuId: 1210, amount: 5 }, book, 'USD')).toMatchObject({
      bounded: true,
      wallet: 5.3,
      amount: 5,
      currency: null,
    });
  });

  it('counts a transactionCurrencyCode equal to the cap currency as is', () => {
    expect(estimateCharge(topup, { skuId: 9, amount: 7, transactionCurrencyCode: 'usd' }, book, 'USD')).toMatchObject({
      bounded: true,
      wallet: 7,
    });
  });

  it('converts a face-currency amount with the SKU ratio', () => {
    const e = estimateCharge(topup, { skuId: 1210, amount: 800, transactionCurrencyCode: 'INR' }, book, 'USD');
    expect(e.bounded && e.wallet).toBeCloseTo(800 * 0.0125 + 0.3, 9);
  });

  it('refuses to guess a currency it cannot convert', () => {
    const e = estimateCharge(topup, { skuId: 77, amount: 800, transactionCurrencyCode: 'JMD' }, book, 'USD');
    expect(e).toMatchObject({ bounded: false });
    expect(!e.bounded && e.reason).toMatch(/800 JMD cannot be converted to USD/);
  });

  it('takes the SKU highest price for a request without an amount (PIN, SIM, eSIM)', () => {
    expect(estimateCharge(pin, { skuId: 77, correlationId: 'x' }, book, 'USD')).toMatchObject({ bounded: true, wallet: 15 });
  });

  it('cannot bound a request without an amount whose SKU has no price', () => {
    const e = estimateCharge(pin, { skuId: 4040, correlationId: 'x' }, book, 'USD');
    expect(!e.bounded && e.reason).toMatch(/carries no amount and SKU 4040 has no price/);
  });

  it('multiplies by numberOfPlanMonths and refuses a negative amount', () => {
    expect(estimateCharge(sim, { skuId: 77, numberOfPlanMonths: 3 }, book, 'USD')).toMatchObject({ bounded: true, wallet: 45 });
    expect(estimateCharge(topup, { skuId: 77, amount: -1 }, book, 'USD')).toMatchObject({ bounded: false });
  });
});
