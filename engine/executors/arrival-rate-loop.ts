// The run both arrival-rate executors share (k6's open model): iterations start on a schedule from a pool of VUs; with
// no free VU the iteration is dropped, never delayed, and the pool grows in the background up to maxVUs.
import type { ExecutorHost } from './host.ts';
import { initMany, Running, waitUntil } from './running.ts';
import type { ScenarioBase } from './config.ts';
import { shareOf, type Segment } from './schedule.ts';
import type { ScenarioShare } from './segment-share.ts';

/** `times` are the start offsets (ms) of this worker's iterations; `durationMs` is when the schedule ends. */
export async function runArrivalRateLoop<V>(
  scenario: ScenarioBase & { executor: string; preAllocatedVUs: number; maxVUs: number },
  seg: Segment,
  host: ExecutorHost<V>,
  share: ScenarioShare,
  times: Iterable<number>,
  durationMs: number,
): Promise<void> {
  const pre = shareOf(share.vus(scenario.preAllocatedVUs), seg);
  const maxVUs = shareOf(share.vus(scenario.maxVUs), seg);
  const free: V[] = await initMany(host, scenario, pre);
  let allocated = free.length;
  let allocating = false;
  const running = new Running(host, scenario);
  const start = host.now();
  const end = start + durationMs;
  // Active VUs (k6's `vus` gauge, exec.instance.vusActive) are the VUs running an iteration now, as k6 counts them for
  // arrival-rate executors; the pool's idle VUs count only in vus_max. Pinned against real k6 by load/vus-differential.test.ts.
  const startOne = (vu: V): void => {
    host.activeVUs(1);
    // The VU goes back to the free pool when its iteration ends; `running` tracks live iterations for the stop.
    void running.start(vu).then(
      () => {
        host.activeVUs(-1);
        free.push(vu);
      },
      () => host.activeVUs(-1),
    );
  };
  for (const offset of times) {
    const at = start + offset;
    if (host.now() < at) await waitUntil(host, at);
    // Every scheduled iteration (offset < duration) either starts or is dropped, even when the timer fired late.
    if (host.signal.aborted) break;
    const vu = free.pop();
    if (vu !== undefined) {
      startOne(vu);
      continue;
    }
    host.dropped(scenario);
    if (!allocating && allocated < maxVUs) {
      allocating = true;
      void host.initVU(scenario).then(
        (created) => {
          allocated++;
          allocating = false;
          host.initializedVUs(1);
          free.push(created);
        },
        () => {
          allocating = false;
        },
      );
    }
  }
  await waitUntil(host, end);
  await running.drain(end + scenario.gracefulStopMs);
}

/** k6's "maxVUs: 10" or "maxVUs: 10-50" fact of an arrival-rate description. */
export function maxVUsFact(c: { preAllocatedVUs: number; maxVUs: number }): string {
  return `maxVUs: ${c.preAllocatedVUs}${c.maxVUs > c.preAllocatedVUs ? `-${c.maxVUs}` : ''}`;
}
