// What the load flows read from the target's own catalog in setup(): SKUs per category with an amount their bounds
// accept, gift card SKUs, and number plans per country, compact for k6's setup data. The facts (readable SKUs, plans,
// amounts, numbers) are api/catalog-facts.ts, shared with conformance and drift; SKU ids are never hard-coded.
import {
  countryPlan,
  makeMobile,
  prefixesInside,
  prefixesOfCountry,
  readCatalogSkus,
  type CatalogSku,
  type NumberPlan,
} from '../api/catalog-facts.ts';
import type { ClientCore } from '../api/client-core.ts';
import { inputSkuOf } from '../api/inputs.ts';
import { readCountry, type FieldMapping } from '../api/field-mapping.ts';
import { CATEGORY_IDS, type ApiVersion, type CategoryName } from '../api/operations.ts';

/** A SKU as the flows need it: compact, because setup data is copied into every VU. */
export interface SkuPick {
  readonly skuId: number;
  readonly productId?: number;
  readonly countryCode?: string;
  readonly categoryId?: number;
  /** The smallest amount the SKU's bounds accept (api/catalog-facts.ts validAmount), in `currency` when given, else in the wallet currency. */
  readonly amount?: number;
  readonly currency?: string;
  /** Open range (min < max): never a bundle, so never subject to a loan. */
  readonly range: boolean;
  /** The product's bundles are read per number (v2 bundles prefer such products). */
  readonly requireFetchBundle?: boolean;
  /** Its smallest wallet price (api/inputs.ts InputSku.price: a charging write picks the cheaper first). */
  readonly price?: number;
}

/** A country's number plan, with the longer prefixes of other countries inside it (a US '1' number must not start 1876). */
export interface CountryPlan extends NumberPlan {
  readonly country: string;
  readonly avoid: readonly string[];
}

export interface VersionCatalog {
  readonly skus: readonly SkuPick[];
  readonly giftcards: readonly SkuPick[];
  readonly plans: readonly CountryPlan[];
}

export type CatalogData = Partial<Record<ApiVersion, VersionCatalog>>;

export class CatalogError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CatalogError';
  }
}

/** The builder's view of a SKU (api/inputs.ts inputSkuOf) made compact: its amount flat, its country upper-case. */
export function toSkuPick(sku: CatalogSku): SkuPick {
  const { amount, countryCode, range, ...rest } = inputSkuOf(sku);
  return {
    ...rest,
    range: range === true,
    ...(countryCode === undefined ? {} : { countryCode: countryCode.toUpperCase() }),
    ...(amount === undefined ? {} : { amount: amount.amount }),
    ...(amount?.transactionCurrencyCode === undefined ? {} : { currency: amount.transactionCurrencyCode }),
  };
}

/** The number plans of catalog/countries records, each with the other countries' prefixes inside it. */
export function plansOf(records: readonly unknown[], mapping: FieldMapping): CountryPlan[] {
  const all = records.map((record) => ({
    code: readCountry(record, mapping.country).countryCode?.toUpperCase(),
    record,
    prefixes: prefixesOfCountry(record, mapping),
  }));
  const plans: CountryPlan[] = [];
  for (const { code, record } of all) {
    const plan = code === undefined ? undefined : countryPlan(code, record, mapping);
    if (code === undefined || plan === undefined) continue;
    const others = all.filter((other) => other.code !== code).flatMap((other) => other.prefixes);
    plans.push({ country: code, ...plan, avoid: prefixesInside(plan, others) });
  }
  return plans;
}

/** A fresh valid number of the plan: no trigger suffix, no other country's prefix. */
export function mobileOf(plan: CountryPlan, random: () => number = Math.random): string | undefined {
  return makeMobile(plan, { avoidPrefixes: plan.avoid, random });
}

export function skusOf(catalog: VersionCatalog, category: CategoryName): SkuPick[] {
  return catalog.skus.filter((sku) => sku.categoryId === CATEGORY_IDS[category]);
}

