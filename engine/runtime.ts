// What the VUs of one thread share: the compiled script factory, options, __ENV, the metric store and group tree, the
// VUs' keep-alive HTTP pools (one per 8 VUs, closed together) and the sync helper, instance counters for k6/execution,
// setup()'s parsed data, and iteration error reporting.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { isAbsolute, resolve } from 'node:path';
import type { Dispatcher } from 'undici';
import type { ScriptFactory } from './bundle.ts';
import { createAgent } from './http/perform.ts';
import { SyncHttpClient } from './http/sync-client.ts';
import { GroupTree } from './metrics/groups.ts';
import { MetricStore, type SubmetricDef } from './metrics/store.ts';
import type { ConsolidatedOptions, ScenarioConfig } from './options.ts';
import { scenarioDurationMs } from './executors/registry.ts';
import type { Phase, ScenarioState } from './k6/module-vu.ts';

export const ENGINE_USER_AGENT = 'k6/0.48.0 (https://k6.io/) gateway-harness-node-engine';

export interface RuntimeSettings {
  factory: ScriptFactory;
  options: ConsolidatedOptions;
  env: Record<string, string>;
  /** Directory of the script: open() resolves relative paths from it, like k6. */
  scriptDir: string;
  submetrics: SubmetricDef[];
  setupDataJson?: string;
  /** Called when the script calls exec.test.abort(). */
  onAbort?: (reason: string) => void;
}

/** VUs that share a connection pool (runtime.poolForVU): the pool's scan for a free connection is at most this long. */
const VUS_PER_POOL = 8;

/** Absolute, monotonic milliseconds comparable across threads (performance.timeOrigin differs per thread). */
export function clock(): number {
  return performance.timeOrigin + performance.now();
}

export class EngineRuntime {
  readonly store: MetricStore;
  readonly groups = new GroupTree();
  readonly factory: ScriptFactory;
  readonly options: ConsolidatedOptions;
  readonly env: Record<string, string>;
  readonly userAgent = ENGINE_USER_AGENT;
  phase: Phase = 'init';
  setupDataJson: string | undefined;
  private parsedSetupData: { readonly json: string; readonly data: unknown } | undefined;
  /** Epoch ms when the test (the first scenario) started; 0 before. */
  testStartedAt = 0;
  readonly instance = { iterationsCompleted: 0, iterationsInterrupted: 0, vusActive: 0, vusInitialized: 0 };
  private readonly agents: Dispatcher[] = [];
  /** VUs given the newest pool so far. */
  private poolUsers = 0;
  private syncClient: SyncHttpClient | undefined;
  private readonly errorCounts = new Map<string, number>();
  private errorOverflow = 0;
  private readonly scriptDir: string;
  private readonly onAbort: ((reason: string) => void) | undefined;
  private readonly files = new Map<string, string | ArrayBuffer>();

  constructor(settings: RuntimeSettings) {
    this.factory = settings.factory;
    this.options = settings.options;
    this.env = settings.env;
    this.scriptDir = settings.scriptDir;
    this.store = new MetricStore(settings.submetrics);
    this.setupDataJson = settings.setupDataJson;
    this.onAbort = settings.onAbort;
  }

  /** setup()'s data parsed once for the thread, never written: each VU reads it through its own view (vu.ts). */
  sharedSetupData(): unknown {
    const json = this.setupDataJson;
    if (json === undefined) return undefined;
    if (this.parsedSetupData?.json !== json) this.parsedSetupData = { json, data: JSON.parse(json) };
    return this.parsedSetupData.data;
  }

  /**
   * The connection pool of a VU, shared with at most VUS_PER_POOL - 1 others of the thread. With one pool for the
   * thread's VUs, undici looked through all of its connections for a free one, up to three times a request (pool.js
   * kGetDispatcher): at 1,000 VUs that scan was 94 µs of every iteration (6 µs at 50). A pool per VU (k6 has a transport
   * per VU) ends the scan but costs 48 kB a VU (undici's request queue is a 2,048-slot array): 48 MB at 1,000 VUs.
   */
  poolForVU(): Dispatcher {
    if (this.poolUsers === 0) this.agents.push(createAgent({ noConnectionReuse: this.options.noConnectionReuse }));
    this.poolUsers = (this.poolUsers + 1) % VUS_PER_POOL;
    return this.agents[this.agents.length - 1] as Dispatcher;
  }

  syncHttp(): SyncHttpClient {
    this.syncClient ??= new SyncHttpClient({ noConnectionReuse: this.options.noConnectionReuse, maxRedirects: this.maxRedirects() });
    return this.syncClient;
  }

  maxRedirects(): number {
    const raw = this.options.raw.maxRedirects;
    return typeof raw === 'number' ? raw : 10;
  }

  /** k6's open(): only in the init context, paths relative to the script. */
  openFile(path: string, mode: string | undefined, initPhase: boolean): string | ArrayBuffer {
    if (!initPhase) throw new Error('The "open()" function is only available in the init stage (i.e. the global scope)');
    const full = isAbsolute(path) ? path : resolve(this.scriptDir, path);
    const key = `${mode === 'b' ? 'b' : 't'}:${full}`;
    let content = this.files.get(key);
    if (content === undefined) {
      const buf = readFileSync(full);
      content = mode === 'b' ? buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) : buf.toString('utf8');
      this.files.set(key, content);
    }
    return content;
  }

  elapsedMs(): number {
    return this.testStartedAt === 0 ? 0 : clock() - this.testStartedAt;
  }

  scenarioProgress(state: ScenarioState): number {
    const total = scenarioDurationMs(state.config);
    return total <= 0 ? 1 : Math.min(1, Math.max(0, (clock() - state.startedAt) / total));
  }

  abortTest(reason: string): void {
    this.onAbort?.(reason);
  }

  /** Logs an iteration's uncaught error like k6 (logfmt on stderr), the same message at most a few times. */
  reportIterationError(error: unknown, scenario: ScenarioConfig | undefined): void {
    const text = error instanceof Error ? `${error.name === 'Error' ? 'Error' : error.name}: ${error.message}` : String(error);
    let seen: number;
    if (this.errorCounts.has(text) || this.errorCounts.size < 1_000) {
      seen = (this.errorCounts.get(text) ?? 0) + 1;
      this.errorCounts.set(text, seen);
    } else {
      // Bounded: messages that embed ids would otherwise grow the map for the whole soak; log 1 in 1000 of them.
      this.errorOverflow++;
      seen = 5 + this.errorOverflow;
    }
    if (seen > 5 && seen % 1000 !== 0) return;
    const more = seen > 5 ? ` (seen ${seen} times)` : '';
    const where = scenario === undefined ? '' : ` executor=${scenario.executor} scenario=${scenario.name}`;
    process.stderr.write(`time="${new Date().toISOString()}" level=error msg=${JSON.stringify(text + more)}${where} source=stacktrace\n`);
  }

  async close(): Promise<void> {
    const agents = this.agents.splice(0);
    await Promise.all([...agents.map((agent) => agent.destroy()), this.syncClient?.close()]);
  }
}
