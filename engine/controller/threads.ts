// The run's threads: the VU workers (each a stripe of every scenario) and a lifecycle thread for setup()/teardown()
// (never the controller's thread, where an embedded target may be serving: a blocking call there would deadlock), the
// messages they send the controller, and the merged progress of the workers.
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { mayUseSyncHttp } from '../bundle.ts';
import { scenarioMaxVUs, scenarioShare } from '../executors/registry.ts';
import { executionTuple } from '../execution-segment.ts';
import { helperCode } from '../http/sync-client.ts';
import { newHeartbeats, watchHeartbeats, type Heartbeats, type LoopSample } from '../loop-monitor.ts';
import { OptionsError, type ConsolidatedOptions } from '../options.ts';
import type { ProgressView } from '../progress.ts';
import type { ControllerMessage, HostModule, WorkerInit, WorkerMessage, WorkerProgress } from '../protocol.ts';
import { clock } from '../runtime.ts';
import { errorText } from './exit-codes.ts';
import type { LoadedScript } from './load.ts';

const WORKER_BOOT = new URL('../worker-boot.mjs', import.meta.url);
const WORKER_ENTRY = new URL('../worker.ts', import.meta.url).href;

export type Snapshot = Extract<WorkerMessage, { type: 'snapshot' }>;
export type LifecycleReply = Extract<WorkerMessage, { type: 'setup-done' | 'teardown-done' }>;

/**
 * VUs a worker thread is worth starting for. Measured with bench:engine on a quiet 2-core box (catalog-browse, 10 s):
 * at 2 and 4 VUs one worker made 1.2-1.3x the iterations of two (a second thread's start-up and its share of the
 * cores cost more than it gives), at 8 and 16 VUs two made 1.1-1.2x those of one, at 50 to 1,000 VUs 1.4-1.6x.
 */
const VUS_PER_WORKER = 6;

/** Worker threads for `requested` ('auto': one per started VUS_PER_WORKER VUs, at most one per core of the machine). */
export function workerCount(requested: number | 'auto', options: ConsolidatedOptions, cores = availableParallelism()): number {
  const tuple = executionTuple(options.executionSegment, options.executionSegmentSequence);
  const vus = options.scenarios.reduce((sum, s) => sum + scenarioShare(s, tuple).vus(scenarioMaxVUs(s)), 0);
  if (typeof requested === 'number') {
    if (!Number.isInteger(requested) || requested < 1)
      throw new OptionsError(`workers must be a whole number ≥ 1 or 'auto', got ${requested}`);
    return requested;
  }
  // Every core, like k6 (the embedded sandbox beside it included: it was in the measurement); the controller thread
  // handles batches only, so it needs no core of its own. On a machine already busy with other work, fewer workers can
  // do better: --workers N.
  return Math.max(1, Math.min(cores, Math.ceil(vus / VUS_PER_WORKER)));
}

/**
 * V8 lets an old generation grow to up to 4x what survived the last full GC when the generation's limit is 2 GB or more
 * (kMaxSize in V8's heap-controller.h: 1,024 MB x 2 on 64-bit), and to at most 2x below it. Node's default limit is
 * 2 GB or more on any machine with 8 GB of memory, so a worker's heap grew to 2.5x its live heap between full GCs: at
 * 1,000 VUs (bench:engine, two workers) the old generations peaked at 240 MB over about 95 MB live.
 */
const V8_HIGH_GROWTH_LIMIT_MB = 2048;

/**
 * The young generation of each thread (three semi-spaces' worth: 32 MB semi-spaces, V8's default is 16). With a thousand
 * VUs a thousand requests are in flight; in a 16 MB semi-space their objects outlive a scavenge, get promoted and then
 * cost full GCs: GC took 15.3 % of a busy worker at 1,000 VUs, 8.3 % with 32 MB (4 % at 50 VUs either way). V8 grows
 * the semi-spaces up to this only while allocation needs them.
 */
const YOUNG_GENERATION_MB = 96;

/**
 * The threads' heap limits: the young generation above; the old generation just under 2 GB where the default is 2 GB
 * or more (measured at 1,000 VUs: peak RSS 877 -> 641 MB with as many iterations; README "The engine at the limit"),
 * else V8's own. A --max-old-space-size given to Node (command line or NODE_OPTIONS) overrides the cap, as Node documents.
 */
export function threadHeapLimits(defaultLimitBytes = getHeapStatistics().heap_size_limit): ResourceLimits {
  const old = defaultLimitBytes >= V8_HIGH_GROWTH_LIMIT_MB * 2 ** 20 ? { maxOldGenerationSizeMb: V8_HIGH_GROWTH_LIMIT_MB - 1 } : {};
  return { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB, ...old };
}

