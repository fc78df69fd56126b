// k6 entry of the v1-v2 scenario (see load/scenarios.ts): `npm run build` bundles it into dist/k6/v1-v2.js.
// Profile, overrides and target come from the environment (load/run-settings.ts); `gateway-harness load --scenario v1-v2` sets them.
import { defineLoadTest } from './script-api.ts';
import { v1v2 } from './flows/v1-v2.ts';

const test = defineLoadTest(v1v2);

export const options = test.options;
export const setup = test.setup;
export const handleSummary = test.handleSummary;
export default test.iteration;
