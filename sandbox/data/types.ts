// Record types of the embedded sandbox's catalog data: countries, operators, products, SKUs, promotions, lookups.
// Served records keep the field names of spec/observed-payloads.md; internal helper data lives in SkuMeta/maps.

import { CATEGORY_IDS, type CategoryId, type CategoryName } from '../../api/categories.ts';

/** Category names as the v2 SKU record spells them (`category: "Rtr"`), and their ids: the spec's one table. */
export type { CategoryId, CategoryName };
export const CATEGORY_ID_BY_NAME: Readonly<Record<CategoryName, CategoryId>> = CATEGORY_IDS;

/** Languages the sandbox localizes into (spec Versioning 2: 'ar'; default English). */
export type Lang = 'en' | 'ar';
export type DenominationType = 'Fixed' | 'Range';
/** The wallet (customer account) currency of the sandbox agent. */
export const WALLET_CURRENCY = 'USD';

/** catalog/countries record, exactly the observed fields (all strings). */
export interface CountryRecord {
  countryCode: string;
  countryName: string;
  region: string;
  /** ITU calling code, e.g. "1" for Jamaica and the US, "91" for India. */
  internationalCountryCode: string;
  /** Comma-separated area codes within the calling code (NANP countries, e.g. "876"), else "". */
  areaCodes: string;
  /** Digits after internationalCountryCode, e.g. "10" for Jamaica (876 + 7 digits). */
  numberLength: string;
}

/** Internal country model. Serve `data.served.countries` (CountryRecord only), not these objects. */
export interface Country extends CountryRecord {
  /** Dialing prefixes a full number starts with, e.g. Jamaica ['1876'], US ['1'], India ['91']. */
  dialPrefixes: string[];
  /** Prefixes of other countries inside this one's range (US '1' excludes '1876', '1868', ...). */
  excludedPrefixes: string[];
  /** Digits after the dialing prefix, e.g. Jamaica 7, US 10, India 10. */
  nationalNumberLength: number;
  /** Local (delivery) currency. */
  currencyCode: string;
  /** IANA time zone; promotion dates are printed in it. */
  timeZone: string;
}

/** v2 catalog/operators record (observed operatorId, operatorName, imageUrl; countryCode assumed, used by the filter). */
export interface Operator {
  operatorId: number;
  operatorName: string;
  imageUrl: string;
  countryCode: string;
}

/** v2 catalog/getproducts record (observed fields, plus categoryId and currencyCode for the filters). */
export interface Product {
  productId: number;
  productName: string;
  category: CategoryName;
  categoryId: CategoryId;
  countryCode: string;
  operatorId: number;
  operatorName: string;
  imageUrl: string;
  description: string;
  requireFetchBundle: boolean;
  currencyCode: string;
}

/** `min` / `max` object of the v2 SKU record. */
export interface SkuAmount {
  faceValue: number;
  faceValueCurrency: string;
  deliveredAmount: number;
  deliveryCurrencyCode: string;
  cost: number;
  costCurrency: string;
  faceValueInWalletCurrency: number;
}

/** The v2 SKU record exactly as observed (also the gift card list and bundle record shape). */
export interface Sku {
  skuId: number;
  skuName: string;
  productId: number;
  productName: string;
  category: CategoryName;
  subCategory: string;
  operatorId: number;
  operatorName: string;
  countryCode: string;
  region: string;
  imageUrl: string;
  productDescription: string;
  additionalInformation: string;
  benefitType: string;
  /** e.g. "5D", "30D", "" when unlimited. */
  validity: string;
  /** Percent. */
  discount: number;
  fee: number;
  /** Delivery-currency units per one wallet (USD) unit. */
  exchangeRate: number;
  isSalesTaxCharged: boolean;
  salesTax: number;
  localPhoneNumberLength: number;
  internationalCountryCode: string[];
  allowDecimal: boolean;
  /** 'Exact' when delivered in the face currency, 'Estimated' when FX-converted (assumed values). */
  deliveryAmountType: string;
  requireFetchBundle: boolean;
  loanAmountInFaceValueCurrency: number;
  loanAmountInDeliveryCurrency: number;
  loanAmountInWalletCurrency: number;
  min: SkuAmount;
  max: SkuAmount;
}

