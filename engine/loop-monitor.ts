// The load generator's own turn on each engine thread: event-loop delay (perf_hooks.monitorEventLoopDelay) and
// event-loop utilization per second, sent to the controller; the load report judges saturation from them.
import { monitorEventLoopDelay, performance, type EventLoopUtilization } from 'node:perf_hooks';

/** One second of one thread: p99 and max delay of its event loop (ms) and its busy share (0..1). */
export interface LoopSample {
  /** End of the second, epoch ms. */
  readonly t: number;
  readonly loopDelayP99Ms: number;
  readonly loopDelayMaxMs: number;
  readonly busyShare: number;
}

/** Timer resolution of the delay histogram: 10 ms, the smallest Node samples without costing the loop. */
const RESOLUTION_MS = 10;

/** Samples this thread's loop every `intervalMs` into `send` (an unref'd timer); stop() sends the last partial second. */
export function startLoopMonitor(send: (sample: LoopSample) => void, intervalMs = 1000): { stop(): void } {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  let elu: EventLoopUtilization = performance.eventLoopUtilization();
  const sample = (): void => {
    const now = performance.eventLoopUtilization();
    const delta = performance.eventLoopUtilization(now, elu);
    elu = now;
    // The histogram counts the delay beyond the timer's own resolution; no sample yet means no delay was seen.
    const p99 = histogram.count === 0 ? 0 : histogram.percentile(99) / 1e6;
    const max = histogram.count === 0 ? 0 : histogram.max / 1e6;
    histogram.reset();
    send({ t: Date.now(), loopDelayP99Ms: Math.max(0, p99 - RESOLUTION_MS), loopDelayMaxMs: Math.max(0, max - RESOLUTION_MS), busyShare: delta.utilization });
  };
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      sample();
      histogram.disable();
    },
  };
}

/** The threads' samples merged per second (floor of t): the busiest thread speaks for the second. */
export function mergeLoopSamples(samples: readonly LoopSample[]): LoopSample[] {
  const bySecond = new Map<number, LoopSample>();
  for (const s of samples) {
    const key = Math.floor(s.t / 1000);
    const seen = bySecond.get(key);
    bySecond.set(
      key,
      seen === undefined
        ? s
        : { t: Math.max(seen.t, s.t), loopDelayP99Ms: Math.max(seen.loopDelayP99Ms, s.loopDelayP99Ms), loopDelayMaxMs: Math.max(seen.loopDelayMaxMs, s.loopDelayMaxMs), busyShare: Math.max(seen.busyShare, s.busyShare) },
    );
  }
  return [...bySecond.entries()].sort(([a], [b]) => a - b).map(([, s]) => s);
}
