// The run both iteration-count executors share (shared-iterations and per-vu-iterations, k6's two closed models that
// end on a count): each VU loops until its count or the pool runs out, or maxDuration, then gracefulStop.
import type { ExecutorHost } from './host.ts';
import { finish, initMany, Running } from './running.ts';
import type { ScenarioBase } from './config.ts';
import { shareOf, type Segment } from './schedule.ts';
import type { ScenarioShare } from './segment-share.ts';

/** The config both executors have: their name, VUs, iterations (the pool, or each VU's) and maxDuration. */
export type IterationsConfig<N extends 'shared-iterations' | 'per-vu-iterations'> = ScenarioBase & {
  executor: N;
  vus: number;
  iterations: number;
  maxDurationMs: number;
};

export async function runIterationsLoop<V>(
  scenario: IterationsConfig<'shared-iterations' | 'per-vu-iterations'>,
  seg: Segment,
  host: ExecutorHost<V>,
  share: ScenarioShare,
): Promise<void> {
  const vus = await initMany(host, scenario, shareOf(share.vus(scenario.vus), seg));
  const start = host.now();
  const end = start + scenario.maxDurationMs;
  const running = new Running(host, scenario);
  // shared-iterations: one pool for all VUs (across workers when the host shares a counter); per-vu: each VU its own.
  const localShare = scenario.executor === 'shared-iterations' ? shareOf(share.iterations, seg) : 0;
  let localClaimed = 0;
  const claim = (): boolean => {
    if (host.claimShared !== undefined) return host.claimShared(scenario) < share.iterations;
    return localClaimed++ < localShare;
  };
  host.activeVUs(vus.length);
  const loops = Promise.all(
    vus.map(async (vu) => {
      for (let done = 0; ; done++) {
        if (host.signal.aborted || host.now() >= end || !running.open) break;
        if (scenario.executor === 'per-vu-iterations' ? done >= scenario.iterations : !claim()) break;
        await running.start(vu);
      }
    }),
  );
  await finish(host, running, loops, end, scenario.gracefulStopMs);
  host.activeVUs(-vus.length);
}
