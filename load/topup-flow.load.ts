// k6 entry of the topup-flow scenario (see load/scenarios.ts): `npm run build` bundles it into dist/k6/topup-flow.js.
// Profile, overrides and target come from the environment (load/run-settings.ts); `gateway-harness load --scenario topup-flow` sets them.
import { defineLoadTest } from './script-api.ts';
import { topupFlow } from './flows/topup-flow.ts';

const test = defineLoadTest(topupFlow);

export const options = test.options;
export const setup = test.setup;
export const handleSummary = test.handleSummary;
export default test.iteration;
