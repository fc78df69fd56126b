// Merges the k6 NDJSON streams of a distributed run's instances into one run: every sample goes into one MetricStore
// (engine/metrics: exact counters and rates, HdrHistogram trends, tag-filtered sub-metrics) and one check tree, read as
// a k-way merge by time so memory stays constant and `vus` is the sum over the instances at each moment.
import { createHash, type Hash } from 'node:crypto';
import { HarnessError } from '../../api/errors.ts';
import { GroupTree, GROUP_SEPARATOR } from '../../engine/metrics/groups.ts';
import { MetricStore, type MetricContains, type SubmetricDef, type Tags } from '../../engine/metrics/store.ts';
import type { MetricType } from '../../engine/thresholds.ts';
import { AGGREGATE_TYPE, aggregateSamples, type AggregateData, type WeightedValue } from '../../reports/metric-aggregates.ts';
import { lineBatches, openInput } from './input.ts';

/** Gauges that add up across instances: the VUs each instance runs. Other gauges keep k6's last-value semantics. */
const SUMMED_GAUGES: ReadonlySet<string> = new Set(['vus', 'vus_max']);
const METRIC_TYPES: ReadonlySet<string> = new Set(['counter', 'gauge', 'rate', 'trend']);
const CONTAINS: ReadonlySet<string> = new Set(['default', 'time', 'data']);
/** At most this many distinct `instance_id` tags are listed per file (k6-operator tags each pod's points with one). */
const MAX_INSTANCE_IDS = 16;

export interface FileStats {
  readonly path: string;
  lines: number;
  metricLines: number;
  points: number;
  /** Lines that are not k6 JSON output, or points of a metric no `Metric` line declared. */
  badLines: number;
  firstTime: number;
  lastTime: number;
  /** `instance_id` tag values seen (k6-operator's pod index). */
  readonly instanceIds: Set<string>;
  /** 'node' when every timestamp has millisecond precision (the Node engine writes ISO ms; k6 writes RFC 3339 ns). */
  timePrecision: 'ms' | 'finer' | 'none';
  /** Why the file ended before its end (a gzip cut short: a pod killed while writing); what came before it is merged. */
  readError: string | undefined;
  /** SHA-256 of the decoded content: the same instance's file given twice (under two names, gzipped or not) matches. */
  digest: string;
}

/** What the instances declared about thresholds in their `Metric` lines (k6 lists plain-metric thresholds and every
 * sub-metric it tracks for a threshold; thresholds on sub-metrics themselves are not in the stream). */
export interface DeclaredThresholds {
  readonly thresholds: Map<string, Set<string>>;
  readonly submetrics: Set<string>;
}

export interface MergedRun {
  readonly store: MetricStore;
  readonly groups: GroupTree;
  readonly files: readonly FileStats[];
  /** First and last point time over all instances (epoch ms); the run's duration is their difference. */
  readonly firstTime: number;
  readonly lastTime: number;
  readonly declared: DeclaredThresholds;
}

export interface MergePoint {
  readonly metric: string;
  /** The sample's value; of a per-second aggregate, a counter's sum or a gauge's last value. */
  readonly value: number;
  readonly tags: Tags;
  readonly time: number;
  /** A per-second aggregate (reports/metric-aggregates.ts): the samples it stands for, in place of `value`. */
  readonly samples?: readonly WeightedValue[];
  /** ...and its last sample's time (epoch ms), `time` being its first's. */
  readonly until?: number;
}

export interface MergeOptions {
  /** Sub-metrics to track (from the thresholds), registered before any sample arrives. */
  readonly submetrics: readonly SubmetricDef[];
  /** Each `Metric` line as read (the series accumulator learns metric types from them). */
  readonly onMetricLine?: (line: string) => void;
  /** Each point in merged time order, `vus`/`vus_max` as the instances' sum (the series accumulator). */
  readonly onPoint?: (point: MergePoint) => void;
  /** Raw bytes read per file (progress). */
  readonly onBytes?: (fileIndex: number, bytes: number) => void;
}

interface Cursor {
  readonly index: number;
  readonly hash: Hash;
  readonly batches: AsyncGenerator<string[]>;
  lines: string[];
  at: number;
  head: MergePoint | undefined;
  done: boolean;
}

