// Money helpers shared by the generator and the sandbox routes: exact sums and prices, currency conversion, bounds.
// One place decides "which bounds apply to this amount", so the 001 message and the check can never disagree.
//
// The money rule (sandbox/README.md "Money is exact"): bounds are checked on the amount as sent, never rounded first;
// an amount in the wallet currency is priced exactly as sent (12.345 USD is charged on 12.345, not 12.35); sums,
// differences and discounts are exact decimals. The only rounding is a currency conversion (face or delivery currency
// <-> wallet currency at the SKU's rate), to the cent, as the catalog's faceValueInWalletCurrency is.

import { add, decimalOf, mul, shift, sub, toNumber, toText } from './decimal.ts';
import type { Sku, SkuMeta } from './types.ts';
import { WALLET_CURRENCY } from './types.ts';

export function round2(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

/** Two-decimal text, as the spec's 001 example prints amounts (5.00 USD). */
export function formatAmount(value: number): string {
  return round2(value).toFixed(2);
}

/** At least two decimals, and every further one the amount has: 5 → "5.00", 12.345 → "12.345" (never rounded). */
export function formatExact(value: number): string {
  const text = toText(decimalOf(value));
  const dot = text.indexOf('.');
  if (dot === -1) return `${text}.00`;
  return text.length - dot - 1 < 2 ? `${text}0` : text;
}

/** a + b, exactly (decimal), as the nearest double. */
export function moneyAdd(a: number, b: number): number {
  return toNumber(add(decimalOf(a), decimalOf(b)));
}

/** a - b, exactly (decimal), as the nearest double. */
export function moneySub(a: number, b: number): number {
  return toNumber(sub(decimalOf(a), decimalOf(b)));
}

/** a × n for a whole count n (multi-month plans), exactly. */
export function moneyTimes(a: number, n: number): number {
  return toNumber(mul(decimalOf(a), decimalOf(n)));
}

/** An amount converted at `rate`: exact when the rate is 1 (same currency), else rounded to the cent. */
export function convert(amount: number, rate: number): number {
  return rate === 1 ? amount : round2(amount * rate);
}

export interface AmountBounds {
  min: number;
  max: number;
  currency: string;
}

/** True when no transactionCurrencyCode was sent (absent, null or empty: the wallet currency applies). */
export function isWalletCurrency(currency: string | null | undefined): boolean {
  return currency === undefined || currency === null || currency === '';
}

/**
 * Bounds of a denomination for an amount sent in `currency`: the wallet bounds (faceValueInWalletCurrency) when no
 * currency is given, the face value bounds when it is one of the SKU's FaceValueCurrency, undefined otherwise.
 */
export function amountBounds(sku: Sku, meta: SkuMeta, currency?: string | null): AmountBounds | undefined {
  if (isWalletCurrency(currency)) {
    return { min: sku.min.faceValueInWalletCurrency, max: sku.max.faceValueInWalletCurrency, currency: WALLET_CURRENCY };
  }
  if (!meta.faceValueCurrencies.includes(currency as string)) return undefined;
  return { min: sku.min.faceValue, max: sku.max.faceValue, currency: currency as string };
}

/**
 * True when the amount, as sent, lies within the bounds. Doubles compare exactly: 4.995 is below 5.00 and 100.001 is
 * above 100.00 (nothing is rounded to the cent first).
 */
export function withinBounds(amount: number, bounds: AmountBounds): boolean {
  return amount >= bounds.min && amount <= bounds.max;
}

/** The bounds moved by an outstanding loan (face value + loan), exactly. */
export function shiftBounds(bounds: AmountBounds, by: number): AmountBounds {
  return { ...bounds, min: moneyAdd(bounds.min, by), max: moneyAdd(bounds.max, by) };
}

/** The spec's 001 message: 'The charge amount for Denomination <name> should be between <min> <currency> and <max> <currency>'. */
export function denominationRangeMessage(sku: Sku, bounds: AmountBounds): string {
  return `The charge amount for Denomination ${sku.skuName} should be between ${formatAmount(bounds.min)} ${bounds.currency} and ${formatAmount(bounds.max)} ${bounds.currency}`;
}

/** The wallet (USD) value of an amount sent in `currency` (a face currency, converted) or in the wallet currency (as sent). */
export function toWalletAmount(meta: SkuMeta, amount: number, currency?: string | null): number {
  return isWalletCurrency(currency) ? amount : convert(amount, meta.walletPerFaceUnit);
}

/** The price of a face amount worth `walletAmount`: discount (percent) off, fee on, exactly. */
export function priceOf(walletAmount: number, discount: number, fee: number): number {
  const kept = sub(decimalOf(100), decimalOf(discount));
  return toNumber(add(shift(mul(decimalOf(walletAmount), kept), 2), decimalOf(fee)));
}

/** What the agent is charged (wallet currency) for a face amount worth `walletAmount` of this SKU. */
export function costOf(sku: Sku, walletAmount: number): number {
  return priceOf(walletAmount, sku.discount, sku.fee);
}
