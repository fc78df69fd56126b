// mixed: the weighted mix of load/mix.ts — reads, transactions and their follow-ups on v1 and v2 — so one run touches
// every operation of the catalog. Iteration i runs entry i of the deterministic schedule (any full cycle covers all).
import { CATEGORY_IDS, type ApiVersion } from '../../api/operations.ts';
import { discoverCatalog, payloadField, skusOf, type CatalogData, type VersionCatalog } from '../catalog.ts';
import { mixEntries, mixSchedule, type MixActionName, type MixEntry } from '../mix.ts';
import { amountFields, payloadOf, pick, read, submit, type FlowContext, type LoadScenario } from './context.ts';
import { giftcardOnce } from './giftcard-flow.ts';
import { billDetailOnce, bundlesOnce, lookupOnce } from './lookup.ts';
import { topupOnce } from './topup-flow.ts';

type Action = (ctx: FlowContext, catalog: VersionCatalog | undefined, version: ApiVersion) => Promise<void>;

function anySku(ctx: FlowContext, catalog: VersionCatalog | undefined) {
  return pick(ctx, catalog?.skus ?? []);
}

/** A charging transaction with a SKU of one category, followed to its final state; returns the final payload. */
async function transactWith(
  ctx: FlowContext,
  catalog: VersionCatalog | undefined,
  version: ApiVersion,
  name: string,
  category: keyof typeof CATEGORY_IDS,
  body: (sku: { skuId: number; amount?: number; currency?: string }) => Record<string, unknown>,
): Promise<unknown> {
  const sku = pick(ctx, catalog === undefined ? [] : skusOf(catalog, category));
  if (sku === undefined) return ctx.record.warnOnce(`${name}-${version}`, `mixed: the ${version} catalog has no ${category} SKU for ${name}`), undefined;
  const result = await submit(ctx, `${version}.transaction.${name}`, { skuId: sku.skuId, ...body(sku), correlationId: ctx.correlationId() });
  return result.outcome === 'Successful' ? payloadOf(result.finalExchange) : undefined;
}

function missing(ctx: FlowContext, key: string, message: string): void {
  ctx.record.warnOnce(key, `mixed: ${message}`);
}