type Parsed =
  | { kind: 'point'; point: MergePoint; fraction: number; aggregate?: AggregateData }
  | { kind: 'metric'; name: string; type: MetricType; contains: MetricContains; thresholds: string[]; submetrics: string[] }
  | { kind: 'blank' }
  | { kind: 'bad' };

/** Digits after the seconds' decimal point of an RFC 3339 time ('…07.687857264Z' → 9), -1 when there are none. */
function fractionDigits(time: string): number {
  const dot = time.lastIndexOf('.');
  if (dot < 0) return -1;
  let end = dot + 1;
  while (end < time.length && time.charCodeAt(end) >= 48 && time.charCodeAt(end) <= 57) end++;
  return end - dot - 1;
}

function parseLine(raw: string): Parsed {
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (line.trim() === '') return { kind: 'blank' };
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return { kind: 'bad' };
  }
  const e = entry as { type?: unknown; metric?: unknown; data?: Record<string, unknown> | null };
  if (typeof e.metric !== 'string' || e.data === null || typeof e.data !== 'object') return { kind: 'bad' };
  if (e.type === 'Point' || e.type === AGGREGATE_TYPE) {
    const { time, value, tags } = e.data as { time?: unknown; value?: unknown; tags?: unknown };
    const at = typeof time === 'string' ? Date.parse(time) : Number.NaN;
    const aggregate = e.type === AGGREGATE_TYPE ? (e.data as AggregateData) : undefined;
    if (!Number.isFinite(at) || (aggregate === undefined && (typeof value !== 'number' || !Number.isFinite(value)))) return { kind: 'bad' };
    // k6 writes tag values as strings; anything else is made one (a hand-written file), without copying the usual case.
    let tagMap: Tags = {};
    if (tags !== null && typeof tags === 'object') {
      tagMap = tags as Tags;
      for (const k in tagMap) if (typeof tagMap[k] !== 'string') tagMap[k] = String(tagMap[k]);
    }
    const pointValue = typeof value === 'number' && Number.isFinite(value) ? value : 0;
    return {
      kind: 'point',
      point: { metric: e.metric, value: pointValue, tags: tagMap, time: at },
      fraction: fractionDigits(time as string),
      ...(aggregate === undefined ? {} : { aggregate }),
    };
  }
  if (e.type === 'Metric') {
    const d = e.data as { name?: unknown; type?: unknown; contains?: unknown; thresholds?: unknown; submetrics?: unknown };
    if (typeof d.type !== 'string' || !METRIC_TYPES.has(d.type)) return { kind: 'bad' };
    const contains = typeof d.contains === 'string' && CONTAINS.has(d.contains) ? (d.contains as MetricContains) : 'default';
    const thresholds = Array.isArray(d.thresholds) ? d.thresholds.filter((t): t is string => typeof t === 'string') : [];
    const submetrics = Array.isArray(d.submetrics)
      ? d.submetrics.map((s: { name?: unknown }) => s?.name).filter((n): n is string => typeof n === 'string')
      : [];
    return {
      kind: 'metric',
      name: typeof d.name === 'string' ? d.name : e.metric,
      type: d.type as MetricType,
      contains,
      thresholds,
      submetrics,
    };
  }
  return { kind: 'bad' };
}

/** A small binary min-heap of cursors by their head point's time (ties: file order), for the k-way merge. */
class CursorHeap {
  private readonly items: Cursor[] = [];
  get size(): number {
    return this.items.length;
  }
  private less(a: Cursor, b: Cursor): boolean {
    const ta = (a.head as MergePoint).time;
    const tb = (b.head as MergePoint).time;
    return ta < tb || (ta === tb && a.index < b.index);
  }
  push(c: Cursor): void {
    const items = this.items;
    items.push(c);
    for (let i = items.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!this.less(items[i] as Cursor, items[parent] as Cursor)) break;
      [items[i], items[parent]] = [items[parent] as Cursor, items[i] as Cursor];
      i = parent;
    }
  }
  pop(): Cursor | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && this.less(items[l] as Cursor, items[m] as Cursor)) m = l;
        if (r < items.length && this.less(items[r] as Cursor, items[m] as Cursor)) m = r;
        if (m === i) break;
        [items[i], items[m]] = [items[m] as Cursor, items[i] as Cursor];
        i = m;
      }
    }
    return top;
  }
}

