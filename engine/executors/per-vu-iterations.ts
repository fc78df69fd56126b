// k6's per-vu-iterations executor (lib/executor/per_vu_iterations.go): each VU runs its own fixed number of
// iterations, ending when every VU is done or at maxDuration.
import { describeFacts } from './config.ts';
import type { Executor } from './executor.ts';
import { runIterationsLoop, type IterationsConfig } from './iterations-loop.ts';
import { shareOf } from './schedule.ts';
import { vusShare } from './segment-share.ts';
import { formatDuration } from '../durations.ts';

export type PerVUIterationsConfig = IterationsConfig<'per-vu-iterations'>;

export const perVUIterations: Executor<PerVUIterationsConfig> = {
  name: 'per-vu-iterations',
  parse: (fields, base) => ({
    ...base,
    executor: 'per-vu-iterations',
    vus: fields.atLeastOne('vus'),
    iterations: fields.int('iterations', 1),
    maxDurationMs: fields.dur('maxDuration', 600_000),
  }),
  describe: (c) =>
    `${c.iterations} iterations for each of ${c.vus} VUs${describeFacts(c, `maxDuration: ${formatDuration(c.maxDurationMs)}`)}`,
  durationMs: (c) => c.maxDurationMs,
  maxVUs: (c) => c.vus,
  endsAfterIterations: true,
  iterationBound: (c) => c.vus * c.iterations,
  share: (c, tuple) => vusShare(c.vus, tuple),
  plannedVUs: (c, seg, share) => shareOf(share.vus(c.vus), seg),
  run: (c, seg, host, share) => runIterationsLoop(c, seg, host, share),
};
