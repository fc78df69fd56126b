// Catalog reads of both versions: SKUs, descriptions, exchange rates, logos, errors, carriers, countries, operators,
// products, bundles (with loans) and the paged gift card list. Filters really filter; listings come from the cache.
import { bundlesFor } from '../data/lookup.ts';
import { normalizeMobile, validCountryOfNumber } from '../data/number-plan.ts';
import type { Sku } from '../data/types.ts';
import type { SandboxBehaviour } from '../behaviour.ts';
import { errorCodeList } from '../error-codes.ts';
import type { RouteReply } from '../envelope.ts';
import { successWith } from '../envelope.ts';
import type { RouteContext, RouteTable } from './context.ts';
import { fail, intArg, listingKey, ok, sameCode, stringArg } from './context.ts';

/** Keeps the records whose field equals the argument, when the argument was given. */
function byInt<T>(records: readonly T[], value: number | undefined, field: (record: T) => number | undefined): readonly T[] {
  return value === undefined ? records : records.filter((record) => field(record) === value);
}

function byCode<T>(records: readonly T[], value: string | undefined, field: (record: T) => string): readonly T[] {
  return value === undefined ? records : records.filter((record) => sameCode(field(record), value));
}

/** A cached listing: built once per (operation, filters, language), then served as bytes. */
function listing(ctx: RouteContext, build: () => unknown): RouteReply {
  return ctx.env.cache.reply(listingKey(ctx), () => successWith(ctx.env.codes, build()));
}

function productOfSku(ctx: RouteContext, skuId: number): number | undefined {
  return ctx.env.data.index.skuById.get(skuId)?.productId;
}

const v1Skus = (ctx: RouteContext): RouteReply =>
  listing(ctx, () => byInt(ctx.env.data.served.v1Skus, intArg(ctx, 'productid'), (sku) => sku.productId));

const v2Skus = (ctx: RouteContext): RouteReply =>
  listing(ctx, () => {
    const all = ctx.env.data.served.skus[ctx.lang];
    return byInt(
      byInt(all, intArg(ctx, 'productId'), (sku) => sku.productId),
      intArg(ctx, 'skuId'),
      (sku) => sku.skuId,
    );
  });

const skuDescriptions = (ctx: RouteContext): RouteReply =>
  listing(ctx, () => {
    const bySku = byInt(ctx.env.data.skuDescriptions, intArg(ctx, 'skuId'), (d) => d.skuId);
    return byInt(bySku, intArg(ctx, 'productId'), (d) => productOfSku(ctx, d.skuId));
  });

function exchangeRate(ctx: RouteContext): RouteReply {
  const skuId = intArg(ctx, 'skuId') as number;
  const rate = ctx.env.data.index.exchangeRateBySkuId.get(skuId);
  return rate === undefined ? fail(ctx.env, 'unknownSku', `SKU ${skuId} does not exist`) : ok(ctx.env, rate);
}

const logos = (ctx: RouteContext): RouteReply =>
  listing(ctx, () => {
    const skuId = intArg(ctx, 'skuId');
    // A logo belongs to a product: the skuId filter keeps its product's logo (none for an unknown SKU).
    const bySku = skuId === undefined ? ctx.env.data.logos : byInt(ctx.env.data.logos, productOfSku(ctx, skuId) ?? -1, (l) => l.productId);
    return byInt(bySku, intArg(ctx, 'productId'), (l) => l.productId);
  });

const errors = (ctx: RouteContext): RouteReply => listing(ctx, () => errorCodeList(ctx.env.codes));

const carriers = (ctx: RouteContext): RouteReply =>
  listing(ctx, () => {
    const byCountry = byCode(ctx.env.data.carriers, stringArg(ctx, 'countryCode'), (c) => c.countryCode);
    return byCode(byCountry, stringArg(ctx, 'currencyCode'), (c) => c.currencyCode);
  });

const countries = (ctx: RouteContext): RouteReply => listing(ctx, () => ctx.env.data.served.countries);

const operators = (ctx: RouteContext): RouteReply =>
  listing(ctx, () => {
    const byId = byInt(ctx.env.data.operators, intArg(ctx, 'operatorId'), (o) => o.operatorId);
    return byCode(byId, stringArg(ctx, 'countryCode'), (o) => o.countryCode);
  });

const products = (ctx: RouteContext): RouteReply =>
  listing(ctx, () => {
    const byOperator = byInt(ctx.env.data.products, intArg(ctx, 'operatorId'), (p) => p.operatorId);
    const byCategory = byInt(byOperator, intArg(ctx, 'categoryId'), (p) => p.categoryId);
    return byCode(byCategory, stringArg(ctx, 'countryCode'), (p) => p.countryCode);
  });

