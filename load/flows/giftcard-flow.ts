// giftcard-flow: a gift card purchase answered '852' ("processing is in progress"), followed on the status endpoint
// until final, then the gift card fetched by the transaction id of the final result.
import type { TransactionResult } from '../../api/client-core.ts';
import { discoverCatalog, type CatalogData, type VersionCatalog } from '../catalog.ts';
import { payloadOf, read, submit, versionFor, type FlowContext, type LoadScenario } from './context.ts';
import { isNoInput, linkedInput, loadInput } from './inputs.ts';

/**
 * Spec (Per-operation rules, Gift card): "the final result must be obtained with the status endpoint ... The gift card
 * fetch operation then returns gift card information for the transaction id received from the gift card operation."
 * The fetch takes its id through the catalog's input link (giftcard fetch id ← transaction.giftcard.transactionId),
 * learned on the first charge when the mapping reads nothing there (inputs.ts linkedInput).
 */
async function fetchCard(
  ctx: FlowContext,
  catalog: VersionCatalog | undefined,
  result: TransactionResult,
  correlationId: string,
  version: 'v1' | 'v2',
): Promise<void> {
  if (result.outcome !== 'Successful') return;
  const txn = { version, purpose: 'transaction.giftcard', correlationId, result: payloadOf(result.finalExchange) };
  const built = await linkedInput(ctx, catalog, `${version}.transaction.giftcard-fetch`, txn);
  if (isNoInput(built))
    return ctx.record.warnOnce(`giftcard-id-${version}`, `giftcard: ${built.unavailable} (fieldMapping.transaction.transactionId)`);
  await read(ctx, `${version}.transaction.giftcard-fetch`, built.input);
}

/** One gift card purchase → status → fetch. */
export async function giftcardOnce(ctx: FlowContext, catalog: VersionCatalog | undefined, version: 'v1' | 'v2'): Promise<void> {
  const built = loadInput(ctx, catalog, `${version}.transaction.giftcard`);
  if (isNoInput(built)) return ctx.record.warnOnce(`giftcard-${version}`, `giftcard: ${built.unavailable}`);
  const body = built.input.body as Record<string, unknown>;
  const result = await submit(ctx, `${version}.transaction.giftcard`, body);
  await fetchCard(ctx, catalog, result, String(body.correlationId), version);
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