/** The flat v1 catalog/skus record (observed field list). */
export interface V1Sku {
  skuId: number;
  productId: number;
  productName: string;
  productDescription: string;
  benefitType: string;
  validity: string;
  /** Face value of a fixed denomination; 0 for a range denomination. */
  faceValue: number;
  /** Bounds in `currencyCode` (the SKU's face value currency). */
  minAmount: number;
  maxAmount: number;
  discount: number;
  /** 'Fixed' or 'Range' (assumed values). */
  pricing: string;
  category: CategoryName;
  region: string;
  isSalesTaxCharged: boolean;
  salesTax: number;
  exchangeRate: number;
  currencyCode: string;
  countryCode: string;
  localPhoneNumberLength: number;
  internationalCountryCode: string[];
  allowDecimal: boolean;
  fee: number;
  operatorName: string;
  deliveryCurrencyCode: string;
  supportedTransactionCurrencies: string[];
  carrierName: string;
  additionalInformation: string;
  loanAmount: number;
}

/** Internal facts about one SKU that the served record does not carry (validation, pricing, localization). */
export interface SkuMeta {
  skuId: number;
  productId: number;
  operatorId: number;
  countryCode: string;
  category: CategoryName;
  categoryId: CategoryId;
  denominationType: DenominationType;
  /** Allowed transactionCurrencyCode values (the SKU's FaceValueCurrency). */
  faceValueCurrencies: string[];
  /** Wallet (USD) units per one face-currency unit. */
  walletPerFaceUnit: number;
  /** Delivery-currency units per one face-currency unit. */
  deliveryPerFaceUnit: number;
  isGiftcard: boolean;
  /** A dynamic bundle of a product with requireFetchBundle (served by bundlesFor). */
  isBundle: boolean;
  /** eSIM data allowance in MB (eSim SKUs only). */
  dataAllowanceMb?: number;
  /** Validity in days (0 = none). */
  validityDays: number;
  /** The served record in each language (precomputed). */
  localized: Readonly<Record<Lang, Sku>>;
  /** The v1 flat record (English). */
  v1: V1Sku;
}

/** Observed promotion record; dates are printed in the destination country's time zone. */
export interface Promotion {
  promotionName: string;
  /** "YYYY-MM-DDTHH:mm:ss±HH:MM" in the destination time zone (assumed format). */
  startDate: string;
  endDate: string;
  description: string;
  restriction: string;
  /** e.g. "5.00 USD - 100.00 USD" (assumed format). */
  promotionMinMax: string;
  product: PromotionProduct;
}
export interface PromotionProduct {
  productId: number;
  productName: string;
  countryCode: string;
  operatorName: string;
}

export interface ExchangeRate {
  skuId: number;
  productName: string;
  currencyCode: string;
  exchangeRate: number;
}

export interface Logo {
  productId: number;
  imageUrl: string;
}

export interface Carrier {
  productId: number;
  carrierName: string;
  category: CategoryName;
  countryCode: string;
  denominationType: DenominationType;
  currencyCode: string;
}

export interface SkuDescription {
  skuId: number;
  productName: string;
  description: string;
}

/** v1 lookup/mobile payload (observed fields): the number's operator and its main RTR product. */
export interface V1LookupRecord {
  productId: number;
  productName: string;
  category: CategoryName;
  countryCode: string;
  operator: string;
  operatorId: number;
  denominationType: DenominationType;
  skus: V1Sku[];
}

/** Resolution of a number: its country, its operator (hash of the number among the country's RTR operators). */
export interface LookupResult {
  country: Country;
  operator: Operator;
  /** The operator's RTR and PIN products. */
  products: Product[];
  /** The English v2 records of those products' SKUs. */
  skus: Sku[];
  v1: V1LookupRecord;
  /** v2 payload (assumed shape): the localized v2 SKU records of the operator's products. */
  v2: Readonly<Record<Lang, Sku[]>>;
}

/** Outstanding loan (dues) of a number; cleared by a bundle top-up of face value + loan. */
export interface Loan {
  mobile: string;
  countryCode: string;
  /** Local currency of the number's country. */
  currencyCode: string;
  amountInLocalCurrency: number;
  amountInWalletCurrency: number;
}

