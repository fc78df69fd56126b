// Catalog facts a run needs (SKUs per category, countries, number plans), discovered from the target itself.
// SKU ids are never hard-coded (spec: "SKU ids are never hard-coded"); payload fields are read through the field mapping.
import { CATEGORY_IDS } from '../api/operations.ts';
import { readCountry, readSku, type FieldMapping, type SkuView } from '../api/field-mapping.ts';
import type { GatewayResponse } from '../api/envelope.ts';
import type { RequestInput } from '../api/request-builder.ts';
import type { NumberPlan, ConformanceSettings } from './settings.ts';
import { describeResponse } from './checks.ts';

export interface SkuFixture extends SkuView {
  readonly skuId: number;
  readonly record: Readonly<Record<string, unknown>>;
}

export interface CountryFixture {
  readonly code: string;
  readonly plan?: NumberPlan;
  /** Every dialing prefix of the country (calling code + each area code), to keep other plans' numbers out of it. */
  readonly prefixes: readonly string[];
  readonly record: Readonly<Record<string, unknown>>;
}

/** Amount (and currency, when sent in the face value currency) of a transaction that the SKU's bounds accept. */
export interface ValidAmount {
  readonly amount: number;
  readonly transactionCurrencyCode?: string;
}

/** Trigger suffixes of the spec's table: ordinary numbers must not end with them by chance. */
const TRIGGER_SUFFIXES = ['666666', '555555', '510', '500', '888'];

/** 'Mobile top-up in the sandbox accepts any number, but it must follow the country's format (example: Jamaica country code 1876 followed by 7 digits).' */
export const SPEC_JAMAICA_PLAN: NumberPlan = Object.freeze({ prefix: '1876', nationalLength: 7 });

/** The four lookup countries of the sandbox (spec: What the service does). */
export const SANDBOX_LOOKUP_COUNTRIES = ['JM', 'IN', 'PK', 'MX'] as const;

export class DiscoveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DiscoveryError';
  }
}

export interface Fixtures {
  /** v2 catalog/skus records that have a readable skuId (all products except gift cards). */
  readonly skus: readonly SkuFixture[];
  /** First page (up to 100) of the v2 gift card SKU list. */
  readonly giftcards: readonly SkuFixture[];
  readonly countries: readonly CountryFixture[];
  /** Every face value currency seen in the catalog. */
  readonly faceCurrencies: ReadonlySet<string>;
  skusOf(category: keyof typeof CATEGORY_IDS): SkuFixture[];
  /** RTR SKUs of a country, open-range denominations first. */
  rtrSkus(countryCode: string): SkuFixture[];
  plan(countryCode: string): NumberPlan | undefined;
  /** A fresh valid number of the country ending with `suffix` (and no trigger suffix otherwise); undefined without a plan. */
  mobile(countryCode: string, suffix?: string): string | undefined;
}

