// Messages between the controller (engine/run.ts) and its worker threads (engine/worker.ts).
import type { Segment } from './executors/schedule.ts';
import type { GroupTreeState } from './metrics/groups.ts';
import type { StoreState, SubmetricDef } from './metrics/store.ts';
import type { Heartbeats, LoopSample } from './loop-monitor.ts';
import type { ConsolidatedOptions } from './options.ts';

export interface WorkerInit {
  entry: string;
  /** 'vu' runs a segment of the scenarios; 'lifecycle' runs setup() and teardown() off the controller's thread. */
  role: 'vu' | 'lifecycle';
  source: string;
  scriptPath: string;
  scriptDir: string;
  options: ConsolidatedOptions;
  env: Record<string, string>;
  submetrics: SubmetricDef[];
  segment: Segment;
  /** Int32 pairs per scenario: [iterationInTest counter, shared-iterations claim counter]. */
  sharedCounters: SharedArrayBuffer;
  /** The VU threads' heartbeats (engine/loop-monitor.ts): this thread beats slot `segment.index`. */
  heartbeats: Heartbeats;
  ndjson: boolean;
  /** The sync-HTTP helper's bundled source, when the script looks like it makes synchronous requests. */
  syncHelperSource: string | undefined;
  /** Modules each thread imports and calls `install(data)` of before compiling the script (EngineRunOptions.hostModules). */
  hostModules?: ReadonlyArray<HostModule>;
}

/** A module that provides something to the script's threads (e.g. the harness's money host), with its data. */
export interface HostModule {
  /** Module URL (file:) exporting `install(data)`. */
  readonly module: string;
  /** Structured-cloned into each thread; a SharedArrayBuffer in it is shared, not copied. */
  readonly data?: unknown;
}

export interface WorkerProgress {
  vusActive: number;
  vusInitialized: number;
  interrupted: number;
  scenarios: Record<string, { iterations: number; dropped: number }>;
}

export type WorkerMessage =
  | { type: 'ready'; vusInitialized: number }
  | { type: 'progress'; progress: WorkerProgress }
  /** One second of the thread's event loop (engine/loop-monitor.ts): the generator's own measurements. */
  | { type: 'loop'; sample: LoopSample }
  | { type: 'points'; metricNames: string[]; text: string }
  | { type: 'snapshot'; store: StoreState; groups: GroupTreeState }
  | { type: 'done'; store: StoreState; groups: GroupTreeState }
  | { type: 'abort'; reason: string }
  | { type: 'failed'; message: string; phase: 'init' | 'run' }
  /** `rejected`: the function returned a promise that rejected (k6 exits 255 then, 107 on a synchronous throw). */
  | { type: 'setup-done'; dataJson?: string; error?: string; rejected?: boolean }
  | { type: 'teardown-done'; error?: string; rejected?: boolean };

export type ControllerMessage =
  | { type: 'start'; startAt: number; setupDataJson: string | undefined }
  | { type: 'abort' }
  | { type: 'snapshot' }
  | { type: 'setup' }
  /** `skip`: setup() failed, so teardown() does not run (as in k6); the thread still reports setup()'s metrics. */
  | { type: 'teardown'; setupDataJson: string | undefined; skip?: boolean };
