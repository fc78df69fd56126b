// The load generator's own turn on each engine thread: event-loop delay (perf_hooks.monitorEventLoopDelay) and
// event-loop utilization per second, sent to the controller, and a heartbeat in shared memory the controller watches, so a
// thread too blocked to report is measured all the same; the load report judges saturation from them.
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

/**
 * Every VU thread's heartbeat, shared with the controller: per thread two Int32 slots, [the clock of its last beat as ms
 * after `base` (0: not watched), 1 while the thread blocks on purpose]. A thread blocked for seconds cannot send its own
 * figures in time (its per-second timer waits for the block to end and then reports one late second, diluted among the
 * free turns); the controller sees the missed beats while they last.
 */
export interface Heartbeats {
  readonly buffer: SharedArrayBuffer;
  /** clock() the slots count from, ms. */
  readonly base: number;
}

const SLOTS_PER_THREAD = 2;

/** A thread beats this often (an unref'd timer: ten wake-ups a second beside the histogram's hundred). */
const BEAT_EVERY_MS = 100;

/** runtime.ts's clock (monotonic, comparable across threads), not imported: the sync client imports this module. */
function clock(): number {
  return performance.timeOrigin + performance.now();
}

export function newHeartbeats(threads: number): Heartbeats {
  return {
    buffer: new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * SLOTS_PER_THREAD * Math.max(1, threads)),
    base: Math.floor(clock()) - 1,
  };
}

/** This thread's slot: set by startLoopMonitor, used by blockingOnPurpose. */
let ownBeat: { readonly slots: Int32Array; readonly at: number; readonly base: number } | undefined;

function beat(slots: Int32Array, at: number, base: number): void {
  Atomics.store(slots, at, Math.max(1, Math.round(clock() - base)));
}

/**
 * Runs `block` (a synchronous request, a sleep before one: waits k6's blocking API asks for) with this thread's heartbeat
 * marked as waiting on purpose: that time is the script's, not a saturated generator's.
 */
export function blockingOnPurpose<T>(block: () => T): T {
  const own = ownBeat;
  if (own === undefined) return block();
  Atomics.store(own.slots, own.at + 1, 1);
  try {
    return block();
  } finally {
    beat(own.slots, own.at, own.base);
    Atomics.store(own.slots, own.at + 1, 0);
  }
}

/**
 * Samples this thread's loop every `intervalMs` into `send` (an unref'd timer) and beats thread `index`'s heartbeat
 * every BEAT_EVERY_MS; stop() sends the last partial second and stops the heartbeat being watched.
 */
export function startLoopMonitor(
  send: (sample: LoopSample) => void,
  heart?: { readonly heartbeats: Heartbeats; readonly index: number },
  intervalMs = 1000,
): { stop(): void } {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  let elu: EventLoopUtilization = performance.eventLoopUtilization();
  const slots = heart === undefined ? undefined : new Int32Array(heart.heartbeats.buffer);
  const at = (heart?.index ?? 0) * SLOTS_PER_THREAD;
  const base = heart?.heartbeats.base ?? 0;
  let beating: NodeJS.Timeout | undefined;
  if (slots !== undefined) {
    ownBeat = { slots, at, base };
    beat(slots, at, base);
    beating = setInterval(() => beat(slots, at, base), BEAT_EVERY_MS);
    beating.unref();
  }
  const sample = (): void => {
    const now = performance.eventLoopUtilization();
    const delta = performance.eventLoopUtilization(now, elu);
    elu = now;
    // The histogram counts the delay beyond the timer's own resolution; no sample yet means no delay was seen.
    const p99 = histogram.count === 0 ? 0 : histogram.percentile(99) / 1e6;
    const max = histogram.count === 0 ? 0 : histogram.max / 1e6;
    histogram.reset();
    send({
      t: Date.now(),
      loopDelayP99Ms: Math.max(0, p99 - RESOLUTION_MS),
      loopDelayMaxMs: Math.max(0, max - RESOLUTION_MS),
      busyShare: delta.utilization,
    });
  };
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      sample();
      histogram.disable();
      clearInterval(beating);
      if (slots !== undefined) Atomics.store(slots, at, 0);
      ownBeat = undefined;
    },
  };
}

/**
 * How often the controller looks at the heartbeats, and the least lateness it reports: four looks a second, so a stall
 * of two seconds marks two; a beat later than this is no GC pause or scheduling hiccup (tens of ms), and anything
 * shorter the thread's own histogram measures.
 */
const WATCH_EVERY_MS = 250;

/**
 * The controller's side of the heartbeats: every WATCH_EVERY_MS, each watched thread whose beat is overdue by more than
 * WATCH_EVERY_MS (and that is not blocking on purpose) is given a sample of that lateness: its loop has been delayed at
 * least that long (a response arriving then waits as long for its time to be read), measured here whatever the blocked
 * thread can do. started() watches every thread from now (a thread blocked before it reads the start is overdue too).
 */
export function watchHeartbeats(
  heartbeats: Heartbeats,
  threads: number,
  send: (sample: LoopSample) => void,
  beatEveryMs = BEAT_EVERY_MS,
): { started(): void; stop(): void } {
  const slots = new Int32Array(heartbeats.buffer);
  const look = (): void => {
    const now = clock();
    for (let i = 0; i < threads; i++) {
      const last = Atomics.load(slots, i * SLOTS_PER_THREAD);
      if (last === 0 || Atomics.load(slots, i * SLOTS_PER_THREAD + 1) === 1) continue;
      const overdueMs = now - (heartbeats.base + last) - beatEveryMs;
      if (overdueMs > WATCH_EVERY_MS) send({ t: Date.now(), loopDelayP99Ms: overdueMs, loopDelayMaxMs: overdueMs, busyShare: 1 });
    }
  };
  let timer: NodeJS.Timeout | undefined;
  return {
    started() {
      for (let i = 0; i < threads; i++)
        if (Atomics.load(slots, i * SLOTS_PER_THREAD) === 0) beat(slots, i * SLOTS_PER_THREAD, heartbeats.base);
      timer ??= setInterval(look, WATCH_EVERY_MS);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
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
        : {
            t: Math.max(seen.t, s.t),
            loopDelayP99Ms: Math.max(seen.loopDelayP99Ms, s.loopDelayP99Ms),
            loopDelayMaxMs: Math.max(seen.loopDelayMaxMs, s.loopDelayMaxMs),
            busyShare: Math.max(seen.busyShare, s.busyShare),
          },
    );
  }
  return [...bySecond.entries()].sort(([a], [b]) => a - b).map(([, s]) => s);
}
