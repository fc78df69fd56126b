// The payload field mapping: where the harness finds the payload fields it needs to drive flows and checks (a SKU's id,
// category and amount bounds, a transaction's id, a filter's field). The spec shows almost none of them: every default
// is labelled (FIELD_MAPPING_SOURCES) and overridable per target in config (`fieldMapping`). Conformance, load and
// drift read payload fields only through this one mapping.
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
  /** Currency of the max bound's face value (observed records carry one per bound). */
  maxFaceValueCurrency: string;
  minFaceValueInWalletCurrency: string;
  maxFaceValueInWalletCurrency: string;
  /** Dialing prefix(es) of the SKU's country; an array of strings in observed data. */
  internationalCountryCode: string;
  /** National number length (digits after the dialing prefix). */
  localPhoneNumberLength: string;
  /** True when the product's bundles must be read per number first (two-step bundle purchase). */
  requireFetchBundle: string;
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
  /** Comma-separated area codes inside the calling code (NANP countries). */
  areaCodes: string;
}

/** v2 catalog/getproducts record. */
export interface ProductFieldMapping {
  productId: string;
  category: string;
  countryCode: string;
  operatorId: string;
}

/** v2 catalog/operators record. */
export interface OperatorFieldMapping {
  operatorId: string;
  countryCode: string;
}

/** v1 catalog/carriers record. */
export interface CarrierFieldMapping {
  productId: string;
  countryCode: string;
  currencyCode: string;
}

/** v1 catalog/sku/logos record ("array of images"). */
export interface LogoFieldMapping {
  productId: string;
}

/** v1 catalog/sku/description record. */
export interface SkuDescriptionFieldMapping {
  skuId: string;
}

/** v2 catalog/bundles record (a SKU record, plus loan information where dues exist). */
export interface BundleFieldMapping {
  loanInFaceCurrency: string;
}

/** Result payload of a transaction (write response or status check). */
export interface TransactionFieldMapping {
  transactionId: string;
  /** The amount charged to the wallet. */
  chargedAmount: string;
  /** eSIM order result: the ICCID the eSIM status endpoint takes. */
  esimIccid: string;
}

/** Envelope of the v2 gift card SKU list: where the next page starts. */
export interface GiftcardListFieldMapping {
  nextCursor: string;
}

/** The six fields the spec says are localized (Versioning 2), as the records spell them. */
export interface LocalizedFieldMapping {
  skuName: string;
  productName: string;
  benefitType: string;
  productDescription: string;
  operatorName: string;
  additionalInformation: string;
}

export interface FieldMapping {
  v2Sku: SkuFieldMapping;
  v1Sku: V1SkuFieldMapping;
  giftcardSku: SkuFieldMapping;
  country: CountryFieldMapping;
  product: ProductFieldMapping;
  operator: OperatorFieldMapping;
  carrier: CarrierFieldMapping;
  logo: LogoFieldMapping;
  skuDescription: SkuDescriptionFieldMapping;
  bundle: BundleFieldMapping;
  transaction: TransactionFieldMapping;
  giftcardList: GiftcardListFieldMapping;
  localized: LocalizedFieldMapping;
}

export type FieldMappingOverrides = { [S in keyof FieldMapping]?: Partial<FieldMapping[S]> };

/**
 * Where a default comes from: `spec` names the spec itself gives (SkuName, ...); `observed` names seen in public
 * client code or docs of the real gateway (spec/observed-payloads.md); `assumed` names the sandbox chose where nothing
 * public shows one. Conformance never asserts that a field exists: a record without it is a skip with the reason.
 */
export type FieldSource = 'spec' | 'observed' | 'assumed';

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
  maxFaceValueCurrency: 'max.faceValueCurrency',
  minFaceValueInWalletCurrency: 'min.faceValueInWalletCurrency',
  maxFaceValueInWalletCurrency: 'max.faceValueInWalletCurrency',
  internationalCountryCode: 'internationalCountryCode',
  localPhoneNumberLength: 'localPhoneNumberLength',
  requireFetchBundle: 'requireFetchBundle',
};

