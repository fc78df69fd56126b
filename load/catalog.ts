// What the load flows read from the target's own catalog in setup(): SKUs per category with an amount their bounds
// accept, gift card SKUs, and number plans per country. SKU ids are never hard-coded (spec: "SKU ids are never
// hard-coded, because pricing and availability change"); payload fields are read through the field mapping.
import type { ClientCore } from '../api/client-core.ts';
import { readCountry, readField, readSku, readString, readV1Sku, type FieldMapping, type SkuView } from '../api/field-mapping.ts';
import { CATEGORY_IDS, type ApiVersion, type CategoryName } from '../api/operations.ts';

/** A SKU as the flows need it: compact, because setup data is copied into every VU. */
export interface SkuPick {
  readonly skuId: number;
  readonly productId?: number;
  readonly countryCode?: string;
  readonly categoryId?: number;
  /** An amount inside the SKU's bounds, in `currency` (its FaceValueCurrency) when given, else in the wallet currency. */
  readonly amount?: number;
  readonly currency?: string;
  /** Open range (min < max): never a bundle, so never subject to a loan. */
  readonly range: boolean;
}

/** A country's mobile number plan: calling code (+ first area code) and the number of digits after it. */
export interface NumberPlan {
  readonly country: string;
  readonly prefix: string;
  readonly nationalLength: number;
  /** Longer prefixes of other countries inside this plan (a US '1' number must not start 1876, Jamaica's). */
  readonly avoid: readonly string[];
}

export interface VersionCatalog {
  readonly skus: readonly SkuPick[];
  readonly giftcards: readonly SkuPick[];
  readonly plans: readonly NumberPlan[];
}

export type CatalogData = Partial<Record<ApiVersion, VersionCatalog>>;

/** 'Mobile top-up in the sandbox accepts any number, but it must follow the country's format (example: Jamaica country code 1876 followed by 7 digits).' */
const SPEC_JAMAICA: NumberPlan = { country: 'JM', prefix: '1876', nationalLength: 7, avoid: [] };

/** 'Mobile number lookup support: sandbox supports only numbers of four countries (Jamaica, India, Pakistan, Mexico ...)'. */
export const LOOKUP_COUNTRIES: readonly string[] = ['JM', 'IN', 'PK', 'MX'];

/** The spec's trigger suffixes (Sandbox simulation triggers): an ordinary number must not end with one by chance. */
const TRIGGER_SUFFIXES = ['666666', '555555', '510', '500', '888'];

/** Payload path of a countries record's area codes (assumed; observed `areaCodes`). */
const AREA_CODES_PATH = 'areaCodes';

export class CatalogError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CatalogError';
  }
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/**
 * An amount the SKU's bounds accept, in its FaceValueCurrency (spec: transactionCurrencyCode "allowed values are those
 * in the FaceValueCurrency field of the SKU catalog"): the middle of an open range, else the face value. Without a
 * face currency, the wallet-currency bounds and no currency code.
 */
export function pickAmount(view: SkuView): { amount?: number; currency?: string; range: boolean } {
  const faceRange = view.minFaceValue !== undefined && view.maxFaceValue !== undefined && view.maxFaceValue > view.minFaceValue;
  const walletRange = view.minWalletAmount !== undefined && view.maxWalletAmount !== undefined && view.maxWalletAmount > view.minWalletAmount;
  const middle = (min: number, max: number): number => {
    const whole = Math.round((min + max) / 2);
    return whole > min && whole < max ? whole : round2((min + max) / 2);
  };
  if (view.faceValueCurrency !== undefined) {
    if (faceRange) return { amount: middle(view.minFaceValue as number, view.maxFaceValue as number), currency: view.faceValueCurrency, range: true };
    if (view.minFaceValue !== undefined) return { amount: view.minFaceValue, currency: view.faceValueCurrency, range: false };
    // v1 records carry their bounds (minAmount/maxAmount) in the face value currency.
    if (walletRange) return { amount: middle(view.minWalletAmount as number, view.maxWalletAmount as number), currency: view.faceValueCurrency, range: true };
    if (view.minWalletAmount !== undefined) return { amount: view.minWalletAmount, currency: view.faceValueCurrency, range: false };
  }
  if (walletRange) return { amount: middle(view.minWalletAmount as number, view.maxWalletAmount as number), range: true };
  if (view.minWalletAmount !== undefined) return { amount: view.minWalletAmount, range: false };
  return { range: faceRange || walletRange };
}

export function toSkuPick(view: SkuView): SkuPick | undefined {
  if (view.skuId === undefined || !Number.isInteger(view.skuId)) return undefined;
  const amount = pickAmount(view);
  return {
    skuId: view.skuId,
    range: amount.range,
    ...(view.productId === undefined ? {} : { productId: view.productId }),
    ...(view.countryCode === undefined ? {} : { countryCode: view.countryCode.toUpperCase() }),
    ...(view.categoryId === undefined ? {} : { categoryId: view.categoryId }),
    ...(amount.amount === undefined ? {} : { amount: amount.amount }),
    ...(amount.currency === undefined ? {} : { currency: amount.currency }),
  };
}

