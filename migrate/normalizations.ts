// Declared normalizations of the v1/v2 pairs, as data: how each version's payload becomes comparable records, which
// key matches them, which v1 fields were renamed in v2, and which values belong to one call. All assumed (observed names).
import type { CategoryName } from '../api/operations.ts';

/** How a payload becomes a list of records. */
export type PayloadView =
  /** An array payload: its items. */
  | { readonly kind: 'records' }
  /** An object payload: one record. */
  | { readonly kind: 'object' }
  /** A scalar payload (the balance): one record `{ value }`. */
  | { readonly kind: 'value' }
  /** An object payload whose array member holds the records (v1 lookup: the operator's `skus`). */
  | { readonly kind: 'pluck'; readonly field: string };

export interface PairNormalization {
  readonly v1: PayloadView;
  readonly v2: PayloadView;
  /** Field that identifies a record in each version (dotted, case-insensitive); records match on equal values. */
  readonly key?: { readonly v1: string; readonly v2: string };
  /** v1 field → v2 field, declared (the names differ beyond letter case). */
  readonly renames?: Readonly<Record<string, string>>;
  /** Fields (and everything under them) whose values belong to one call: ids, dates, card numbers; never compared. */
  readonly volatile?: readonly string[];
  /** v1 records the v2 operation leaves out by design (spec-stated), dropped before comparing. */
  readonly v1Exclude?: { readonly categoryField: string; readonly categories: readonly CategoryName[]; readonly why: string };
  /** What the normalization assumes, for the report. */
  readonly note: string;
}

/**
 * v1 flat SKU record → v2 SKU record (observed-payloads.md): bounds and currencies moved into `min`/`max`, the loan got
 * a currency suffix, and the v1 carrier name is the v2 operator name.
 */
const SKU_RENAMES: Readonly<Record<string, string>> = Object.freeze({
  minAmount: 'min.faceValue',
  maxAmount: 'max.faceValue',
  currencyCode: 'min.faceValueCurrency',
  deliveryCurrencyCode: 'min.deliveryCurrencyCode',
  loanAmount: 'loanAmountInFaceValueCurrency',
  carrierName: 'operatorName',
});

/** Per-transaction values of a transaction result (observed result shape): two transactions never share them. */
const TRANSACTION_VOLATILE: readonly string[] = Object.freeze([
  'transactionId',
  'transactionDate',
  'correlationId',
  'topupDetail.operatorTransactionId',
  'pins',
  'giftCardDetail',
  'esimDetail',
  'billPaymentDetail.token',
  'simInfo.mobileNumber',
]);

const records: PayloadView = { kind: 'records' };
const object: PayloadView = { kind: 'object' };

const WRITE: PairNormalization = {
  v1: object,
  v2: object,
  volatile: TRANSACTION_VOLATILE,
  note: 'two transactions with the same request (fresh correlationIds): ids, dates, PINs, card numbers, tokens and assigned numbers are per transaction and not compared',
};

/** By catalog purpose. A pair without an entry is compared as object-to-object with no key. */
export const NORMALIZATIONS: Readonly<Record<string, PairNormalization>> = Object.freeze({
  'account.balance': { v1: { kind: 'value' }, v2: { kind: 'value' }, note: 'both versions read the same wallet' },
  'catalog.countries': { v1: records, v2: records, key: { v1: 'countryCode', v2: 'countryCode' }, note: 'records matched on countryCode' },
  'catalog.skus': {
    v1: records,
    v2: records,
    key: { v1: 'skuId', v2: 'skuId' },
    renames: SKU_RENAMES,
    v1Exclude: {
      categoryField: 'category',
      categories: ['Gift Card'],
      why: 'spec: v2 catalog/skus is "array (all products except gift cards, with SKU ids)"; v2 lists gift cards at catalog/skus/giftcards',
    },
    note: 'records matched on skuId; v1 flat SKU fields mapped to the v2 record by the declared renames',
  },
  'lookup.mobile': {
    v1: { kind: 'pluck', field: 'skus' },
    v2: records,
    key: { v1: 'skuId', v2: 'skuId' },
    renames: SKU_RENAMES,
    note: 'v1 answers one operator object with its skus[]; v2 answers an array of SKU records: the v1 skus are compared with the v2 array on skuId',
  },
  'promotion.current': {
    v1: records,
    v2: records,
    key: { v1: 'promotionName', v2: 'promotionName' },
    note: 'records matched on promotionName',
  },
  'promotion.upcoming': {
    v1: records,
    v2: records,
    key: { v1: 'promotionName', v2: 'promotionName' },
    note: 'records matched on promotionName',
  },
  'catalog.sku-exchange-rate': { v1: object, v2: object, note: 'one record per SKU' },
  'catalog.errors': { v1: records, v2: records, key: { v1: 'code', v2: 'code' }, note: 'records matched on code' },
  'esim.status': {
    v1: records,
    v2: records,
    key: { v1: 'iccid', v2: 'iccid' },
    note: 'the same eSIM (ordered through v1) read on both versions',
  },
  'billpay.fetch-account-detail': { v1: object, v2: object, note: 'the same SKU and account on both versions' },
  'transaction.status': { v1: object, v2: object, note: 'the same transaction (submitted through v1) read on both versions' },
  'giftcard.fetch': { v1: object, v2: object, note: 'the same gift card purchase (made through v1) read on both versions' },
  'sim.portin-status': { v1: object, v2: object, note: 'the same port-in (made through v1) read on both versions' },
  'transaction.topup': WRITE,
  'transaction.pin': WRITE,
  'transaction.billpay': WRITE,
  'transaction.giftcard': WRITE,
  'transaction.sim-activation': WRITE,
  'transaction.sim-portin': WRITE,
  'transaction.esim': WRITE,
});

export function normalizationOf(purpose: string): PairNormalization {
  return NORMALIZATIONS[purpose] ?? { v1: object, v2: object, note: 'no declared normalization: compared object to object' };
}
