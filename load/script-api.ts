// The harness's load API, `import ... from 'gateway-harness/load'` (esbuild resolves it to this file): what a team's
// own script (`load --script`) and every built-in load/*.load.ts entry use. Reference and example: docs/load-runs.md.
import { OPERATIONS } from '../api/operations.ts';
import { defineLoadTest, defineScriptTest, type LoadTest } from './k6-entry.ts';
import type { FlowContext } from './flows/context.ts';
import type { ScenarioMeta } from './scenarios.ts';

export { defineLoadTest, type LoadTest };
export { confirmWithStatus, payloadOf, pick, read, submit, versionFor, type FlowContext } from './flows/context.ts';
export { isNoInput, loadInput } from './flows/inputs.ts';
export { discoverCatalog, skusOf, type CatalogData, type VersionCatalog } from './catalog.ts';
export { topupTargets } from './flows/topup-flow.ts';
/** An awaitable pause (think time) that works on k6 v0.48, k6 v2 and the Node engine. */
export { waitMs as think } from './k6-wait.ts';

/** What a script declares: the operations it sends (their thresholds and the money guard follow them) and its flow. */
export interface ScriptDefinition<D> {
  /** The k6 scenario name: letters, digits, '-' and '_'. */
  readonly name: string;
  readonly description?: string;
  /**
   * Catalog purposes it sends, setup's reads included (e.g. 'catalog.skus', 'transaction.topup'); any other operation
   * is refused before it is sent. A charging write brings 'transaction.status' (the client polls it until final).
   */
  readonly operations: readonly string[];
  /** Reads a final transaction back with confirmWithStatus: its check gets a threshold. */
  readonly readsBackStatus?: boolean;
  /** Iterations of the smoke profile (default 4). */
  readonly smokeIterations?: number;
  setup?(ctx: FlowContext): Promise<D>;
  /** One iteration: at most one charging request (the money plan prices one per iteration). */
  iteration(ctx: FlowContext, data: D): Promise<void>;
}

const KNOWN_PURPOSES = new Set(OPERATIONS.map((op) => op.purpose));

/** The script's scenario as the harness describes the built-in ones (load/scenarios.ts); throws on a wrong declaration. */
export function scriptScenario(
  def: Pick<ScriptDefinition<unknown>, 'name' | 'description' | 'operations' | 'readsBackStatus' | 'smokeIterations'>,
): ScenarioMeta {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(def.name))
    throw new Error(`defineScript: name "${def.name}" must be 1-64 letters, digits, '-' or '_' (a k6 scenario name)`);
  const unknown = def.operations.filter((purpose) => !KNOWN_PURPOSES.has(purpose));
  if (unknown.length > 0)
    throw new Error(`defineScript ${def.name}: unknown operation purpose(s) ${unknown.join(', ')} (see the catalog's purposes in docs/reference.md)`);
  const charges = OPERATIONS.some((op) => op.charges && def.operations.includes(op.purpose));
  const purposes = charges ? [...new Set([...def.operations, 'transaction.status'])] : [...def.operations];
  return {
    name: def.name,
    description: def.description ?? `user script ${def.name}`,
    requiresBothVersions: false,
    followsTransactions: charges,
    readsBackStatus: def.readsBackStatus === true,
    smokeIterations: def.smokeIterations ?? 4,
    purposes: { v1: purposes, v2: purposes },
  };
}

/**
 * A script's test: export its `options`, `setup`, `handleSummary` and `iteration` as default, exactly as the built-in
 * entries do. Runs under `gateway-harness load --script FILE` with the harness's reports, thresholds and money guard.
 */
export function defineScript<D = undefined>(def: ScriptDefinition<D>): LoadTest<D> {
  const setup = def.setup ?? (async () => undefined as D);
  return defineScriptTest(scriptScenario(def), {
    setup,
    iteration: def.iteration,
  });
}