const V2_SKU_SOURCES: Record<keyof SkuFieldMapping, FieldSource> = {
  skuId: 'observed',
  skuName: 'observed',
  productId: 'observed',
  category: 'observed',
  countryCode: 'observed',
  minFaceValue: 'observed',
  maxFaceValue: 'observed',
  faceValueCurrency: 'observed',
  maxFaceValueCurrency: 'observed',
  minFaceValueInWalletCurrency: 'observed',
  maxFaceValueInWalletCurrency: 'observed',
  internationalCountryCode: 'observed',
  localPhoneNumberLength: 'observed',
  requireFetchBundle: 'observed',
};

/** The default mapping. Conformance never asserts these names; it reads through them. */
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
  // Gift card SKU list records are not seen publicly; assumed to share the v2 SKU record's names.
  giftcardSku: Object.freeze({ ...V2_SKU }),
  // Observed country record ([doc]).
  country: Object.freeze({
    countryCode: 'countryCode',
    countryName: 'countryName',
    internationalCountryCode: 'internationalCountryCode',
    numberLength: 'numberLength',
    areaCodes: 'areaCodes',
  }),
  product: Object.freeze({ productId: 'productId', category: 'category', countryCode: 'countryCode', operatorId: 'operatorId' }),
  operator: Object.freeze({ operatorId: 'operatorId', countryCode: 'countryCode' }),
  carrier: Object.freeze({ productId: 'productId', countryCode: 'countryCode', currencyCode: 'currencyCode' }),
  logo: Object.freeze({ productId: 'productId' }),
  skuDescription: Object.freeze({ skuId: 'skuId' }),
  bundle: Object.freeze({ loanInFaceCurrency: 'loanAmountInFaceValueCurrency' }),
  transaction: Object.freeze({ transactionId: 'transactionId', chargedAmount: 'invoiceAmount', esimIccid: 'esimDetail.iccid' }),
  giftcardList: Object.freeze({ nextCursor: 'next_cursor' }),
  localized: Object.freeze({
    skuName: 'SkuName',
    productName: 'ProductName',
    benefitType: 'BenefitType',
    productDescription: 'ProductDescription',
    operatorName: 'OperatorName',
    additionalInformation: 'AdditionalInformation',
  }),
}) as Readonly<FieldMapping>;

/** The label of every default of DEFAULT_FIELD_MAPPING (a test keeps the two in step). */
export const FIELD_MAPPING_SOURCES: { readonly [S in keyof FieldMapping]: Readonly<Record<keyof FieldMapping[S], FieldSource>> } =
  Object.freeze({
    v2Sku: V2_SKU_SOURCES,
    v1Sku: {
      skuId: 'observed',
      productId: 'observed',
      productName: 'observed',
      category: 'observed',
      countryCode: 'observed',
      minAmount: 'observed',
      maxAmount: 'observed',
      currencyCode: 'observed',
      internationalCountryCode: 'observed',
      localPhoneNumberLength: 'observed',
    },
    // Not seen publicly: the sandbox serves gift card records with the v2 SKU record's names.
    giftcardSku: Object.fromEntries(Object.keys(V2_SKU).map((k) => [k, 'assumed'])) as Record<keyof SkuFieldMapping, FieldSource>,
    country: {
      countryCode: 'observed',
      countryName: 'observed',
      internationalCountryCode: 'observed',
      numberLength: 'observed',
      areaCodes: 'observed',
    },
    // getproducts: productId, category, countryCode, operatorId are all in the observed record ([seen]).
    product: { productId: 'observed', category: 'observed', countryCode: 'observed', operatorId: 'observed' },
    // operators: operatorId is observed ([doc]); the record's country is not seen anywhere.
    operator: { operatorId: 'observed', countryCode: 'assumed' },
    // carriers: productId and countryCode observed ([seen]); a currency code is not.
    carrier: { productId: 'observed', countryCode: 'observed', currencyCode: 'assumed' },
    logo: { productId: 'observed' },
    skuDescription: { skuId: 'observed' },
    // The v2 SKU record carries loanAmountInFaceValueCurrency ([seen]); bundle records are assumed to be SKU records.
    bundle: { loanInFaceCurrency: 'observed' },
    // transactionId and invoiceAmount: observed top-up payload ([seen]); that invoiceAmount is the amount charged is
    // assumed; esimDetail is read by v2 clients, its fields are not seen.
    transaction: { transactionId: 'observed', chargedAmount: 'assumed', esimIccid: 'assumed' },
    // The spec names next and next_cursor but not their meaning: that next_cursor is where the next page starts is assumed.
    giftcardList: { nextCursor: 'assumed' },
    localized: {
      skuName: 'spec',
      productName: 'spec',
      benefitType: 'spec',
      productDescription: 'spec',
      operatorName: 'spec',
      additionalInformation: 'spec',
    },
  });

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