/** Registers every group of a `group` tag path ('::a::b') and returns it; undefined when the path is not k6's form. */
function groupPath(groups: GroupTree, path: string): string | undefined {
  if (path === '') return '';
  if (!path.startsWith(GROUP_SEPARATOR)) return undefined;
  let at = '';
  for (const name of path.slice(GROUP_SEPARATOR.length).split(GROUP_SEPARATOR)) at = groups.enter(at, name);
  return at;
}

function newFileStats(path: string): FileStats {
  return {
    path,
    lines: 0,
    metricLines: 0,
    points: 0,
    badLines: 0,
    firstTime: Number.POSITIVE_INFINITY,
    lastTime: Number.NEGATIVE_INFINITY,
    instanceIds: new Set(),
    timePrecision: 'none',
    readError: undefined,
    digest: '',
  };
}

/** One merge: the store, the check tree and the declarations it fills, and the cursors it reads the files through. */
class RunMerger {
  readonly store: MetricStore;
  readonly groups = new GroupTree();
  readonly declared: DeclaredThresholds = { thresholds: new Map(), submetrics: new Set() };
  readonly files: FileStats[];
  private readonly definedBy = new Map<string, { type: MetricType; contains: MetricContains; path: string }>();
  /** Per file, the last value of each summed gauge; the store gets their sum at each point's time. */
  private readonly gaugeByFile: Map<string, number>[];
  private readonly gaugeSum = new Map<string, number>();
  firstTime = Number.POSITIVE_INFINITY;
  lastTime = Number.NEGATIVE_INFINITY;

  constructor(
    paths: readonly string[],
    private readonly options: MergeOptions,
  ) {
    this.store = new MetricStore(options.submetrics);
    this.files = paths.map(newFileStats);
    this.gaugeByFile = paths.map(() => new Map<string, number>());
  }

  openCursors(paths: readonly string[]): Cursor[] {
    return paths.map((path, index) => {
      const input = openInput(path);
      const hash = createHash('sha256');
      const batches = lineBatches(
        input.stream,
        (n) => this.options.onBytes?.(index, n),
        (chunk) => hash.update(chunk),
      );
      return { index, hash, batches, lines: [], at: 0, head: undefined, done: false };
    });
  }

