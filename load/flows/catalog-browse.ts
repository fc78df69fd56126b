// catalog-browse: a storefront session on one version per iteration: countries, operators/carriers, products, SKUs of a
// product, descriptions and logos (v1), the exchange rate of a SKU, two pages of gift cards (v2), promotions, errors.
import { readNumber } from '../../api/field-mapping.ts';
import { nextGiftcardCursor } from '../../api/giftcard-paging.ts';
import { discoverCatalog, type CatalogData, type SkuPick } from '../catalog.ts';
import { CATEGORY_IDS } from '../../api/operations.ts';
import { pick, read, versionFor, type FlowContext, type LoadScenario } from './context.ts';

/** Gift card page size of a browse (spec: pageSize "must be at least 1 and at most 100"). */
const GIFTCARD_PAGE_SIZE = 20;

function query(entries: Record<string, string | number | undefined>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(entries)) if (value !== undefined) out[name] = value;
  return out;
}

async function browseV2(ctx: FlowContext, sku: SkuPick): Promise<void> {
  await read(ctx, 'v2.catalog.countries');
  await read(ctx, 'v2.catalog.operators', { query: query({ countryCode: sku.countryCode }) });
  await read(ctx, 'v2.catalog.getproducts', { query: query({ countryCode: sku.countryCode, categoryId: CATEGORY_IDS.Rtr }) });
  // Spec Versioning 2: the SKU list accepts Accept-Language ('ar' for Arabic); half the sessions browse in Arabic.
  await read(ctx, 'v2.catalog.skus', {
    query: query({ productId: sku.productId }),
    ...(ctx.random() < 0.5 ? { acceptLanguage: 'ar' } : {}),
  });
  await read(ctx, 'v2.catalog.sku-exchange-rate', { path: { skuId: sku.skuId } });
  // Spec: "cursor selects the SKUs starting from that skuId value, limited by pageSize": the second page starts where
  // the config's cursor meaning says (paging.giftcardCursor; default the spec's definition: after the page's highest skuId).
  const first = await read(ctx, 'v2.catalog.skus-giftcards', { query: { pageSize: GIFTCARD_PAGE_SIZE } });
  const payload = first.response.envelope?.payLoad;
  const ids = (Array.isArray(payload) ? payload : [])
    .map((r) => readNumber(r, ctx.settings.fieldMapping.giftcardSku.skuId))
    .filter((id): id is number => id !== undefined);
  const cursor = nextGiftcardCursor(ctx.settings.giftcardCursor, {
    ids,
    pageSize: GIFTCARD_PAGE_SIZE,
    envelope: first.response.envelope,
    nextCursorPath: ctx.settings.fieldMapping.giftcardList.nextCursor,
  });
  if (cursor !== undefined && cursor > 0) {
    await read(ctx, 'v2.catalog.skus-giftcards', { query: { pageSize: GIFTCARD_PAGE_SIZE, cursor } });
  }
  await read(ctx, 'v2.promotion.current');
  await read(ctx, 'v2.promotion.upcoming');
  await read(ctx, 'v2.catalog.errors');
}

async function browseV1(ctx: FlowContext, sku: SkuPick): Promise<void> {
  await read(ctx, 'v1.catalog.countries');
  await read(ctx, 'v1.catalog.carriers', { query: query({ countryCode: sku.countryCode }) });
  // v1 spells the filter `productid` (spec: "query productid integer int32, optional").
  await read(ctx, 'v1.catalog.skus', { query: query({ productid: sku.productId }) });
  await read(ctx, 'v1.catalog.sku-description', { query: { skuId: sku.skuId } });
  // Spec: logos take "skuId int32, productId int32, both optional": the SKU's logo, by both filters.
  await read(ctx, 'v1.catalog.sku-logos', { query: query({ skuId: sku.skuId, productId: sku.productId }) });
  await read(ctx, 'v1.catalog.sku-exchange-rate', { path: { skuId: sku.skuId } });
  await read(ctx, 'v1.catalog.promotion-current');
  await read(ctx, 'v1.catalog.promotion-upcoming');
  await read(ctx, 'v1.catalog.errors');
}

export const catalogBrowse: LoadScenario<CatalogData> = {
  name: 'catalog-browse',
  async setup(ctx) {
    const data: CatalogData = {};
    for (const version of ctx.versions)
      data[version] = await discoverCatalog(ctx.client, version, ctx.settings.fieldMapping, { skus: true });
    return data;
  },
  async iteration(ctx, data) {
    const version = versionFor(ctx);
    const sku = pick(ctx, data[version]?.skus ?? []);
    if (sku === undefined) return ctx.record.warnOnce(`no-sku-${version}`, `catalog-browse: the ${version} catalog has no SKU to browse`);
    await (version === 'v2' ? browseV2(ctx, sku) : browseV1(ctx, sku));
  },
};