/** A field name as people write it in any case style: `sku_id`, `SkuId` and `skuId` are all `skuid`. */
function looseName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * The member names of a record a mapping key could be set to, for a line that says what to set: those that look like
 * the wanted field (`sku_id` for `skuId`) first, then the rest, at most `max`. Empty for anything but an object.
 */
export function fieldCandidates(record: unknown, dottedPath: string, max = 8): string[] {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return [];
  const wanted = looseName(dottedPath.split('.').pop() ?? dottedPath);
  const names = Object.keys(record);
  const alike = names.filter((n) => looseName(n).includes(wanted) || (looseName(n).length > 1 && wanted.includes(looseName(n))));
  return [...alike, ...names.filter((n) => !alike.includes(n))].slice(0, max);
}

/** "set <key> (fields seen in the first record: a, b, c)": the line every gap of the mapping ends with. */
export function mappingHint(key: string, record: unknown, dottedPath: string): string {
  const seen = fieldCandidates(record, dottedPath);
  return `set ${key} (now "${dottedPath}"; fields seen in the record: ${seen.length === 0 ? 'none' : seen.join(', ')})`;
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

/** A boolean, or the strings "true"/"false" in any case; anything else is undefined. */
export function readBoolean(record: unknown, dottedPath: string): boolean | undefined {
  const value = readField(record, dottedPath);
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  return undefined;
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
  readonly maxFaceValueCurrency?: string;
  /** Amount bounds in the wallet currency: what `amount` means when no transactionCurrencyCode is sent. */
  readonly minWalletAmount?: number;
  readonly maxWalletAmount?: number;
  readonly dialingPrefixes: readonly string[];
  readonly localPhoneNumberLength?: number;
  readonly requireFetchBundle?: boolean;
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
    maxFaceValueCurrency: readString(record, mapping.maxFaceValueCurrency),
    minWalletAmount: readNumber(record, mapping.minFaceValueInWalletCurrency),
    maxWalletAmount: readNumber(record, mapping.maxFaceValueInWalletCurrency),
    dialingPrefixes: readStrings(record, mapping.internationalCountryCode),
    localPhoneNumberLength: readNumber(record, mapping.localPhoneNumberLength),
    requireFetchBundle: readBoolean(record, mapping.requireFetchBundle),
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
  /** Area codes within the calling code (digits only), in the record's order. */
  readonly areaCodes: readonly string[];
}

export function readCountry(record: unknown, mapping: CountryFieldMapping): CountryView {
  return compact({
    countryCode: readString(record, mapping.countryCode),
    countryName: readString(record, mapping.countryName),
    dialingPrefixes: readStrings(record, mapping.internationalCountryCode),
    numberLength: readNumber(record, mapping.numberLength),
    areaCodes: readStrings(record, mapping.areaCodes)
      .flatMap((text) => text.split(','))
      .map((a) => a.trim())
      .filter((a) => /^[0-9]+$/.test(a)),
  });
}

export interface TransactionView {
  readonly transactionId?: number | string;
  readonly chargedAmount?: number;
  readonly esimIccid?: string;
}

const scalarId = (value: unknown): number | string | undefined =>
  typeof value === 'number' || (typeof value === 'string' && value !== '') ? value : undefined;

/** A transaction result (write response or status payload) seen through the mapping. */
export function readTransaction(record: unknown, mapping: TransactionFieldMapping): TransactionView {
  const iccid = scalarId(readField(record, mapping.esimIccid));
  return compact({
    transactionId: scalarId(readField(record, mapping.transactionId)),
    chargedAmount: readNumber(record, mapping.chargedAmount),
    esimIccid: iccid === undefined ? undefined : String(iccid),
  });
}