export function isRange(sku: SkuView): boolean {
  return sku.minWalletAmount !== undefined && sku.maxWalletAmount !== undefined && sku.maxWalletAmount > sku.minWalletAmount;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/**
 * An amount inside the SKU's bounds. Open range: the middle of the wallet-currency bounds (amount in the wallet
 * currency, no transactionCurrencyCode). Fixed: the face value in its own currency, which needs no conversion.
 */
export function validAmount(sku: SkuView): ValidAmount | undefined {
  if (isRange(sku)) {
    const min = sku.minWalletAmount as number;
    const max = sku.maxWalletAmount as number;
    const mid = Math.round((min + max) / 2);
    return { amount: mid > min && mid < max ? mid : round2((min + max) / 2) };
  }
  if (sku.minFaceValue !== undefined && sku.faceValueCurrency !== undefined) {
    return { amount: sku.minFaceValue, transactionCurrencyCode: sku.faceValueCurrency };
  }
  if (sku.minWalletAmount !== undefined) return { amount: sku.minWalletAmount };
  return undefined;
}

/** Number plan from a countries record: calling code + first area code, then the remaining digits of numberLength. */
export function planFromCountryRecord(record: Record<string, unknown>, mapping: FieldMapping): NumberPlan | undefined {
  const view = readCountry(record, mapping.country);
  const icc = view.dialingPrefixes[0];
  if (icc === undefined || !/^[0-9]+$/.test(icc) || view.numberLength === undefined) return undefined;
  const areaCode = view.areaCodes[0] ?? '';
  const nationalLength = view.numberLength - areaCode.length;
  if (!Number.isInteger(nationalLength) || nationalLength < 4 || nationalLength > 15) return undefined;
  return { prefix: icc + areaCode, nationalLength };
}

/** Calling code + each area code of a countries record (calling code alone without area codes). */
export function prefixesFromCountryRecord(record: Record<string, unknown>, mapping: FieldMapping): string[] {
  const view = readCountry(record, mapping.country);
  const icc = view.dialingPrefixes[0];
  if (icc === undefined || !/^[0-9]+$/.test(icc)) return [];
  const areas = view.areaCodes;
  return areas.length === 0 ? [icc] : areas.map((a) => icc + a);
}

function randomDigits(n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += String(Math.floor(Math.random() * 10));
  return out;
}

/**
 * A number of the plan ending with `suffix`; ordinary numbers avoid every trigger suffix and the excluded numbers.
 * `avoidPrefixes` are longer prefixes of other countries inside this plan's range (a US '1' number must not start 1876).
 */
export function makeMobile(plan: NumberPlan, suffix = '', exclude: ReadonlySet<string> = new Set(), avoidPrefixes: readonly string[] = []): string | undefined {
  if (suffix.length > plan.nationalLength) return undefined;
  for (let attempt = 0; attempt < 100; attempt++) {
    const body = randomDigits(plan.nationalLength - suffix.length);
    // A leading 0 in the national part is often not a valid subscriber number; keep away from it.
    const national = (body.length > 0 && body[0] === '0' ? `7${body.slice(1)}` : body) + suffix;
    const mobile = plan.prefix + national;
    // Only the requested trigger may fire: no other trigger suffix by chance.
    if (TRIGGER_SUFFIXES.some((t) => mobile.endsWith(t) && !suffix.endsWith(t))) continue;
    if (exclude.has(mobile) || avoidPrefixes.some((p) => mobile.startsWith(p))) continue;
    return mobile;
  }
  return undefined;
}

export interface DiscoveryDeps {
  /** Sends one read as the run's client (valid credentials). */
  readonly read: (operationId: string, input: RequestInput) => Promise<GatewayResponse>;
  readonly mapping: FieldMapping;
  readonly settings: ConformanceSettings;
}

async function readArray(deps: DiscoveryDeps, operationId: string, input: RequestInput = {}): Promise<Record<string, unknown>[]> {
  const res = await deps.read(operationId, input);
  const payload = res.envelope?.payLoad;
  if (res.classification.outcome !== 'Successful' || !Array.isArray(payload)) {
    throw new DiscoveryError(`catalog discovery: ${operationId} did not return a successful array (${describeResponse(res)})`);
  }
  return payload.filter((item): item is Record<string, unknown> => item !== null && typeof item === 'object' && !Array.isArray(item));
}

function toSkuFixtures(records: readonly Record<string, unknown>[], mapping: FieldMapping['v2Sku']): SkuFixture[] {
  const out: SkuFixture[] = [];
  for (const record of records) {
    const view = readSku(record, mapping);
    if (view.skuId === undefined || !Number.isInteger(view.skuId)) continue;
    out.push({ ...view, skuId: view.skuId, record });
  }
  return out;
}

/** Reads the catalog once: v2 skus, v2 countries, the first page of v2 gift cards. */
export async function discoverFixtures(deps: DiscoveryDeps): Promise<Fixtures> {
  const [skuRecords, countryRecords, giftRecords] = await Promise.all([
    readArray(deps, 'v2.catalog.skus'),
    readArray(deps, 'v2.catalog.countries'),
    readArray(deps, 'v2.catalog.skus-giftcards', { query: { pageSize: 100 } }),
  ]);
  const skus = toSkuFixtures(skuRecords, deps.mapping.v2Sku);
  if (skus.length === 0) throw new DiscoveryError('catalog discovery: v2 catalog/skus has no record with a readable skuId (check fieldMapping.v2Sku.skuId)');
  const giftcards = toSkuFixtures(giftRecords, deps.mapping.giftcardSku);

  const countries: CountryFixture[] = [];
  for (const record of countryRecords) {
    const code = readCountry(record, deps.mapping.country).countryCode;
    if (code === undefined) continue;
    const fromSettings = deps.settings.numbers[code];
    const plan = fromSettings ?? (code === 'JM' ? SPEC_JAMAICA_PLAN : planFromCountryRecord(record, deps.mapping));
    const prefixes = [...new Set([...prefixesFromCountryRecord(record, deps.mapping), ...(plan === undefined ? [] : [plan.prefix])])];
    countries.push({ code, record, prefixes, ...(plan === undefined ? {} : { plan }) });
  }
  for (const [code, plan] of Object.entries(deps.settings.numbers)) {
    if (!countries.some((c) => c.code === code)) countries.push({ code, plan, prefixes: [plan.prefix], record: {} });
  }
  if (!countries.some((c) => c.code === 'JM')) countries.push({ code: 'JM', plan: SPEC_JAMAICA_PLAN, prefixes: [SPEC_JAMAICA_PLAN.prefix], record: {} });

  const faceCurrencies = new Set<string>();
  for (const sku of [...skus, ...giftcards]) if (sku.faceValueCurrency !== undefined) faceCurrencies.add(sku.faceValueCurrency);
  const excluded = new Set(deps.settings.loanNumbers);

  return {
    skus,
    giftcards,
    countries,
    faceCurrencies,
    skusOf: (category) => skus.filter((s) => s.categoryId === CATEGORY_IDS[category]),
    rtrSkus: (countryCode) =>
      skus
        .filter((s) => s.categoryId === CATEGORY_IDS.Rtr && s.countryCode === countryCode && validAmount(s) !== undefined)
        .sort((a, b) => Number(isRange(b)) - Number(isRange(a)) || a.skuId - b.skuId),
    plan: (code) => countries.find((c) => c.code === code)?.plan,
    mobile: (code, suffix = '') => {
      const plan = countries.find((c) => c.code === code)?.plan;
      if (plan === undefined) return undefined;
      const inside = countries
        .filter((c) => c.code !== code)
        .flatMap((c) => c.prefixes)
        .filter((p) => p.length > plan.prefix.length && p.startsWith(plan.prefix));
      return makeMobile(plan, suffix, excluded, inside);
    },
  };
}
