// topup-flow: a mobile top-up with an RTR SKU and a number of its country, both read from the catalog in setup();
// a client timeout or '852' is followed on the status endpoint until final, then the status endpoint confirms the outcome.
import { discoverCatalog, skusOf, type CatalogData, type CountryPlan, type SkuPick, type VersionCatalog } from '../catalog.ts';
import { confirmWithStatus, submit, versionFor, type FlowContext, type LoadScenario } from './context.ts';
import { isNoInput, loadInput } from './inputs.ts';

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

/** One top-up (input from the catalog's rule for it) followed to its final state and read back. */
export async function topupOnce(ctx: FlowContext, catalog: VersionCatalog | undefined, version: 'v1' | 'v2'): Promise<void> {
  const built = loadInput(ctx, catalog, `${version}.transaction.topup`);
  if (isNoInput(built)) return ctx.record.warnOnce(`topup-${version}`, `topup: ${built.unavailable}`);
  const body = built.input.body as Record<string, unknown>;
  const result = await submit(ctx, `${version}.transaction.topup`, body);
  await confirmWithStatus(ctx, result, String(body.correlationId));
}

/** setup() of a top-up flow: per version, the SKUs it can top up and the number plans (only what the flow uses travels to the VUs). */
export async function topupCatalog(ctx: FlowContext): Promise<CatalogData> {
  const data: CatalogData = {};
  for (const version of ctx.versions) {
    const catalog = await discoverCatalog(ctx.client, version, ctx.settings.fieldMapping, { skus: true, countries: true });
    data[version] = { skus: topupTargets(catalog).map((t) => t.sku), giftcards: [], plans: catalog.plans };
  }
  return data;
}

export const topupFlow: LoadScenario<CatalogData> = {
  name: 'topup-flow',
  setup: topupCatalog,
  async iteration(ctx, data) {
    const version = versionFor(ctx);
    await topupOnce(ctx, data[version], version);
  },
};
