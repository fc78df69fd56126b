// k6 entry of the giftcard-flow scenario (see load/scenarios.ts): `npm run build` bundles it into dist/k6/giftcard-flow.js.
// Profile, overrides and target come from the environment (load/run-settings.ts); `gateway-harness load --scenario giftcard-flow` sets them.
import { defineLoadTest } from './script-api.ts';
import { giftcardFlow } from './flows/giftcard-flow.ts';

const test = defineLoadTest(giftcardFlow);

export const options = test.options;
export const setup = test.setup;
export const handleSummary = test.handleSummary;
export default test.iteration;
