// Tests of the number-driven data: lookup (operator by hash), loans (the documented "77d" rule), bundles with loan
// fields, the face-value-plus-loan amount, bill details and the denomination bounds used by the 001 message.
import { describe, expect, it } from 'vitest';
import {
  amountBounds,
  amountWithLoan,
  billDetailFor,
  bundlesFor,
  denominationRangeMessage,
  generateSandboxData,
  loanFor,
  lookupNumber,
  SAMPLE_LOAN_NUMBERS,
  toWalletAmount,
  withinBounds,
} from './index.ts';
import type { Sku, SkuMeta } from './index.ts';

const NOW = Date.UTC(2025, 0, 15);
const data = generateSandboxData(11, { now: NOW });
const sku = (id: number): Sku => data.index.skuById.get(id) as Sku;
const meta = (id: number): SkuMeta => data.index.skuMetaById.get(id) as SkuMeta;

describe('lookupNumber', () => {
  it('resolves a valid number to one of its country RTR operators, deterministically', () => {
    const mobile = data.samples.validMobiles.JM as string;
    const a = lookupNumber(data, mobile);
    expect(a).toEqual(lookupNumber(data, mobile));
    expect(a?.country.countryCode).toBe('JM');
    expect(data.index.rtrOperatorsByCountry.get('JM')).toContain(a?.operator);
    expect(a?.v1.operatorId).toBe(a?.operator.operatorId);
    expect(a?.v1.skus.every((s) => s.productId === a.v1.productId)).toBe(true);
    expect(Object.keys(a?.v1 ?? {}).sort()).toEqual([
      'category',
      'countryCode',
      'denominationType',
      'operator',
      'operatorId',
      'productId',
      'productName',
      'skus',
    ]);
  });

  it('spreads numbers over the operators of a country', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++)
      seen.add(lookupNumber(data, `1876${String(2000000 + i * 7919).padStart(7, '0')}`)?.operator.operatorId ?? -1);
    expect(seen.has(-1)).toBe(false);
    expect(seen.size).toBe(data.index.rtrOperatorsByCountry.get('JM')?.length);
  });

  it.each(['1876234567', '999123456789', '12462345678x'])('is undefined for %s', (mobile) => {
    expect(lookupNumber(data, mobile)).toBeUndefined();
  });
});

describe('loans and bundles', () => {
  it.each([1, 2, 3, 4, 5])('seed %i: every sample loan number owes, no sample valid number does', (seed) => {
    const d = generateSandboxData(seed, { now: NOW });
    for (const n of SAMPLE_LOAN_NUMBERS) expect(loanFor(d, n)?.amountInWalletCurrency).toBeGreaterThan(0);
    for (const n of Object.values(d.samples.validMobiles)) expect(loanFor(d, n)).toBeUndefined();
  });

  it('applies the "77d owes d + 1 USD" rule only where bundles exist', () => {
    expect(loanFor(data, '18762345770')?.amountInWalletCurrency).toBe(1);
    expect(loanFor(data, '18762345779')?.amountInWalletCurrency).toBe(10);
    expect(loanFor(data, '18762345787')).toBeUndefined();
    expect(loanFor(data, '12125550775')).toBeUndefined();
    const loan = loanFor(data, '18762345775');
    expect(loan?.currencyCode).toBe('JMD');
    expect(loan?.amountInLocalCurrency).toBeCloseTo(6 * (data.index.fxPerUsd.get('JMD') ?? 0), 1);
  });

  it('fills loan fields of bundles for a number with dues, and leaves them 0 without', () => {
    const productId = data.samples.bundleProductId;
    const withLoan = bundlesFor(data, productId, '18762345775') ?? [];
    const without = bundlesFor(data, productId, data.samples.validMobiles.JM as string) ?? [];
    expect(withLoan.length).toBeGreaterThan(0);
    expect(withLoan.map((s) => s.skuId)).toEqual(without.map((s) => s.skuId));
    for (const b of withLoan) {
      expect(b.requireFetchBundle).toBe(true);
      expect(b.loanAmountInWalletCurrency).toBe(6);
      expect(b.loanAmountInFaceValueCurrency).toBeGreaterThan(0);
    }
    for (const b of without)
      expect([b.loanAmountInWalletCurrency, b.loanAmountInFaceValueCurrency, b.loanAmountInDeliveryCurrency]).toEqual([0, 0, 0]);
    expect(sku(withLoan[0]!.skuId).loanAmountInWalletCurrency).toBe(0);
  });

  it('refuses unknown products, non-bundle products and numbers of another country', () => {
    expect(bundlesFor(data, -1, '18762345775')).toBeUndefined();
    expect(bundlesFor(data, sku(193).productId, '18762345775')).toBeUndefined();
    expect(bundlesFor(data, data.samples.bundleProductId, '919876543772')).toBeUndefined();
  });

  it('computes face value plus loan in the wallet and in the face currency', () => {
    const bundle = (bundlesFor(data, data.samples.bundleProductId, '18762345775') ?? [])[0] as Sku;
    const loan = loanFor(data, '18762345775')!;
    const m = meta(bundle.skuId);
    expect(amountWithLoan(bundle, m, loan)).toBeCloseTo(bundle.min.faceValueInWalletCurrency + 6, 2);
    expect(amountWithLoan(bundle, m, loan, bundle.min.faceValueCurrency)).toBeCloseTo(
      bundle.min.faceValue + bundle.loanAmountInFaceValueCurrency,
      2,
    );
  });
});