/** What a thread's crash means for the user; running out of heap says how to get more. */
export function threadLostText(error: unknown, thread: string): string {
  if ((error as { code?: unknown }).code !== 'ERR_WORKER_OUT_OF_MEMORY') return errorText(error);
  return (
    `the ${thread} ran out of JavaScript heap (${errorText(error)}): spread the VUs over more threads (--workers N) or ` +
    `raise the limit (NODE_OPTIONS=--max-old-space-size=MB)`
  );
}

/** What a thread's message handler needs of the thread it came from (Threads.spawn). */
interface ThreadHooks {
  readonly role: WorkerInit['role'];
  readonly index: number;
  markReady(): void;
  readonly waiting: Map<string, (m: LifecycleReply) => void>;
  resolveDone(): void;
  lost(message: string): void;
}

export interface Spawned {
  readonly worker: Worker;
  readonly ready: Promise<void>;
  readonly done: Promise<void>;
  next(type: 'setup-done' | 'teardown-done'): Promise<LifecycleReply>;
}

export interface ThreadSettings {
  readonly script: LoadedScript;
  readonly count: number;
  readonly pointsWanted: boolean;
  readonly hostModules: ReadonlyArray<HostModule> | undefined;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** A worker's batch of NDJSON point lines. */
  readonly onPoints: (names: readonly string[], text: string) => void;
  /** A VU thread's second of event-loop delay and utilization, as it arrives (EngineRunOptions.onLoop). */
  readonly onLoop?: (sample: LoopSample) => void;
}

export class Threads {
  readonly vuWorkers: Worker[] = [];
  readonly lifecycle: Spawned | undefined;
  /** The first thread failure (a crash, a script error in init or in the run): the run ends with 107. */
  failure: string | undefined;
  private readonly progressByWorker: WorkerProgress[] = [];
  /** Every VU thread's seconds of event-loop delay and utilization (engine/loop-monitor.ts), in arrival order. */
  readonly loopSamples: LoopSample[] = [];
  private readonly ready: Array<Promise<void>> = [];
  private readonly done: Array<Promise<void>> = [];
  private snapshotWaiters: Array<(m: Snapshot) => void> = [];
  private readonly syncHelperSource: string | undefined;
  private readonly shared: SharedArrayBuffer;
  private readonly heartbeats: Heartbeats;
  /** The controller's watch of the VU threads' heartbeats while the scenarios run (start → every thread done). */
  private readonly watch: { started(): void; stop(): void };

