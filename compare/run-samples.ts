// Reads one run for a comparison: its report dir's NDJSON (one file, or a distributed run's instance files) through
// merge-results' streaming k-way reader, kept per operation as histograms and counts in time batches: constant memory.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HarnessError, parseJsonFile } from '../api/errors.ts';
import { mergeRuns, type MergePoint } from '../distributed/merge/merge-run.ts';
import { METRICS } from '../load/metric-names.ts';
import { AGGREGATES_FILE } from '../reports/metric-aggregates.ts';
import { SparseHistogram, type SparseHistogramData } from '../stats/histogram.ts';

/** The key of every request together. */
export const ALL_OPERATIONS = '(all)';
/**
 * Time batches start this wide and double (pairs merged) whenever a run would need more than MAX_BATCHES. A whole
 * second, and batch 0 starts on a whole second: a run's per-second aggregates (reports/metric-aggregates.ts) and its raw
 * NDJSON put every sample in the same batch.
 */
const FIRST_BATCH_MS = 1_000;
const MAX_BATCHES = 64;
/** setup() and teardown() run once, cold, outside the load: their requests are not the load's latency. */
const NOT_LOAD_GROUPS: ReadonlySet<string> = new Set(['::setup', '::teardown']);

/** Per time batch: samples and hits (failed, violated). */
export interface RateCell {
  n: number;
  hits: number;
}

/** One operation (or all of them) in one run. */
export class OperationSamples {
  latencyBatches: SparseHistogram[] = [];
  timeToFinalBatches: SparseHistogram[] = [];
  business: RateCell[] = [];
  http: RateCell[] = [];
  schema: RateCell[] = [];
  requests = 0;

  constructor(
    readonly latency = new SparseHistogram(0.001),
    readonly timeToFinal = new SparseHistogram(0.001),
  ) {}

  /** Plain data to cross a thread boundary (run-samples-thread.ts); `fromData` rebuilds it exactly. */
  toData(): OperationSamplesData {
    return {
      latency: this.latency.toData(),
      timeToFinal: this.timeToFinal.toData(),
      latencyBatches: this.latencyBatches.map((h) => h.toData()),
      timeToFinalBatches: this.timeToFinalBatches.map((h) => h.toData()),
      business: this.business,
      http: this.http,
      schema: this.schema,
      requests: this.requests,
    };
  }

  static fromData(data: OperationSamplesData): OperationSamples {
    const samples = new OperationSamples(SparseHistogram.fromData(data.latency), SparseHistogram.fromData(data.timeToFinal));
    samples.latencyBatches = data.latencyBatches.map((h) => SparseHistogram.fromData(h));
    samples.timeToFinalBatches = data.timeToFinalBatches.map((h) => SparseHistogram.fromData(h));
    samples.business = [...data.business];
    samples.http = [...data.http];
    samples.schema = [...data.schema];
    samples.requests = data.requests;
    return samples;
  }

  static cell(cells: RateCell[], index: number): RateCell {
    while (cells.length <= index) cells.push({ n: 0, hits: 0 });
    return cells[index] as RateCell;
  }

  static histogram(batches: SparseHistogram[], index: number): SparseHistogram {
    while (batches.length <= index) batches.push(new SparseHistogram(0.01));
    return batches[index] as SparseHistogram;
  }

  /** Opens `count` empty batches before the first (a point earlier than every point read so far). */
  prepend(count: number): void {
    const empty = <T>(make: () => T): T[] => Array.from({ length: count }, make);
    this.latencyBatches = [...empty(() => new SparseHistogram(0.01)), ...this.latencyBatches];
    this.timeToFinalBatches = [...empty(() => new SparseHistogram(0.01)), ...this.timeToFinalBatches];
    this.business = [...empty(() => ({ n: 0, hits: 0 })), ...this.business];
    this.http = [...empty(() => ({ n: 0, hits: 0 })), ...this.http];
    this.schema = [...empty(() => ({ n: 0, hits: 0 })), ...this.schema];
  }

