// giftcard-flow: a gift card purchase answered '852' ("processing is in progress"), followed on the status endpoint
// until final, then the gift card fetched by the transaction id of the final result.
import type { TransactionResult } from '../../api/client-core.ts';
import { discoverCatalog, payloadField, type CatalogData, type VersionCatalog } from '../catalog.ts';
import { amountFields, payloadOf, pick, read, submit, versionFor, type FlowContext, type LoadScenario } from './context.ts';

/**
 * Spec (Per-operation rules, Gift card): "the final result must be obtained with the status endpoint ... The gift card
 * fetch operation then returns gift card information for the transaction id received from the gift card operation."
 */
async function fetchCard(ctx: FlowContext, result: TransactionResult, version: 'v1' | 'v2'): Promise<void> {
  if (result.outcome !== 'Successful') return;
  const id = payloadField(payloadOf(result.finalExchange), ctx.settings.data.transactionIdPath);
  if (id === undefined) {
    return ctx.record.warnOnce(`giftcard-id-${version}`, `giftcard: the final ${version} result has no transaction id at "${ctx.settings.data.transactionIdPath}" (load config data.transactionIdPath)`);
  }
  await read(ctx, `${version}.transaction.giftcard-fetch`, { path: { id } });
}

/** One gift card purchase → status → fetch; shared with the mixed scenario. */
export async function giftcardOnce(ctx: FlowContext, catalog: VersionCatalog | undefined, version: 'v1' | 'v2'): Promise<void> {
  const sku = pick(ctx, (catalog?.giftcards ?? []).filter((s) => s.amount !== undefined));
  if (sku === undefined) return ctx.record.warnOnce(`giftcard-${version}`, `giftcard: the ${version} catalog has no gift card SKU with an amount`);
  const result = await submit(ctx, `${version}.transaction.giftcard`, { skuId: sku.skuId, ...amountFields(sku), correlationId: ctx.correlationId() });
  await fetchCard(ctx, result, version);
}

export const giftcardFlow: LoadScenario<CatalogData> = {
  name: 'giftcard-flow',
  async setup(ctx) {
    const data: CatalogData = {};
    for (const version of ctx.versions) {
      const catalog = await discoverCatalog(ctx.client, version, ctx.settings.fieldMapping, { giftcards: true });
      data[version] = { skus: [], giftcards: catalog.giftcards, plans: [] };
    }
    return data;
  },
  async iteration(ctx, data) {
    const version = versionFor(ctx);
    await giftcardOnce(ctx, data[version], version);
  },
};
