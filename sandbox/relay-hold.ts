// A profile's relay hold: answers to some operations wait until the next request to one of them arrives (each hands the
// hold on to the next), at most a bound, so while such requests keep coming one of them is always in flight.
import type { RelayHoldPlan } from './profiles/types.ts';

/** Holds one answer before it leaves (undefined: not held); the request stays counted in flight while it waits. */
export type RelayHold = (operationId: string) => Promise<void> | undefined;

/**
 * The relay of one sandbox app: an answer of a held operation waits until the next one arrives and takes its place (or
 * `plan.boundMs` × time scale passes), so one held answer is out at a time, and a steady stream of them keeps one in
 * flight without a gap. `wait` is the store's sleep (scaled, released when the sandbox closes).
 */
export function createRelayHold(plan: RelayHoldPlan, timeScale: number, wait: (ms: number) => Promise<void>): RelayHold {
  const operations = new Set(plan.operations);
  const boundMs = Math.max(1, Math.round(plan.boundMs * timeScale));
  let handOver: (() => void) | undefined;
  return (operationId) => {
    if (!operations.has(operationId)) return undefined;
    // The previous held answer leaves now: this one, already counted in flight, takes its place.
    handOver?.();
    return new Promise<void>((resolve) => {
      const release = (): void => {
        if (handOver === release) handOver = undefined;
        resolve();
      };
      handOver = release;
      void wait(boundMs).then(release);
    });
  };
}