async function readArray(client: ClientCore, operationId: string, query?: Record<string, number>): Promise<unknown[]> {
  const { response } = await client.call(operationId, query === undefined ? {} : { query });
  const code = response.envelope?.responseCode;
  const describe = response.transportError?.message ?? `HTTP ${response.httpStatus ?? '-'}, responseCode ${code ?? '-'}`;
  const payLoad = response.envelope?.payLoad;
  // setup() retries a timed-out read up to api/faults.ts SILENT_READ_TIMEOUTS times: still no answer is a silent target.
  if (response.timedOut) throw new CatalogError(`catalog discovery: the target went silent: ${operationId} got no answer (${describe})`);
  if (response.classification.outcome !== 'Successful' || !Array.isArray(payLoad)) {
    throw new CatalogError(`catalog discovery: ${operationId} did not return a successful array (${describe})`);
  }
  return payLoad;
}

/**
 * v1 SKU records show no wallet price (their bounds are in the SKU's own currency), so a v1 charging write would take
 * its SKUs by skuId, not cheapest first: their prices come from the v2 SKU list of the same SKU ids (as the price book
 * converts v1 requests, ledger/price-book.ts). A v2 list that cannot be read leaves them unpriced.
 */
async function v2PricesFor(
  client: ClientCore,
  version: ApiVersion,
  readSkus: boolean,
  mapping: FieldMapping,
): Promise<Map<number, number>> {
  if (version !== 'v1' || !readSkus) return new Map();
  try {
    const records = await readArray(client, 'v2.catalog.skus');
    return new Map(
      readCatalogSkus(records, 'v2', mapping).flatMap((s) => (s.minWalletAmount === undefined ? [] : [[s.skuId, s.minWalletAmount]])),
    );
  } catch (error) {
    if (error instanceof CatalogError) return new Map();
    throw error;
  }
}

const withWalletPrices = (skus: SkuPick[], prices: ReadonlyMap<number, number>): SkuPick[] =>
  prices.size === 0
    ? skus
    : skus.map((s) => (s.price !== undefined || !prices.has(s.skuId) ? s : { ...s, price: prices.get(s.skuId) as number }));

export interface DiscoverNeeds {
  readonly skus?: boolean;
  readonly giftcards?: boolean;
  readonly countries?: boolean;
}

/**
 * Reads what a scenario needs of one version's catalog. Gift card SKUs come from the v2 gift card list (first page of
 * 100) for both versions, as conformance takes them (target/fixtures.ts): the spec's v2 SKU list holds "all products
 * except gift cards", and v1 has no gift card list, so v1 catalog/skus records are no source of them (#31 item 6).
 */
export async function discoverCatalog(
  client: ClientCore,
  version: ApiVersion,
  mapping: FieldMapping,
  needs: DiscoverNeeds,
): Promise<VersionCatalog> {
  const readSkus = needs.skus === true;
  const [skuRecords, giftRecords, countryRecords] = await Promise.all([
    readSkus ? readArray(client, `${version}.catalog.skus`) : Promise.resolve([]),
    needs.giftcards === true ? readArray(client, 'v2.catalog.skus-giftcards', { pageSize: 100 }) : Promise.resolve([]),
    needs.countries === true ? readArray(client, `${version}.catalog.countries`) : Promise.resolve([]),
  ]);
  const skus = withWalletPrices(
    readCatalogSkus(skuRecords, version, mapping).map(toSkuPick),
    await v2PricesFor(client, version, readSkus, mapping),
  );
  if (readSkus && skus.length === 0)
    throw new CatalogError(
      `catalog discovery: ${version} catalog/skus has no record with a readable skuId (check fieldMapping.${version}Sku.skuId)`,
    );
  const giftcards = readCatalogSkus(giftRecords, 'giftcard', mapping).map(toSkuPick);
  return { skus: needs.skus === true ? skus : [], giftcards, plans: plansOf(countryRecords, mapping) };
}
