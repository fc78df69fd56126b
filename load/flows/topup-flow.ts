// topup-flow: a mobile top-up with an RTR SKU and a number of its country, both read from the catalog in setup();
// a client timeout or '852' is followed on the status endpoint until final, then the status endpoint confirms the outcome.
import { discoverCatalog, mobileOf, skusOf, type CatalogData, type CountryPlan, type SkuPick, type VersionCatalog } from '../catalog.ts';
import { amountFields, confirmWithStatus, pick, submit, versionFor, type FlowContext, type LoadScenario } from './context.ts';

/** RTR SKUs the flow can top up: a known amount and a number plan of the SKU's country; open ranges first (never bundles). */
export function topupTargets(catalog: VersionCatalog): Array<{ sku: SkuPick; plan: CountryPlan }> {
  const targets: Array<{ sku: SkuPick; plan: CountryPlan }> = [];
  for (const sku of skusOf(catalog, 'Rtr')) {
    const plan = catalog.plans.find((p) => p.country === sku.countryCode);
    if (plan !== undefined && sku.amount !== undefined) targets.push({ sku, plan });
  }
  // A fixed SKU may be a bundle whose number owes a loan (spec: two-step bundle purchase): prefer open ranges.
  const ranges = targets.filter((t) => t.sku.range);
  return ranges.length > 0 ? ranges : targets;
}

/** One top-up followed to its final state and read back; shared with the mixed scenario. */
export async function topupOnce(ctx: FlowContext, catalog: VersionCatalog | undefined, version: 'v1' | 'v2'): Promise<void> {
  const target = pick(ctx, catalog === undefined ? [] : topupTargets(catalog));
  const mobile = target === undefined ? undefined : mobileOf(target.plan, () => ctx.random());
  if (target === undefined || mobile === undefined) {
    return ctx.record.warnOnce(`topup-${version}`, `topup: the ${version} catalog has no RTR SKU with an amount and a number plan of its country`);
  }
  const correlationId = ctx.correlationId();
  const result = await submit(ctx, `${version}.transaction.topup`, { skuId: target.sku.skuId, ...amountFields(target.sku), mobile, correlationId });
  await confirmWithStatus(ctx, result, correlationId);
}

export const topupFlow: LoadScenario<CatalogData> = {
  name: 'topup-flow',
  async setup(ctx) {
    const data: CatalogData = {};
    for (const version of ctx.versions) {
      const catalog = await discoverCatalog(ctx.client, version, ctx.settings.fieldMapping, { skus: true, countries: true });
      // Only what the flow uses travels to the VUs.
      data[version] = { skus: topupTargets(catalog).map((t) => t.sku), giftcards: [], plans: catalog.plans };
    }
    return data;
  },
  async iteration(ctx, data) {
    const version = versionFor(ctx);
    await topupOnce(ctx, data[version], version);
  },
};