/** Bill detail of fetch-account-detail (assumed shape). */
export interface BillDetail {
  skuId: number;
  accountNumber: string;
  billerName: string;
  customerName: string;
  amountDue: number;
  currencyCode: string;
  amountDueInWalletCurrency: number;
  dueDate: string;
  minAmount: number;
  maxAmount: number;
}

/** Ids and numbers that tests and config defaults can use (they vary with the seed, except skuId 193). */
export interface SandboxSamples {
  /** Jamaica RTR open-range denomination, min 5.00 USD (spec trigger anchor). */
  rtrRangeSkuId: number;
  rtrFixedSkuId: number;
  /** A fixed RTR SKU whose face currency is local (not USD), e.g. JMD. */
  rtrLocalCurrencySkuId: number;
  pinSkuId: number;
  billPaySkuId: number;
  billPayAccountNumber: string;
  simSkuId: number;
  esimSkuId: number;
  giftcardSkuId: number;
  /** A Jamaica product with requireFetchBundle. */
  bundleProductId: number;
  /** One valid number per country (no trigger suffix, no loan), keyed by countryCode. */
  validMobiles: Readonly<Record<string, string>>;
  /** Valid numbers that carry a loan: at least one Jamaica and one India number. */
  loanNumbers: readonly string[];
}

/** Payloads served as is on every request, precomputed at generation time. */
export interface ServedPayloads {
  countries: CountryRecord[];
  /** v2 catalog/skus, per language. */
  skus: Readonly<Record<Lang, Sku[]>>;
  /** v2 catalog/skus/giftcards, per language, sorted by skuId. */
  giftcardSkus: Readonly<Record<Lang, Sku[]>>;
  /** v1 catalog/skus. */
  v1Skus: V1Sku[];
}

export interface SandboxIndex {
  countryByCode: ReadonlyMap<string, Country>;
  operatorById: ReadonlyMap<number, Operator>;
  productById: ReadonlyMap<number, Product>;
  /** Every SKU (catalog + gift cards), English v2 record. */
  skuById: ReadonlyMap<number, Sku>;
  skuMetaById: ReadonlyMap<number, SkuMeta>;
  /** English v2 records per product (catalog + gift cards), sorted by skuId. */
  skusByProductId: ReadonlyMap<number, Sku[]>;
  exchangeRateBySkuId: ReadonlyMap<number, ExchangeRate>;
  /** Dialing prefixes, longest first, for the longest-prefix match. */
  dialPrefixes: ReadonlyArray<{ prefix: string; country: Country }>;
  /** Local currency units per wallet (USD) unit, per currency code (seeded around real rates). */
  fxPerUsd: ReadonlyMap<string, number>;
  /** RTR operators per country (the lookup picks one by a hash of the number). */
  rtrOperatorsByCountry: ReadonlyMap<string, Operator[]>;
  /** Products with requireFetchBundle per country (loans only exist where bundles do). */
  bundleProductsByCountry: ReadonlyMap<string, Product[]>;
  /** Lookup payloads per RTR operator (precomputed). */
  lookupByOperatorId: ReadonlyMap<number, Omit<LookupResult, 'country'>>;
}

export interface GenerateOptions {
  /** Clock for promotions (ms since epoch). Default: the start of the current UTC day, so one day's runs agree. */
  now?: number;
  /**
   * ISO codes of EXTRA_COUNTRY_PLANS to add after the base catalog (the benign "new catalog records" profile): their
   * operators, products, SKUs and gift cards get ids after every base id, and every base record stays as it was.
   */
  extraCountries?: readonly string[];
}

export interface SandboxData {
  seed: number;
  /** The `now` promotions were computed against. */
  generatedAt: number;
  walletCurrency: string;
  countries: Country[];
  operators: Operator[];
  products: Product[];
  /** v2 SKU records (English) of every category except gift cards, sorted by skuId. */
  skus: Sku[];
  /** Gift card v2 SKU records (English), sorted by skuId, at least 250. */
  giftcardSkus: Sku[];
  promotions: { current: Promotion[]; upcoming: Promotion[] };
  exchangeRates: ExchangeRate[];
  logos: Logo[];
  carriers: Carrier[];
  skuDescriptions: SkuDescription[];
  samples: SandboxSamples;
  served: ServedPayloads;
  index: SandboxIndex;
}
