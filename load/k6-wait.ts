// The client core's `sleep` inside k6: an awaitable wait that works on k6 v0.48 and v2.x and in the Node engine.
// k6 v0.48 has no global setTimeout (only k6/experimental/timers, which k6 v2 refuses to import); v2 and Node have one.
import { sleep } from 'k6';

type SetTimeout = (callback: () => void, ms: number) => unknown;

/**
 * Waits `ms`. Where the runtime has a global setTimeout (k6 >= v0.52 puts the timers there, k6 v2, the Node engine)
 * the wait yields to the VU's event loop, so other promises of the VU keep running. On k6 v0.48 no static import is
 * valid on both ends of the supported range (`k6/experimental/timers` is refused by v2, `k6/timers` is unknown to
 * v0.48), so it falls back to k6's `sleep`, which blocks only this VU's own event loop: the flows await one request
 * at a time, so nothing of the VU is waiting behind it, and k6 still interrupts it at the end of the test.
 */
export function waitMs(ms: number): Promise<void> {
  const timer = (globalThis as { setTimeout?: SetTimeout }).setTimeout;
  if (typeof timer === 'function') return new Promise((resolve) => void timer(resolve, Math.max(0, ms)));
  if (ms > 0) sleep(ms / 1000);
  return Promise.resolve();
}
