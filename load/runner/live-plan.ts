// What the live dashboard's progress bar measures against: the planned length of the run's k6 scenario and the ends of
// its stages, read from the options the bundle will export (load/profiles.ts), before anything starts.
import { parseDuration } from '../../engine/durations.ts';
import type { LivePlan } from '../../reports/html/live-page.ts';
import type { K6Options } from '../profiles.ts';

/** The longest scenario's plan: stages (ramping executors), a duration, or at most maxDuration (iteration executors). */
export function livePlanOf(options: Pick<K6Options, 'scenarios'>): LivePlan | undefined {
  let longest: LivePlan | undefined;
  for (const scenario of Object.values(options.scenarios)) {
    const plan = planOf(scenario);
    if (plan !== undefined && (longest === undefined || plan.totalMs > longest.totalMs)) longest = plan;
  }
  return longest;
}

function planOf(scenario: Readonly<Record<string, unknown>>): LivePlan | undefined {
  const start = scenario.startTime === undefined ? 0 : parseDuration(scenario.startTime);
  if (Array.isArray(scenario.stages)) {
    let end = start;
    const stages = (scenario.stages as Array<{ duration: unknown; target: unknown }>).map((stage) => {
      end += parseDuration(stage.duration);
      return { endMs: end, target: Number(stage.target) };
    });
    return { totalMs: end, bound: 'planned', stages };
  }
  if (scenario.duration !== undefined) return { totalMs: start + parseDuration(scenario.duration), bound: 'planned', stages: [] };
  // shared-iterations / per-vu-iterations: their iterations may end well before maxDuration (k6's default 10m).
  return { totalMs: start + parseDuration(scenario.maxDuration ?? '10m'), bound: 'at most', stages: [] };
}
