// The reading half of merge-results: the time range the series need, the k-way merge into one store, the series and
// what the report names the run by. It runs in the merge thread (merge-thread.ts), so it crosses as plain data.
import { GroupTree, type GroupTreeState } from '../../engine/metrics/groups.ts';
import { MetricStore, type StoreState, type SubmetricDef } from '../../engine/metrics/store.ts';
import { scanTimeRange, SeriesAccumulator, seriesIntervalMs } from '../../reports/k6-series.ts';
import type { LoadSeries } from '../../reports/model.ts';
import { mergeRuns, type MergedRun } from './merge-run.ts';

export interface MergePassRequest {
  readonly files: readonly string[];
  /** Sub-metrics to track (from the thresholds). */
  readonly submetrics: readonly SubmetricDef[];
  /** Time series for report.html (the caller decided: every input is a regular file, they need a first pass). */
  readonly series: boolean;
}

export interface MergePassResult {
  readonly run: MergedRun;
  readonly series: LoadSeries | undefined;
  /** Scenario tags of `iterations` samples (at most 8), for a report whose plan does not name its scenario. */
  readonly scenarios: readonly string[];
  /** The `url` tag of the first `http_reqs` sample: the target's origin when the plan does not name it. */
  readonly firstUrl: string | undefined;
}

/** First and last point time over the files that can be read; a file that fails is left to the merge to report. */
async function seriesRange(files: readonly string[]): Promise<{ first: number; last: number; perSecond: boolean } | undefined> {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  let perSecond = false;
  for (const file of files) {
    const range = await scanTimeRange(file).catch(() => undefined);
    if (range === undefined) continue;
    first = Math.min(first, range.first);
    last = Math.max(last, range.last);
    perSecond ||= range.perSecond;
  }
  return Number.isFinite(first) ? { first, last, perSecond } : undefined;
}

export async function runMergePass(request: MergePassRequest, onBytes: (bytes: number) => void): Promise<MergePassResult> {
  let accumulator: SeriesAccumulator | undefined;
  if (request.series) {
    const range = await seriesRange(request.files);
    if (range !== undefined) accumulator = new SeriesAccumulator({ intervalMs: seriesIntervalMs(range), startTime: range.first });
  }
  let firstUrl: string | undefined;
  const scenarios = new Set<string>();
  const run = await mergeRuns(request.files, {
    submetrics: request.submetrics,
    ...(accumulator === undefined ? {} : { onMetricLine: (line: string) => accumulator.addLine(line) }),
    onPoint: (p) => {
      // A per-second aggregate (reports/metric-aggregates.ts) stands for its samples; a raw point for itself.
      for (const sample of p.samples ?? [{ value: p.value, count: 1 }])
        accumulator?.addPoint(p.metric, p.time, sample.value, p.tags, sample.count);
      if (p.metric === 'iterations' && p.tags.scenario !== undefined && scenarios.size < 8) scenarios.add(p.tags.scenario);
      if (firstUrl === undefined && p.metric === 'http_reqs') firstUrl = p.tags.url;
    },
    onBytes: (_i, n) => onBytes(n),
  });
  return { run, series: accumulator?.finish(), scenarios: [...scenarios], firstUrl };
}

/** A MergePassResult as structured-clone data (the store and the check tree as their states). */
export interface MergePassData extends Omit<MergePassResult, 'run'> {
  readonly run: Omit<MergedRun, 'store' | 'groups'> & { readonly store: StoreState; readonly groups: GroupTreeState };
}

export function toPassData(result: MergePassResult): MergePassData {
  return { ...result, run: { ...result.run, store: result.run.store.toState(), groups: result.run.groups.toState() } };
}

/** Rebuilds the store exactly (the engine's worker → controller merge) with the same sub-metrics registered. */
export function fromPassData(data: MergePassData, submetrics: readonly SubmetricDef[]): MergePassResult {
  const store = new MetricStore(submetrics);
  store.mergeState(data.run.store);
  const groups = new GroupTree();
  groups.mergeState(data.run.groups);
  return { ...data, run: { ...data.run, store, groups } };
}
