// What every runtime derives from the target's own catalog to build valid requests: readable SKUs, number plans, an
// amount a SKU's bounds accept, a valid mobile number. One copy for conformance, load (bundled into k6) and drift.
import { readCountry, readSku, readV1Sku, type FieldMapping, type SkuView } from './field-mapping.ts';
import { CATALOG_TRIGGERS, CATEGORY_IDS } from './operations.ts';

/** A country's mobile numbers: dialing prefix (calling code + first area code) and the digits after it. */
export interface NumberPlan {
  readonly prefix: string;
  readonly nationalLength: number;
}

/** 'Mobile top-up in the sandbox accepts any number, but it must follow the country's format (example: Jamaica country code 1876 followed by 7 digits).' */
export const SPEC_JAMAICA_PLAN: NumberPlan = Object.freeze({ prefix: '1876', nationalLength: 7 });

/** 'Mobile number lookup support: sandbox supports only numbers of four countries (Jamaica, India, Pakistan, Mexico ...)'. */
export const SANDBOX_LOOKUP_COUNTRIES = ['JM', 'IN', 'PK', 'MX'] as const;

/** The suffixes of the catalog's sandbox simulation triggers: an ordinary number must not end with one by chance. */
export const TRIGGER_SUFFIXES: readonly string[] = Object.freeze([...new Set(CATALOG_TRIGGERS.map((row) => row.match.mobileSuffix))]);

/** A SKU record with a readable whole skuId, seen through the field mapping (the record kept for what the view omits). */
export interface CatalogSku extends SkuView {
  readonly skuId: number;
  readonly record: Readonly<Record<string, unknown>>;
}

/** Which list a record comes from: v1 catalog/skus (flat), v2 catalog/skus, or the v2 gift card list. */
export type SkuSource = 'v1' | 'v2' | 'giftcard';

/**
 * v1 SKU records print their bounds (minAmount/maxAmount) in the SKU's currencyCode — assumed: the spec names no
 * currency for them; observed so in the embedded sandbox. With a currencyCode they are face value bounds.
 */
function v1FaceBounds(view: SkuView): SkuView {
  if (view.faceValueCurrency === undefined) return view;
  const { minWalletAmount, maxWalletAmount, ...rest } = view;
  return {
    ...rest,
    ...(minWalletAmount === undefined ? {} : { minFaceValue: minWalletAmount }),
    ...(maxWalletAmount === undefined ? {} : { maxFaceValue: maxWalletAmount }),
  };
}

/** The records of a SKU list that have a whole skuId (spec: "SKU ids are never hard-coded": they come from here). */
export function readCatalogSkus(records: readonly unknown[], source: SkuSource, mapping: FieldMapping): CatalogSku[] {
  const out: CatalogSku[] = [];
  for (const record of records) {
    if (record === null || typeof record !== 'object' || Array.isArray(record)) continue;
    const view =
      source === 'v1'
        ? v1FaceBounds(readV1Sku(record, mapping.v1Sku))
        : readSku(record, source === 'v2' ? mapping.v2Sku : mapping.giftcardSku);
    if (view.skuId === undefined || !Number.isInteger(view.skuId)) continue;
    out.push({ ...view, skuId: view.skuId, record: record as Record<string, unknown> });
  }
  return out;
}

/** Amount (and currency, when sent in the face value currency) of a transaction that the SKU's bounds accept. */
export interface ValidAmount {
  readonly amount: number;
  readonly transactionCurrencyCode?: string;
}

/** An open range of wallet-currency bounds (min < max): never a fixed denomination. */
export function isRange(sku: SkuView): boolean {
  return sku.minWalletAmount !== undefined && sku.maxWalletAmount !== undefined && sku.maxWalletAmount > sku.minWalletAmount;
}

/** An open range of face value bounds (min < max). */
export function isFaceRange(sku: SkuView): boolean {
  return sku.minFaceValue !== undefined && sku.maxFaceValue !== undefined && sku.maxFaceValue > sku.minFaceValue;
}

/**
 * The smallest amount the SKU's bounds accept: a test run spends little (DESIGN.md "First contact": smallest valid
 * amounts). Bounds are inclusive — spec 001 trigger: an amount "below the minimum of that denomination (5.00 USD)" is
 * refused, so the minimum itself is not. Open wallet range: its minimum in the wallet currency (no
 * transactionCurrencyCode: spec "amount ... in the customer wallet currency when transactionCurrencyCode is absent").
 * Open face value range: its minimum in the face value currency. Fixed: the face value in its own currency (spec:
 * transactionCurrencyCode "allowed values are those in the FaceValueCurrency field of the SKU catalog"), which needs no
 * conversion. Else the wallet minimum. A case that needs another amount (bounds, GEN) asks for it itself.
 */
export function validAmount(sku: SkuView): ValidAmount | undefined {
  if (isRange(sku)) return { amount: sku.minWalletAmount as number };
  if (sku.faceValueCurrency !== undefined && sku.minFaceValue !== undefined)
    return { amount: sku.minFaceValue, transactionCurrencyCode: sku.faceValueCurrency };
  if (sku.minWalletAmount !== undefined) return { amount: sku.minWalletAmount };
  return undefined;
}

/**
 * The RTR SKUs of a country with a readable amount, in the order a case takes them: open ranges first (never a bundle,
 * so never a loan), then the cheapest (smallest wallet price of the minimum: a test run spends little), then skuId.
 */
