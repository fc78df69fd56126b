// An example of `gateway-harness load --script`: a team's own flow written with the harness's load API. A customer
// checks the balance, thinks for a moment, tops up a number, and reads the transaction back. docs/load-runs.md explains it.
import {
  confirmWithStatus,
  defineScript,
  discoverCatalog,
  isNoInput,
  loadInput,
  read,
  submit,
  think,
  topupTargets,
  versionFor,
  type CatalogData,
} from 'gateway-harness/load';

const test = defineScript<CatalogData>({
  name: 'topup-think-time',
  description: 'balance, 200-400 ms of think time, a top-up followed until final, read back from the status endpoint',
  // Every operation the script sends, setup's reads included: its thresholds and money guard follow this list.
  operations: ['catalog.countries', 'catalog.skus', 'account.balance', 'transaction.topup'],
  readsBackStatus: true,
  async setup(ctx) {
    const data: CatalogData = {};
    for (const version of ctx.versions) {
      const catalog = await discoverCatalog(ctx.client, version, ctx.settings.fieldMapping, { skus: true, countries: true });
      data[version] = { skus: topupTargets(catalog).map((t) => t.sku), giftcards: [], plans: catalog.plans };
    }
    return data;
  },
  async iteration(ctx, data) {
    const version = versionFor(ctx);
    await read(ctx, `${version}.account.balance`);
    await think(200 + Math.floor(ctx.random() * 200));
    const built = loadInput(ctx, data[version], `${version}.transaction.topup`);
    if (isNoInput(built)) return ctx.record.warnOnce(`topup-${version}`, `topup: ${built.unavailable}`);
    const body = built.input.body as Record<string, unknown>;
    const result = await submit(ctx, `${version}.transaction.topup`, body);
    await confirmWithStatus(ctx, result, String(body.correlationId));
  },
});

export const options = test.options;
export const setup = test.setup;
export const handleSummary = test.handleSummary;
export default test.iteration;
