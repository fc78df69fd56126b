// Runs one scenario's share (a worker segment) with k6's executor semantics: when iterations start, when VUs are
// (de)activated, gracefulStop / gracefulRampDown, open-model arrival rates with dropped iterations. Time and VUs come
// from an ExecutorHost, so tests can drive the executors with a fake iteration.
import type { ScenarioConfig } from '../options.ts';
import {
  constantArrivalTimes,
  rampingArrivalTimes,
  rampingVUsAt,
  shareOf,
  stagesDurationMs,
  type Segment,
} from './schedule.ts';
import { scenarioShare, type ScenarioShare } from './segment-share.ts';

export interface ExecutorHost<V> {
  /** Monotonic ms. */
  now(): number;
  /** Creates and initializes a VU for the scenario (runs the init context). */
  initVU(scenario: ScenarioConfig): Promise<V>;
  /** Runs one iteration; must resolve (never reject) when it ends or is interrupted. */
  runIteration(vu: V, scenario: ScenarioConfig): Promise<void>;
  /** Interrupts the VU's running iteration (gracefulStop / gracefulRampDown ran out). */
  interrupt(vu: V): void;
  /** Counts one iteration an arrival-rate executor could not start. */
  dropped(scenario: ScenarioConfig): void;
  /** Active VUs changed by delta (the `vus` gauge). */
  activeVUs(delta: number): void;
  /** VUs initialized changed by delta (the `vus_max` gauge). */
  initializedVUs(delta: number): void;
  /** Claims the next index of a shared-iterations pool shared by every worker; undefined means "use a local count". */
  claimShared?(scenario: ScenarioConfig): number;
  /** Aborted test (threshold abortOnFail, exec.test.abort, Ctrl-C): stop starting iterations, interrupt at once. */
  readonly signal: AbortSignal;
}

