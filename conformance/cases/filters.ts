// FILTERS: every filter parameter of every read operation actually filters. The value comes from the target's own
// catalog (a record of the unfiltered listing whose value differs from another's); records are read through the mapping.
import type { FieldMapping } from '../../api/field-mapping.ts';
import { mappingHint, readField, readNumber, readString } from '../../api/field-mapping.ts';
import { OPERATIONS, getOperation } from '../../api/operations.ts';
import type { RequestInput } from '../../api/request-builder.ts';
import { successful } from '../checks.ts';
import type { SkuFixture } from '../../target/fixtures.ts';
import type { CaseContext, ConformanceCase, Exchange } from '../types.ts';
import { ASSUMED, records } from './common.ts';

/** The spec's table rows of the read operations that take filters, quoted. */
export const FILTER_ROWS: Readonly<Record<string, string>> = {
  'v1.catalog.skus': '/api/v1/catalog/skus | query productid integer int32, optional | array',
  'v1.catalog.sku-description': '/api/v1/catalog/sku/description | query skuId int32, productId int32, both optional | array',
  'v1.catalog.sku-logos': '/api/v1/catalog/sku/logos | query skuId int32, productId int32, both optional | array of images',
  'v1.catalog.carriers':
    '/api/v1/catalog/carriers | query countryCode string, currencyCode string; both optional, default empty string | array',
  'v2.catalog.operators': '/api/v2/catalog/operators | query operatorId int32, countryCode string, both optional | array',
  'v2.catalog.getproducts':
    '/api/v2/catalog/getproducts | query operatorId int32, categoryId int32, countryCode string, all optional | array of products available to the agent',
  'v2.catalog.skus':
    '/api/v2/catalog/skus | query productId int32, skuId int32, both optional; header Accept-Language string optional | array (all products except gift cards, with SKU ids)',
  'v2.catalog.skus-giftcards':
    '/api/v2/catalog/skus/giftcards | query cursor int32, pageSize int32, productId int32, skuId int32, countryCode string (ISO code); header Accept-Language; all optional | array; envelope also carries next and next_cursor',
};

type Path = (m: FieldMapping) => string;

/** How a filtered record is judged. */
type Judge =
  /** The record carries the filtered value itself (read through the mapping). */
  | { readonly by: 'field'; readonly path: Path; readonly label: string; readonly kind: 'int' | 'code' }
  /** The record carries another field that must fall in a set the catalog gives for the value (a join). */
  | {
      readonly by: 'join';
      readonly path: Path;
      readonly label: string;
      /** The filter value and the allowed values of the record's field, from the discovered v2 catalog. */
      readonly pick: (skus: readonly SkuFixture[]) => { value: number; allowed: ReadonlySet<number>; what: string } | undefined;
    };

export interface FilterSpec {
  readonly operationId: string;
  readonly param: string;
  readonly judge: Judge;
  /** Listing pages (gift cards): the unfiltered listing is one page, so completeness is not checked. */
  readonly paged?: boolean;
}

const field = (path: Path, label: string, kind: 'int' | 'code'): Judge => ({ by: 'field', path, label, kind });

