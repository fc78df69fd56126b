// One engine thread. Role 'vu': compiles the bundle, initializes its share of every scenario's VUs, runs the executors
// from the controller's start time, and reports progress, NDJSON points and its exact metric state. Role 'lifecycle':
// runs setup() and teardown() in its own VU 0, off the controller's thread.
import { parentPort, workerData } from 'node:worker_threads';
import { compileFactory } from './bundle.ts';
import { executionTuple } from './execution-segment.ts';
import type { ExecutorHost } from './executors/host.ts';
import { plannedVUs, runScenario, scenarioShare } from './executors/registry.ts';
import { SyncHttpClient } from './http/sync-client.ts';
import { startLoopMonitor } from './loop-monitor.ts';
import { PointBuffer } from './ndjson.ts';
import type { ScenarioConfig } from './options.ts';
import type { ControllerMessage, WorkerInit, WorkerMessage, WorkerProgress } from './protocol.ts';
import { EngineRuntime, clock } from './runtime.ts';
import { VU, type ScenarioState } from './vu.ts';

const init = workerData as WorkerInit;
const maybePort = parentPort;
if (maybePort === null) throw new Error('engine/worker.ts runs as a worker thread');
const port = maybePort;
const send = (m: WorkerMessage): void => port.postMessage(m);
const errorText = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

// Host modules first: the script may use what they install from its first line on.
for (const host of init.hostModules ?? []) {
  const mod = (await import(host.module)) as { install?: (data: unknown) => void };
  if (typeof mod.install !== 'function') throw new Error(`engine host module ${host.module} exports no install(data)`);
  mod.install(host.data);
}

const abort = new AbortController();
const runtime = new EngineRuntime({
  factory: compileFactory(init.source, init.scriptPath),
  options: init.options,
  env: init.env,
  scriptDir: init.scriptDir,
  submetrics: init.submetrics,
  onAbort: (reason) => {
    abort.abort(); // stop this thread at once; the controller stops the others
    send({ type: 'abort', reason });
  },
});

let points: PointBuffer | undefined;
if (init.ndjson) {
  points = new PointBuffer((metricNames, text) => send({ type: 'points', metricNames, text }));
  runtime.store.listener = (metric, value, tags, time) => points?.add(metric.name, value, tags, time);
}

// Start the sync-HTTP helper during the init phase, so the first http.get of the test does not pay its start-up: the
// thread says it is ready only once the helper is listening.
let helperLoaded: Promise<void> = Promise.resolve();
if (init.syncHelperSource !== undefined) {
  SyncHttpClient.useSource(init.syncHelperSource);
  helperLoaded = runtime.syncHttp().warmUp();
}

/** Ready once the helper (when there is one) is listening; a helper that fails to start fails this thread's init. */
function sendReady(vusInitialized: number): void {
  helperLoaded.then(
    () => send({ type: 'ready', vusInitialized }),
    (error: unknown) =>
      send({
        type: 'failed',
        message: `the synchronous HTTP helper thread did not start: ${error instanceof Error ? error.message : String(error)}`,
        phase: 'init',
      }),
  );
}

/** setup() and teardown() in their own VU 0: a blocking call in them (sync HTTP, sleep) never blocks the controller's
 * thread, where an embedded target may be serving the requests. */
