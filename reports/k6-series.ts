// Time series from k6's NDJSON metric stream (`k6 run --out json=FILE[.gz]`; the Node engine writes the same lines):
// per-bucket request counts, failures, VUs, per-operation latency percentiles (HdrHistogram) and outcome counts.
// Streaming and constant in memory: k6 keeps every sample, this keeps a few open histograms and numbers per bucket.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import hdr from 'hdr-histogram-js';
import { HarnessError } from '../api/errors.ts';
import { AGGREGATE_TYPE, aggregateSamples, type AggregateData } from './metric-aggregates.ts';
import type { LatencySeries, LoadSeries } from './model.ts';

/** Operation labels that are not catalog ids. */
export const ALL_OPERATIONS = '(all)';
export const OTHER_OPERATIONS = '(other)';
export const UNTAGGED = '(untagged)';

/** The metrics the series read (k6 built-ins); any counter point tagged `outcome` is read as well. */
const DURATION_METRIC = 'http_req_duration';
const REQUESTS_METRIC = 'http_reqs';
const FAILED_METRIC = 'http_req_failed';
const VUS_METRIC = 'vus';
const READ_METRICS: ReadonlySet<string> = new Set([DURATION_METRIC, REQUESTS_METRIC, FAILED_METRIC, VUS_METRIC]);

/** Nice bucket widths: a chart of ~100-200 points whatever the run length. */
const INTERVAL_STEPS_MS: readonly number[] = [
  100, 200, 250, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000,
];
const TARGET_BUCKETS = 150;
/** Per-second aggregates' lines and their width: their charts' buckets are at least a second. */
const AGGREGATE_MARK = `"type":"${AGGREGATE_TYPE}"`;
const AGGREGATE_SECOND_MS = 1_000;

/** The bucket width for a run of this length: the smallest step giving at most ~150 buckets (100 ms at least). */
export function chooseIntervalMs(durationMs: number, targetBuckets = TARGET_BUCKETS): number {
  const raw = Math.max(0, durationMs) / Math.max(1, targetBuckets);
  return INTERVAL_STEPS_MS.find((step) => step >= raw) ?? Math.ceil(raw / 3_600_000) * 3_600_000;
}

export interface SeriesOptions {
  /** Bucket width; default chosen from the stream's time range (chooseIntervalMs). */
  readonly intervalMs?: number;
  /**
   * Start of bucket 0 (epoch ms); default: the first point's time, floored to the interval, moved earlier for a point
   * that comes later but is older by no more than the late window (several engine workers write out of time order).
   */
  readonly startTime?: number;
  /** Per-operation series kept; later operations share one '(other)' series. Default 60 (the catalog has 48). */
  readonly maxOperations?: number;
  /** Points may arrive this late (k6 writes samples about every second); older buckets' histograms close. Default 2000. */
  readonly lateMs?: number;
  /** Hard cap on buckets; points past it are dropped and counted. Default 5000. */
  readonly maxBuckets?: number;
}

type Histogram = ReturnType<typeof hdr.build>;

/**
 * Latency in microseconds (k6 reports float ms), 2 significant digits (≤ 1% error, plenty for a chart): an Int32
 * histogram of ~11 KB, sized for 60 s and resized for slower samples. The 'packed' kind is smaller but ~200x slower
 * to read percentiles from, and 3 digits would take ~70 KB per open histogram.
 */
const HIST_SETTINGS = Object.freeze({
  bitBucketSize: 32 as const,
  lowestDiscernibleValue: 1,
  highestTrackableValue: 60_000_000,
  numberOfSignificantValueDigits: 2 as const,
  autoResize: true,
});
/** Recorded values are clamped here (1 h): a stuck request must not grow a histogram without end. */
const MAX_MICROS = 3_600_000_000;
/** At most this many buckets keep open histograms, whatever the late window asks for: the memory bound. */
const MAX_OPEN_BUCKETS = 16;
const PERCENTILES = [50, 90, 95, 99] as const;

/** p50, p90, p95, p99 and max in ms of a histogram of microseconds. */
function statsOf(hist: Histogram): [number, number, number, number, number] {
  const ms = (micros: number): number => Math.round(micros) / 1000;
  const max = ms(hist.maxValue);
  // Percentiles come back as the top of their HdrHistogram bucket; never show one above the largest sample.
  const [p50, p90, p95, p99] = PERCENTILES.map((p) => Math.min(max, ms(hist.getValueAtPercentile(p))));
  return [p50 as number, p90 as number, p95 as number, p99 as number, max];
}

interface LatencyCell {
  count: number;
  hist: Histogram | undefined;
  /** p50, p90, p95, p99, max in ms once the bucket closed. */
  stats: [number, number, number, number, number] | undefined;
}