export function rtrSkusOf<T extends CatalogSku>(skus: readonly T[], countryCode: string): T[] {
  const price = (s: SkuView): number => s.minWalletAmount ?? Number.POSITIVE_INFINITY;
  return skus
    .filter((s) => s.categoryId === CATEGORY_IDS.Rtr && s.countryCode === countryCode && validAmount(s) !== undefined)
    .sort((a, b) => Number(isRange(b)) - Number(isRange(a)) || price(a) - price(b) || a.skuId - b.skuId);
}

/**
 * An amount in the SKU's own face value currency (transactionCurrencyCode = its FaceValueCurrency) at the cheap end of
 * its bounds: the smallest whole amount strictly inside an open range (a test run spends little, and an amount off the
 * bounds keeps a case about the currency from turning on a bound), the face value of a fixed SKU.
 */
export function faceAmount(sku: SkuView): ValidAmount | undefined {
  if (sku.faceValueCurrency === undefined || sku.minFaceValue === undefined) return undefined;
  const min = sku.minFaceValue;
  const max = sku.maxFaceValue ?? min;
  const inside = Math.floor(min) + 1;
  const amount = max <= min ? min : inside < max ? inside : Math.round(((min + max) / 2) * 100) / 100;
  return { amount, transactionCurrencyCode: sku.faceValueCurrency };
}

/** The amount a cheap valid request may add above the smallest: enough for every cent in between (GEN's amounts). */
export const CHEAP_AMOUNT_SPAN = 1;

/**
 * The `n` SKUs whose smallest wallet price (faceValueInWalletCurrency of the minimum) is lowest, skuId breaking ties;
 * SKUs without one last. Where a run may pick any SKU (GEN), it picks among these, so its money is known in advance.
 */
export function cheapestSkus<T extends SkuView & { readonly skuId: number }>(skus: readonly T[], n: number): T[] {
  const price = (s: SkuView): number => s.minWalletAmount ?? Number.POSITIVE_INFINITY;
  return [...skus].sort((a, b) => price(a) - price(b) || a.skuId - b.skuId).slice(0, n);
}

/** Number plan of a catalog/countries record: calling code + first area code, then the rest of numberLength. */
export function planOfCountry(record: unknown, mapping: FieldMapping): NumberPlan | undefined {
  const view = readCountry(record, mapping.country);
  const icc = view.dialingPrefixes[0];
  if (icc === undefined || !/^[0-9]+$/.test(icc) || view.numberLength === undefined) return undefined;
  const areaCode = view.areaCodes[0] ?? '';
  const nationalLength = view.numberLength - areaCode.length;
  if (!Number.isInteger(nationalLength) || nationalLength < 4 || nationalLength > 15) return undefined;
  return { prefix: icc + areaCode, nationalLength };
}

/** The plan of a country: the spec's own Jamaica example for JM, else what its countries record says. */
export function countryPlan(countryCode: string, record: unknown, mapping: FieldMapping): NumberPlan | undefined {
  return countryCode.toUpperCase() === 'JM' ? SPEC_JAMAICA_PLAN : planOfCountry(record, mapping);
}

/** Every prefix a countries record claims (calling code + each area code; the calling code alone without area codes). */
export function prefixesOfCountry(record: unknown, mapping: FieldMapping): string[] {
  const view = readCountry(record, mapping.country);
  const icc = view.dialingPrefixes[0];
  if (icc === undefined || !/^[0-9]+$/.test(icc)) return [];
  return view.areaCodes.length === 0 ? [icc] : view.areaCodes.map((a) => icc + a);
}

/** Other countries' prefixes inside this plan's range, which its numbers must avoid (a US '1' number must not start 1876). */
export function prefixesInside(plan: NumberPlan, otherPrefixes: readonly string[]): string[] {
  return otherPrefixes.filter((p) => p.length > plan.prefix.length && p.startsWith(plan.prefix));
}

export interface MobileOptions {
  /** The number ends with it (a trigger of the spec's table); no other trigger suffix by chance. */
  readonly suffix?: string;
  /** Numbers never to return (e.g. the target's loan numbers). */
  readonly exclude?: ReadonlySet<string>;
  /** Prefixes of other countries inside this plan (see prefixesInside). */
  readonly avoidPrefixes?: readonly string[];
  readonly random?: () => number;
}

/** A fresh number of the plan (undefined when the constraints leave none after 100 draws). */
export function makeMobile(plan: NumberPlan, options: MobileOptions = {}): string | undefined {
  const suffix = options.suffix ?? '';
  const random = options.random ?? Math.random;
  if (suffix.length > plan.nationalLength) return undefined;
  for (let attempt = 0; attempt < 100; attempt++) {
    let body = '';
    for (let i = 0; i < plan.nationalLength - suffix.length; i++) body += String(Math.floor(random() * 10));
    // A leading 0 in the national part is often not a valid subscriber number; keep away from it.
    const mobile = plan.prefix + (body.startsWith('0') ? `7${body.slice(1)}` : body) + suffix;
    if (TRIGGER_SUFFIXES.some((t) => mobile.endsWith(t) && !suffix.endsWith(t))) continue;
    if (options.exclude?.has(mobile) === true || (options.avoidPrefixes ?? []).some((p) => mobile.startsWith(p))) continue;
    return mobile;
  }
  return undefined;
}
