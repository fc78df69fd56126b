// The k6 options a distributed run's pods compute in their init context (load/k6-entry.ts), computed on the Node side
// from the same environment: the plan records the thresholds, and merge-results evaluates them once over the whole run.
import { buildK6Options, type K6Options } from '../load/profiles.ts';
import { readRunSettings } from '../load/run-settings.ts';
import type { ScenarioName } from '../load/scenarios.ts';

/** What load/k6-entry.ts passes to buildK6Options, from the run's environment variables (load/run-settings.ts). */
export function k6OptionsFor(scenario: ScenarioName, env: Readonly<Record<string, string | undefined>>): K6Options {
  const settings = readRunSettings(env);
  return buildK6Options({
    scenario,
    profile: settings.profile,
    api: settings.api,
    overrides: settings.overrides,
    thresholdOverrides: settings.thresholdOverrides,
    schemaChecks: settings.schemaChecks,
    timeToFinalBudgetMs: settings.status.serviceTimeoutMs + settings.data.pollSlackMs,
    iterationGraceMs: settings.iterationGraceMs,
  });
}
