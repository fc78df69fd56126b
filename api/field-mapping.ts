// The payload field mapping: where the harness finds the few payload fields it needs to drive flows (a SKU's id,
// category and amount bounds, a transaction's id). The spec does not show these fields: every default below is
// OBSERVED (spec/observed-payloads.md), not specified, and each is overridable per target in config (`fieldMapping`).
import { CATEGORY_IDS, type CategoryName } from './operations.ts';

/** Dotted paths into a payload record, matched case-insensitively per segment (e.g. `min.faceValue`). */
export interface SkuFieldMapping {
  skuId: string;
  skuName: string;
  productId: string;
  /** A category NAME such as "Rtr" in observed data (not the numeric id); numbers are accepted too. */
  category: string;
  countryCode: string;
  minFaceValue: string;
  maxFaceValue: string;
  /** Currency of the face value: what transactionCurrencyCode may name (spec: FaceValueCurrency). */
  faceValueCurrency: string;
  minFaceValueInWalletCurrency: string;
  maxFaceValueInWalletCurrency: string;
  /** Dialing prefix(es) of the SKU's country; an array of strings in observed data. */
  internationalCountryCode: string;
  /** National number length (digits after the dialing prefix). */
  localPhoneNumberLength: string;
}

export interface V1SkuFieldMapping {
  skuId: string;
  productId: string;
  productName: string;
  category: string;
  countryCode: string;
  minAmount: string;
  maxAmount: string;
  currencyCode: string;
  internationalCountryCode: string;
  localPhoneNumberLength: string;
}

export interface CountryFieldMapping {
  countryCode: string;
  countryName: string;
  internationalCountryCode: string;
  numberLength: string;
}

export interface TransactionFieldMapping {
  transactionId: string;
  invoiceAmount: string;
}

export interface FieldMapping {
  v2Sku: SkuFieldMapping;
  v1Sku: V1SkuFieldMapping;
  country: CountryFieldMapping;
  giftcardSku: SkuFieldMapping;
  transaction: TransactionFieldMapping;
}

export type FieldMappingOverrides = { [S in keyof FieldMapping]?: Partial<FieldMapping[S]> };

// Observed in public client code of the real gateway (observed-payloads.md "v2 SKU record"), not in the spec.
const V2_SKU: SkuFieldMapping = {
  skuId: 'skuId',
  skuName: 'skuName',
  productId: 'productId',
  category: 'category',
  countryCode: 'countryCode',
  minFaceValue: 'min.faceValue',
  maxFaceValue: 'max.faceValue',
  faceValueCurrency: 'min.faceValueCurrency',
  minFaceValueInWalletCurrency: 'min.faceValueInWalletCurrency',
  maxFaceValueInWalletCurrency: 'max.faceValueInWalletCurrency',
  internationalCountryCode: 'internationalCountryCode',
  localPhoneNumberLength: 'localPhoneNumberLength',
};

/** The default mapping. Observed, not specified: conformance never asserts these names. */
export const DEFAULT_FIELD_MAPPING: Readonly<FieldMapping> = Object.freeze({
  v2Sku: Object.freeze({ ...V2_SKU }),
  // Observed flat v1 SKU record ([doc] in observed-payloads.md).
  v1Sku: Object.freeze({
    skuId: 'skuId',
    productId: 'productId',
    productName: 'productName',
    category: 'category',
    countryCode: 'countryCode',
    minAmount: 'minAmount',
    maxAmount: 'maxAmount',
    currencyCode: 'currencyCode',
    internationalCountryCode: 'internationalCountryCode',
    localPhoneNumberLength: 'localPhoneNumberLength',
  }),
  // Observed country record ([doc]).
  country: Object.freeze({
    countryCode: 'countryCode',
    countryName: 'countryName',
    internationalCountryCode: 'internationalCountryCode',
    numberLength: 'numberLength',
  }),
  // Gift card SKU list records are not seen publicly; assumed to share the v2 SKU record's names.
  giftcardSku: Object.freeze({ ...V2_SKU }),
  // Observed top-up success payload ([seen], v1 era).
  transaction: Object.freeze({ transactionId: 'transactionId', invoiceAmount: 'invoiceAmount' }),
}) as Readonly<FieldMapping>;

export const FIELD_MAPPING_SECTIONS = Object.freeze(Object.keys(DEFAULT_FIELD_MAPPING)) as readonly (keyof FieldMapping)[];

/** Defaults with per-field overrides applied; unknown sections or fields are the config schema's job to reject. */
export function mergeFieldMapping(defaults: Readonly<FieldMapping>, overrides: FieldMappingOverrides | undefined): FieldMapping {
  const merged = {} as Record<keyof FieldMapping, Record<string, string>>;
  for (const section of FIELD_MAPPING_SECTIONS) {
    const base: Record<string, string> = { ...defaults[section] };
    for (const [field, path] of Object.entries(overrides?.[section] ?? {})) {
      if (typeof path === 'string') base[field] = path;
    }
    merged[section] = base;
  }
  return merged as unknown as FieldMapping;
}

function getCaseInsensitive(record: Record<string, unknown>, key: string): unknown {
  if (Object.prototype.hasOwnProperty.call(record, key)) return record[key];
  const lower = key.toLowerCase();
  for (const name of Object.keys(record)) {
    if (name.toLowerCase() === lower) return record[name];
  }
  return undefined;
}

