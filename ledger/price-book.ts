// What one charging request can cost at most, in the wallet currency: from its own amount, converted with the SKU's
// catalog figures when it names another currency, or the SKU's highest price when it carries no amount (PIN, SIM, eSIM).
// Runtime-neutral: the price book is read once from the target's catalog (Node) and handed to the k6 bundles as a file.
import { readSku, readString, readV1Sku, readNumber, type FieldMapping } from '../api/field-mapping.ts';
import type { Operation } from '../api/operations.ts';

/** One SKU's price facts (short keys: the book is parsed by every k6 VU). */
export interface SkuPrice {
  /** Face value currency (what transactionCurrencyCode may name). */
  readonly f?: string;
  /** Wallet units per face unit (the higher of the min and max bounds' ratios: never undercounts). */
  readonly r?: number;
  /** Highest price of the SKU in the wallet currency (its max bound). */
  readonly w?: number;
  /**
   * Least the agent pays for the SKU, in the wallet currency: its min bound's cost as the catalog states it
   * (SKU_MIN_COST_PATH). A charge that succeeded for less cannot be (ledger-state.ts chargedOf settles it at its reservation).
   */
  readonly m?: number;
  /** Fee on top, in the wallet currency (assumed field `fee`, observed on SKU records; the spec shows no fees). */
  readonly fee?: number;
}

export interface PriceBook {
  readonly skus: Readonly<Record<string, SkuPrice>>;
  /**
   * The wallet currency as the target's catalog shows it: the one `costCurrency` its v2 SKU records carry (what the
   * agent pays is in the wallet currency). Absent when no record shows one, or records disagree.
   */
  readonly wallet?: string;
}

export const EMPTY_PRICE_BOOK: PriceBook = Object.freeze({ skus: Object.freeze({}) });

/** Assumed path of a SKU record's fee (observed payloads: v1 and v2 SKU records carry `fee`). */
export const SKU_FEE_PATH = 'fee';

/**
 * Path of the currency of a v2 SKU record's cost (observed-payloads.md "v2 SKU record": `min.cost, min.costCurrency`):
 * what the agent pays, so the wallet currency. The spec's balance is a bare number, so this is where the harness learns it.
 */
export const SKU_COST_CURRENCY_PATH = 'min.costCurrency';

/** Path of what the agent pays at a v2 SKU record's min bound (observed-payloads.md "v2 SKU record": `min.cost`), wallet currency. */
const SKU_MIN_COST_PATH = 'min.cost';

/** The currency codes the records' cost is stated in (upper case, distinct, in order of first sight). */
export function costCurrencies(records: readonly unknown[]): string[] {
  const seen = new Set<string>();
  for (const record of records) {
    const value = readString(record, SKU_COST_CURRENCY_PATH)?.trim();
    if (value !== undefined && /^[A-Za-z]{3}$/.test(value)) seen.add(value.toUpperCase());
  }
  return [...seen];
}

const positive = (n: number | undefined): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0;

/** The price facts of one v2 or gift card SKU record (through the field mapping). */
export function priceOfV2Record(record: unknown, mapping: FieldMapping['v2Sku']): [number, SkuPrice] | undefined {
  const view = readSku(record, mapping);
  if (view.skuId === undefined) return undefined;
  const ratios: number[] = [];
  if (positive(view.minFaceValue) && positive(view.minWalletAmount)) ratios.push(view.minWalletAmount / view.minFaceValue);
  if (positive(view.maxFaceValue) && positive(view.maxWalletAmount)) ratios.push(view.maxWalletAmount / view.maxFaceValue);
  const fee = readNumber(record, SKU_FEE_PATH);
  const wallet = positive(view.maxWalletAmount) ? view.maxWalletAmount : view.minWalletAmount;
  const minCost = readNumber(record, SKU_MIN_COST_PATH);
  return [
    view.skuId,
    {
      ...(view.faceValueCurrency === undefined ? {} : { f: view.faceValueCurrency }),
      ...(ratios.length === 0 ? {} : { r: Math.max(...ratios) }),
      ...(positive(wallet) ? { w: wallet } : {}),
      ...(positive(minCost) ? { m: minCost } : {}),
      ...(positive(fee) ? { fee } : {}),
    },
  ];
}

