// lookup: mobile number lookup for numbers of the sandbox lookup countries, the number's dynamic bundles (v2), and
// the bill detail of an account for a Bill Pay SKU. Numbers and SKUs come from the target's catalog in setup().
import { CATEGORY_IDS } from '../../api/operations.ts';
import { SANDBOX_LOOKUP_COUNTRIES } from '../../api/catalog-facts.ts';
import { discoverCatalog, mobileOf, skusOf, type CatalogData, type CountryPlan, type VersionCatalog } from '../catalog.ts';
import { pick, read, versionFor, type FlowContext, type LoadScenario } from './context.ts';

/** Plans of the lookup countries (spec: "sandbox supports only numbers of four countries (Jamaica, India, Pakistan, Mexico ...)"). */
export function lookupPlans(catalog: VersionCatalog): CountryPlan[] {
  return catalog.plans.filter((plan) => (SANDBOX_LOOKUP_COUNTRIES as readonly string[]).includes(plan.country));
}

export async function lookupOnce(ctx: FlowContext, catalog: VersionCatalog | undefined, version: 'v1' | 'v2'): Promise<string | undefined> {
  const plan = pick(ctx, catalog === undefined ? [] : lookupPlans(catalog));
  const mobile = plan === undefined ? undefined : mobileOf(plan, () => ctx.random());
  if (mobile === undefined) return ctx.record.warnOnce(`lookup-${version}`, `lookup: the ${version} countries list has no plan for ${SANDBOX_LOOKUP_COUNTRIES.join(', ')}`), undefined;
  if (version === 'v1') await read(ctx, 'v1.catalog.lookup-mobile', { path: { mobile } });
  // Spec Versioning 2: v2 lookup accepts Accept-Language ('ar' for Arabic).
  else await read(ctx, 'v2.lookup.mobile', { path: { mobile }, ...(ctx.random() < 0.5 ? { acceptLanguage: 'ar' } : {}) });
  return mobile;
}

/** v2 bundles of a number for an RTR product of its country (a product without bundles answers an empty list). */
export async function bundlesOnce(ctx: FlowContext, catalog: VersionCatalog | undefined, mobile?: string): Promise<void> {
  const plan = pick(ctx, catalog === undefined ? [] : lookupPlans(catalog));
  const number = mobile ?? (plan === undefined ? undefined : mobileOf(plan, () => ctx.random()));
  const country = number === undefined ? undefined : catalog?.plans.find((p) => number.startsWith(p.prefix))?.country;
  const product = pick(ctx, (catalog?.skus ?? []).filter((s) => s.categoryId === CATEGORY_IDS.Rtr && s.countryCode === country && s.productId !== undefined));
  if (number === undefined || product === undefined) return ctx.record.warnOnce('bundles', 'bundles: no RTR product of a lookup country in the v2 catalog');
  await read(ctx, 'v2.catalog.bundles', { path: { productId: product.productId as number, mobileNumber: number } });
}

/** Bill detail of the configured account for a Bill Pay SKU. */
export async function billDetailOnce(ctx: FlowContext, catalog: VersionCatalog | undefined, version: 'v1' | 'v2'): Promise<void> {
  const sku = pick(ctx, catalog === undefined ? [] : skusOf(catalog, 'Bill Pay'));
  if (sku === undefined) return ctx.record.warnOnce(`billpay-detail-${version}`, `bill detail: the ${version} catalog has no Bill Pay SKU`);
  const operationId = version === 'v1' ? 'v1.transaction.billpay-fetch-account-detail' : 'v2.lookup.billpay-fetch-account-detail';
  await read(ctx, operationId, { query: { skuId: sku.skuId, accountNumber: ctx.settings.data.billpayAccountNumber } });
}

export const lookup: LoadScenario<CatalogData> = {
  name: 'lookup',
  async setup(ctx) {
    const data: CatalogData = {};
    for (const version of ctx.versions) {
      const catalog = await discoverCatalog(ctx.client, version, ctx.settings.fieldMapping, { skus: true, countries: true });
      const countries = new Set<string>(SANDBOX_LOOKUP_COUNTRIES);
      const skus = catalog.skus.filter(
        (s) => s.categoryId === CATEGORY_IDS['Bill Pay'] || (s.categoryId === CATEGORY_IDS.Rtr && countries.has(s.countryCode ?? '')),
      );
      data[version] = { skus, giftcards: [], plans: lookupPlans(catalog) };
    }
    return data;
  },
  async iteration(ctx, data) {
    const version = versionFor(ctx);
    const mobile = await lookupOnce(ctx, data[version], version);
    if (version === 'v2') await bundlesOnce(ctx, data.v2, mobile);
    await billDetailOnce(ctx, data[version], version);
  },
};
