// The k6 options of a load run, computed from its settings: what a k6 script's init context exports (load/k6-entry.ts)
// and what the Node side needs to know of it beforehand (a distributed run's plan; merge-results' thresholds).
import { buildK6Options, type K6Options } from './profiles.ts';
import { readRunSettings, type RunSettings } from './run-settings.ts';
import type { ScenarioRef } from './scenarios.ts';

/** The options of `scenario` under these settings (profile, API selection, overrides, thresholds, time budgets). */
export function k6OptionsOf(scenario: ScenarioRef, settings: RunSettings): K6Options {
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

/** The same, from the run's environment variables (load/run-settings.ts), as a pod's init context reads them. */
export function k6OptionsFor(scenario: ScenarioRef, env: Readonly<Record<string, string | undefined>>): K6Options {
  return k6OptionsOf(scenario, readRunSettings(env));
}
