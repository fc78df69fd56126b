// The load flows' inputs: the operation's input rule (api/inputs.ts) against one version's catalog read in setup(),
// picked at random among the best candidates, optional filters half the time. The flows keep no input table of their own.
import {
  buildInput,
  isNoInput,
  linksOf,
  type BuiltInput,
  type EarlierTransaction,
  type InputSku,
  type InputWorld,
  type NoInput,
} from '../../api/inputs.ts';
import { getOperation } from '../../api/operations.ts';
import { mobileOf, skusOf, type SkuPick, type VersionCatalog } from '../catalog.ts';
import type { FlowContext } from './context.ts';

export type { BuiltInput, NoInput } from '../../api/inputs.ts';
export { isNoInput } from '../../api/inputs.ts';

/** A compact setup-data SKU in the builder's terms. */
export function inputSku(sku: SkuPick): InputSku {
  return {
    skuId: sku.skuId,
    range: sku.range,
    ...(sku.productId === undefined ? {} : { productId: sku.productId }),
    ...(sku.countryCode === undefined ? {} : { countryCode: sku.countryCode }),
    ...(sku.categoryId === undefined ? {} : { categoryId: sku.categoryId }),
    ...(sku.amount === undefined
      ? {}
      : { amount: { amount: sku.amount, ...(sku.currency === undefined ? {} : { transactionCurrencyCode: sku.currency }) } }),
    ...(sku.requireFetchBundle === undefined ? {} : { requireFetchBundle: sku.requireFetchBundle }),
    ...(sku.price === undefined ? {} : { price: sku.price }),
  };
}

/** The builder's view of one version's catalog and the run's `data` settings. */
export function loadWorld(ctx: FlowContext, catalog: VersionCatalog | undefined): InputWorld {
  const empty: VersionCatalog = { skus: [], giftcards: [], plans: [] };
  const c = catalog ?? empty;
  return {
    skus: (category) => (category === 'any' ? c.skus : category === 'Gift Card' ? c.giftcards : skusOf(c, category)).map(inputSku),
    mobile: (country) => {
      const plan = c.plans.find((p) => p.country === country.toUpperCase());
      return plan === undefined ? undefined : mobileOf(plan, () => ctx.random());
    },
    setting: (name) => ctx.settings.data[name],
    correlationId: () => ctx.correlationId(),
    mapping: ctx.settings.fieldMapping,
  };
}

/** A valid input of the operation for this iteration, or what the catalog lacks. */
export function loadInput(
  ctx: FlowContext,
  catalog: VersionCatalog | undefined,
  operationId: string,
  options: { readonly transactions?: readonly EarlierTransaction[]; readonly filters?: boolean } = {},
): BuiltInput | NoInput {
  return buildInput(getOperation(operationId), loadWorld(ctx, catalog), { random: () => ctx.random(), ...options });
}

/**
 * The input of a read that follows a successful write and takes a field of its result (a gift card fetch: the
 * transaction id). When the mapping reads nothing there, the field is learned once on this result (ctx.resultValue),
 * then read through the mapping it was written into; otherwise what is missing, naming the key.
 */
export async function linkedInput(
  ctx: FlowContext,
  catalog: VersionCatalog | undefined,
  readId: string,
  txn: EarlierTransaction,
): Promise<BuiltInput | NoInput> {
  const built = loadInput(ctx, catalog, readId, { transactions: [txn] });
  const taken = linksOf(getOperation(readId)).find(({ link }) => link.field !== 'correlationId');
  if (!isNoInput(built) || ctx.resultValue === undefined || taken === undefined || taken.link.field === 'correlationId') return built;
  const write = `${txn.version}.${txn.purpose}`;
  const got = await ctx.resultValue({ write, read: readId, param: taken.param, field: taken.link.field, results: [txn.result] });
  return 'reason' in got ? { unavailable: got.reason } : loadInput(ctx, catalog, readId, { transactions: [txn] });
}