/** Resolves at `at` (host ms) or when the signal aborts. */
function waitUntil(host: ExecutorHost<unknown>, at: number): Promise<void> {
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
class Running<V> {
  private readonly inFlight = new Map<V, Promise<void>>();
  private closed = false;
  constructor(private readonly host: ExecutorHost<V>, private readonly scenario: ScenarioConfig) {}

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
async function finish<V>(host: ExecutorHost<V>, running: Running<V>, loops: Promise<unknown>, end: number, gracefulMs: number): Promise<void> {
  await raceDeadline(host, loops, end);
  running.close();
  await running.drain(end + gracefulMs);
  await loops;
}

async function initMany<V>(host: ExecutorHost<V>, scenario: ScenarioConfig, n: number): Promise<V[]> {
  const vus: V[] = [];
  for (let i = 0; i < n; i++) {
    vus.push(await host.initVU(scenario));
    host.initializedVUs(1);
  }
  return vus;
}

/**
 * Runs the scenario's share from now (the caller waits for startTime); resolves when it is fully stopped. `share` is
 * this instance's part of a test split with execution segments (the whole scenario by default); `seg` is the worker's
 * stripe of that part.
 */
export async function runScenario<V>(scenario: ScenarioConfig, seg: Segment, host: ExecutorHost<V>, share: ScenarioShare = scenarioShare(scenario)): Promise<void> {
  // k6 does not start an executor with no work on this instance (its HasWork()).
  if (!share.hasWork) return;
  switch (scenario.executor) {
    case 'shared-iterations':
    case 'per-vu-iterations':
      return runIterationsExecutor(scenario, seg, host, share);
    case 'constant-vus':
      return runConstantVUs(scenario, seg, host, share);
    case 'ramping-vus':
      return runRampingVUs(scenario, seg, host, share);
    case 'constant-arrival-rate':
    case 'ramping-arrival-rate':
      return runArrivalRate(scenario, seg, host, share);
  }
}

/** VUs a scenario initializes in a segment before it starts (the init phase). */
export function plannedVUs(scenario: ScenarioConfig, seg: Segment, share: ScenarioShare = scenarioShare(scenario)): number {
  if (!share.hasWork) return 0;
  switch (scenario.executor) {
    case 'shared-iterations':
    case 'per-vu-iterations':
    case 'constant-vus':
      return shareOf(share.vus(scenario.vus), seg);
    case 'ramping-vus':
      return shareOf(share.vus(Math.max(scenario.startVUs, ...scenario.stages.map((s) => s.target))), seg);
    case 'constant-arrival-rate':
    case 'ramping-arrival-rate':
      return shareOf(share.vus(scenario.preAllocatedVUs), seg);
  }
}

async function runIterationsExecutor<V>(
  scenario: Extract<ScenarioConfig, { executor: 'shared-iterations' | 'per-vu-iterations' }>,
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

async function runConstantVUs<V>(scenario: Extract<ScenarioConfig, { executor: 'constant-vus' }>, seg: Segment, host: ExecutorHost<V>, share: ScenarioShare): Promise<void> {
  const vus = await initMany(host, scenario, shareOf(share.vus(scenario.vus), seg));
  const end = host.now() + scenario.durationMs;
  const running = new Running(host, scenario);
  host.activeVUs(vus.length);
  const loops = Promise.all(
    vus.map(async (vu) => {
      while (!host.signal.aborted && host.now() < end && running.open) await running.start(vu);
    }),
  );
  await finish(host, running, loops, end, scenario.gracefulStopMs);
  host.activeVUs(-vus.length);
}

async function runRampingVUs<V>(scenario: Extract<ScenarioConfig, { executor: 'ramping-vus' }>, seg: Segment, host: ExecutorHost<V>, share: ScenarioShare): Promise<void> {
  const maxShare = plannedVUs(scenario, seg, share);
  const vus = await initMany(host, scenario, maxShare);
  const start = host.now();
  const end = start + stagesDurationMs(scenario.stages);
  const running = new Running(host, scenario);
  // The instance runs its stripe of the test-wide target (k6's getRawExecutionSteps), the worker its stripe of that.
  const targetAt = (t: number): number => shareOf(share.vus(rampingVUsAt(scenario.startVUs, scenario.stages, t - start)), seg);
  let active = 0;
  /** When a VU was deactivated while in an iteration: interrupt it after gracefulRampDown. */
  const rampDownDeadline = new Map<number, number>();
  const setActive = (n: number): void => {
    if (n !== active) host.activeVUs(n - active);
    active = n;
  };
  setActive(targetAt(host.now()));
  const loops = vus.map(async (vu, n) => {
    // The n-th VU of the segment runs while the segment's share of the target count includes it. No `running.open`
    // test needed here: the stop begins only after the controller saw the clock pass `end`.
    while (!host.signal.aborted && host.now() < end) {
      if (n >= active) {
        await waitUntil(host, Math.min(end, host.now() + 10));
        continue;
      }
      await running.start(vu);
    }
  });
  // The controller: recompute the target every 10 ms; a VU ramped down mid-iteration gets gracefulRampDown to finish.
  const controller = (async () => {
    while (!host.signal.aborted && host.now() < end) {
      const target = targetAt(host.now());
      if (target < active) {
        for (let n = target; n < active; n++) {
          if (running.isRunning(vus[n] as V) && !rampDownDeadline.has(n)) rampDownDeadline.set(n, host.now() + scenario.gracefulRampDownMs);
        }
      }
      setActive(target);
      for (const [n, deadline] of rampDownDeadline) {
        if (n < active || !running.isRunning(vus[n] as V)) rampDownDeadline.delete(n);
        else if (host.now() >= deadline) {
          host.interrupt(vus[n] as V);
          rampDownDeadline.delete(n);
        }
      }
      await waitUntil(host, Math.min(end, host.now() + 10));
    }
  })();
  await controller;
  await finish(host, running, Promise.all(loops), end, scenario.gracefulStopMs);
  setActive(0);
}

async function runArrivalRate<V>(
  scenario: Extract<ScenarioConfig, { executor: 'constant-arrival-rate' | 'ramping-arrival-rate' }>,
  seg: Segment,
  host: ExecutorHost<V>,
  share: ScenarioShare,
): Promise<void> {
  const pre = shareOf(share.vus(scenario.preAllocatedVUs), seg);
  const maxVUs = shareOf(share.vus(scenario.maxVUs), seg);
  const free: V[] = await initMany(host, scenario, pre);
  let allocated = free.length;
  let allocating = false;
  host.activeVUs(allocated);
  const running = new Running(host, scenario);
  const durationMs = scenario.executor === 'constant-arrival-rate' ? scenario.durationMs : stagesDurationMs(scenario.stages);
  const times =
    scenario.executor === 'constant-arrival-rate'
      ? constantArrivalTimes(scenario.rate, scenario.timeUnitMs, scenario.durationMs, seg, share.slot)
      : rampingArrivalTimes(scenario.startRate, scenario.timeUnitMs, scenario.stages, seg, share.slot);
  const start = host.now();
  const end = start + durationMs;
  const startOne = (vu: V): void => {
    // The VU goes back to the free pool when its iteration ends; `running` tracks live iterations for the stop.
    void running.start(vu).then(() => {
      free.push(vu);
    });
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
    // Open model: no free VU means the iteration is dropped, never delayed; grow the pool in the background.
    host.dropped(scenario);
    if (!allocating && allocated < maxVUs) {
      allocating = true;
      void host.initVU(scenario).then(
        (created) => {
          allocated++;
          allocating = false;
          host.initializedVUs(1);
          host.activeVUs(1);
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
  host.activeVUs(-allocated);
}
