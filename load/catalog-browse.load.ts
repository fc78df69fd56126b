// k6 entry of the catalog-browse scenario (see load/scenarios.ts): `npm run build` bundles it into dist/k6/catalog-browse.js.
// Profile, overrides and target come from the environment (load/run-settings.ts); `gateway-harness load --scenario catalog-browse` sets them.
import { defineLoadTest } from './script-api.ts';
import { catalogBrowse } from './flows/catalog-browse.ts';

const test = defineLoadTest(catalogBrowse);

export const options = test.options;
export const setup = test.setup;
export const handleSummary = test.handleSummary;
export default test.iteration;
