// What one executor module provides, like one file of k6's lib/executor: its config (parse with k6's defaults and
// validation), its description, its planned duration and VUs, its share of a split test, its run, and its money plan.
import type { ExecutionTuple } from '../execution-segment.ts';
import type { ScenarioBase, ScenarioFields } from './config.ts';
import type { ExecutorHost } from './host.ts';
import type { Segment } from './schedule.ts';
import type { ScenarioShare } from './segment-share.ts';

export interface Executor<C extends ScenarioBase & { executor: string }> {
  /** k6's name for it, as scripts write it in `options.scenarios.<name>.executor`. */
  readonly name: C['executor'];
  /** Reads and validates the executor's own fields (k6's defaults filled in) on top of the common ones. */
  parse(fields: ScenarioFields, base: ScenarioBase): C;
  /** One line like k6's GetDescription ("10 looping VUs for 30s (gracefulStop: 30s)"). */
  describe(config: C): string;
  /** How long it runs before its graceful stop (without startTime), as k6 plans it. */
  durationMs(config: C): number;
  /** Most VUs it needs (its vus_max contribution). */
  maxVUs(config: C): number;
  /** True when it ends once its iterations are done (progress counts iterations, not time). */
  readonly endsAfterIterations: boolean;
  /** Most iterations it can start (the money plan's bound); undefined when only time bounds it. */
  iterationBound(config: C): number | undefined;
  /** The part of it the instance described by `tuple` runs (execution segments). */
  share(config: C, tuple: ExecutionTuple): ScenarioShare;
  /** VUs it initializes in a worker's segment before it starts (the init phase). */
  plannedVUs(config: C, seg: Segment, share: ScenarioShare): number;
  /** Runs the instance's share in a worker's segment from now; resolves when fully stopped. */
  run<V>(config: C, seg: Segment, host: ExecutorHost<V>, share: ScenarioShare): Promise<void>;
}
