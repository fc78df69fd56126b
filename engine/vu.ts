// One virtual user: its own instance of the script's modules (like k6, every VU has its own globals), its identity
// (__VU, __ITER, k6/execution), its tags and group path, and one iteration at a time with interruption and deferred sleep.
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import type { EngineRuntime } from './runtime.ts';
import type { ScriptExports, VUScope } from './bundle.ts';
import { CopyOnWriteView } from './copy-on-write.ts';
import { blockingOnPurpose } from './loop-monitor.ts';
import { createModules, requiredModule } from './k6/modules.ts';
import type { ModuleVU, ScenarioState } from './k6/module-vu.ts';

// ScenarioState is defined with the k6 modules' view of a VU (k6/module-vu.ts); the threads (worker.ts) read it here.
export type { ScenarioState } from './k6/module-vu.ts';

/** Thrown into a VU's pending work when its iteration is interrupted (gracefulStop/gracefulRampDown ran out, abort). */
export class IterationInterrupted extends Error {
  constructor() {
    super('iteration interrupted');
    this.name = 'IterationInterrupted';
  }
}

export class VU implements ModuleVU {
  /** exec.vu.idInTest: unique across the instances of a split test. */
  readonly idInTest: number;
  /** __VU (as in k6: the number in this instance): 1.. for VUs that run iterations, 0 for setup/teardown/handleSummary. */
  readonly idInInstance: number;
  exports: ScriptExports = {};
  /** True while the init context runs (metrics may only be declared then). */
  initPhase = true;
  scenario: ScenarioState | undefined;
  /** __ITER: this VU's iteration number in its current scenario. */
  iter = -1;
  iterInInstance = -1;
  iterInTest = -1;
  groupPath = '';
  /** Custom VU tags (exec.vu.tags), applied to every sample the VU emits. */
  readonly tags: Record<string, string> = {};
  readonly metadata: Record<string, string> = {};
  /** sleep() inside an iteration is applied before the VU's next request and at the iteration's end. */
  pendingSleepMs = 0;
  /** Deferred sleep accrued inside the current group, added to group_duration like the real sleep would. */
  groupSleepMs = 0;
  interrupted = false;
  private controller = new AbortController();
  bytesSent = 0;
  bytesReceived = 0;
  private setupData: unknown;
  private setupDataReady = false;
  private envCache = new Map<string, Record<string, string>>();
  private agentInstance: Dispatcher | undefined;

  constructor(
    readonly runtime: EngineRuntime,
    ids: { idInTest: number; idInInstance: number },
  ) {
    this.idInTest = ids.idInTest;
    this.idInInstance = ids.idInInstance;
  }

  /** Runs the init context: a fresh instance of the bundle's modules bound to this VU. */
  init(): void {
    const modules = createModules(this);
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the scope's getters read this VU's live state
    const vu = this;
    const scope: VUScope = {
      id: this.idInInstance,
      get iter(): number {
        return vu.iter < 0 ? 0 : vu.iter;
      },
      get env(): Record<string, string> {
        return vu.env;
      },
      open: (path, mode) => this.runtime.openFile(path, mode, this.initPhase),
      module: (name) => modules(name),
      require: (name) => requiredModule(modules, name),
    };
    this.exports = this.runtime.factory(scope);
    this.initPhase = false;
  }

  /** __ENV: this VU's own copy (like k6, a VU changing it does not change another's), with the scenario's env. */
  get env(): Record<string, string> {
    const key = this.scenario?.config.name ?? '';
    let env = this.envCache.get(key);
    if (env === undefined) {
      env = { ...this.runtime.env, ...(this.scenario?.config.env ?? {}) };
      this.envCache.set(key, env);
    }
    return env;
  }

