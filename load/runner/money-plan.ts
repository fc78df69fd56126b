// The --dry-run plan of a load run: the scenario's charging operations and the most requests the profile's schedule
// can make of each (every flow sends at most one charging request per iteration). Nothing is sent to compute it.
import type { MoneyPlan } from '../../ledger/plan.ts';
import { buildK6Options } from '../profiles.ts';
import { scenarioOperations } from '../scenarios.ts';
import { durationSeconds } from '../thresholds.ts';
import type { LoadFlags } from './load-options.ts';

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const secs = (v: unknown): number => (typeof v === 'string' ? (durationSeconds(v) ?? 0) : 0);

/** Most iterations a k6 scenario can start; undefined when only time bounds it (constant or ramping VUs). */
export function iterationBound(scenario: Readonly<Record<string, unknown>>): number | undefined {
  switch (scenario.executor) {
    case 'shared-iterations':
      return num(scenario.iterations);
    case 'per-vu-iterations':
      return num(scenario.vus) * num(scenario.iterations);
    case 'constant-arrival-rate':
      return Math.ceil((num(scenario.rate) * secs(scenario.duration)) / (secs(scenario.timeUnit) || 1));
    case 'ramping-arrival-rate': {
      // Each stage starts at most its higher end's rate for its whole duration: an upper bound.
      let from = num(scenario.startRate);
      let total = 0;
      for (const stage of (scenario.stages as ReadonlyArray<Record<string, unknown>> | undefined) ?? []) {
        const to = num(stage.target);
        total += (Math.max(from, to) * secs(stage.duration)) / (secs(scenario.timeUnit) || 1);
        from = to;
      }
      return Math.ceil(total);
    }
    default:
      return undefined;
  }
}

export function loadMoneyPlan(flags: LoadFlags, target: string): MoneyPlan {
  const options = buildK6Options({
    scenario: flags.scenario,
    profile: flags.profile,
    api: flags.api,
    overrides: {
      ...(flags.vus === undefined ? {} : { vus: flags.vus }),
      ...(flags.durationSec === undefined ? {} : { durationSec: flags.durationSec }),
      ...(flags.rate === undefined ? {} : { rate: flags.rate }),
    },
    thresholdOverrides: flags.thresholds,
    schemaChecks: true,
    timeToFinalBudgetMs: 0,
    iterationGraceMs: 0,
  });
  const shapes = Object.values(options.scenarios);
  const bounds = shapes.map(iterationBound);
  const iterations = bounds.some((b) => b === undefined) ? undefined : bounds.reduce<number>((sum, b) => sum + (b ?? 0), 0);
  const executor = shapes.map((s) => String(s.executor)).join(', ');
  const note = iterations === undefined ? `at most 1 per iteration; ${executor}: bounded by time` : `at most 1 per iteration; ${executor}: at most ${iterations} iterations`;
  return {
    what: `load ${flags.scenario} (${flags.profile})`,
    target,
    ...(iterations === undefined ? {} : { total: iterations }),
    items: scenarioOperations(flags.scenario, flags.api)
      .filter((op) => op.charges)
      .map((operation) => ({ operation, ...(iterations === undefined ? {} : { count: iterations }), note })),
  };
}