/** Every filter of the spec's read operations (a test keeps this table and the catalog's query parameters in step). */
export const FILTERS: readonly FilterSpec[] = [
  { operationId: 'v1.catalog.skus', param: 'productid', judge: field((m) => m.v1Sku.productId, 'v1Sku.productId', 'int') },
  { operationId: 'v1.catalog.sku-description', param: 'skuId', judge: field((m) => m.skuDescription.skuId, 'skuDescription.skuId', 'int') },
  {
    operationId: 'v1.catalog.sku-description',
    param: 'productId',
    // Description records name a SKU, not its product: the product's SKUs come from the v2 catalog.
    judge: {
      by: 'join',
      path: (m) => m.skuDescription.skuId,
      label: 'skuDescription.skuId',
      pick: (skus) => {
        const productId = skus.find((s) => s.productId !== undefined)?.productId;
        if (productId === undefined) return undefined;
        return {
          value: productId,
          allowed: new Set(skus.filter((s) => s.productId === productId).map((s) => s.skuId)),
          what: `the SKUs of product ${productId}`,
        };
      },
    },
  },
  {
    operationId: 'v1.catalog.sku-logos',
    param: 'skuId',
    // A logo belongs to a product: the SKU's product comes from the v2 catalog.
    judge: {
      by: 'join',
      path: (m) => m.logo.productId,
      label: 'logo.productId',
      pick: (skus) => {
        const sku = skus.find((s) => s.productId !== undefined);
        if (sku?.productId === undefined) return undefined;
        return { value: sku.skuId, allowed: new Set([sku.productId]), what: `product ${sku.productId} of SKU ${sku.skuId}` };
      },
    },
  },
  { operationId: 'v1.catalog.sku-logos', param: 'productId', judge: field((m) => m.logo.productId, 'logo.productId', 'int') },
  { operationId: 'v1.catalog.carriers', param: 'countryCode', judge: field((m) => m.carrier.countryCode, 'carrier.countryCode', 'code') },
  {
    operationId: 'v1.catalog.carriers',
    param: 'currencyCode',
    judge: field((m) => m.carrier.currencyCode, 'carrier.currencyCode', 'code'),
  },
  { operationId: 'v2.catalog.operators', param: 'operatorId', judge: field((m) => m.operator.operatorId, 'operator.operatorId', 'int') },
  {
    operationId: 'v2.catalog.operators',
    param: 'countryCode',
    judge: field((m) => m.operator.countryCode, 'operator.countryCode', 'code'),
  },
  { operationId: 'v2.catalog.getproducts', param: 'operatorId', judge: field((m) => m.product.operatorId, 'product.operatorId', 'int') },
  {
    operationId: 'v2.catalog.getproducts',
    param: 'countryCode',
    judge: field((m) => m.product.countryCode, 'product.countryCode', 'code'),
  },
  { operationId: 'v2.catalog.skus', param: 'productId', judge: field((m) => m.v2Sku.productId, 'v2Sku.productId', 'int') },
  { operationId: 'v2.catalog.skus', param: 'skuId', judge: field((m) => m.v2Sku.skuId, 'v2Sku.skuId', 'int') },
  {
    operationId: 'v2.catalog.skus-giftcards',
    param: 'productId',
    judge: field((m) => m.giftcardSku.productId, 'giftcardSku.productId', 'int'),
    paged: true,
  },
  {
    operationId: 'v2.catalog.skus-giftcards',
    param: 'skuId',
    judge: field((m) => m.giftcardSku.skuId, 'giftcardSku.skuId', 'int'),
    paged: true,
  },
  {
    operationId: 'v2.catalog.skus-giftcards',
    param: 'countryCode',
    judge: field((m) => m.giftcardSku.countryCode, 'giftcardSku.countryCode', 'code'),
    paged: true,
  },
];

/** Query parameters of read operations that are not filters, and where they are checked instead. */
export const NOT_FILTERS: Readonly<Record<string, string>> = {
  'v2.catalog.getproducts?categoryId': 'the category id table: CAT-CATEGORY-*',
  'v2.catalog.skus-giftcards?cursor': 'paging: PAGE-*',
  'v2.catalog.skus-giftcards?pageSize': 'paging: PAGE-*',
  'v1.transaction.billpay-fetch-account-detail?skuId': 'selects the bill to show (ENV), not a listing filter',
  'v1.transaction.billpay-fetch-account-detail?accountNumber': 'selects the bill to show (ENV), not a listing filter',
  'v2.lookup.billpay-fetch-account-detail?skuId': 'selects the bill to show (ENV), not a listing filter',
  'v2.lookup.billpay-fetch-account-detail?accountNumber': 'selects the bill to show (ENV), not a listing filter',
};

/** Every query parameter of every read operation, as `<op id>?<param>`. */
export function readQueryParams(): string[] {
  return OPERATIONS.filter((op) => op.method === 'GET').flatMap((op) =>
    op.params.filter((p) => p.in === 'query').map((p) => `${op.id}?${p.name}`),
  );
}