describe('denomination bounds', () => {
  it('gives the 001 message for skuId 193 in the spec shape', () => {
    const bounds = amountBounds(sku(193), meta(193));
    expect(bounds).toEqual({ min: 5, max: sku(193).max.faceValueInWalletCurrency, currency: 'USD' });
    expect(denominationRangeMessage(sku(193), bounds!)).toBe(
      `The charge amount for Denomination ${sku(193).skuName} should be between 5.00 USD and ${sku(193).max.faceValue.toFixed(2)} USD`,
    );
    expect(withinBounds(4.99, bounds!)).toBe(false);
    expect(withinBounds(5, bounds!)).toBe(true);
    expect(withinBounds(bounds!.max, bounds!)).toBe(true);
    expect(withinBounds(bounds!.max + 0.01, bounds!)).toBe(false);
  });

  it('uses face value bounds for a FaceValueCurrency and refuses other currencies', () => {
    const id = data.samples.rtrFixedSkuId;
    const s = sku(id);
    expect(amountBounds(s, meta(id), s.min.faceValueCurrency)).toEqual({
      min: s.min.faceValue,
      max: s.max.faceValue,
      currency: s.min.faceValueCurrency,
    });
    expect(amountBounds(s, meta(id), 'XXX')).toBeUndefined();
    expect(amountBounds(s, meta(id), '')?.currency).toBe('USD');
    expect(toWalletAmount(meta(id), s.min.faceValue, s.min.faceValueCurrency)).toBeCloseTo(s.min.faceValueInWalletCurrency, 2);
  });
});

describe('billDetailFor', () => {
  const bill = sku(data.samples.billPaySkuId);

  it('is deterministic, due after today, with an amount within the denomination', () => {
    const detail = billDetailFor(bill, data.samples.billPayAccountNumber, NOW);
    expect(detail).toEqual(billDetailFor(bill, data.samples.billPayAccountNumber, NOW));
    expect(detail!.amountDue).toBeGreaterThanOrEqual(bill.min.faceValue);
    expect(detail!.amountDue).toBeLessThanOrEqual(bill.max.faceValue);
    expect(Date.parse(detail!.dueDate)).toBeGreaterThan(NOW);
    expect(detail!.currencyCode).toBe(bill.min.faceValueCurrency);
    expect(billDetailFor(bill, '555000111', NOW)?.amountDue).not.toBe(detail!.amountDue);
  });

  it.each(['', 'a b', 'x'.repeat(41)])('refuses the account %j', (account) => {
    expect(billDetailFor(bill, account, NOW)).toBeUndefined();
  });

  it('refuses a SKU that is not Bill Pay', () => {
    expect(billDetailFor(sku(193), '100200300', NOW)).toBeUndefined();
  });
});
