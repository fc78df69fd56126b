// CAT: catalog rules — category ids match the spec's table, and productId/skuId/countryCode filters return only
// matching records. Ids to filter on come from the target's own catalog, never from this file.
import { CATEGORY_IDS, type CategoryName } from '../../api/operations.ts';
import { categoryIdOf, readField, readNumber, readString } from '../../api/field-mapping.ts';
import { successful } from '../checks.ts';
import type { CaseContext, ConformanceCase, Exchange } from '../types.ts';
import { ASSUMED, SECTION, firstSku, records } from './common.ts';

const FILTER_RULE = 'query productId int32, skuId int32, both optional (filters of the catalog read operations)';

/** Fails the case unless the listing is non-empty and every record's field equals the filter value. */
function expectOnlyMatching(ctx: CaseContext, exchange: Exchange, field: string, value: string | number): void {
  if (!ctx.check(successful, exchange)) return;
  const items = records(exchange);
  const wrong = items.filter((r) => {
    const got = typeof value === 'number' ? readNumber(r, field) : readString(r, field);
    return got !== value;
  });
  if (items.length === 0) {
    ctx.fail({
      check: 'filter-finds-record',
      operation: exchange.request.operationId,
      message: `filtering by ${field}=${value} returned nothing, although the catalog has such a record`,
      expected: `at least one record with ${field} ${value}`,
      received: '0 records',
      request: exchange.request,
    });
  } else if (wrong.length > 0) {
    ctx.fail({
      check: 'filter-only-matching',
      operation: exchange.request.operationId,
      message: `filtering by ${field}=${value} returned ${wrong.length} of ${items.length} records that do not match`,
      expected: `every record with ${field} ${value}`,
      received: `${field} values ${[...new Set(wrong.map((r) => String(readField(r, field))))].slice(0, 6).join(', ')}`,
      request: exchange.request,
    });
  }
}

interface FilterSpec {
  readonly id: string;
  readonly operationId: string;
  readonly param: string;
  /** Payload path of the filtered field (read through the field mapping: assumed). */
  readonly field: (ctx: CaseContext) => string;
  /** The value to filter on, taken from the discovered catalog. */
  readonly value: (ctx: CaseContext) => Promise<number | string>;
}

const skuOf = async (ctx: CaseContext) => firstSku(ctx, (await ctx.fixtures()).skus, 'a SKU');
const giftOf = async (ctx: CaseContext) => firstSku(ctx, (await ctx.fixtures()).giftcards, 'a gift card SKU');
const defined = <T>(ctx: CaseContext, v: T | undefined, what: string): T => (v === undefined ? ctx.skip(`the catalog record has no readable ${what}`) : v);

const FILTERS: readonly FilterSpec[] = [
  { id: 'CAT-FILTER-V2-SKUS-PRODUCTID', operationId: 'v2.catalog.skus', param: 'productId', field: (c) => c.mapping.v2Sku.productId, value: async (c) => defined(c, (await skuOf(c)).productId, 'productId') },
  { id: 'CAT-FILTER-V2-SKUS-SKUID', operationId: 'v2.catalog.skus', param: 'skuId', field: (c) => c.mapping.v2Sku.skuId, value: async (c) => (await skuOf(c)).skuId },
  { id: 'CAT-FILTER-V1-SKUS-PRODUCTID', operationId: 'v1.catalog.skus', param: 'productid', field: (c) => c.mapping.v1Sku.productId, value: async (c) => defined(c, (await skuOf(c)).productId, 'productId') },
  { id: 'CAT-FILTER-V1-SKUDESC-SKUID', operationId: 'v1.catalog.sku-description', param: 'skuId', field: () => 'skuId', value: async (c) => (await skuOf(c)).skuId },
  { id: 'CAT-FILTER-V1-LOGOS-PRODUCTID', operationId: 'v1.catalog.sku-logos', param: 'productId', field: () => 'productId', value: async (c) => defined(c, (await skuOf(c)).productId, 'productId') },
  { id: 'CAT-FILTER-V2-GIFTCARDS-PRODUCTID', operationId: 'v2.catalog.skus-giftcards', param: 'productId', field: (c) => c.mapping.giftcardSku.productId, value: async (c) => defined(c, (await giftOf(c)).productId, 'productId') },
  { id: 'CAT-FILTER-V2-GIFTCARDS-SKUID', operationId: 'v2.catalog.skus-giftcards', param: 'skuId', field: (c) => c.mapping.giftcardSku.skuId, value: async (c) => (await giftOf(c)).skuId },
  { id: 'CAT-FILTER-V2-PRODUCTS-COUNTRY', operationId: 'v2.catalog.getproducts', param: 'countryCode', field: () => 'countryCode', value: async (c) => defined(c, (await skuOf(c)).countryCode, 'countryCode') },
];

function filterCase(spec: FilterSpec): ConformanceCase {
  const version = spec.operationId.startsWith('v1.') ? 'v1' : 'v2';
  return {
    kind: 'scenario',
    id: spec.id,
    group: 'CAT',
    title: `${spec.operationId}?${spec.param}=<id from the catalog> returns only matching records`,
    specSection: version === 'v1' ? SECTION.v1Reads : SECTION.v2Reads,
    rule: FILTER_RULE,
    api: version,
    assumed: ['record field names of the filtered value (field mapping / observed payloads)', ASSUMED.sharedSkuIds],
    async scenario(ctx) {
      const value = await spec.value(ctx);
      const exchange = await ctx.call(spec.operationId, { query: { [spec.param]: value } });
      expectOnlyMatching(ctx, exchange, spec.field(ctx), value);
    },
  };
}

function categoryCase(name: CategoryName): ConformanceCase {
  const id = CATEGORY_IDS[name];
  return {
    kind: 'scenario',
    id: `CAT-CATEGORY-${id}`,
    group: 'CAT',
    title: `getproducts?categoryId=${id} returns only ${name} products`,
    specSection: SECTION.overview,
    rule: 'Catalog category ids (categoryId parameter): Pin = 1, Rtr = 2, Bill Pay = 4, Sim = 5, Gift Card = 6, eSim = 7.',
    api: 'v2',
    assumed: ["the product record's category (a name or an id) at field 'category'"],
    async scenario(ctx) {
      const exchange = await ctx.call('v2.catalog.getproducts', { query: { categoryId: id } });
      if (!ctx.check(successful, exchange)) return;
      const items = records(exchange);
      const seen = items.map((r) => categoryIdOf(readField(r, 'category')));
      if (items.length === 0) {
        // Not every agent sells every category; the other category cases still pin the mapping down.
        ctx.note(`no ${name} products on this target`);
        return;
      }
      if (seen.every((c) => c === undefined)) ctx.skip("product records carry no readable 'category' (assumed field)");
      const wrong = items.filter((_, i) => seen[i] !== id);
      if (wrong.length > 0) {
        ctx.fail({
          check: 'category-id-matches',
          operation: exchange.request.operationId,
          message: `categoryId ${id} returned ${wrong.length} of ${items.length} products of another category`,
          expected: `category ${name} (${id})`,
          received: `categories ${[...new Set(wrong.map((r) => String(readField(r, 'category'))))].join(', ')}`,
          request: exchange.request,
        });
      }
    },
  };
}

export const CAT_CASES: readonly ConformanceCase[] = [
  ...(Object.keys(CATEGORY_IDS) as CategoryName[]).map(categoryCase),
  ...FILTERS.map(filterCase),
];
