// Money helpers shared by the generator and the sandbox routes: rounding, currency conversion, denomination bounds.
// One place decides "which bounds apply to this amount", so the 001 message and the check can never disagree.

import type { Sku, SkuMeta } from './types.ts';
import { WALLET_CURRENCY } from './types.ts';

export function round2(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

/** Two-decimal text, as the spec's 001 example prints amounts (5.00 USD). */
export function formatAmount(value: number): string {
  return round2(value).toFixed(2);
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

/** True when the amount lies within the bounds (to the cent). */
export function withinBounds(amount: number, bounds: AmountBounds): boolean {
  const cents = Math.round(amount * 100);
  return cents >= Math.round(bounds.min * 100) && cents <= Math.round(bounds.max * 100);
}

/** The spec's 001 message: 'The charge amount for Denomination <name> should be between <min> <currency> and <max> <currency>'. */
export function denominationRangeMessage(sku: Sku, bounds: AmountBounds): string {
  return `The charge amount for Denomination ${sku.skuName} should be between ${formatAmount(bounds.min)} ${bounds.currency} and ${formatAmount(bounds.max)} ${bounds.currency}`;
}

/** The wallet (USD) value of an amount sent in `currency` (the face currency) or in the wallet currency. */
export function toWalletAmount(meta: SkuMeta, amount: number, currency?: string | null): number {
  return isWalletCurrency(currency) ? round2(amount) : round2(amount * meta.walletPerFaceUnit);
}

/** What the agent is charged (wallet currency) for a face amount worth `walletAmount`: discount off, fee on. */
export function costOf(sku: Sku, walletAmount: number): number {
  return round2(walletAmount * (1 - sku.discount / 100) + sku.fee);
}