interface Bucket {
  requests: number;
  failed: number;
  vus: number | null;
  overall: LatencyCell;
  ops: Map<string, LatencyCell>;
  outcomes: Map<string, number>;
  closed: boolean;
}

function newCell(): LatencyCell {
  return { count: 0, hist: undefined, stats: undefined };
}

function newBucket(): Bucket {
  return { requests: 0, failed: 0, vus: null, overall: newCell(), ops: new Map(), outcomes: new Map(), closed: false };
}

const KEY_SEP = '\u0000';

/**
 * Buckets points as they come. Feed it lines (`addLine`) or parsed points (`addPoint`, e.g. live from the engine),
 * then `finish()`. Histograms exist only for the open buckets and are reused, so memory does not grow with samples.
 */
export class SeriesAccumulator {
  private readonly intervalMs: number;
  private startTime: number | undefined;
  /** The start was taken from the first point (not given): an older point within the late window may move it. */
  private readonly startFromPoints: boolean;
  private readonly maxOperations: number;
  private readonly lateBuckets: number;
  private readonly maxBuckets: number;
  private readonly buckets: Bucket[] = [];
  private readonly metricTypes = new Map<string, string>();
  private readonly operations = new Set<string>();
  private readonly outcomeKeys = new Set<string>();
  private readonly pool: Histogram[] = [];
  private highest = -1;
  private closedUpTo = -1;
  private lines = 0;
  private points = 0;
  private badLines = 0;
  private latePoints = 0;
  private droppedPoints = 0;
  private allocated = 0;

  constructor(options: SeriesOptions & { readonly intervalMs: number }) {
    if (!Number.isFinite(options.intervalMs) || options.intervalMs < 1)
      throw new RangeError(`intervalMs must be >= 1, got ${options.intervalMs}`);
    this.intervalMs = Math.round(options.intervalMs);
    this.startTime = options.startTime === undefined ? undefined : Math.floor(options.startTime / this.intervalMs) * this.intervalMs;
    this.startFromPoints = options.startTime === undefined;
    this.maxOperations = options.maxOperations ?? 60;
    this.lateBuckets = Math.min(MAX_OPEN_BUCKETS - 1, Math.max(1, Math.ceil((options.lateMs ?? 2_000) / this.intervalMs)));
    this.maxBuckets = options.maxBuckets ?? 5_000;
  }

  /** One line of k6 JSON output. Lines of metrics the series do not use are skipped before parsing. */
  addLine(line: string): void {
    this.lines += 1;
    if (line.length === 0) return;
    const isMetricLine = line.includes('"type":"Metric"');
    if (!isMetricLine && !line.includes('"outcome"')) {
      const name = metricNameOf(line);
      if (name === undefined) {
        this.badLines += 1;
        return;
      }
      if (!READ_METRICS.has(name)) return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.badLines += 1;
      return;
    }
    const entry = parsed as {
      type?: unknown;
      metric?: unknown;
      data?: { type?: unknown; time?: unknown; value?: unknown; tags?: unknown };
    };
    if (typeof entry.metric !== 'string' || entry.data === null || typeof entry.data !== 'object') {
      this.badLines += 1;
      return;
    }
    if (entry.type === 'Metric') {
      if (typeof entry.data.type === 'string') this.metricTypes.set(entry.metric, entry.data.type);
      return;
    }
    const aggregate = entry.type === AGGREGATE_TYPE;
    if (entry.type !== 'Point' && !aggregate) return;
    const time = typeof entry.data.time === 'string' ? Date.parse(entry.data.time) : Number.NaN;
    const value = entry.data.value;
    if (!Number.isFinite(time) || (!aggregate && (typeof value !== 'number' || !Number.isFinite(value)))) {
      this.badLines += 1;
      return;
    }
    const tags = entry.data.tags !== null && typeof entry.data.tags === 'object' ? (entry.data.tags as Record<string, unknown>) : {};
    if (!aggregate) this.addPoint(entry.metric, time, value as number, tags);
    // A second of the run's per-second aggregates (reports/metric-aggregates.ts): the samples it stands for, weighted.
    else
      for (const sample of aggregateSamples(this.metricTypes.get(entry.metric), entry.data as AggregateData))
        this.addPoint(entry.metric, time, sample.value, tags, sample.count);
  }

