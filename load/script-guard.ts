// The guard of a user script's client (`load --script`): only the operations its defineScript declared are sent, and
// at most one charging request per iteration, so its thresholds, money plan, production guard and ledger hold for it.
import { HarnessError } from '../api/errors.ts';
import type { ClientHooks } from '../api/client-core.ts';
import type { Operation } from '../api/operations.ts';

export interface ScriptGuard extends ClientHooks {
  /** Called as each iteration starts: the one-charge allowance is per iteration. */
  startIteration(): void;
}

/**
 * Refuses, before anything is sent, an operation the script did not declare (its money guard and thresholds are built
 * from the declaration, so an undeclared charge could leave unrecorded) and a second charge in one iteration (the
 * money plan prices one per iteration, as for every built-in flow).
 */
export function declaredOperationsGuard(script: string, declared: readonly Operation[]): ScriptGuard {
  const ids = new Set(declared.map((op) => op.id));
  let charges = 0;
  return {
    startIteration() {
      charges = 0;
    },
    beforeSend({ operation }) {
      if (!ids.has(operation.id)) {
        throw new HarnessError(
          'GH_ERR_USAGE',
          `script ${script}: ${operation.id} is not declared: add '${operation.purpose}' to defineScript's operations (its thresholds and money guard follow them); not sent`,
        );
      }
      if (!operation.charges) return;
      charges += 1;
      if (charges > 1) {
        throw new HarnessError(
          'GH_ERR_USAGE',
          `script ${script}: a second charging request in one iteration (${operation.id}): the money plan prices one per iteration; not sent`,
        );
      }
    },
  };
}
