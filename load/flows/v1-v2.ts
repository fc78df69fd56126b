// v1-v2: the same reads on v1 and v2 side by side: each pair is sent concurrently (one per version, tagged `api`),
// so their latency and outcome can be compared per purpose in one run (a v1-to-v2 migration regression check).
import type { CoreExchange } from '../../api/client-core.ts';
import { operationPairs } from '../../api/operations.ts';
import type { RequestInput } from '../../api/request-builder.ts';
import { discoverCatalog, type CatalogData, type SkuPick, type VersionCatalog } from '../catalog.ts';
import { V1_V2_PURPOSES } from '../scenarios.ts';
import { read, type FlowContext, type LoadScenario } from './context.ts';
import { isNoInput, loadInput } from './inputs.ts';
import { lookupPlans } from './lookup.ts';

interface PairData {
  readonly catalogs: CatalogData;
  /** SKU ids present in both versions' catalogs (exchange rate, bill detail). */
  readonly shared: readonly SkuPick[];
}

/** v1/v2 operation ids per purpose, from the catalog's pairs (the paths differ: v1 catalog/lookup vs v2 lookup). */
const PAIRS: ReadonlyMap<string, readonly [string, string]> = new Map(
  operationPairs().map((pair) => [pair.purpose, [pair.v1.id, pair.v2.id] as const]),
);

export function pairIds(purpose: string): readonly [string, string] | undefined {
  return PAIRS.get(purpose);
}

/**
 * The same input for both versions, from the v1 operation's input rule, over a catalog of the SKUs both versions have
 * and the lookup countries' number plans (v1 and v2 share the parameter names of these reads).
 */
function inputFor(ctx: FlowContext, operationId: string, data: PairData): RequestInput | undefined {
  const shared: VersionCatalog = { skus: data.shared, giftcards: [], plans: data.catalogs.v2?.plans ?? [] };
  // No optional filters: both versions get exactly the same request.
  const built = loadInput(ctx, shared, operationId, { filters: false });
  return isNoInput(built) ? undefined : built.input;
}

export const v1v2: LoadScenario<PairData> = {
  name: 'v1-v2',
  async setup(ctx) {
    const v1 = await discoverCatalog(ctx.client, 'v1', ctx.settings.fieldMapping, { skus: true });
    const v2 = await discoverCatalog(ctx.client, 'v2', ctx.settings.fieldMapping, { skus: true, countries: true });
    const inV1 = new Set(v1.skus.map((s) => s.skuId));
    const shared = v2.skus.filter((s) => inV1.has(s.skuId));
    return { catalogs: { v1: { skus: [], giftcards: [], plans: [] }, v2: { ...v2, plans: lookupPlans(v2) } }, shared };
  },
  async iteration(ctx, data) {
    for (const purpose of V1_V2_PURPOSES) {
      const ids = pairIds(purpose);
      const input = ids === undefined ? undefined : inputFor(ctx, ids[0], data);
      if (ids === undefined || input === undefined) {
        ctx.record.warnOnce(
          `pair-${purpose}`,
          `v1-v2: cannot build the ${purpose} pair from the catalog (no SKU in both versions, or no lookup country)`,
        );
        continue;
      }
      const pair: Array<Promise<CoreExchange>> = [read(ctx, ids[0], input), read(ctx, ids[1], input)];
      await Promise.all(pair);
    }
  },
};