function runLifecycle(): void {
  const vu0 = new VU(runtime, { idInTest: 0, idInInstance: 0 });
  try {
    vu0.init();
  } catch (error) {
    send({ type: 'failed', message: errorText(error), phase: 'init' });
    return;
  }
  type Outcome = { value: unknown } | { error: string; rejected: boolean };
  /** Calls fn; a promise that rejects is told apart from a synchronous throw (k6: exit 255 vs 107). */
  const invoke = async (fn: (d: unknown) => unknown, arg: unknown): Promise<Outcome> => {
    let result: unknown;
    try {
      result = fn(arg);
    } catch (error) {
      return { error: errorText(error), rejected: false };
    }
    if (typeof (result as { then?: unknown } | null)?.then !== 'function') return { value: result };
    try {
      return { value: await (result as Promise<unknown>) };
    } catch (error) {
      return { error: errorText(error), rejected: true };
    }
  };
  const call = async (name: 'setup' | 'teardown', arg: unknown): Promise<Outcome> => {
    runtime.phase = name;
    vu0.groupPath = `::${name}`; // k6 runs setup() and teardown() inside groups of those names
    const fn = vu0.exports[name];
    if (typeof fn !== 'function') return { value: undefined };
    const outcome = await invoke(fn as (d: unknown) => unknown, arg);
    vu0.emitData(vu0.baseTags()); // k6's network trail of setup()/teardown(), in their group, even when 0
    return outcome;
  };
  port.on('message', (m: ControllerMessage) => {
    if (m.type === 'setup') {
      void call('setup', undefined).then((outcome) => {
        points?.drain();
        if ('error' in outcome) send({ type: 'setup-done', error: outcome.error, rejected: outcome.rejected });
        else send({ type: 'setup-done', ...(outcome.value === undefined ? {} : { dataJson: JSON.stringify(outcome.value) }) });
      });
    } else if (m.type === 'teardown') {
      const finish = (outcome: Outcome): void => {
        points?.drain();
        send({ type: 'teardown-done', ...('error' in outcome ? { error: outcome.error, rejected: outcome.rejected } : {}) });
        send({ type: 'done', store: runtime.store.toState(), groups: runtime.groups.toState() });
        void runtime.close();
      };
      if (m.skip === true) finish({ value: undefined });
      else void call('teardown', m.setupDataJson === undefined ? undefined : JSON.parse(m.setupDataJson)).then(finish);
    }
  });
  sendReady(0);
}

/** The VU role's state: this instance's share of the test, its VUs, and each scenario's counters. */
interface VuRole {
  readonly tuple: ReturnType<typeof executionTuple>;
  readonly shares: Map<string, ReturnType<typeof scenarioShare>>;
  /** VUs initialized before the test, waiting for their scenario's executor to take them. */
  readonly pools: Map<string, VU[]>;
  readonly counters: Map<string, { iterations: number; dropped: number }>;
  readonly states: Map<string, ScenarioState>;
  /** Per scenario i, index 2i: its iteration counter; 2i+1: its shared-iterations pool (shared by every worker). */
  readonly shared: Int32Array;
  created: number;
  /** When the event loop last had a turn (see keepLoopTurning). */
  lastTurn: number;
}

/** The VU role: this worker's segment of every scenario. */
function runVUs(): void {
  // This instance's share of a test split with execution segments (the whole test when there is none).
  const tuple = executionTuple(init.options.executionSegment, init.options.executionSegmentSequence);
  const role: VuRole = {
    tuple,
    shares: new Map(init.options.scenarios.map((sc) => [sc.name, scenarioShare(sc, tuple)])),
    pools: new Map(),
    counters: new Map(),
    states: new Map(),
    shared: new Int32Array(init.sharedCounters),
    created: 0,
    lastTurn: clock(),
  };
  try {
    initScenarios(role);
  } catch (error) {
    send({ type: 'failed', message: errorText(error), phase: 'init' });
    return;
  }
  runtime.phase = 'vu';
  keepLoopTurning(role);
  port.on('message', (m: ControllerMessage) => {
    if (m.type === 'start') {
      if (m.setupDataJson !== undefined) runtime.setupDataJson = m.setupDataJson;
      runTest(role, m.startAt).catch((error: unknown) => {
        send({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error), phase: 'run' });
      });
    } else if (m.type === 'abort') {
      abort.abort();
    } else if (m.type === 'snapshot') {
      send({ type: 'snapshot', store: runtime.store.toState(), groups: runtime.groups.toState() });
    }
  });
  sendReady(runtime.instance.vusInitialized);
}

function newVU(role: VuRole): VU {
  const seg = init.segment;
  // VU numbers in the instance stripe across workers: worker i of W owns i+1, i+1+W, ... (unique, dense when
  // balanced); the test-wide number is the instance's stripe of VUs (k6's GetUniqueVUIdentifiers).
  const inInstance = role.created * seg.count + seg.index + 1;
  const vu = new VU(runtime, { idInTest: role.tuple.globalIndex(inInstance - 1) + 1, idInInstance: inInstance });
  role.created++;
  vu.init();
  runtime.instance.vusInitialized++;
  return vu;
}

