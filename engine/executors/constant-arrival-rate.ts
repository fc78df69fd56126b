// k6's constant-arrival-rate executor (lib/executor/constant_arrival_rate.go): `rate` iterations per `timeUnit` for a
// duration, whatever the response times (open model), from a pool of preAllocatedVUs growing up to maxVUs.
import { describeFacts, OptionsError, type ScenarioBase } from './config.ts';
import type { Executor } from './executor.ts';
import { maxVUsFact, runArrivalRateLoop } from './arrival-rate-loop.ts';
import { constantArrivalTimes, shareOf } from './schedule.ts';
import { arrivalRateShare } from './segment-share.ts';
import { formatDuration } from '../durations.ts';

export type ConstantArrivalRateConfig = ScenarioBase & {
  executor: 'constant-arrival-rate';
  rate: number;
  timeUnitMs: number;
  durationMs: number;
  preAllocatedVUs: number;
  maxVUs: number;
};

export const constantArrivalRate: Executor<ConstantArrivalRateConfig> = {
  name: 'constant-arrival-rate',
  parse(fields, base) {
    const rate = fields.int('rate');
    if (rate <= 0) throw new OptionsError(`${fields.path('rate')} must be more than 0`);
    const pool = fields.vuPool();
    return {
      ...base,
      executor: 'constant-arrival-rate',
      rate,
      timeUnitMs: fields.dur('timeUnit', 1_000),
      durationMs: fields.positiveDuration('duration'),
      ...pool,
    };
  },
  describe: (c) =>
    `${((c.rate * 1_000) / c.timeUnitMs).toFixed(2)} iterations/s for ${formatDuration(c.durationMs)}${describeFacts(c, maxVUsFact(c))}`,
  durationMs: (c) => c.durationMs,
  maxVUs: (c) => c.maxVUs,
  endsAfterIterations: false,
  // Slots start at k × timeUnit / rate while before the end.
  iterationBound: (c) => Math.ceil((c.rate * c.durationMs) / c.timeUnitMs),
  share: (c, tuple) => arrivalRateShare(c.maxVUs, tuple),
  plannedVUs: (c, seg, share) => shareOf(share.vus(c.preAllocatedVUs), seg),
  run: (c, seg, host, share) =>
    runArrivalRateLoop(c, seg, host, share, constantArrivalTimes(c.rate, c.timeUnitMs, c.durationMs, seg, share.slot), c.durationMs),
};