const OP_TAG: Readonly<Record<string, string>> = {
  'v1.catalog.skus': 'SKUS',
  'v1.catalog.sku-description': 'SKUDESC',
  'v1.catalog.sku-logos': 'LOGOS',
  'v1.catalog.carriers': 'CARRIERS',
  'v2.catalog.operators': 'OPERATORS',
  'v2.catalog.getproducts': 'PRODUCTS',
  'v2.catalog.skus': 'SKUS',
  'v2.catalog.skus-giftcards': 'GIFTCARDS',
};

export const filterCaseId = (spec: FilterSpec): string =>
  `FILTERS-${spec.operationId.slice(0, 2).toUpperCase()}-${OP_TAG[spec.operationId] ?? spec.operationId}-${spec.param.toUpperCase()}`;

/** A comparable form of a record's value: numbers for int fields, upper-case codes (countryCode=jm matches JM). */
export function valueAt(record: unknown, path: string, kind: 'int' | 'code'): number | string | undefined {
  if (kind === 'int') return readNumber(record, path);
  return readString(record, path)?.toUpperCase();
}

function unfilteredInput(spec: FilterSpec): RequestInput {
  return spec.paged === true ? { query: { pageSize: 100 } } : {};
}

/** A value of the listing that some record has and another record has not (else filtering cannot be shown). */
function pickValue(values: ReadonlyArray<number | string | undefined>): number | string | undefined {
  const present = values.filter((v): v is number | string => v !== undefined);
  const distinct = [...new Set(present)];
  return distinct.length < 2 ? undefined : distinct[0];
}

export interface FilterVerdict {
  readonly check: string;
  readonly message: string;
  readonly expected: string;
  readonly received: string;
}

/** judgeFiltered for one field filter: a record matches when its value at `path` (as `kind`) is `value`. */
export function judgeFilteredValue(
  filtered: readonly Record<string, unknown>[],
  path: string,
  kind: 'int' | 'code',
  what: string,
  value: number | string,
  expectedCount: number | undefined,
): FilterVerdict | 'unreadable' | undefined {
  const matches = (r: Record<string, unknown>): boolean | undefined => {
    const got = valueAt(r, path, kind);
    return got === undefined ? undefined : got === value;
  };
  return judgeFiltered(filtered, matches, (r) => String(readField(r, path)), what, expectedCount);
}

/**
 * Judges a filtered listing: non-empty, every readable record matches, and (unpaged) every matching record of the
 * unfiltered listing is there. `undefined` when the filter holds; `'unreadable'` when no record carries the field.
 */
export function judgeFiltered(
  filtered: readonly Record<string, unknown>[],
  matches: (record: Record<string, unknown>) => boolean | undefined,
  describe: (record: Record<string, unknown>) => string,
  what: string,
  expectedCount?: number,
): FilterVerdict | 'unreadable' | undefined {
  if (filtered.length === 0) {
    return {
      check: 'filter-finds-record',
      message: `filtering by ${what} returned nothing, although the catalog has such a record`,
      expected: `at least one record with ${what}`,
      received: '0 records',
    };
  }
  const judged = filtered.map(matches);
  if (judged.every((j) => j === undefined)) return 'unreadable';
  const wrong = filtered.filter((_, i) => judged[i] === false);
  if (wrong.length > 0) {
    return {
      check: 'filter-only-matching',
      message: `filtering by ${what} returned ${wrong.length} of ${filtered.length} records that do not match`,
      expected: `only records with ${what}`,
      received: [...new Set(wrong.map(describe))].slice(0, 6).join(', '),
    };
  }
  if (expectedCount !== undefined && filtered.length < expectedCount) {
    return {
      check: 'filter-complete',
      message: `filtering by ${what} returned ${filtered.length} records; the unfiltered listing has ${expectedCount} such records`,
      expected: `${expectedCount} records`,
      received: `${filtered.length} records`,
    };
  }
  return undefined;
}

function report(
  ctx: CaseContext,
  exchange: Exchange,
  verdict: FilterVerdict | 'unreadable' | undefined,
  label: string,
  path: string,
): void {
  if (verdict === undefined) return;
  if (verdict === 'unreadable')
    ctx.skip(
      `not verified: the filtered records carry no readable ${label}: ${mappingHint(`fieldMapping.${label}`, records(exchange)[0], path)}`,
    );
  ctx.fail({ ...verdict, operation: exchange.request.operationId, request: exchange.request });
}