  /** A `Metric` line: the metric is defined once (instances that disagree on its type are not one test). */
  define(file: FileStats, p: Extract<Parsed, { kind: 'metric' }>): void {
    const seen = this.definedBy.get(p.name);
    if (seen !== undefined && (seen.type !== p.type || seen.contains !== p.contains)) {
      throw new HarnessError(
        'GH_ERR_PARSE',
        `metric ${p.name} is a ${seen.type} (${seen.contains}) in ${seen.path} but a ${p.type} (${p.contains}) in ${file.path}: the files are not instances of one test`,
      );
    }
    if (seen === undefined) {
      this.definedBy.set(p.name, { type: p.type, contains: p.contains, path: file.path });
      try {
        this.store.define({ name: p.name, type: p.type, contains: p.contains });
      } catch (error) {
        throw new HarnessError('GH_ERR_PARSE', `${file.path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
    }
    if (p.thresholds.length > 0) {
      const set = this.declared.thresholds.get(p.name) ?? new Set<string>();
      for (const t of p.thresholds) set.add(t);
      this.declared.thresholds.set(p.name, set);
    }
    for (const s of p.submetrics) this.declared.submetrics.add(s);
  }

  /** Moves a cursor to its next point within its current batch of lines, handling Metric lines on the way. */
  step(c: Cursor): boolean {
    const file = this.files[c.index] as FileStats;
    while (c.at < c.lines.length) {
      const raw = c.lines[c.at++] as string;
      file.lines++;
      const parsed = parseLine(raw);
      if (parsed.kind === 'blank') continue;
      if (parsed.kind === 'bad') {
        file.badLines++;
      } else if (parsed.kind === 'metric') {
        file.metricLines++;
        this.define(file, parsed);
        this.options.onMetricLine?.(raw);
      } else if (this.store.get(parsed.point.metric) === undefined) {
        file.badLines++;
      } else {
        if (parsed.fraction > 3) file.timePrecision = 'finer';
        else if (file.timePrecision === 'none') file.timePrecision = 'ms';
        const { point, aggregate } = parsed;
        const until = typeof aggregate?.until === 'string' ? Date.parse(aggregate.until) : Number.NaN;
        c.head =
          aggregate === undefined
            ? point
            : {
                ...point,
                samples: aggregateSamples(this.store.typeOf(point.metric), aggregate),
                ...(Number.isFinite(until) ? { until } : {}),
              };
        return true;
      }
    }
    return false;
  }

  /**
   * Moves a cursor to its next point, reading more of its file when the batch is used up; false at its end. A file that
   * fails part way ends there: its points so far stay merged and `readError` says why (the verdict cannot be a pass).
   */
  async advance(c: Cursor): Promise<boolean> {
    const file = this.files[c.index] as FileStats;
    for (;;) {
      if (this.step(c)) return true;
      let next: IteratorResult<string[]>;
      try {
        next = await c.batches.next();
      } catch (error) {
        file.readError = error instanceof Error ? error.message : String(error);
        next = { done: true, value: undefined };
      }
      if (next.done === true) {
        c.done = true;
        c.head = undefined;
        return false;
      }
      c.lines = next.value;
      c.at = 0;
    }
  }

  /** One point in merged time order: the file's and the run's time span, its instance, and the store. */
  take(fileIndex: number, point: MergePoint): void {
    const file = this.files[fileIndex] as FileStats;
    file.points++;
    const last = Math.max(point.time, point.until ?? point.time);
    if (point.time < file.firstTime) file.firstTime = point.time;
    if (last > file.lastTime) file.lastTime = last;
    if (point.time < this.firstTime) this.firstTime = point.time;
    if (last > this.lastTime) this.lastTime = last;
    const instance = point.tags.instance_id;
    if (instance !== undefined && file.instanceIds.size < MAX_INSTANCE_IDS) file.instanceIds.add(instance);
    if (SUMMED_GAUGES.has(point.metric)) this.addSummedGauge(fileIndex, point);
    else this.addPoint(point);
  }

  private addSummedGauge(fileIndex: number, point: MergePoint): void {
    const mine = this.gaugeByFile[fileIndex] as Map<string, number>;
    const total = (this.gaugeSum.get(point.metric) ?? 0) - (mine.get(point.metric) ?? 0) + point.value;
    mine.set(point.metric, point.value);
    this.gaugeSum.set(point.metric, total);
    this.store.add(point.metric, total, {}, point.time);
    this.options.onPoint?.({ metric: point.metric, value: total, tags: {}, time: point.time });
  }

  private addPoint(point: MergePoint): void {
    const samples = point.samples ?? [{ value: point.value, count: 1 }];
    for (const sample of samples) this.store.add(point.metric, sample.value, point.tags, point.time, sample.count);
    this.options.onPoint?.(point);
    if (point.metric !== 'checks' || point.tags.check === undefined) return;
    try {
      const group = groupPath(this.groups, point.tags.group ?? '');
      if (group !== undefined) for (const sample of samples) this.groups.check(group, point.tags.check, sample.value !== 0, sample.count);
    } catch {
      // A name with '::' cannot sit in k6's group tree; the sample still counts in the checks metric.
    }
  }
}

/**
 * Reads every file once, in time order across files, into one store. Throws GH_ERR_PARSE when the instances disagree on
 * a metric's type (they did not run the same script); a file that cannot be read to its end is merged up to there.
 */
export async function mergeRuns(paths: readonly string[], options: MergeOptions): Promise<MergedRun> {
  const merger = new RunMerger(paths, options);
  const cursors = merger.openCursors(paths);
  const heap = new CursorHeap();
  for (const c of cursors) if (await merger.advance(c)) heap.push(c);
  for (let c = heap.pop(); c !== undefined; c = heap.pop()) {
    merger.take(c.index, c.head as MergePoint);
    // Most points are in the batch already read: no await (a promise per point would double the merge's time).
    if (merger.step(c) || (await merger.advance(c))) heap.push(c);
  }
  const empty = !Number.isFinite(merger.firstTime);
  for (const c of cursors) (merger.files[c.index] as FileStats).digest = c.hash.digest('hex');
  const { store, groups, files, declared } = merger;
  return { store, groups, files, firstTime: empty ? 0 : merger.firstTime, lastTime: empty ? 0 : merger.lastTime, declared };
}