/** Number plan of a countries record: calling code + first area code, then numberLength minus the area code digits. */
export function planOf(record: unknown, mapping: FieldMapping): Omit<NumberPlan, 'avoid'> | undefined {
  const view = readCountry(record, mapping.country);
  const code = view.countryCode?.toUpperCase();
  const icc = view.dialingPrefixes[0];
  if (code === undefined || icc === undefined || !/^[0-9]+$/.test(icc) || view.numberLength === undefined) return undefined;
  if (code === 'JM') return SPEC_JAMAICA;
  const area = (readString(record, AREA_CODES_PATH) ?? '').split(',').map((a) => a.trim()).find((a) => /^[0-9]+$/.test(a)) ?? '';
  const nationalLength = view.numberLength - area.length;
  if (!Number.isInteger(nationalLength) || nationalLength < 4 || nationalLength > 15) return undefined;
  return { country: code, prefix: icc + area, nationalLength };
}

/** Every prefix a countries record claims (calling code + each area code), to keep other plans' numbers out of it. */
function prefixesOf(record: unknown, mapping: FieldMapping): string[] {
  const icc = readCountry(record, mapping.country).dialingPrefixes[0];
  if (icc === undefined || !/^[0-9]+$/.test(icc)) return [];
  const areas = (readString(record, AREA_CODES_PATH) ?? '').split(',').map((a) => a.trim()).filter((a) => /^[0-9]+$/.test(a));
  return areas.length === 0 ? [icc] : areas.map((a) => icc + a);
}

export function plansOf(records: readonly unknown[], mapping: FieldMapping): NumberPlan[] {
  const all = records.map((record) => ({ plan: planOf(record, mapping), prefixes: prefixesOf(record, mapping) }));
  const plans: NumberPlan[] = [];
  for (const { plan } of all) {
    if (plan === undefined) continue;
    const avoid = all
      .filter((other) => other.plan?.country !== plan.country)
      .flatMap((other) => other.prefixes)
      .filter((p) => p.length > plan.prefix.length && p.startsWith(plan.prefix));
    plans.push({ ...plan, avoid });
  }
  return plans;
}

/** A fresh valid-looking number of the plan that ends with no trigger suffix and starts with no other country's prefix. */
export function makeMobile(plan: NumberPlan, random: () => number = Math.random): string | undefined {
  for (let attempt = 0; attempt < 100; attempt++) {
    let national = '';
    for (let i = 0; i < plan.nationalLength; i++) national += String(Math.floor(random() * 10));
    // A leading 0 is rarely a valid subscriber number.
    if (national.startsWith('0')) national = `7${national.slice(1)}`;
    const mobile = plan.prefix + national;
    if (TRIGGER_SUFFIXES.some((suffix) => mobile.endsWith(suffix))) continue;
    if (plan.avoid.some((prefix) => mobile.startsWith(prefix))) continue;
    return mobile;
  }
  return undefined;
}

export function skusOf(catalog: VersionCatalog, category: CategoryName): SkuPick[] {
  return catalog.skus.filter((sku) => sku.categoryId === CATEGORY_IDS[category]);
}

async function readArray(client: ClientCore, operationId: string, query?: Record<string, number>): Promise<unknown[]> {
  const { response } = await client.call(operationId, query === undefined ? {} : { query });
  const code = response.envelope?.responseCode;
  const describe = response.transportError?.message ?? `HTTP ${response.httpStatus ?? '-'}, responseCode ${code ?? '-'}`;
  const payLoad = response.envelope?.payLoad;
  if (response.classification.outcome !== 'Successful' || !Array.isArray(payLoad)) {
    throw new CatalogError(`catalog discovery: ${operationId} did not return a successful array (${describe})`);
  }
  return payLoad;
}

export interface DiscoverNeeds {
  readonly skus?: boolean;
  readonly giftcards?: boolean;
  readonly countries?: boolean;
}

/**
 * Reads what a scenario needs of one version's catalog. v2 gift cards come from the gift card list (first page of
 * 100); v1 has no such list, so its gift card SKUs are the v1 catalog/skus records of category Gift Card.
 */
export async function discoverCatalog(client: ClientCore, version: ApiVersion, mapping: FieldMapping, needs: DiscoverNeeds): Promise<VersionCatalog> {
  const readSkus = needs.skus === true || (needs.giftcards === true && version === 'v1');
  const [skuRecords, giftRecords, countryRecords] = await Promise.all([
    readSkus ? readArray(client, `${version}.catalog.skus`) : Promise.resolve([]),
    needs.giftcards === true && version === 'v2' ? readArray(client, 'v2.catalog.skus-giftcards', { pageSize: 100 }) : Promise.resolve([]),
    needs.countries === true ? readArray(client, `${version}.catalog.countries`) : Promise.resolve([]),
  ]);
  const view = (record: unknown): SkuView => (version === 'v1' ? readV1Sku(record, mapping.v1Sku) : readSku(record, mapping.v2Sku));
  const skus = skuRecords.map((record) => toSkuPick(view(record))).filter((sku): sku is SkuPick => sku !== undefined);
  if (readSkus && skus.length === 0) throw new CatalogError(`catalog discovery: ${version} catalog/skus has no record with a readable skuId (check fieldMapping.${version}Sku.skuId)`);
  const giftcards =
    version === 'v2'
      ? giftRecords.map((record) => toSkuPick(readSku(record, mapping.giftcardSku))).filter((sku): sku is SkuPick => sku !== undefined)
      : skus.filter((sku) => sku.categoryId === CATEGORY_IDS['Gift Card']);
  return { skus: needs.skus === true ? skus : [], giftcards, plans: plansOf(countryRecords, mapping) };
}

/** The payload value at a dotted path of an exchange's envelope payLoad (transaction id, ICCID). */
export function payloadField(payLoad: unknown, path: string): string | undefined {
  const value = readField(payLoad, path);
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}
