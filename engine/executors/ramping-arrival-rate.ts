// k6's ramping-arrival-rate executor (lib/executor/ramping_arrival_rate.go): the iteration rate follows stages
// linearly (open model), from a pool of preAllocatedVUs growing up to maxVUs.
import { describeFacts, type ScenarioBase, type Stage } from './config.ts';
import type { Executor } from './executor.ts';
import { maxVUsFact, runArrivalRateLoop } from './arrival-rate-loop.ts';
import { rampingArrivalTimes, shareOf, stagesDurationMs } from './schedule.ts';
import { arrivalRateShare } from './segment-share.ts';
import { formatDuration } from '../durations.ts';

export type RampingArrivalRateConfig = ScenarioBase & {
  executor: 'ramping-arrival-rate';
  startRate: number;
  timeUnitMs: number;
  stages: Stage[];
  preAllocatedVUs: number;
  maxVUs: number;
};

export const rampingArrivalRate: Executor<RampingArrivalRateConfig> = {
  name: 'ramping-arrival-rate',
  parse: (fields, base) => ({
    ...base,
    executor: 'ramping-arrival-rate',
    startRate: fields.num('startRate', 0),
    timeUnitMs: fields.dur('timeUnit', 1_000),
    stages: fields.stages('stages', 'rate'),
    ...fields.vuPool(),
  }),
  describe: (c) => {
    const peak = Math.max(c.startRate, ...c.stages.map((s) => s.target));
    return `Up to ${((peak * 1_000) / c.timeUnitMs).toFixed(2)} iterations/s for ${formatDuration(stagesDurationMs(c.stages))} over ${c.stages.length} stages${describeFacts(c, maxVUsFact(c))}`;
  },
  durationMs: (c) => stagesDurationMs(c.stages),
  maxVUs: (c) => c.maxVUs,
  endsAfterIterations: false,
  // Each stage starts at most its higher end's rate for its whole duration: an upper bound.
  iterationBound(c) {
    let from = c.startRate;
    let total = 0;
    for (const stage of c.stages) {
      total += (Math.max(from, stage.target) * stage.durationMs) / c.timeUnitMs;
      from = stage.target;
    }
    return Math.ceil(total);
  },
  share: (c, tuple) => arrivalRateShare(c.maxVUs, tuple),
  plannedVUs: (c, seg, share) => shareOf(share.vus(c.preAllocatedVUs), seg),
  run: (c, seg, host, share) =>
    runArrivalRateLoop(
      c,
      seg,
      host,
      share,
      rampingArrivalTimes(c.startRate, c.timeUnitMs, c.stages, seg, share.slot),
      stagesDurationMs(c.stages),
    ),
};