  get agent(): Dispatcher {
    this.agentInstance ??= this.runtime.poolForVU();
    return this.agentInstance;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The tags of every sample emitted now: test tags, scenario tags, VU tags, scenario and group. */
  baseTags(): Record<string, string> {
    const sc = this.scenario?.config;
    const tags: Record<string, string> = { ...this.runtime.options.tags };
    if (sc !== undefined) Object.assign(tags, sc.tags);
    for (const k in this.tags) tags[k] = this.tags[k] as string;
    tags.group = this.groupPath;
    if (sc !== undefined) tags.scenario = sc.name;
    return tags;
  }

  emit(metric: string, value: number, tags: Record<string, string>): void {
    this.runtime.store.add(metric, value, tags);
  }

  /** Throws when the iteration was interrupted, so an interrupted VU stops at its next k6 call. */
  assertRunning(): void {
    if (this.interrupted) throw new IterationInterrupted();
  }

  /** Applies deferred sleep now (async): used before a request and at the end of an iteration. */
  async flushSleep(): Promise<void> {
    const ms = this.pendingSleepMs;
    if (ms <= 0) return;
    this.pendingSleepMs = 0;
    await new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(new IterationInterrupted());
      };
      const timer = setTimeout(() => {
        this.signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      if (this.signal.aborted) onAbort();
      else this.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Applies deferred sleep now by blocking the thread (only before a synchronous request, which blocks anyway). */
  flushSleepSync(): void {
    const ms = this.pendingSleepMs;
    if (ms <= 0) return;
    this.pendingSleepMs = 0;
    blockingOnPurpose(() => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms));
  }

  interrupt(): void {
    this.interrupted = true;
    this.controller.abort(new IterationInterrupted());
  }

  private data(): unknown {
    if (!this.setupDataReady) {
      // Each VU gets its own copy of setup()'s result, like k6 (which JSON-parses it once per VU): a copy-on-write view
      // of the thread's one parsed tree, so what the VU changes stays its own and what it only reads costs no copy.
      this.setupData = new CopyOnWriteView().view(this.runtime.sharedSetupData());
      this.setupDataReady = true;
    }
    return this.setupData;
  }

  /** Runs one iteration of the scenario's exec function; never rejects. */
  async runIteration(state: ScenarioState): Promise<void> {
    const sc = state.config;
    if (this.scenario !== state) {
      this.scenario = state;
      this.iter = -1;
    }
    this.iter++;
    this.iterInInstance++;
    state.iterationsInInstance++;
    this.iterInTest = state.nextInTest();
    this.groupPath = '';
    this.groupSleepMs = 0;
    this.pendingSleepMs = 0;
    this.interrupted = false;
    if (this.controller.signal.aborted) this.controller = new AbortController();
    this.bytesSent = 0;
    this.bytesReceived = 0;
    const fn = this.exports[sc.exec];
    const t0 = performance.now();
    try {
      if (typeof fn !== 'function') throw new Error(`function '${sc.exec}' not found in exports`);
      const result: unknown = fn(this.data());
      if (result !== null && typeof result === 'object' && typeof (result as Promise<unknown>).then === 'function') {
        await this.untilInterrupted(result as Promise<unknown>);
      }
      await this.flushSleep();
    } catch (error) {
      // A failed iteration still counts in iterations and iteration_duration, like k6 (checked on v0.48 and v2.2).
      if (!this.interrupted && !(error instanceof IterationInterrupted)) this.runtime.reportIterationError(error, sc);
    }
    if (this.interrupted) {
      this.runtime.instance.iterationsInterrupted++;
      return;
    }
    const tags = this.baseTags();
    tags.group = '';
    this.emitData(tags);
    this.emit('iteration_duration', performance.now() - t0, tags);
    this.emit('iterations', 1, tags);
    this.runtime.instance.iterationsCompleted++;
  }

  /** data_sent / data_received at the end of each iteration, setup() and teardown(), like k6 (even when 0). */
  emitData(tags: Record<string, string>): void {
    this.emit('data_sent', this.bytesSent, tags);
    this.emit('data_received', this.bytesReceived, tags);
    this.bytesSent = 0;
    this.bytesReceived = 0;
  }

  /** Awaits the iteration's promise, or gives up on it when the VU is interrupted. */
  private untilInterrupted(p: Promise<unknown>): Promise<unknown> {
    if (this.signal.aborted) return Promise.reject(new IterationInterrupted());
    return new Promise((resolve, reject) => {
      const onAbort = (): void => reject(new IterationInterrupted());
      this.signal.addEventListener('abort', onAbort, { once: true });
      p.then(
        (v) => {
          this.signal.removeEventListener('abort', onAbort);
          resolve(v);
        },
        (e: unknown) => {
          this.signal.removeEventListener('abort', onAbort);
          reject(e instanceof Error ? e : new Error(String(e)));
        },
      );
    });
  }
}