  /** One sample (or `count` samples of one value): metric name, epoch ms, value (ms for durations), its tags. */
  addPoint(metric: string, timeMs: number, value: number, tags: Readonly<Record<string, unknown>>, count = 1): void {
    const outcome = typeof tags.outcome === 'string' ? tags.outcome : undefined;
    const isOutcome = outcome !== undefined && (this.metricTypes.get(metric) ?? 'counter') === 'counter';
    if (!READ_METRICS.has(metric) && !isOutcome) return;
    this.points += 1;
    if (this.startTime === undefined) this.startTime = Math.floor(timeMs / this.intervalMs) * this.intervalMs;
    let index = Math.floor((timeMs - this.startTime) / this.intervalMs);
    if (index < 0) index = this.startEarlier(index);
    if (index < 0 || index >= this.maxBuckets) {
      this.droppedPoints += 1;
      return;
    }
    const bucket = this.bucketAt(index);
    if (isOutcome) {
      const key = `${metric}${KEY_SEP}${outcome}`;
      this.outcomeKeys.add(key);
      bucket.outcomes.set(key, (bucket.outcomes.get(key) ?? 0) + value);
      return;
    }
    switch (metric) {
      case REQUESTS_METRIC:
        bucket.requests += value;
        return;
      case FAILED_METRIC:
        if (value !== 0) bucket.failed += count;
        return;
      case VUS_METRIC:
        bucket.vus = bucket.vus === null ? value : Math.max(bucket.vus, value);
        return;
      case DURATION_METRIC:
        this.recordLatency(bucket, this.operationOf(tags), value, count);
        return;
    }
  }

  private operationOf(tags: Readonly<Record<string, unknown>>): string {
    const op = typeof tags.operation === 'string' && tags.operation !== '' ? tags.operation : UNTAGGED;
    if (this.operations.has(op)) return op;
    if (this.operations.size >= this.maxOperations) {
      this.operations.add(OTHER_OPERATIONS);
      return OTHER_OPERATIONS;
    }
    this.operations.add(op);
    return op;
  }

  private recordLatency(bucket: Bucket, op: string, valueMs: number, count: number): void {
    let cell = bucket.ops.get(op);
    if (cell === undefined) bucket.ops.set(op, (cell = newCell()));
    const micros = Math.min(MAX_MICROS, Math.max(1, Math.round(valueMs * 1000)));
    for (const target of [bucket.overall, cell]) {
      target.count += count;
      if (bucket.closed) continue;
      target.hist ??= this.pool.pop() ?? this.newHistogram();
      target.hist.recordValueWithCount(micros, count);
    }
    if (bucket.closed) this.latePoints += count;
  }

  private newHistogram(): Histogram {
    this.allocated += 1;
    return hdr.build(HIST_SETTINGS);
  }

  /** Histograms ever created: bounded by open buckets × operations, whatever the number of samples (the memory bound). */
  get histogramsAllocated(): number {
    return this.allocated;
  }

  /**
   * A point before bucket 0 when the start came from the first point: bucket 0 moves back to it if it is no older than
   * the late window allows from the newest bucket (no bucket has closed then). Returns the point's index, or the
   * negative one it had when it is older (dropped and counted, as before).
   */
  private startEarlier(index: number): number {
    const shift = -index;
    if (
      !this.startFromPoints ||
      this.startTime === undefined ||
      this.highest + shift > this.lateBuckets ||
      this.buckets.length + shift > this.maxBuckets
    )
      return index;
    this.startTime -= shift * this.intervalMs;
    this.buckets.unshift(...Array.from({ length: shift }, newBucket));
    this.highest += shift;
    return 0;
  }

  private bucketAt(index: number): Bucket {
    while (this.buckets.length <= index) this.buckets.push(newBucket());
    const bucket = this.buckets[index] as Bucket;
    if (index > this.highest) {
      this.highest = index;
      this.closeUpTo(index - this.lateBuckets - 1);
    }
    return bucket;
  }

  /** Turns the histograms of buckets up to `last` into numbers and returns them to the pool. */
  private closeUpTo(last: number): void {
    for (let i = this.closedUpTo + 1; i <= last && i < this.buckets.length; i++) {
      const bucket = this.buckets[i] as Bucket;
      this.closeCell(bucket.overall);
      for (const cell of bucket.ops.values()) this.closeCell(cell);
      bucket.closed = true;
      this.closedUpTo = i;
    }
  }

  private closeCell(cell: LatencyCell): void {
    const hist = cell.hist;
    if (hist === undefined) return;
    cell.stats = statsOf(hist);
    hist.reset();
    this.pool.push(hist);
    cell.hist = undefined;
  }

  /** Closes every bucket and returns the series (arrays of one value per bucket). */
  finish(): LoadSeries {
    this.closeUpTo(this.buckets.length - 1);
    return this.snapshot();
  }

