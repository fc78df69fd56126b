// What a user script declares (load/script-api.ts defineScript) as the harness describes its built-in scenarios
// (load/scenarios.ts): the purposes it sends per version, whether it follows transactions. Runtime-neutral, no k6.
import { OPERATIONS } from '../api/operations.ts';
import type { ScenarioMeta } from './scenarios.ts';

/** The declaration's fields that describe the scenario (the flow's functions aside). */
export interface ScriptDeclaration {
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
}

const KNOWN_PURPOSES = new Set(OPERATIONS.map((op) => op.purpose));

/** The script's scenario as the harness describes the built-in ones (load/scenarios.ts); throws on a wrong declaration. */
export function scriptScenario(def: ScriptDeclaration): ScenarioMeta {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(def.name))
    throw new Error(`defineScript: name "${def.name}" must be 1-64 letters, digits, '-' or '_' (a k6 scenario name)`);
  const unknown = def.operations.filter((purpose) => !KNOWN_PURPOSES.has(purpose));
  if (unknown.length > 0)
    throw new Error(
      `defineScript ${def.name}: unknown operation purpose(s) ${unknown.join(', ')} (see the catalog's purposes in docs/reference.md)`,
    );
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