/**
 * The value at a dotted path, each segment matched exactly first, then case-insensitively (one public client sends
 * PascalCase; the spec names fields like `SkuName`). Undefined when any segment is missing or not an object.
 */
export function readField(record: unknown, dottedPath: string): unknown {
  let current: unknown = record;
  for (const segment of dottedPath.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = getCaseInsensitive(current as Record<string, unknown>, segment);
    if (current === undefined) return undefined;
  }
  return current;
}

/** A number from a number or a numeric string; anything else is undefined. */
export function readNumber(record: unknown, dottedPath: string): number | undefined {
  const value = readField(record, dottedPath);
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

export function readString(record: unknown, dottedPath: string): string | undefined {
  const value = readField(record, dottedPath);
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Strings of a field that may be one string, a number or an array of them (e.g. `internationalCountryCode`). */
export function readStrings(record: unknown, dottedPath: string): string[] {
  const value = readField(record, dottedPath);
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return items.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number').map(String);
}

const normalizeCategory = (name: string): string => name.toLowerCase().replace(/[\s_-]+/g, '');
const CATEGORY_BY_KEY: ReadonlyMap<string, { name: CategoryName; id: number }> = new Map(
  (Object.entries(CATEGORY_IDS) as [CategoryName, number][]).map(([name, id]) => [normalizeCategory(name), { name, id }]),
);

/**
 * The spec's category id (Pin=1, Rtr=2, Bill Pay=4, Sim=5, Gift Card=6, eSim=7) of a category value as payloads
 * carry it: a name in any case, with or without spaces/underscores ("Rtr", "RTR", "bill_pay", "GiftCard"), or the id.
 */
export function categoryIdOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Object.values(CATEGORY_IDS).includes(value as never) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  if (/^\d+$/.test(value.trim())) return categoryIdOf(Number(value.trim()));
  return CATEGORY_BY_KEY.get(normalizeCategory(value))?.id;
}

/** What the harness needs of one SKU record, read through the mapping; fields it cannot find are undefined. */
export interface SkuView {
  readonly skuId?: number;
  readonly productId?: number;
  readonly name?: string;
  readonly categoryId?: number;
  readonly countryCode?: string;
  readonly minFaceValue?: number;
  readonly maxFaceValue?: number;
  readonly faceValueCurrency?: string;
  /** Amount bounds in the wallet currency: what `amount` means when no transactionCurrencyCode is sent. */
  readonly minWalletAmount?: number;
  readonly maxWalletAmount?: number;
  readonly dialingPrefixes: readonly string[];
  readonly localPhoneNumberLength?: number;
}

function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** A v2 (or gift card) SKU record seen through the mapping. */
export function readSku(record: unknown, mapping: SkuFieldMapping): SkuView {
  return compact({
    skuId: readNumber(record, mapping.skuId),
    productId: readNumber(record, mapping.productId),
    name: readString(record, mapping.skuName),
    categoryId: categoryIdOf(readField(record, mapping.category)),
    countryCode: readString(record, mapping.countryCode),
    minFaceValue: readNumber(record, mapping.minFaceValue),
    maxFaceValue: readNumber(record, mapping.maxFaceValue),
    faceValueCurrency: readString(record, mapping.faceValueCurrency),
    minWalletAmount: readNumber(record, mapping.minFaceValueInWalletCurrency),
    maxWalletAmount: readNumber(record, mapping.maxFaceValueInWalletCurrency),
    dialingPrefixes: readStrings(record, mapping.internationalCountryCode),
    localPhoneNumberLength: readNumber(record, mapping.localPhoneNumberLength),
  });
}

/** A flat v1 SKU record seen through the mapping; its min/max amounts are taken as wallet-currency bounds. */
export function readV1Sku(record: unknown, mapping: V1SkuFieldMapping): SkuView {
  return compact({
    skuId: readNumber(record, mapping.skuId),
    productId: readNumber(record, mapping.productId),
    name: readString(record, mapping.productName),
    categoryId: categoryIdOf(readField(record, mapping.category)),
    countryCode: readString(record, mapping.countryCode),
    minWalletAmount: readNumber(record, mapping.minAmount),
    maxWalletAmount: readNumber(record, mapping.maxAmount),
    faceValueCurrency: readString(record, mapping.currencyCode),
    dialingPrefixes: readStrings(record, mapping.internationalCountryCode),
    localPhoneNumberLength: readNumber(record, mapping.localPhoneNumberLength),
  });
}

export interface CountryView {
  readonly countryCode?: string;
  readonly countryName?: string;
  readonly dialingPrefixes: readonly string[];
  readonly numberLength?: number;
}

export function readCountry(record: unknown, mapping: CountryFieldMapping): CountryView {
  return compact({
    countryCode: readString(record, mapping.countryCode),
    countryName: readString(record, mapping.countryName),
    dialingPrefixes: readStrings(record, mapping.internationalCountryCode),
    numberLength: readNumber(record, mapping.numberLength),
  });
}

export interface TransactionView {
  readonly transactionId?: number | string;
  readonly invoiceAmount?: number;
}

export function readTransaction(record: unknown, mapping: TransactionFieldMapping): TransactionView {
  const id = readField(record, mapping.transactionId);
  return compact({
    transactionId: typeof id === 'number' || typeof id === 'string' ? id : undefined,
    invoiceAmount: readNumber(record, mapping.invoiceAmount),
  });
}