  /** The series so far, open buckets read without closing them (the live dashboard asks while points still come). */
  snapshot(): LoadSeries {
    const n = this.buckets.length;
    const latency = (pick: (b: Bucket) => LatencyCell | undefined, operation: string): LatencySeries => {
      const series: LatencySeries = { operation, count: [], p50: [], p90: [], p95: [], p99: [], max: [] };
      for (const bucket of this.buckets) {
        const cell = pick(bucket);
        const stats = cell?.stats ?? (cell?.hist === undefined ? undefined : statsOf(cell.hist));
        series.count.push(cell?.count ?? 0);
        series.p50.push(stats?.[0] ?? null);
        series.p90.push(stats?.[1] ?? null);
        series.p95.push(stats?.[2] ?? null);
        series.p99.push(stats?.[3] ?? null);
        series.max.push(stats?.[4] ?? null);
      }
      return series;
    };
    const totals = (op: string): number => this.buckets.reduce((sum, b) => sum + (b.ops.get(op)?.count ?? 0), 0);
    const operations = [...this.operations].sort((a, b) => totals(b) - totals(a) || a.localeCompare(b));
    return {
      intervalMs: this.intervalMs,
      startTime: this.startTime ?? 0,
      buckets: n,
      requests: this.buckets.map((b) => b.requests),
      failedRequests: this.buckets.map((b) => b.failed),
      vus: this.buckets.map((b) => b.vus),
      latency: {
        overall: latency((b) => b.overall, ALL_OPERATIONS),
        operations: operations.map((op) => latency((b) => b.ops.get(op), op)),
      },
      outcomes: [...this.outcomeKeys].sort().map((key) => {
        const [metric = '', outcome = ''] = key.split(KEY_SEP);
        return { metric, outcome, counts: this.buckets.map((b) => b.outcomes.get(key) ?? 0) };
      }),
      source: {
        lines: this.lines,
        points: this.points,
        badLines: this.badLines,
        latePoints: this.latePoints,
        droppedPoints: this.droppedPoints,
      },
    };
  }
}

/** The metric name of a k6 JSON line without parsing it (`"metric":"name"`), or undefined when it has none. */
function metricNameOf(line: string): string | undefined {
  const at = line.indexOf('"metric":"');
  if (at < 0) return undefined;
  const start = at + 10;
  const end = line.indexOf('"', start);
  return end < 0 ? undefined : line.slice(start, end);
}

async function isGzip(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/** The lines of an NDJSON metric stream (plain or gzip). */
export async function lineStream(path: string): Promise<AsyncIterable<string>> {
  let gzip: boolean;
  try {
    gzip = await isGzip(path);
  } catch (error) {
    throw new HarnessError(
      'GH_ERR_CONFIG',
      `cannot read the k6 metric stream ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      { cause: error },
    );
  }
  const file = createReadStream(path);
  const input: Readable = gzip ? file.pipe(createGunzip()) : file;
  if (gzip) file.on('error', (error) => input.destroy(error));
  return createInterface({ input, crlfDelay: Infinity });
}

/**
 * First and last point time of a stream (a cheap pass that parses only the time field), and whether it holds per-second
 * aggregates (reports/metric-aggregates.ts: buckets narrower than a second would show them as spikes).
 */
export async function scanTimeRange(
  path: string,
): Promise<{ readonly first: number; readonly last: number; readonly perSecond: boolean } | undefined> {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  let perSecond = false;
  for await (const line of await lineStream(path)) {
    if (!perSecond && line.includes(AGGREGATE_MARK)) perSecond = true;
    const at = line.indexOf('"time":"');
    if (at < 0) continue;
    const end = line.indexOf('"', at + 8);
    const t = Date.parse(line.slice(at + 8, end));
    if (!Number.isFinite(t)) continue;
    if (t < first) first = t;
    if (t > last) last = t;
  }
  return Number.isFinite(first) ? { first, last, perSecond } : undefined;
}

/** The bucket width for a stream's time range (a second at least for per-second aggregates). */
export function seriesIntervalMs(
  range: { readonly first: number; readonly last: number; readonly perSecond: boolean } | undefined,
): number {
  return Math.max(
    range?.perSecond === true ? AGGREGATE_SECOND_MS : 0,
    chooseIntervalMs(range === undefined ? 0 : range.last - range.first),
  );
}

/**
 * Reads a k6 NDJSON file (plain or gzip) into series. Without `intervalMs`, a first cheap pass finds the time range so
 * the bucket width fits the run; a gzip or corrupt stream fails with GH_ERR_PARSE, a missing file with GH_ERR_CONFIG.
 */
export async function readK6Series(path: string, options: SeriesOptions = {}): Promise<LoadSeries> {
  try {
    let { intervalMs, startTime } = options;
    if (intervalMs === undefined || startTime === undefined) {
      const range = await scanTimeRange(path);
      intervalMs ??= seriesIntervalMs(range);
      if (range !== undefined) startTime ??= range.first;
    }
    const accumulator = new SeriesAccumulator({ ...options, intervalMs, ...(startTime === undefined ? {} : { startTime }) });
    for await (const line of await lineStream(path)) accumulator.addLine(line);
    return accumulator.finish();
  } catch (error) {
    if (error instanceof HarnessError) throw error;
    throw new HarnessError(
      'GH_ERR_PARSE',
      `cannot read the k6 metric stream ${path}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}