async function byField(ctx: CaseContext, spec: FilterSpec, judge: Extract<Judge, { by: 'field' }>): Promise<void> {
  const path = judge.path(ctx.mapping);
  const all = await ctx.call(spec.operationId, unfilteredInput(spec));
  if (!ctx.check(successful, all)) return;
  const listing = records(all);
  const values = listing.map((r) => valueAt(r, path, judge.kind));
  if (values.every((v) => v === undefined)) {
    ctx.skip(
      `not verified: no record of the unfiltered ${spec.operationId} listing carries ${judge.label}: ${mappingHint(`fieldMapping.${judge.label}`, listing[0], path)}`,
    );
  }
  const value = pickValue(values);
  if (value === undefined) ctx.skip(`every record of ${spec.operationId} has the same ${judge.label}: filtering cannot be shown`);
  ctx.note(`${spec.param}=${String(value)} (from the unfiltered listing of ${listing.length} records)`);
  const filtered = await ctx.call(spec.operationId, { query: { [spec.param]: value as number | string } });
  if (!ctx.check(successful, filtered)) return;
  const expectedCount = spec.paged === true ? undefined : values.filter((v) => v === value).length;
  const verdict = judgeFilteredValue(
    records(filtered),
    path,
    judge.kind,
    `${spec.param}=${String(value)}`,
    value as number | string,
    expectedCount,
  );
  report(ctx, filtered, verdict, judge.label, path);
}

async function byJoin(ctx: CaseContext, spec: FilterSpec, judge: Extract<Judge, { by: 'join' }>): Promise<void> {
  const path = judge.path(ctx.mapping);
  const picked = judge.pick((await ctx.fixtures()).skus);
  if (picked === undefined) {
    const fx = await ctx.fixtures();
    return ctx.skip(
      `not verified: the v2 catalog shows no SKU with a readable productId: ${mappingHint('fieldMapping.v2Sku.productId', fx.skus[0]?.record, ctx.mapping.v2Sku.productId)}`,
    );
  }
  // Every matching record too, as the field filters are judged: the unfiltered listing's records that name the join's values.
  const all = await ctx.call(spec.operationId, unfilteredInput(spec));
  if (!ctx.check(successful, all)) return;
  const matching = (r: Record<string, unknown>): boolean | undefined => {
    const got = readNumber(r, path);
    return got === undefined ? undefined : picked.allowed.has(got);
  };
  const expectedCount = records(all).filter((r) => matching(r) === true).length;
  ctx.note(`${spec.param}=${picked.value}: records must name ${picked.what} (${expectedCount} such records in the unfiltered listing)`);
  const filtered = await ctx.call(spec.operationId, { query: { [spec.param]: picked.value } });
  if (!ctx.check(successful, filtered)) return;
  const verdict = judgeFiltered(
    records(filtered),
    matching,
    (r) => `${judge.label} ${String(readField(r, path))}`,
    `${spec.param}=${picked.value} (${picked.what})`,
    expectedCount === 0 ? undefined : expectedCount,
  );
  report(ctx, filtered, verdict, judge.label, path);
}

function filterCase(spec: FilterSpec): ConformanceCase {
  const op = getOperation(spec.operationId);
  const join = spec.judge.by === 'join';
  return {
    kind: 'scenario',
    id: filterCaseId(spec),
    group: 'FILTERS',
    title: `${spec.operationId}?${spec.param}=<a value of the catalog> returns only (and every) matching record`,
    specSection: op.specSection,
    rule: FILTER_ROWS[spec.operationId] ?? spec.operationId,
    api: op.version,
    assumed: [
      `the record field of the filtered value: fieldMapping.${spec.judge.label}`,
      ...(join ? [ASSUMED.sharedSkuIds, 'a SKU belongs to the product the v2 catalog names'] : []),
    ],
    async scenario(ctx) {
      if (spec.judge.by === 'field') await byField(ctx, spec, spec.judge);
      else await byJoin(ctx, spec, spec.judge);
    },
  };
}

export const FILTER_CASES: readonly ConformanceCase[] = FILTERS.map(filterCase);
