// k6 entry of the mixed scenario (see load/scenarios.ts): `npm run build` bundles it into dist/k6/mixed.js.
// Profile, overrides and target come from the environment (load/run-settings.ts); `gateway-harness load --scenario mixed` sets them.
import { defineLoadTest } from './script-api.ts';
import { mixed } from './flows/mixed.ts';

const test = defineLoadTest(mixed);

export const options = test.options;
export const setup = test.setup;
export const handleSummary = test.handleSummary;
export default test.iteration;