/** The init phase: every scenario's planned VUs exist before the test starts, like k6. */
function initScenarios(role: VuRole): void {
  for (const [i, sc] of init.options.scenarios.entries()) {
    const pool: VU[] = [];
    for (let k = plannedVUs(sc, init.segment, role.shares.get(sc.name)); k > 0; k--) pool.push(newVU(role));
    role.pools.set(sc.name, pool);
    role.counters.set(sc.name, { iterations: 0, dropped: 0 });
    role.states.set(sc.name, {
      config: sc,
      startedAt: 0,
      iterationsInInstance: 0,
      // iterationInTest: one counter per scenario shared by every worker (index 2i), mapped to the test-wide number
      // of this instance's k-th iteration (k6's SegmentedIndex), so it is unique across the instances of a split test.
      nextInTest: () => (role.shares.get(sc.name) ?? scenarioShare(sc)).iterationIndex(Atomics.add(role.shared, 2 * i, 1)),
    });
  }
}

/**
 * Synchronous iterations resolve in microtasks: the event loop (timers, the controller's messages) must get a turn at
 * least every few milliseconds, or a tight loop of sync iterations would starve it. The interval marks each turn.
 */
function keepLoopTurning(role: VuRole): void {
  setInterval(() => {
    role.lastTurn = clock();
  }, 2).unref();
}

/** What scenario `sc` (the i-th) gives its executor: VUs, iterations, and the counters they move. */
function executorHost(role: VuRole, sc: ScenarioConfig, index: number): ExecutorHost<VU> {
  const state = role.states.get(sc.name) as ScenarioState;
  const count = role.counters.get(sc.name) as { iterations: number; dropped: number };
  return {
    now: clock,
    signal: abort.signal,
    initVU: async () => role.pools.get(sc.name)?.pop() ?? newVU(role),
    runIteration: async (vu) => {
      if (clock() - role.lastTurn > 5) {
        await new Promise((r) => setImmediate(r));
        role.lastTurn = clock();
      }
      await vu.runIteration(state);
      if (!vu.interrupted) count.iterations++;
    },
    interrupt: (vu) => vu.interrupt(),
    dropped: () => {
      count.dropped++;
      runtime.store.add('dropped_iterations', 1, { ...init.options.tags, scenario: sc.name });
    },
    activeVUs: (delta) => {
      runtime.instance.vusActive += delta;
    },
    initializedVUs: () => undefined, // counted where VUs are created (newVU)
    // shared-iterations: the pool of iterations is shared by every worker (index 2i+1).
    claimShared: () => Atomics.add(role.shared, 2 * index + 1, 1),
  };
}

function progressOf(role: VuRole): WorkerProgress {
  return {
    vusActive: runtime.instance.vusActive,
    vusInitialized: runtime.instance.vusInitialized,
    interrupted: runtime.instance.iterationsInterrupted,
    scenarios: Object.fromEntries([...role.counters].map(([name, c]) => [name, { ...c }])),
  };
}

/** Every scenario from its start time on (relative to the controller's `startAt`); then this thread's final state. */
async function runTest(role: VuRole, startAt: number): Promise<void> {
  runtime.testStartedAt = startAt;
  const loop = startLoopMonitor((sample) => send({ type: 'loop', sample }), { heartbeats: init.heartbeats, index: init.segment.index });
  const ticker = setInterval(() => {
    points?.drain();
    send({ type: 'progress', progress: progressOf(role) });
  }, 250);
  await Promise.all(
    init.options.scenarios.map(async (sc, i) => {
      await untilStartOrAbort(startAt + sc.startTimeMs);
      if (abort.signal.aborted) return;
      (role.states.get(sc.name) as ScenarioState).startedAt = clock();
      await runScenario(sc, init.segment, executorHost(role, sc, i), role.shares.get(sc.name));
    }),
  );
  clearInterval(ticker);
  loop.stop();
  points?.drain();
  send({ type: 'progress', progress: progressOf(role) });
  send({ type: 'done', store: runtime.store.toState(), groups: runtime.groups.toState() });
  await runtime.close();
}

/** Resolves at clock time `at`, or at once when the run is aborted. */
function untilStartOrAbort(at: number): Promise<void> {
  return new Promise<void>((resolveWait) => {
    const timer = setTimeout(resolveWait, Math.max(0, at - clock()));
    abort.signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolveWait();
      },
      { once: true },
    );
  });
}

if (init.role === 'lifecycle') runLifecycle();
else runVUs();