/** One implementation per action of the table (the type makes a missing one a compile error). */
export const MIX_IMPLEMENTATIONS: Readonly<Record<MixActionName, Action>> = {
  balance: async (ctx, _c, v) => void (await read(ctx, `${v}.account.balance`)),
  countries: async (ctx, _c, v) => void (await read(ctx, `${v}.catalog.countries`)),
  skus: async (ctx, c, v) => {
    const sku = anySku(ctx, c);
    const filter = sku?.productId === undefined || ctx.random() < 0.5 ? {} : { query: { [v === 'v1' ? 'productid' : 'productId']: sku.productId } };
    await read(ctx, `${v}.catalog.skus`, filter);
  },
  'sku-description': async (ctx, c, v) => {
    const sku = anySku(ctx, c);
    await read(ctx, `${v}.catalog.sku-description`, sku === undefined ? {} : { query: { skuId: sku.skuId } });
  },
  'sku-logos': async (ctx, c, v) => {
    const sku = anySku(ctx, c);
    await read(ctx, `${v}.catalog.sku-logos`, sku?.productId === undefined ? {} : { query: { productId: sku.productId } });
  },
  carriers: async (ctx, c, v) => {
    const sku = anySku(ctx, c);
    await read(ctx, `${v}.catalog.carriers`, sku?.countryCode === undefined ? {} : { query: { countryCode: sku.countryCode } });
  },
  operators: async (ctx, c, v) => {
    const sku = anySku(ctx, c);
    await read(ctx, `${v}.catalog.operators`, sku?.countryCode === undefined ? {} : { query: { countryCode: sku.countryCode } });
  },
  products: async (ctx, _c, v) => void (await read(ctx, `${v}.catalog.getproducts`, { query: { categoryId: CATEGORY_IDS.Rtr } })),
  'exchange-rate': async (ctx, c, v) => {
    const sku = anySku(ctx, c);
    if (sku === undefined) return missing(ctx, `rate-${v}`, `the ${v} catalog has no SKU for an exchange rate`);
    await read(ctx, `${v}.catalog.sku-exchange-rate`, { path: { skuId: sku.skuId } });
  },
  errors: async (ctx, _c, v) => void (await read(ctx, `${v}.catalog.errors`)),
  promotions: async (ctx, _c, v) => {
    await read(ctx, v === 'v1' ? 'v1.catalog.promotion-current' : 'v2.promotion.current');
    await read(ctx, v === 'v1' ? 'v1.catalog.promotion-upcoming' : 'v2.promotion.upcoming');
  },
  'giftcard-page': async (ctx, c, v) => {
    const from = pick(ctx, c?.giftcards ?? []);
    await read(ctx, `${v}.catalog.skus-giftcards`, { query: { pageSize: 20, ...(from === undefined ? {} : { cursor: from.skuId }) } });
  },
  lookup: async (ctx, c, v) => void (await lookupOnce(ctx, c, v)),
  bundles: async (ctx, c) => bundlesOnce(ctx, c),
  'billpay-detail': async (ctx, c, v) => billDetailOnce(ctx, c, v),
  topup: async (ctx, c, v) => topupOnce(ctx, c, v),
  pin: async (ctx, c, v) => void (await transactWith(ctx, c, v, 'pin', 'Pin', () => ({}))),
  billpay: async (ctx, c, v) =>
    void (await transactWith(ctx, c, v, 'billpay', 'Bill Pay', (sku) => ({ ...amountFields(sku), accountNumber: ctx.settings.data.billpayAccountNumber }))),
  giftcard: async (ctx, c, v) => giftcardOnce(ctx, c, v),
  'sim-activation': async (ctx, c, v) =>
    void (await transactWith(ctx, c, v, 'sim-activation', 'Sim', () => ({ simNumber: ctx.settings.data.simNumber, zipCode: ctx.settings.data.zipCode }))),
  'sim-portin': async (ctx, c, v) => {
    const payload = await transactWith(ctx, c, v, 'sim-portin', 'Sim', () => ({ simNumber: ctx.settings.data.simNumber, zipCode: ctx.settings.data.zipCode }));
    const id = payloadField(payload, ctx.settings.data.transactionIdPath);
    if (payload === undefined) return;
    if (id === undefined) return missing(ctx, `portin-id-${v}`, `the ${v} port-in result has no transaction id at "${ctx.settings.data.transactionIdPath}"`);
    await read(ctx, `${v}.transaction.sim-portin-status`, { path: { id } });
  },
  esim: async (ctx, c, v) => {
    const payload = await transactWith(ctx, c, v, 'esim', 'eSim', () => ({}));
    const iccid = payloadField(payload, ctx.settings.data.esimIccidPath);
    if (payload === undefined) return;
    if (iccid === undefined) return missing(ctx, `iccid-${v}`, `the ${v} eSIM result has no ICCID at "${ctx.settings.data.esimIccidPath}"`);
    await read(ctx, `${v}.esim.status`, { path: { Iccid: iccid } });
  },
  'estimated-cost': async (ctx, c, v) => {
    const sku = pick(ctx, (c?.skus ?? []).filter((s) => s.amount !== undefined));
    if (sku === undefined) return missing(ctx, `estimate-${v}`, `the ${v} catalog has no SKU with an amount for an estimated cost`);
    // Not a transaction (no correlationId, never charged): a plain call.
    await read(ctx, `${v}.transaction.estimated-cost`, { body: { skuId: sku.skuId, ...amountFields(sku) } });
  },
};

interface MixedData {
  readonly catalogs: CatalogData;
}

/** One schedule cycle per version selection, computed once per VU. */
const cycles = new Map<string, MixEntry[]>();

/** The schedule entry of an iteration for the selected versions. */
export function entryFor(versions: readonly ApiVersion[], iteration: number): MixEntry {
  const key = versions.join(',');
  let cycle = cycles.get(key);
  if (cycle === undefined) {
    cycle = mixSchedule(mixEntries(versions));
    cycles.set(key, cycle);
  }
  return cycle[iteration % cycle.length] as MixEntry;
}


export const mixed: LoadScenario<MixedData> = {
  name: 'mixed',
  async setup(ctx) {
    const catalogs: CatalogData = {};
    for (const version of ctx.versions) {
      catalogs[version] = await discoverCatalog(ctx.client, version, ctx.settings.fieldMapping, { skus: true, countries: true, giftcards: true });
    }
    return { catalogs };
  },
  async iteration(ctx, data) {
    const entry = entryFor(ctx.versions, ctx.iteration);
    await MIX_IMPLEMENTATIONS[entry.action](ctx, data.catalogs[entry.version], entry.version);
  },
};
