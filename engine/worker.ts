// One engine worker thread: compiles the bundle, initializes its share of every scenario's VUs, runs the executors
// from the controller's start time, and reports progress, NDJSON points and its exact metric state.
import { parentPort, workerData } from 'node:worker_threads';
import { compileFactory } from './bundle.ts';
import { plannedVUs, runScenario, type ExecutorHost } from './executors/run-scenario.ts';
import { PointBuffer } from './ndjson.ts';
import type { ScenarioConfig } from './options.ts';
import type { ControllerMessage, WorkerInit, WorkerMessage, WorkerProgress } from './protocol.ts';
import { EngineRuntime, clock } from './runtime.ts';
import { VU, type ScenarioState } from './vu.ts';

const init = workerData as WorkerInit;
const port = parentPort;
if (port === null) throw new Error('engine/worker.ts runs as a worker thread');
const send = (m: WorkerMessage): void => port.postMessage(m);

const abort = new AbortController();
const runtime = new EngineRuntime({
  factory: compileFactory(init.source, init.scriptPath),
  options: init.options,
  env: init.env,
  scriptDir: init.scriptDir,
  submetrics: init.submetrics,
  ...(init.setupDataJson === undefined ? {} : { setupDataJson: init.setupDataJson }),
  onAbort: (reason) => send({ type: 'abort', reason }),
});

let points: PointBuffer | undefined;
if (init.ndjson) {
  points = new PointBuffer((metricNames, text) => send({ type: 'points', metricNames, text }));
  runtime.store.listener = (metric, value, tags, time) => points?.add(metric.name, value, tags, time);
}

const seg = init.segment;
let created = 0;
function newVU(): VU {
  // Global VU numbers stripe across workers: worker i of W owns i+1, i+1+W, ... (unique, dense when balanced).
  const vu = new VU(runtime, { idInTest: created * seg.count + seg.index + 1, idInInstance: created + 1 });
  created++;
  vu.init();
  runtime.instance.vusInitialized++;
  return vu;
}

// The init phase: every scenario's planned VUs exist before the test starts, like k6.
const pools = new Map<string, VU[]>();
const counters = new Map<string, { iterations: number; dropped: number }>();
const states = new Map<string, ScenarioState>();
try {
  for (const [i, sc] of init.options.scenarios.entries()) {
    const n = plannedVUs(sc, seg);
    const pool: VU[] = [];
    for (let k = 0; k < n; k++) pool.push(newVU());
    pools.set(sc.name, pool);
    counters.set(sc.name, { iterations: 0, dropped: 0 });
    const shared = new Int32Array(init.sharedCounters);
    states.set(sc.name, {
      config: sc,
      startedAt: 0,
      iterationsInInstance: 0,
      // iterationInTest: one counter per scenario shared by every worker (index 2i), unique across the test.
      nextInTest: () => Atomics.add(shared, 2 * i, 1),
    });
  }
} catch (error) {
  send({ type: 'failed', message: error instanceof Error ? error.message : String(error), phase: 'init' });
  process.exit(1);
}
runtime.phase = 'vu';
// Start the sync-HTTP helper thread during the init phase, so the first http.get of the test does not pay its start-up.
if (init.source.includes('__engineVU.module("k6/http")')) runtime.syncHttp().warmUp();

function host(sc: ScenarioConfig, index: number): ExecutorHost<VU> {
  const state = states.get(sc.name) as ScenarioState;
  const count = counters.get(sc.name) as { iterations: number; dropped: number };
  const shared = new Int32Array(init.sharedCounters);
  return {
    now: clock,
    signal: abort.signal,
    initVU: async () => pools.get(sc.name)?.pop() ?? newVU(),
    runIteration: async (vu) => {
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
    claimShared: () => Atomics.add(shared, 2 * index + 1, 1),
  };
}

function progress(): WorkerProgress {
  return {
    vusActive: runtime.instance.vusActive,
    vusInitialized: runtime.instance.vusInitialized,
    interrupted: runtime.instance.iterationsInterrupted,
    scenarios: Object.fromEntries([...counters].map(([name, c]) => [name, { ...c }])),
  };
}

async function run(startAt: number): Promise<void> {
  runtime.testStartedAt = startAt;
  const ticker = setInterval(() => {
    points?.drain();
    send({ type: 'progress', progress: progress() });
  }, 250);
  await Promise.all(
    init.options.scenarios.map(async (sc, i) => {
      const at = startAt + sc.startTimeMs;
      await new Promise<void>((resolveWait) => {
        const timer = setTimeout(resolveWait, Math.max(0, at - clock()));
        abort.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolveWait();
        }, { once: true });
      });
      if (abort.signal.aborted) return;
      (states.get(sc.name) as ScenarioState).startedAt = clock();
      await runScenario(sc, seg, host(sc, i));
    }),
  );
  clearInterval(ticker);
  points?.drain();
  send({ type: 'progress', progress: progress() });
  send({ type: 'done', store: runtime.store.toState(), groups: runtime.groups.toState() });
  await runtime.close();
}

port.on('message', (m: ControllerMessage) => {
  if (m.type === 'start') {
    run(m.startAt).catch((error: unknown) => {
      send({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error), phase: 'run' });
    });
  } else if (m.type === 'abort') {
    abort.abort();
  } else if (m.type === 'snapshot') {
    send({ type: 'snapshot', store: runtime.store.toState(), groups: runtime.groups.toState() });
  }
});

send({ type: 'ready', vusInitialized: runtime.instance.vusInitialized });
