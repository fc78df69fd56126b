// The loaded pass's proof that its load ran beside every case: before each request a case sends, the load must be
// running and, where the target counts them (the embedded sandbox), have a request in flight there; else the case is not verified under load.

/** What the harness can see of the load and the target while the loaded pass runs. */
export interface LoadProbe {
  /** Requests in flight at the target now (the embedded sandbox's count); absent: the target does not say. */
  readonly inFlight?: () => number;
  /** The load has started sending and has not ended. */
  readonly running: () => boolean;
}

export interface LoadWitness {
  /** Waits (polling, bounded) until the load has a request in flight at the target; a case that sent one without is noted. */
  beforeRequest(caseId: string): Promise<void>;
  /** The cases that sent a request without the load beside them, each with why: not verified under load. */
  readonly unwitnessed: ReadonlyMap<string, string>;
}

/** How often the wait looks (real ms), and how long it waits before the request goes anyway (noted). */
const POLL_MS = 5;
const WAIT_MS = 10_000;

/** A witness over `probe`; `waitMs` bounds each wait (real ms). */
export function createLoadWitness(probe: LoadProbe, waitMs = WAIT_MS): LoadWitness {
  const unwitnessed = new Map<string, string>();
  const note = (caseId: string, why: string): void => {
    if (!unwitnessed.has(caseId)) unwitnessed.set(caseId, why);
  };
  return {
    unwitnessed,
    async beforeRequest(caseId) {
      const deadline = Date.now() + waitMs;
      for (;;) {
        if (!probe.running()) return note(caseId, 'the load had ended when the case sent a request');
        if (probe.inFlight === undefined || probe.inFlight() > 0) return;
        if (Date.now() > deadline)
          return note(caseId, `no request of the load was in flight at the target when the case sent one (waited ${waitMs / 1000} s)`);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    },
  };
}
