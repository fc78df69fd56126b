// The heartbeats a VU thread beats in shared memory and the controller watches: a thread too blocked to send its own
// figures is measured all the same, and a wait the script asked for (a synchronous request) is not saturation.
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { blockingOnPurpose, newHeartbeats, startLoopMonitor, watchHeartbeats, type LoopSample } from './loop-monitor.ts';

/** Per thread: [last beat, ms after base; 1 while blocking on purpose] (loop-monitor.ts's layout). */
const SLOTS_PER_THREAD = 2;

async function until(check: () => boolean, deadlineMs = 10_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('not reached before the deadline');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const stops: Array<{ stop(): void }> = [];
afterEach(() => stops.splice(0).forEach((s) => s.stop()));

describe('the controller watching the VU threads’ heartbeats', () => {
  it('gives a thread whose beat is overdue a sample of its lateness, and none to a thread beating or blocking on purpose', async () => {
    const heartbeats = newHeartbeats(3);
    const slots = new Int32Array(heartbeats.buffer);
    const samples: LoopSample[] = [];
    const watch = watchHeartbeats(heartbeats, 3, (s) => samples.push(s));
    stops.push(watch);
    watch.started();
    const sinceBase = (): number => Math.round(performance.timeOrigin + performance.now() - heartbeats.base);
    // Thread 0 last beat two seconds ago (blocked since); thread 2 five seconds ago, but inside a synchronous request.
    Atomics.store(slots, 0, sinceBase() - 2_000);
    Atomics.store(slots, 2 * SLOTS_PER_THREAD, sinceBase() - 5_000);
    Atomics.store(slots, 2 * SLOTS_PER_THREAD + 1, 1);
    // Thread 1 keeps beating.
    const beating = setInterval(() => Atomics.store(slots, SLOTS_PER_THREAD, sinceBase()), 50);
    try {
      await until(() => samples.length >= 2);
    } finally {
      clearInterval(beating);
    }
    watch.stop();
    // Only thread 0 was overdue (about 2 s, growing): every sample is its own, none thread 2's 5 s nor thread 1's.
    for (const s of samples) {
      expect(s.loopDelayP99Ms).toBeGreaterThan(1_500);
      expect(s.loopDelayP99Ms).toBeLessThan(4_500);
      expect(s.busyShare).toBe(1);
    }
  });

  it('marks a wait the script asked for while it lasts, and beats when it ends', () => {
    const heartbeats = newHeartbeats(1);
    const slots = new Int32Array(heartbeats.buffer);
    const monitor = startLoopMonitor(() => undefined, { heartbeats, index: 0 });
    Atomics.store(slots, 0, 0);
    const inside = blockingOnPurpose(() => Atomics.load(slots, 1));
    expect(inside).toBe(1);
    expect(Atomics.load(slots, 1)).toBe(0);
    expect(Atomics.load(slots, 0)).toBeGreaterThan(0);
    // A stopped monitor is no longer watched (a finished thread is not a blocked one).
    monitor.stop();
    expect(Atomics.load(slots, 0)).toBe(0);
  });
});
