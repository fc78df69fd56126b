// A run's metric stream kept per second instead of per sample: one `Aggregate` line per second × metric × tag set
// (counter sums, rate hits, gauge min/max/last, trend HdrHistograms), so a report directory grows with the run's duration,
// not its request count. The one writer (MetricAggregator, fed k6's NDJSON text from either engine) and the one expansion
// every reader uses (aggregateSamples): counts stay exact, latency percentiles within the histogram's 0.1 %.
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { createGzip, type Gzip } from 'node:zlib';
import type { JsHistogram } from 'hdr-histogram-js';
import { diskFullError, isDiskFull } from '../api/errors.ts';
import { decodeTrendHdr, encodeTrendHdr, newTrendHdr, TREND_SCALE } from '../stats/trend-hdr.ts';

/** The per-second aggregates every load run keeps in its report directory. */
export const AGGREGATES_FILE = 'metrics-per-second.ndjson.gz';
/** The line type beside k6's `Metric` and `Point`. */
export const AGGREGATE_TYPE = 'Aggregate';

const SECOND_MS = 1_000;
/** A cell with at most this many trend samples keeps them as they are (no histogram: exact, and smaller). */
const EXACT_VALUES = 16;
/** Seconds this far behind the newest one are written out (points arrive up to a few seconds late from engine threads). */
const OPEN_SECONDS = 5;

/** One sample value and how many samples had it: what an aggregate line stands for. */
export interface WeightedValue {
  readonly value: number;
  readonly count: number;
}

interface Cell {
  readonly metric: string;
  readonly tags: Record<string, string>;
  /** The first and last sample's time (epoch ms): the run's span stays exact (rates per second are counts over it). */
  first: number;
  lastTime: number;
  count: number;
  sum: number;
  min: number;
  max: number;
  lastValue: number;
  trues: number;
  values: number[] | undefined;
  hist: JsHistogram | undefined;
}

/**
 * The tags a cell is kept under. k6's `url` holds each request's ids (`/sku/5436`, `?skuId=5190`): one cell per request
 * otherwise. Where a `name` tag templates it (`/sku/{skuId}`, k6's way of grouping URLs), `url` becomes the origin with
 * that name, unless a threshold names that very URL (`metric{url:...}`: `namedUrls`, from the run's Metric lines),
 * whose requests keep it, so the aggregates answer that threshold as the raw stream would.
 */
function cellTags(tags: Record<string, string>, namedUrls: ReadonlySet<string>): Record<string, string> {
  const { url, name } = tags;
  if (url === undefined || name === undefined || name === url || namedUrls.has(url)) return tags;
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url)?.[0];
  const { url: _dropped, ...rest } = tags;
  return origin !== undefined && name.startsWith('/') ? { ...rest, url: `${origin}${name}` } : rest;
}

/** The `url` values a Metric line's submetrics name (`http_req_duration{url:http://h/sku/5436}`: a threshold on one URL). */
function submetricUrls(submetrics: unknown): string[] {
  if (!Array.isArray(submetrics)) return [];
  return submetrics.flatMap((s: { tags?: { url?: unknown } } | null) => (typeof s?.tags?.url === 'string' ? [s.tags.url] : []));
}

/** k6's tags as a key: name=value pairs in name order. */
function tagKey(tags: Record<string, string>): string {
  return Object.keys(tags)
    .sort()
    .map((k) => `${k}\u0001${tags[k] ?? ''}`)
    .join('\u0002');
}

/** The `Aggregate` line of a cell (no newline). Counters and gauges carry `value` (sum, last) as a Point would. */
function aggregateLine(type: string, cell: Cell): string {
  const data: Record<string, unknown> = { time: new Date(cell.first).toISOString(), tags: cell.tags, count: cell.count };
  if (cell.lastTime !== cell.first) data.until = new Date(cell.lastTime).toISOString();
  if (type === 'counter') data.value = cell.sum;
  else if (type === 'gauge') Object.assign(data, { value: cell.lastValue, min: cell.min, max: cell.max });
  else if (type === 'rate') data.trues = cell.trues;
  else {
    Object.assign(data, { sum: cell.sum, min: cell.min, max: cell.max });
    if (cell.values !== undefined) data.values = cell.values;
    else if (cell.hist !== undefined) data.hdr = encodeTrendHdr(cell.hist);
  }
  return JSON.stringify({ metric: cell.metric, type: AGGREGATE_TYPE, data });
}

