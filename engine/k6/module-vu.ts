// What the k6 modules (engine/k6/*) see of a VU and of its thread's runtime: the members they read and write, no more.
// A leaf of types, so the modules do not import the concrete VU class (vu.ts creates the modules: a circle otherwise).
import type { Dispatcher } from 'undici';
import type { SyncHttpClient } from '../http/sync-client.ts';
import type { GroupTree } from '../metrics/groups.ts';
import type { MetricStore } from '../metrics/store.ts';
import type { ConsolidatedOptions, ScenarioConfig } from '../options.ts';

/** Where the thread's script is in its life (k6 allows some calls only in some phases). */
export type Phase = 'init' | 'setup' | 'vu' | 'teardown' | 'summary';

/** Scenario progress shared by the VUs of one scenario in one thread (k6/execution's scenario.*). */
export interface ScenarioState {
  config: ScenarioConfig;
  /** Absolute start (epoch ms). */
  startedAt: number;
  iterationsInInstance: number;
  /** Global iteration numbering (iterationInTest): this worker's iterations are index, index+count, ... */
  nextInTest: () => number;
}

/** The thread's runtime as the modules use it (EngineRuntime in runtime.ts): metrics, groups, options, the sync HTTP client. */
export interface ModuleRuntime {
  readonly store: MetricStore;
  readonly groups: GroupTree;
  readonly options: ConsolidatedOptions;
  readonly userAgent: string;
  readonly phase: Phase;
  readonly instance: {
    readonly iterationsCompleted: number;
    readonly iterationsInterrupted: number;
    readonly vusActive: number;
    readonly vusInitialized: number;
  };
  syncHttp(): SyncHttpClient;
  maxRedirects(): number;
  elapsedMs(): number;
  scenarioProgress(state: ScenarioState): number;
  abortTest(reason: string): void;
}

/** One VU as the modules use it (the VU class in vu.ts implements it): identity, tags, group path, deferred sleep. */
export interface ModuleVU {
  readonly runtime: ModuleRuntime;
  readonly idInTest: number;
  readonly idInInstance: number;
  readonly initPhase: boolean;
  readonly scenario: ScenarioState | undefined;
  readonly iter: number;
  readonly iterInInstance: number;
  readonly iterInTest: number;
  groupPath: string;
  readonly tags: Record<string, string>;
  readonly metadata: Record<string, string>;
  pendingSleepMs: number;
  groupSleepMs: number;
  bytesSent: number;
  bytesReceived: number;
  readonly signal: AbortSignal;
  /** The VU's connection pool (shared with a few other VUs of the thread: runtime.ts poolForVU). */
  readonly agent: Dispatcher;
  baseTags(): Record<string, string>;
  emit(metric: string, value: number, tags: Record<string, string>): void;
  assertRunning(): void;
  flushSleep(): Promise<void>;
  flushSleepSync(): void;
  interrupt(): void;
}