/** A flat v1 record: its min/max amounts are read as wallet bounds (api/field-mapping.ts readV1Sku); no conversion ratio. */
export function priceOfV1Record(record: unknown, mapping: FieldMapping['v1Sku']): [number, SkuPrice] | undefined {
  const view = readV1Sku(record, mapping);
  if (view.skuId === undefined) return undefined;
  const fee = readNumber(record, SKU_FEE_PATH);
  const wallet = positive(view.maxWalletAmount) ? view.maxWalletAmount : view.minWalletAmount;
  return [view.skuId, { ...(positive(wallet) ? { w: wallet } : {}), ...(positive(fee) ? { fee } : {}) }];
}

/** Merges records into a book; the first figure seen for a SKU wins field by field (v2 records go first: they convert). */
export function buildPriceBook(entries: ReadonlyArray<[number, SkuPrice] | undefined>, wallet?: string): PriceBook {
  const skus: Record<string, SkuPrice> = {};
  for (const entry of entries) {
    if (entry === undefined) continue;
    const [id, price] = entry;
    skus[String(id)] = { ...price, ...(skus[String(id)] ?? {}) };
  }
  return { skus, ...(wallet === undefined ? {} : { wallet }) };
}

export type ChargeEstimate =
  | {
      readonly bounded: true;
      /** Worst case in the wallet currency. */
      readonly wallet: number;
      readonly skuId?: number;
      /** The request's own amount and currency (null = the wallet currency), as sent. */
      readonly amount?: number;
      readonly currency: string | null;
    }
  | {
      readonly bounded: false;
      readonly reason: string;
      readonly skuId?: number;
      readonly amount?: number;
      readonly currency: string | null;
    };

function field(body: unknown, name: string): unknown {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)[name] : undefined;
}

/**
 * The most a charging request can take from the wallet. Spec (Top-up request): amount is "In the customer wallet
 * currency when transactionCurrencyCode is absent; otherwise in the currency named by transactionCurrencyCode".
 * `walletCurrency` is the wallet's (the target's catalog's, which the cap's must equal); a transactionCurrencyCode
 * equal to it counts as is. Requests with numberOfPlanMonths > 1 count that many times (assumed: a multi-month purchase).
 */
export function estimateCharge(operation: Operation, body: unknown, book: PriceBook, walletCurrency: string): ChargeEstimate {
  const rawSku = field(body, 'skuId');
  const skuId = typeof rawSku === 'number' && Number.isInteger(rawSku) ? rawSku : undefined;
  const rawAmount = field(body, 'amount');
  const amount = typeof rawAmount === 'number' && Number.isFinite(rawAmount) ? rawAmount : undefined;
  const rawCurrency = field(body, 'transactionCurrencyCode');
  const currency = typeof rawCurrency === 'string' && rawCurrency.trim() !== '' ? rawCurrency.trim() : null;
  const price = skuId === undefined ? undefined : book.skus[String(skuId)];
  const months = field(body, 'numberOfPlanMonths');
  const times = typeof months === 'number' && Number.isInteger(months) && months > 1 ? months : 1;
  const base = { ...(skuId === undefined ? {} : { skuId }), ...(amount === undefined ? {} : { amount }), currency };
  const fee = price?.fee ?? 0;
  const bounded = (wallet: number): ChargeEstimate => ({ bounded: true, wallet: (Math.max(0, wallet) + fee) * times, ...base });

  if (amount !== undefined) {
    if (amount < 0) return { bounded: false, reason: `a negative amount (${amount}) cannot be counted against the cap`, ...base };
    if (currency === null || currency.toUpperCase() === walletCurrency.toUpperCase()) return bounded(amount);
    if (price?.r !== undefined && price.f !== undefined && price.f.toUpperCase() === currency.toUpperCase())
      return bounded(amount * price.r);
    return {
      bounded: false,
      reason: `${operation.id}: amount ${amount} ${currency} cannot be converted to ${walletCurrency} (SKU ${skuId ?? '?'} has no ${currency} price in the target's catalog)`,
      ...base,
    };
  }
  if (price?.w !== undefined) return bounded(price.w);
  return {
    bounded: false,
    reason: `${operation.id}: the request carries no amount and SKU ${skuId ?? '?'} has no price in the target's catalog, so its charge cannot be bounded`,
    ...base,
  };
}