/**
 * Reads k6's NDJSON (`--out json` lines, from k6 or the Node engine) and writes per-second aggregates (gzip). Metric
 * lines pass through once (types, thresholds, submetrics: merge-results needs them); a point for a second already
 * written makes one more line for it (readers add them up, so lateness costs size, never exactness).
 */
export class MetricAggregator {
  private readonly out: WriteStream;
  private readonly gzip: Gzip;
  private readonly types = new Map<string, string>();
  /** URLs a threshold names: their requests keep their `url` (a metric's Metric line comes before its first point). */
  private readonly namedUrls = new Set<string>();
  private readonly seconds = new Map<number, Map<string, Cell>>();
  private newest = Number.NEGATIVE_INFINITY;
  private partial = '';
  private failed: Error | undefined;

  constructor(private readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.out = createWriteStream(path);
    this.gzip = createGzip();
    this.out.on('error', (error) => this.fail(error));
    this.gzip.on('error', (error) => this.fail(error));
    this.gzip.pipe(this.out);
  }

  private fail(error: Error): void {
    this.failed ??= isDiskFull(error) ? diskFullError(this.path, 'the per-second metrics are cut short', error) : error;
  }

  private write(text: string): void {
    if (this.failed === undefined) this.gzip.write(text);
  }

  /** A chunk of NDJSON text, cut anywhere (a pipe's chunk). */
  addText(chunk: string): void {
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.addLine(line);
  }

  /** One k6 JSON line. */
  addLine(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    let entry: {
      type?: unknown;
      metric?: unknown;
      data?: { type?: unknown; time?: unknown; value?: unknown; tags?: unknown; submetrics?: unknown } | null;
    };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      // Not k6 output: the raw stream's readers skip such lines too.
      return;
    }
    const data = entry.data;
    if (typeof entry.metric !== 'string' || data === null || typeof data !== 'object') return;
    if (entry.type === 'Metric') {
      for (const url of submetricUrls(data.submetrics)) this.namedUrls.add(url);
      if (typeof data.type === 'string' && !this.types.has(entry.metric)) {
        this.types.set(entry.metric, data.type);
        this.write(`${line}\n`);
      }
    } else if (entry.type === 'Point') {
      const time = typeof data.time === 'string' ? Date.parse(data.time) : Number.NaN;
      const type = this.types.get(entry.metric);
      if (Number.isFinite(time) && typeof data.value === 'number' && Number.isFinite(data.value) && type !== undefined)
        this.addPoint(entry.metric, type, time, data.value, cellTags((data.tags ?? {}) as Record<string, string>, this.namedUrls));
    }
  }

  private addPoint(metric: string, type: string, time: number, value: number, tags: Record<string, string>): void {
    const second = Math.floor(time / SECOND_MS);
    let cells = this.seconds.get(second);
    if (cells === undefined) this.seconds.set(second, (cells = new Map()));
    const key = `${metric}\u0003${tagKey(tags)}`;
    let cell = cells.get(key);
    if (cell === undefined) {
      cell = {
        metric,
        tags,
        first: time,
        lastTime: time,
        count: 0,
        sum: 0,
        min: value,
        max: value,
        lastValue: value,
        trues: 0,
        values: type === 'trend' ? [] : undefined,
        hist: undefined,
      };
      cells.set(key, cell);
    }
    cell.count += 1;
    cell.sum += value;
    cell.min = Math.min(cell.min, value);
    cell.max = Math.max(cell.max, value);
    cell.lastValue = value;
    cell.first = Math.min(cell.first, time);
    cell.lastTime = Math.max(cell.lastTime, time);
    if (value !== 0) cell.trues += 1;
    if (type === 'trend') this.addTrendValue(cell, value);
    if (second > this.newest) {
      this.newest = second;
      this.flushBefore(second - OPEN_SECONDS);
    }
  }

  private addTrendValue(cell: Cell, value: number): void {
    if (cell.values !== undefined && cell.values.length < EXACT_VALUES) {
      cell.values.push(value);
      return;
    }
    if (cell.hist === undefined) {
      cell.hist = newTrendHdr();
      for (const v of cell.values ?? []) cell.hist.recordValue(Math.round(Math.max(0, v) * TREND_SCALE));
      cell.values = undefined;
    }
    cell.hist.recordValue(Math.round(Math.max(0, value) * TREND_SCALE));
  }

  /** Writes (and forgets) every second before `limit`, in time order. */
  private flushBefore(limit: number): void {
    const due = [...this.seconds.keys()].filter((s) => s < limit).sort((a, b) => a - b);
    for (const second of due) {
      const cells = this.seconds.get(second) as Map<string, Cell>;
      let text = '';
      for (const cell of cells.values()) text += `${aggregateLine(this.types.get(cell.metric) ?? 'counter', cell)}\n`;
      this.write(text);
      this.seconds.delete(second);
    }
  }

  /** Writes what is left and closes the file; rejects with the first write error (a full disk). */
  close(): Promise<void> {
    if (this.partial !== '') this.addLine(this.partial);
    this.partial = '';
    this.flushBefore(Number.POSITIVE_INFINITY);
    if (this.failed !== undefined) {
      this.out.destroy();
      return Promise.reject(this.failed);
    }
    return new Promise((resolveClose, reject) => {
      this.out.once('finish', () => (this.failed === undefined ? resolveClose() : reject(this.failed)));
      this.out.once('error', () => reject(this.failed));
      this.gzip.end();
    });
  }
}

