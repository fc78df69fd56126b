// k6's shared-iterations executor (lib/executor/shared_iterations.go): a fixed number of iterations shared by a fixed
// number of VUs, ending when the pool is empty or at maxDuration.
import { describeFacts, OptionsError } from './config.ts';
import type { Executor } from './executor.ts';
import { runIterationsLoop, type IterationsConfig } from './iterations-loop.ts';
import { shareOf } from './schedule.ts';
import { sharedIterationsShare } from './segment-share.ts';
import { formatDuration } from '../durations.ts';

export type SharedIterationsConfig = IterationsConfig<'shared-iterations'>;

export const sharedIterations: Executor<SharedIterationsConfig> = {
  name: 'shared-iterations',
  parse(fields, base) {
    const vus = fields.atLeastOne('vus');
    const iterations = fields.int('iterations', 1);
    if (iterations < vus)
      throw new OptionsError(
        `${fields.path('iterations')} (${iterations}) must be at least the number of VUs (${vus}) in a shared-iterations scenario`,
      );
    return { ...base, executor: 'shared-iterations', vus, iterations, maxDurationMs: fields.dur('maxDuration', 600_000) };
  },
  describe: (c) =>
    `${c.iterations} iterations shared among ${c.vus} VUs${describeFacts(c, `maxDuration: ${formatDuration(c.maxDurationMs)}`)}`,
  durationMs: (c) => c.maxDurationMs,
  maxVUs: (c) => c.vus,
  endsAfterIterations: true,
  iterationBound: (c) => c.iterations,
  share: (c, tuple) => sharedIterationsShare(c.vus, c.iterations, tuple),
  plannedVUs: (c, seg, share) => shareOf(share.vus(c.vus), seg),
  run: (c, seg, host, share) => runIterationsLoop(c, seg, host, share),
};