  constructor(private readonly settings: ThreadSettings) {
    const { script, count } = settings;
    this.shared = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * 2 * script.options.scenarios.length);
    this.heartbeats = newHeartbeats(count);
    this.watch = watchHeartbeats(this.heartbeats, count, (sample) => this.loopSample(sample));
    // Scripts that look like they make synchronous requests get the helper started during init (see http/sync-client.ts).
    this.syncHelperSource = mayUseSyncHttp(script.source) ? helperCode() : undefined;
    const hasLifecycle = typeof script.vu0.exports.setup === 'function' || typeof script.vu0.exports.teardown === 'function';
    this.lifecycle = hasLifecycle ? this.spawn('lifecycle', 0) : undefined;
    for (let index = 0; index < count; index++) {
      const w = this.spawn('vu', index);
      this.vuWorkers.push(w.worker);
      this.progressByWorker.push({ vusActive: 0, vusInitialized: 0, interrupted: 0, scenarios: {} });
      this.done.push(w.done);
      this.ready.push(w.ready);
    }
  }

  broadcast(m: ControllerMessage): void {
    for (const w of this.vuWorkers) w.postMessage(m);
  }

  readonly abortAll = (): void => this.broadcast({ type: 'abort' });

  /** Starts the scenarios at `startAt` on every VU thread, and watches their heartbeats until allDone(). */
  start(startAt: number, setupDataJson: string | undefined): void {
    this.watch.started();
    this.broadcast({ type: 'start', startAt, setupDataJson });
  }

  private loopSample(sample: LoopSample): void {
    this.loopSamples.push(sample);
    this.settings.onLoop?.(sample);
  }

  /** Every VU worker initialised its VUs (or is gone). */
  allReady(): Promise<void> {
    return Promise.all(this.ready).then(() => undefined);
  }

  /** Every VU worker handed over its final metrics (or is gone). */
  allDone(): Promise<void> {
    return Promise.all(this.done).then(() => this.watch.stop());
  }

  async terminateVUs(): Promise<void> {
    await Promise.all(this.vuWorkers.map((w) => w.terminate()));
  }

  /** Every VU worker's metric state now (abortOnFail thresholds evaluate on them merged). */
  snapshots(): Promise<Snapshot[]> {
    return new Promise<Snapshot[]>((resolveSnaps) => {
      const got: Snapshot[] = [];
      this.snapshotWaiters.push((m) => {
        got.push(m);
        if (got.length === this.vuWorkers.length) {
          this.snapshotWaiters = [];
          resolveSnaps(got);
        }
      });
      this.broadcast({ type: 'snapshot' });
    });
  }

  /** The workers' progress merged, `elapsedMs` from `startAt`. */
  view(startAt: number): ProgressView {
    const scenarios: Record<string, { iterations: number; dropped: number }> = {};
    let vusActive = 0;
    let vusMax = 0;
    let completed = 0;
    let interrupted = 0;
    for (const p of this.progressByWorker) {
      vusActive += p.vusActive;
      vusMax += p.vusInitialized;
      interrupted += p.interrupted;
      for (const [name, c] of Object.entries(p.scenarios)) {
        const agg = (scenarios[name] ??= { iterations: 0, dropped: 0 });
        agg.iterations += c.iterations;
        agg.dropped += c.dropped;
        completed += c.iterations;
      }
    }
    return { elapsedMs: Math.max(0, clock() - startAt), vusActive, vusMax, completed, interrupted, scenarios };
  }

  /** What a thread starts with: the script, its segment of the run, the shared counters and the heartbeats. */
  private workerInit(role: WorkerInit['role'], index: number): WorkerInit {
    const { script, count, pointsWanted, hostModules } = this.settings;
    return {
      entry: WORKER_ENTRY,
      role,
      source: script.source,
      scriptPath: script.scriptPath,
      scriptDir: dirname(script.scriptPath),
      options: script.options,
      env: script.env,
      submetrics: script.submetrics,
      segment: { index, count },
      sharedCounters: this.shared,
      heartbeats: this.heartbeats,
      ndjson: pointsWanted,
      syncHelperSource: this.syncHelperSource,
      ...(hostModules === undefined ? {} : { hostModules }),
    };
  }

  private spawn(role: WorkerInit['role'], index: number): Spawned {
    const { stdout, stderr } = this.settings;
    const worker = new Worker(WORKER_BOOT, {
      workerData: this.workerInit(role, index),
      stdout: true,
      stderr: true,
      resourceLimits: threadHeapLimits(),
    });
    // The script's console goes where the run's output goes (as k6's does), so a caller that captures the output sees
    // it too: the load runner reads payload-violation samples from it (load/payload-samples.ts).
    worker.stdout.on('data', (chunk: Buffer) => stdout.write(chunk));
    worker.stderr.on('data', (chunk: Buffer) => stderr.write(chunk));
    let markReady: () => void = () => undefined;
    const ready = new Promise<void>((r) => (markReady = r));
    const waiting = new Map<string, (m: LifecycleReply) => void>();
    const finished = new Promise<void>((resolveDone) => {
      const lost = (message: string): void => {
        this.failure ??= message;
        markReady();
        for (const [type, resolveWait] of waiting) resolveWait({ type: type as 'setup-done', error: message });
        this.abortAll();
        resolveDone();
      };
      // One object per thread, not per message: 'points' and 'loop' messages arrive every few hundred ms per thread.
      const thread: ThreadHooks = { role, index, markReady: () => markReady(), waiting, resolveDone, lost };
      worker.on('message', (m: WorkerMessage) => this.onMessage(m, thread));
      worker.on('error', (error) => lost(threadLostText(error, role === 'vu' ? `VU thread ${index + 1}` : 'setup/teardown thread')));
      worker.on('exit', () => {
        markReady();
        for (const [type, resolveWait] of waiting) resolveWait({ type: type as 'setup-done', error: 'the lifecycle thread exited' });
        resolveDone();
      });
    });
    const next = (type: 'setup-done' | 'teardown-done'): Promise<LifecycleReply> =>
      new Promise<LifecycleReply>((r) => waiting.set(type, r));
    return { worker, ready, done: finished, next };
  }

  /** One message of a thread: readiness, progress, loop samples, metric points, a script's abort, lifecycle replies, its end. */
  private onMessage(m: WorkerMessage, thread: ThreadHooks): void {
    const { runtime, abortState } = this.settings.script;
    switch (m.type) {
      case 'ready':
        thread.markReady();
        break;
      case 'progress':
        if (thread.role === 'vu') this.progressByWorker[thread.index] = m.progress;
        break;
      case 'loop':
        this.loopSample(m.sample);
        break;
      case 'points':
        this.settings.onPoints(m.metricNames, m.text);
        break;
      case 'snapshot':
        this.snapshotWaiters.forEach((f) => f(m));
        break;
      case 'abort':
        abortState.reason = m.reason;
        abortState.byScript = true;
        this.abortAll();
        break;
      case 'setup-done':
      case 'teardown-done':
        thread.waiting.get(m.type)?.(m);
        thread.waiting.delete(m.type);
        break;
      case 'done':
        runtime.store.mergeState(m.store);
        runtime.groups.mergeState(m.groups);
        thread.resolveDone();
        break;
      case 'failed':
        thread.lost(m.message);
        break;
    }
  }
}
