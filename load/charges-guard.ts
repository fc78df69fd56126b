// The refusal of charging scenarios against a production target, decided from the catalog's `charges` flags.
// One function for the CLI (exit 2 before anything is sent) and the bundles (a direct `k6 run` refuses in init too).
import type { Environment } from '../api/target-config.ts';
import { scenarioOperations, type ApiSelection, type ScenarioName } from './scenarios.ts';

/**
 * Spec: "Production: real transactions are executed and the agent's account is charged." A load run multiplies every
 * charge, so a scenario that sends any charging operation is refused against production. (A later money-safety
 * change adds an explicit allowance with a spend cap; until then there is no way around it.)
 * Returns the one-line reason, or undefined when the run may go ahead.
 */
export function chargingRefusal(scenario: ScenarioName, api: ApiSelection, environment: Environment): string | undefined {
  if (environment !== 'production') return undefined;
  const charging = scenarioOperations(scenario, api).filter((op) => op.charges).map((op) => op.id);
  if (charging.length === 0) return undefined;
  const shown = charging.slice(0, 3).join(', ') + (charging.length > 3 ? ` and ${charging.length - 3} more` : '');
  return `scenario ${scenario} sends charging operations (${shown}) and the target is production (GATEWAY_ENV/--env): refused, nothing was sent`;
}
