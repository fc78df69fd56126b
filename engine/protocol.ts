// Messages between the controller (engine/run.ts) and its worker threads (engine/worker.ts).
import type { Segment } from './executors/schedule.ts';
import type { GroupTreeState } from './metrics/groups.ts';
import type { StoreState, SubmetricDef } from './metrics/store.ts';
import type { ConsolidatedOptions } from './options.ts';

export interface WorkerInit {
  entry: string;
  source: string;
  scriptPath: string;
  scriptDir: string;
  options: ConsolidatedOptions;
  env: Record<string, string>;
  submetrics: SubmetricDef[];
  setupDataJson: string | undefined;
  segment: Segment;
  /** Int32 pairs per scenario: [iterationInTest counter, shared-iterations claim counter]. */
  sharedCounters: SharedArrayBuffer;
  ndjson: boolean;
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
  | { type: 'points'; metricNames: string[]; text: string }
  | { type: 'snapshot'; store: StoreState; groups: GroupTreeState }
  | { type: 'done'; store: StoreState; groups: GroupTreeState }
  | { type: 'abort'; reason: string }
  | { type: 'failed'; message: string; phase: 'init' | 'run' };

export type ControllerMessage = { type: 'start'; startAt: number } | { type: 'abort' } | { type: 'snapshot' };
