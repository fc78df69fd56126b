// The harness's load API, `import ... from 'gateway-harness/load'` (esbuild resolves it to this file): what a team's
// own script (`load --script`) and every built-in load/*.load.ts entry use. Reference and example: docs/load-runs.md.
import { defineLoadTest, defineScriptTest, type LoadTest } from './k6-entry.ts';
import type { FlowContext } from './flows/context.ts';
import { scriptScenario, type ScriptDeclaration } from './script-scenario.ts';

export { defineLoadTest, type LoadTest };
export { confirmWithStatus, payloadOf, pick, read, submit, versionFor, type FlowContext } from './flows/context.ts';
export { isNoInput, loadInput } from './flows/inputs.ts';
export { discoverCatalog, skusOf, type CatalogData, type VersionCatalog } from './catalog.ts';
export { topupCatalog, topupOnce, topupTargets } from './flows/topup-flow.ts';
/** An awaitable pause (think time) that works on k6 v0.48, k6 v2 and the Node engine. */
export { waitMs as think } from './k6-wait.ts';

/** What a script declares (script-scenario.ts: the operations it sends, whose thresholds and money guard follow them) and its flow. */
export interface ScriptDefinition<D> extends ScriptDeclaration {
  setup?(ctx: FlowContext): Promise<D>;
  /** One iteration: at most one charging request (the money plan prices one per iteration). */
  iteration(ctx: FlowContext, data: D): Promise<void>;
}

/**
 * A script's test: export its `options`, `setup`, `handleSummary` and `iteration` as default, exactly as the built-in
 * entries do. Runs under `gateway-harness load --script FILE` with the harness's reports, thresholds and money guard.
 */
export function defineScript<D = undefined>(def: ScriptDefinition<D>): LoadTest<D> {
  // No setup of its own: an empty one that completes (the report reads a setup as completed from its data being there).
  const setup = def.setup ?? (async () => ({}) as D);
  return defineScriptTest(scriptScenario(def), {
    setup,
    iteration: def.iteration,
  });
}
