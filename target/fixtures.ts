// The conformance run's view of the target's catalog (SKUs per category, countries, number plans), discovered once.
// The facts themselves (readable SKUs, plans, amounts, numbers) are api/catalog-facts.ts, shared with load and drift.
import { CATEGORY_IDS } from '../api/operations.ts';
import {
  countryPlan,
  makeMobile,
  prefixesInside,
  prefixesOfCountry,
  readCatalogSkus,
  rtrSkusOf,
  SPEC_JAMAICA_PLAN,
  type CatalogSku,
  type NumberPlan,
} from '../api/catalog-facts.ts';
import { mappingHint, readCountry, type FieldMapping } from '../api/field-mapping.ts';
import { inputSkuOf, type InputSku, type InputWorld } from '../api/inputs.ts';
import type { GatewayResponse } from '../api/envelope.ts';
import type { RequestInput } from '../api/request-builder.ts';
import type { ConformanceSettings } from './settings.ts';
import { describeResponse } from '../api/describe.ts';
import { SILENT_READ_TIMEOUTS } from '../api/faults.ts';

/** A v2 (or gift card) SKU of the target's catalog (api/catalog-facts.ts). */
export type SkuFixture = CatalogSku;

export interface CountryFixture {
  readonly code: string;
  readonly plan?: NumberPlan;
  /** Every dialing prefix of the country (calling code + each area code), to keep other plans' numbers out of it. */
  readonly prefixes: readonly string[];
  readonly record: Readonly<Record<string, unknown>>;
}

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

export interface DiscoveryDeps {
  /** Sends one read as the run's client (valid credentials). */
  readonly read: (operationId: string, input: RequestInput) => Promise<GatewayResponse>;
  readonly mapping: FieldMapping;
  readonly settings: ConformanceSettings;
}

async function readArray(deps: DiscoveryDeps, operationId: string, input: RequestInput = {}): Promise<Record<string, unknown>[]> {
  const res = await deps.read(operationId, input);
  const payload = res.envelope?.payLoad;
  if (res.timedOut) {
    throw new DiscoveryError(
      `catalog discovery: the target went silent: ${operationId} got no answer within ${Math.round(res.timings.totalMs)} ms, ${SILENT_READ_TIMEOUTS} times in a row`,
    );
  }
  if (res.classification.outcome !== 'Successful' || !Array.isArray(payload)) {
    throw new DiscoveryError(`catalog discovery: ${operationId} did not return a successful array (${describeResponse(res)})`);
  }
  return payload.filter((item): item is Record<string, unknown> => item !== null && typeof item === 'object' && !Array.isArray(item));
}

/** Reads the catalog once: v2 skus, v2 countries, the first page of v2 gift cards. */
export async function discoverFixtures(deps: DiscoveryDeps): Promise<Fixtures> {
  const [skuRecords, countryRecords, giftRecords] = await Promise.all([
    readArray(deps, 'v2.catalog.skus'),
    readArray(deps, 'v2.catalog.countries'),
    readArray(deps, 'v2.catalog.skus-giftcards', { query: { pageSize: 100 } }),
  ]);
  const skus = readCatalogSkus(skuRecords, 'v2', deps.mapping);
  if (skuRecords.length === 0) throw new DiscoveryError('catalog discovery: v2 catalog/skus answered an empty list: no SKU to test with');
  if (skus.length === 0) {
    const hint = mappingHint('fieldMapping.v2Sku.skuId', skuRecords[0], deps.mapping.v2Sku.skuId);
    throw new DiscoveryError(
      `catalog discovery: v2 catalog/skus answered ${skuRecords.length} records, none with a readable skuId: ${hint}`,
    );
  }
  const giftcards = readCatalogSkus(giftRecords, 'giftcard', deps.mapping);

  const countries: CountryFixture[] = [];
  for (const record of countryRecords) {
    const code = readCountry(record, deps.mapping.country).countryCode;
    if (code === undefined) continue;
    const fromSettings = deps.settings.numbers[code];
    const plan = fromSettings ?? countryPlan(code, record, deps.mapping);
    const prefixes = [...new Set([...prefixesOfCountry(record, deps.mapping), ...(plan === undefined ? [] : [plan.prefix])])];
    countries.push({ code, record, prefixes, ...(plan === undefined ? {} : { plan }) });
  }
  for (const [code, plan] of Object.entries(deps.settings.numbers)) {
    if (!countries.some((c) => c.code === code)) countries.push({ code, plan, prefixes: [plan.prefix], record: {} });
  }
  if (!countries.some((c) => c.code === 'JM'))
    countries.push({ code: 'JM', plan: SPEC_JAMAICA_PLAN, prefixes: [SPEC_JAMAICA_PLAN.prefix], record: {} });

  const faceCurrencies = new Set<string>();
  for (const sku of [...skus, ...giftcards]) if (sku.faceValueCurrency !== undefined) faceCurrencies.add(sku.faceValueCurrency);
  const excluded = new Set(deps.settings.loanNumbers);

  return {
    skus,
    giftcards,
    countries,
    faceCurrencies,
    skusOf: (category) => skus.filter((s) => s.categoryId === CATEGORY_IDS[category]),
    rtrSkus: (countryCode) => rtrSkusOf(skus, countryCode),
    plan: (code) => countries.find((c) => c.code === code)?.plan,
    mobile: (code, suffix = '') => {
      const plan = countries.find((c) => c.code === code)?.plan;
      if (plan === undefined) return undefined;
      const others = countries.filter((c) => c.code !== code).flatMap((c) => c.prefixes);
      return makeMobile(plan, { suffix, exclude: excluded, avoidPrefixes: prefixesInside(plan, others) });
    },
  };
}

/** The builder's view of the discovered catalog (api/inputs.ts), plus the fixture behind each SKU it hands out. */
export interface FixturesWorld extends InputWorld {
  fixtureOf(sku: InputSku): SkuFixture | undefined;
  /** Candidate SKUs given as fixtures (conformance's CATEGORY cases), in the builder's terms. */
  inputSkus(skus: readonly SkuFixture[]): InputSku[];
}

/** Valid inputs of the discovered catalog and the settings, for api/inputs.ts (conformance, drift and migrate). */
export function fixturesWorld(
  fx: Fixtures,
  settings: Pick<ConformanceSettings, 'billpayAccountNumber' | 'simNumber' | 'zipCode'>,
  mapping: FieldMapping,
  correlationId: () => string,
): FixturesWorld {
  const fixtures = new Map<InputSku, SkuFixture>();
  const inputSkus = (skus: readonly SkuFixture[]): InputSku[] =>
    skus.map((sku) => {
      const view = inputSkuOf(sku);
      fixtures.set(view, sku);
      return view;
    });
  return {
    skus: (category) => inputSkus(category === 'any' ? fx.skus : category === 'Gift Card' ? fx.giftcards : fx.skusOf(category)),
    mobile: (countryCode) => fx.mobile(countryCode),
    setting: (name) => settings[name],
    correlationId,
    mapping,
    fixtureOf: (sku) => fixtures.get(sku),
    inputSkus,
  };
}