  /** Halves the number of batches: batch i becomes batches 2i and 2i+1 together. */
  halve(): void {
    const pairs = <T>(items: T[], join2: (a: T, b: T | undefined) => T): T[] => {
      const out: T[] = [];
      for (let i = 0; i < items.length; i += 2) out.push(join2(items[i] as T, items[i + 1]));
      return out;
    };
    const cells = (a: RateCell, b: RateCell | undefined): RateCell => ({ n: a.n + (b?.n ?? 0), hits: a.hits + (b?.hits ?? 0) });
    const hists = (a: SparseHistogram, b: SparseHistogram | undefined): SparseHistogram => {
      if (b !== undefined) a.merge(b);
      return a;
    };
    this.latencyBatches = pairs(this.latencyBatches, hists);
    this.timeToFinalBatches = pairs(this.timeToFinalBatches, hists);
    this.business = pairs(this.business, cells);
    this.http = pairs(this.http, cells);
    this.schema = pairs(this.schema, cells);
  }
}

export interface OperationSamplesData {
  readonly latency: SparseHistogramData;
  readonly timeToFinal: SparseHistogramData;
  readonly latencyBatches: readonly SparseHistogramData[];
  readonly timeToFinalBatches: readonly SparseHistogramData[];
  readonly business: readonly RateCell[];
  readonly http: readonly RateCell[];
  readonly schema: readonly RateCell[];
  readonly requests: number;
}

/** A run's samples as plain data (the reading thread's answer). */
export interface RunSamplesData extends Omit<RunSamples, 'operations'> {
  readonly operations: ReadonlyArray<readonly [string, OperationSamplesData]>;
}

export const toRunSamplesData = (run: RunSamples): RunSamplesData => ({
  ...run,
  operations: [...run.operations].map(([name, samples]) => [name, samples.toData()]),
});

export const fromRunSamplesData = (data: RunSamplesData): RunSamples => ({
  ...data,
  operations: new Map(data.operations.map(([name, samples]) => [name, OperationSamples.fromData(samples)])),
});

export interface RunSamples {
  readonly dir: string;
  readonly runId: string | undefined;
  readonly engine: string;
  readonly scenario: string | undefined;
  readonly profile: string | undefined;
  readonly files: readonly string[];
  /** The target its summary.json names. */
  readonly target: string | undefined;
  readonly durationMs: number;
  readonly batchMs: number;
  readonly operations: ReadonlyMap<string, OperationSamples>;
  /** Lines that were not k6 output (reported, not fatal, as in merge-results). */
  readonly badLines: number;
}

/** What a report dir's summary.json says about its run; a command that compares its own run (not yet written) passes it. */
export interface ReportFacts {
  runId?: string;
  engine?: string;
  scenario?: string;
  profile?: string;
  metricsNdjson?: string;
  target?: string;
}

/** What the run's own summary.json says (engine, scenario, where its NDJSON is); nothing when there is none. */
function readReportFacts(dir: string): ReportFacts {
  const file = join(dir, 'summary.json');
  if (!existsSync(file)) return {};
  const json = parseJsonFile(readFileSync(file, 'utf8'), file) as {
    runId?: unknown;
    target?: { url?: unknown };
    load?: { engine?: unknown; scenario?: unknown; profile?: unknown };
    artifacts?: { metricsNdjson?: unknown; metricsPerSecond?: unknown };
  };
  const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
  const facts: ReportFacts = {};
  const set = <K extends keyof ReportFacts>(key: K, value: string | undefined): void => {
    if (value !== undefined) facts[key] = value;
  };
  set('runId', text(json.runId));
  set('engine', text(json.load?.engine));
  set('scenario', text(json.load?.scenario));
  set('profile', text(json.load?.profile));
  // The run's per-second aggregates when it kept them (every run since they exist), else its raw NDJSON (older runs).
  set('metricsNdjson', text(json.artifacts?.metricsPerSecond) ?? text(json.artifacts?.metricsNdjson));
  set('target', text(json.target?.url));
  return facts;
}

/**
 * The NDJSON files of a run: the one its summary.json names (`artifacts.metricsNdjson`), else every `*.ndjson` /
 * `*.ndjson.gz` in the directory (a distributed run's instance files beside merge-results' reports).
 */
export function runFiles(dir: string, facts: ReportFacts = readReportFacts(dir)): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new HarnessError('GH_ERR_USAGE', `${dir} is not a report directory`);
  if (facts.metricsNdjson !== undefined) {
    const named = resolve(dir, facts.metricsNdjson);
    if (existsSync(named)) return [named];
  }
  // A load run's own per-second aggregates stand for its whole stream (a raw copy beside them would count twice).
  if (existsSync(join(dir, AGGREGATES_FILE))) return [join(dir, AGGREGATES_FILE)];
  const found = readdirSync(dir)
    .filter((f) => /\.ndjson(\.gz)?$/.test(f))
    .sort()
    .map((f) => join(dir, f));
  if (found.length === 0)
    throw new HarnessError(
      'GH_ERR_USAGE',
      `${dir} holds no metrics NDJSON (metrics.ndjson.gz, or a distributed run's *.ndjson.gz): run the load with its default --out`,
    );
  return found;
}

