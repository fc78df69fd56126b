// An example of `gateway-harness load --script`: a team's own flow written with the harness's load API. A customer
// checks the balance, thinks for a moment, tops up a number, and reads the transaction back. docs/load-runs.md explains it.
import { defineScript, read, think, topupCatalog, topupOnce, versionFor, type CatalogData } from 'gateway-harness/load';

const test = defineScript<CatalogData>({
  name: 'topup-think-time',
  description: 'balance, 200-400 ms of think time, a top-up followed until final, read back from the status endpoint',
  // Every operation the script sends, setup's reads included: its thresholds and money guard follow this list.
  operations: ['catalog.countries', 'catalog.skus', 'account.balance', 'transaction.topup'],
  readsBackStatus: true,
  // The built-in top-up flow's own steps: its setup (the SKUs it can top up) and one top-up followed until final.
  setup: topupCatalog,
  async iteration(ctx, data) {
    const version = versionFor(ctx);
    await read(ctx, `${version}.account.balance`);
    await think(200 + Math.floor(ctx.random() * 200));
    await topupOnce(ctx, data[version], version);
  },
});

export const options = test.options;
export const setup = test.setup;
export const handleSummary = test.handleSummary;
export default test.iteration;