/** The data of an `Aggregate` line as read back (the fields aggregateLine writes). */
export interface AggregateData {
  /** The cell's last sample's time (ISO), when it is not its first's (`time`). */
  readonly until?: unknown;
  readonly count?: unknown;
  readonly value?: unknown;
  readonly trues?: unknown;
  readonly min?: unknown;
  readonly max?: unknown;
  readonly values?: unknown;
  readonly hdr?: unknown;
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** A trend cell's samples: the kept values, or the histogram's buckets with the exact min and max given back. */
function trendSamples(data: AggregateData): WeightedValue[] {
  if (Array.isArray(data.values))
    return data.values.filter((v): v is number => typeof v === 'number').map((value) => ({ value, count: 1 }));
  if (typeof data.hdr !== 'string') return [];
  const hist = decodeTrendHdr(data.hdr);
  const min = num(data.min);
  const max = num(data.max);
  // The extremes are known exactly: one sample each is taken out of its bucket and given back as itself.
  hist.recordValueWithCount(Math.round(Math.max(0, min) * TREND_SCALE), -1);
  hist.recordValueWithCount(Math.round(Math.max(0, max) * TREND_SCALE), -1);
  const out: WeightedValue[] = [{ value: min, count: 1 }];
  const it = hist.recordedValuesIterator;
  it.reset();
  while (it.hasNext()) {
    const step = it.next();
    if (step.countAtValueIteratedTo > 0)
      out.push({ value: hist.medianEquivalentValue(step.valueIteratedTo) / TREND_SCALE, count: step.countAtValueIteratedTo });
  }
  out.push({ value: max, count: 1 });
  return out;
}

/**
 * The samples an `Aggregate` line of a metric of this type stands for, as weighted values: a counter's sum (one value),
 * a rate's hits and misses (1 and 0), a gauge's min, max and last, a trend's values or histogram buckets.
 */
export function aggregateSamples(type: string | undefined, data: AggregateData): WeightedValue[] {
  const count = num(data.count);
  switch (type) {
    case 'rate': {
      const trues = num(data.trues);
      return [...(trues > 0 ? [{ value: 1, count: trues }] : []), ...(count - trues > 0 ? [{ value: 0, count: count - trues }] : [])];
    }
    case 'gauge':
      return [num(data.min), num(data.max), num(data.value)].map((value) => ({ value, count: 1 }));
    case 'trend':
      return trendSamples(data);
    default:
      return [{ value: num(data.value), count: 1 }];
  }
}
