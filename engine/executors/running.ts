// The machinery every executor's run shares: waiting on the host's clock or abort, tracking running iterations so a
// stop can wait for them (gracefulStop) and then interrupt the rest, and initializing a segment's VUs.
import type { ExecutorHost } from './host.ts';
import type { ScenarioBase } from './config.ts';

type ScenarioConfig = ScenarioBase & { executor: string };

/** Resolves at `at` (host ms) or when the signal aborts. */
export function waitUntil(host: ExecutorHost<unknown>, at: number): Promise<void> {
  const delay = at - host.now();
  if (delay <= 0 || host.signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      host.signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, delay);
    host.signal.addEventListener('abort', done, { once: true });
  });
}

/** Resolves when `p` settles or at `at`, whichever is first, leaving no timer behind. */
function raceDeadline(host: ExecutorHost<unknown>, p: Promise<unknown>, at: number): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      host.signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, at - host.now()));
    host.signal.addEventListener('abort', done, { once: true });
    p.then(done, done);
  });
}

/** Tracks running iterations so a stop can wait for them, then interrupt the rest. */
export class Running<V> {
  private readonly inFlight = new Map<V, Promise<void>>();
  private closed = false;
  constructor(
    private readonly host: ExecutorHost<V>,
    private readonly scenario: ScenarioConfig,
  ) {}

  /**
   * False once the stop began. VU loops test this as well as the clock: a Node timer may fire a little before
   * performance.now() reaches its deadline, and a loop that trusted the clock alone would start a fresh iteration
   * right after the stop interrupted the last one.
   */
  get open(): boolean {
    return !this.closed;
  }

  close(): void {
    this.closed = true;
  }

  start(vu: V): Promise<void> {
    const p = this.host.runIteration(vu, this.scenario).finally(() => this.inFlight.delete(vu));
    this.inFlight.set(vu, p);
    return p;
  }

  isRunning(vu: V): boolean {
    return this.inFlight.has(vu);
  }

  /** Waits for running iterations until `deadline`, then interrupts what is left and waits for it to unwind. */
  async drain(deadline: number): Promise<void> {
    if (this.inFlight.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      // Already aborted (the usual case: the abort is what ended the loops): interrupt at once. An abort event that
      // has fired will not fire again, so waiting for it would let the iterations run to their natural end.
      if (this.host.signal.aborted) {
        resolve('late');
        return;
      }
      timer = setTimeout(() => resolve('late'), Math.max(0, deadline - this.host.now()));
      this.host.signal.addEventListener('abort', () => resolve('late'), { once: true });
    });
    const first = await Promise.race([Promise.all(this.inFlight.values()).then(() => 'done' as const), late]);
    clearTimeout(timer);
    if (first === 'late') {
      for (const vu of this.inFlight.keys()) this.host.interrupt(vu);
      await Promise.all(this.inFlight.values());
    }
  }
}

/**
 * Ends a VU-loop executor: loops stop starting iterations at `end`; iterations still running then get `gracefulMs`
 * to finish and are interrupted after it (k6's gracefulStop). One race per scenario, not per iteration.
 */
export async function finish<V>(
  host: ExecutorHost<V>,
  running: Running<V>,
  loops: Promise<unknown>,
  end: number,
  gracefulMs: number,
): Promise<void> {
  await raceDeadline(host, loops, end);
  running.close();
  await running.drain(end + gracefulMs);
  await loops;
}

export async function initMany<V>(host: ExecutorHost<V>, scenario: ScenarioConfig, n: number): Promise<V[]> {
  const vus: V[] = [];
  for (let i = 0; i < n; i++) {
    vus.push(await host.initVU(scenario));
    host.initializedVUs(1);
  }
  return vus;
}