/** Spec two-step flow, step 1: the bundles of a number, with its loan while dues exist (cleared by a top-up). */
function bundles(ctx: RouteContext): RouteReply {
  const { env } = ctx;
  const productId = intArg(ctx, 'productId') as number;
  const mobile = stringArg(ctx, 'mobileNumber') ?? '';
  const product = env.data.index.productById.get(productId);
  if (product === undefined) return fail(env, 'notFound', `Product ${productId} does not exist`);
  if (validCountryOfNumber(env.data, mobile)?.countryCode !== product.countryCode) {
    return fail(env, 'invalidNumber', `The Subscriber number is not valid for product ${productId} (country ${product.countryCode})`);
  }
  const records = bundlesFor(env.data, productId, mobile) ?? [];
  if (!env.store.isLoanCleared(normalizeMobile(mobile) ?? mobile)) return ok(env, records);
  return ok(
    env,
    records.map((sku) => ({ ...sku, loanAmountInFaceValueCurrency: 0, loanAmountInDeliveryCurrency: 0, loanAmountInWalletCurrency: 0 })),
  );
}

/** Index of the first record with skuId >= cursor (records sorted by skuId). */
function startOf(records: readonly Sku[], cursor: number): number {
  let lo = 0;
  let hi = records.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((records[mid] as Sku).skuId < cursor) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Spec paging rules: no cursor and no pageSize -> the first 100; cursor = the skuId to start from; pageSize 1..100.
 * Envelope (assumed semantics): next_cursor = the skuId the next page starts at, next = 1 while more pages follow;
 * both 0 on the last page.
 */
function giftcards(ctx: RouteContext): RouteReply {
  const { env } = ctx;
  const { giftcardPageDefault, giftcardPageMin, giftcardPageMax } = env.behaviour;
  const pageSize = intArg(ctx, 'pageSize');
  if (pageSize !== undefined && (pageSize < giftcardPageMin || pageSize > giftcardPageMax)) {
    return fail(env, 'invalidRequest', `Invalid request: pageSize must be between ${giftcardPageMin} and ${giftcardPageMax}`);
  }
  return env.cache.reply(listingKey(ctx), () => {
    const all = env.data.served.giftcardSkus[ctx.lang];
    const byProduct = byInt(all, intArg(ctx, 'productId'), (sku) => sku.productId);
    const bySku = byInt(byProduct, intArg(ctx, 'skuId'), (sku) => sku.skuId);
    const records = byCode(bySku, stringArg(ctx, 'countryCode'), (sku) => sku.countryCode) as readonly Sku[];
    const cursor = intArg(ctx, 'cursor');
    const start = cursor === undefined ? 0 : startOf(records, cursor);
    const page = records.slice(start, start + (pageSize ?? giftcardPageDefault));
    return successWith(
      env.codes,
      page,
      pagingFields(env.behaviour.giftcardCursorMeaning, records, start, page.length, pageSize ?? giftcardPageDefault),
    );
  });
}

/** The envelope's next / next_cursor in the meaning the behaviour names (default: where the next page starts). */
function pagingFields(
  meaning: SandboxBehaviour['giftcardCursorMeaning'],
  records: readonly Sku[],
  start: number,
  length: number,
  size: number,
): { next: number; next_cursor: number } {
  const following = records[start + length];
  if (following === undefined) return { next: 0, next_cursor: 0 };
  if (meaning === 'last-of-page') return { next: 1, next_cursor: (records[start + length - 1] as Sku).skuId };
  if (meaning === 'page-count') return { next: Math.ceil((records.length - start - length) / size), next_cursor: following.skuId };
  return { next: 1, next_cursor: following.skuId };
}

export const CATALOG_ROUTES: RouteTable = {
  'v1.catalog.skus': v1Skus,
  'v1.catalog.sku-description': skuDescriptions,
  'v1.catalog.sku-exchange-rate': exchangeRate,
  'v1.catalog.sku-logos': logos,
  'v1.catalog.errors': errors,
  'v1.catalog.carriers': carriers,
  'v1.catalog.countries': countries,
  'v2.catalog.countries': countries,
  'v2.catalog.operators': operators,
  'v2.catalog.getproducts': products,
  'v2.catalog.skus': v2Skus,
  'v2.catalog.sku-exchange-rate': exchangeRate,
  'v2.catalog.errors': errors,
  'v2.catalog.bundles': bundles,
  'v2.catalog.skus-giftcards': giftcards,
};
