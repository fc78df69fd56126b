// k6 entry of the lookup scenario (see load/scenarios.ts): `npm run build` bundles it into dist/k6/lookup.js.
// Profile, overrides and target come from the environment (load/run-settings.ts); `gateway-harness load --scenario lookup` sets them.
import { defineLoadTest } from './script-api.ts';
import { lookup } from './flows/lookup.ts';

const test = defineLoadTest(lookup);

export const options = test.options;
export const setup = test.setup;
export const handleSummary = test.handleSummary;
export default test.iteration;
