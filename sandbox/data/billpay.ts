// Bill detail for fetch-account-detail (shape assumed: the spec names the operation, not its fields).
// Deterministic per (SKU, account number, day), so a fetch and the following payment agree.

import { DAY_MS, formatUtcDate, startOfUtcDay } from './dates.ts';
import { round2 } from './money.ts';
import { FIRST_NAMES, LAST_NAMES } from './names.ts';
import { hashString } from './rng.ts';
import type { BillDetail, Sku } from './types.ts';

const ACCOUNT = /^[0-9A-Za-z-]{1,40}$/;

/** True when the text is a plausible bill account number (1..40 letters, digits or dashes). */
export function isPlausibleAccountNumber(accountNumber: string): boolean {
  return ACCOUNT.test(accountNumber);
}

/**
 * The open bill of an account at a Bill Pay SKU's biller: amount due within the denomination's bounds, a customer
 * name and a due date 3..27 days after `now`'s UTC day. Undefined for a non-Bill-Pay SKU or an implausible account.
 */
export function billDetailFor(sku: Sku, accountNumber: string, now: number = Date.now()): BillDetail | undefined {
  if (sku.category !== 'Bill Pay' || !isPlausibleAccountNumber(accountNumber)) return undefined;
  const h = hashString(`${sku.skuId}:${accountNumber}`);
  const min = sku.min.faceValue;
  const top = Math.min(sku.max.faceValue, min * 200);
  const amountDue = round2(min + ((h % 10_000) / 10_000) * (top - min));
  const walletPerFace = sku.max.faceValue > 0 ? sku.max.faceValueInWalletCurrency / sku.max.faceValue : 1;
  return {
    skuId: sku.skuId,
    accountNumber,
    billerName: sku.operatorName,
    customerName: `${FIRST_NAMES[h % FIRST_NAMES.length] ?? ''} ${LAST_NAMES[(h >>> 8) % LAST_NAMES.length] ?? ''}`,
    amountDue,
    currencyCode: sku.min.faceValueCurrency,
    amountDueInWalletCurrency: round2(amountDue * walletPerFace),
    dueDate: formatUtcDate(startOfUtcDay(now) + (((h >>> 16) % 25) + 3) * DAY_MS),
    minAmount: sku.min.faceValue,
    maxAmount: sku.max.faceValue,
  };
}