/**
 * Reads a run's samples in one streaming pass. `known`: the facts and NDJSON files of a run whose summary.json is not
 * written yet (load and gate compare their own run before writing its reports).
 */
export async function readRunSamples(dirArg: string, known?: ReportFacts & { readonly files?: readonly string[] }): Promise<RunSamples> {
  const dir = resolve(dirArg);
  const facts = known ?? readReportFacts(dir);
  const files = known?.files !== undefined && known.files.length > 0 ? [...known.files] : runFiles(dir, facts);
  const operations = new Map<string, OperationSamples>();
  let start: number | undefined;
  let latest: number | undefined;
  let batchMs = FIRST_BATCH_MS;
  const samplesOf = (operation: string): OperationSamples => {
    let found = operations.get(operation);
    if (found === undefined) {
      found = new OperationSamples();
      operations.set(operation, found);
    }
    return found;
  };
  const onPoint = (point: MergePoint): void => {
    const operation = point.tags.operation;
    if (operation === undefined || NOT_LOAD_GROUPS.has(point.tags.group ?? '')) return;
    start ??= Math.floor(point.time / FIRST_BATCH_MS) * FIRST_BATCH_MS;
    latest = Math.max(latest ?? point.time, point.time);
    let index = Math.floor((point.time - start) / batchMs);
    if (index < 0) {
      // A file need not be in time order (an engine's worker threads flush their points in batches, one after
      // another): a point earlier than the first opens batches before it, so every point keeps its own time batch.
      for (const samples of operations.values()) samples.prepend(-index);
      start += index * batchMs;
      index = 0;
    }
    while (Math.floor((latest - start) / batchMs) >= MAX_BATCHES) {
      for (const samples of operations.values()) samples.halve();
      batchMs *= 2;
      index = Math.floor((point.time - start) / batchMs);
    }
    // A per-second aggregate stands for several samples (reports/metric-aggregates.ts); a raw point for one.
    for (const { value, count } of point.samples ?? [{ value: point.value, count: 1 }]) {
      for (const samples of [samplesOf(operation), samplesOf(ALL_OPERATIONS)]) addSample(samples, point.metric, index, value, count);
    }
  };
  const merged = await mergeRuns(files, { submetrics: [], onPoint });
  const precision = merged.files.every((f) => f.timePrecision !== 'finer') ? 'node' : 'k6';
  return {
    dir,
    runId: facts.runId,
    // A report dir without summary.json still says which engine wrote it: the Node engine writes ms timestamps.
    engine: facts.engine ?? `${precision} (from the timestamps' precision)`,
    scenario: facts.scenario,
    profile: facts.profile,
    files,
    target: facts.target,
    durationMs: Math.max(0, merged.lastTime - merged.firstTime),
    batchMs,
    operations,
    badLines: merged.files.reduce((sum, f) => sum + f.badLines, 0),
  };
}

/** `count` samples of one value of a metric into an operation's samples, in time batch `index`. */
function addSample(samples: OperationSamples, metric: string, index: number, value: number, count: number): void {
  switch (metric) {
    case 'http_req_duration':
      samples.latency.add(value, count);
      OperationSamples.histogram(samples.latencyBatches, index).add(value, count);
      break;
    case 'http_reqs':
      samples.requests += value * count;
      break;
    case 'http_req_failed':
      addRate(samples.http, index, value, count);
      break;
    case METRICS.failed:
      addRate(samples.business, index, value, count);
      break;
    case METRICS.outcomes:
      OperationSamples.cell(samples.schema, index).n += value * count;
      break;
    case METRICS.schemaViolations:
      OperationSamples.cell(samples.schema, index).hits += value * count;
      break;
    case METRICS.timeToFinal:
      samples.timeToFinal.add(value, count);
      OperationSamples.histogram(samples.timeToFinalBatches, index).add(value, count);
      break;
    default:
      break;
  }
}

function addRate(cells: RateCell[], index: number, value: number, count: number): void {
  const cell = OperationSamples.cell(cells, index);
  cell.n += count;
  if (value !== 0) cell.hits += count;
}
