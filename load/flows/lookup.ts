// lookup: mobile number lookup for numbers of the sandbox lookup countries, the number's dynamic bundles (v2), and
// the bill detail of an account for a Bill Pay SKU. Numbers and SKUs come from the target's catalog in setup().
import { CATEGORY_IDS } from '../../api/operations.ts';
import { SANDBOX_LOOKUP_COUNTRIES } from '../../api/catalog-facts.ts';
import { discoverCatalog, type CatalogData, type CountryPlan, type VersionCatalog } from '../catalog.ts';
import { read, versionFor, type FlowContext, type LoadScenario } from './context.ts';
import { isNoInput, loadInput } from './inputs.ts';

/** Plans of the lookup countries (spec: "sandbox supports only numbers of four countries (Jamaica, India, Pakistan, Mexico ...)"). */
export function lookupPlans(catalog: VersionCatalog): CountryPlan[] {
  return catalog.plans.filter((plan) => (SANDBOX_LOOKUP_COUNTRIES as readonly string[]).includes(plan.country));
}

export async function lookupOnce(ctx: FlowContext, catalog: VersionCatalog | undefined, version: 'v1' | 'v2'): Promise<string | undefined> {
  const operationId = version === 'v1' ? 'v1.catalog.lookup-mobile' : 'v2.lookup.mobile';
  // The rule's filters add Accept-Language 'ar' to v2 lookups half the time (spec Versioning 2).
  const built = loadInput(ctx, catalog, operationId);
  if (isNoInput(built)) return (ctx.record.warnOnce(`lookup-${version}`, `lookup: ${built.unavailable}`), undefined);
  await read(ctx, operationId, built.input);
  return String(built.input.path?.mobile);
}

/** v2 bundles of a number for an RTR product of its country (a product without bundles answers an empty list). */
export async function bundlesOnce(ctx: FlowContext, catalog: VersionCatalog | undefined): Promise<void> {
  const built = loadInput(ctx, catalog, 'v2.catalog.bundles');
  if (isNoInput(built)) return ctx.record.warnOnce('bundles', `bundles: ${built.unavailable}`);
  await read(ctx, 'v2.catalog.bundles', built.input);
}

/** Bill detail of the configured account for a Bill Pay SKU. */
export async function billDetailOnce(ctx: FlowContext, catalog: VersionCatalog | undefined, version: 'v1' | 'v2'): Promise<void> {
  const operationId = version === 'v1' ? 'v1.transaction.billpay-fetch-account-detail' : 'v2.lookup.billpay-fetch-account-detail';
  const built = loadInput(ctx, catalog, operationId);
  if (isNoInput(built)) return ctx.record.warnOnce(`billpay-detail-${version}`, `bill detail: ${built.unavailable}`);
  await read(ctx, operationId, built.input);
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
    await lookupOnce(ctx, data[version], version);
    if (version === 'v2') await bundlesOnce(ctx, data.v2);
    await billDetailOnce(ctx, data[version], version);
  },
};
