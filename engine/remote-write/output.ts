// The engine's `experimental-prometheus-rw` output: reads the run's metric points, keeps k6's series aggregates and
// pushes the series that changed every push interval (and once at the end), like k6. A push that fails is counted and
// logged, never fatal: the run goes on and its report says how many pushes were lost.
import { request } from 'undici';
import type { MetricDef, Tags } from '../metrics/store.ts';
import { displayUrl, RW_DEFAULTS, type RemoteWriteConfig } from './config.ts';
import { RemoteWriteSeries } from './series.ts';
import { writeRequestBody, type PromTimeSeries } from './wire.ts';

export interface RemoteWriteStats {
  /** The endpoint without credentials or query. */
  readonly url: string;
  readonly trends: 'stats' | 'native-histogram';
  readonly pushes: number;
  readonly failedPushes: number;
  /** Prometheus series written (names × label sets). */
  readonly series: number;
  readonly lastError?: string;
}

/** The fixed parts of the engine's point lines: {"metric":"M","type":"Point","data":{"time":"T","value":V,"tags":{…}}}. */
const METRIC_OPEN = '{"metric":"';
const POINT_TYPE = ',"type":"Point","data":{';
const TIME_OPEN = '"time":"';
const VALUE_OPEN = ',"value":';
const TAGS_OPEN = ',"tags":';

type Describe = (name: string) => Pick<MetricDef, 'name' | 'type' | 'contains'> | undefined;

interface PointLine {
  metric?: string;
  type?: string;
  data?: { time?: string; value?: number; tags?: Tags };
}

/** The headers of a push: the protocol's, the configured ones, and the credentials when set. */
export function pushHeaders(config: RemoteWriteConfig): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/x-protobuf',
    'content-encoding': 'snappy',
    'x-prometheus-remote-write-version': '0.1.0',
    'user-agent': 'gateway-harness',
    ...config.headers,
  };
  if (config.username !== undefined)
    headers.authorization = `Basic ${Buffer.from(`${config.username}:${config.password ?? ''}`).toString('base64')}`;
  if (config.bearerToken !== undefined) headers.authorization = `Bearer ${config.bearerToken}`;
  return headers;
}

/** One push; throws when it did not reach the receiver or the receiver refused it (k6's 5 s timeout). */
export async function pushTimeSeries(
  config: RemoteWriteConfig,
  batch: readonly PromTimeSeries[],
  headers = pushHeaders(config),
): Promise<void> {
  const response = await request(config.url, {
    method: 'POST',
    headers,
    body: writeRequestBody(batch),
    headersTimeout: RW_DEFAULTS.timeoutMs,
    bodyTimeout: RW_DEFAULTS.timeoutMs,
  });
  const text = await response.body.text();
  if (response.statusCode >= 300) throw new Error(`server returned HTTP status ${response.statusCode}: ${text.slice(0, 200).trim()}`);
}

export class RemoteWriteOutput {
  private readonly series: RemoteWriteSeries;
  private timer: NodeJS.Timeout | undefined;
  private queue: Promise<void> = Promise.resolve();
  private pushes = 0;
  private failed = 0;
  private lastError: string | undefined;
  private readonly headers: Record<string, string>;

  constructor(
    private readonly config: RemoteWriteConfig,
    private readonly describe: Describe,
    private readonly logError: (text: string) => void,
  ) {
    this.series = new RemoteWriteSeries(config);
    this.headers = pushHeaders(config);
  }

  start(): void {
    this.timer = setInterval(() => this.flush(), this.config.pushIntervalMs);
    this.timer.unref();
  }

  /** One sample (the controller's own gauges). */
  add(metric: Pick<MetricDef, 'name' | 'type' | 'contains'>, value: number, tags: Tags, time: number): void {
    this.series.add(metric, value, tags, time);
  }

  /**
   * NDJSON `Point` lines (what the workers hand over for `--out json` too). The engine writes them in one fixed shape
   * (engine/ndjson.ts pointLine), so the fields are cut out rather than parsed: this runs on the controller's thread,
   * beside an embedded target, for every sample of the run. A line of another shape is parsed whole.
   */
  addPointLines(text: string): void {
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      if (end > start) this.addPointLine(text.slice(start, end));
      start = end + 1;
    }
  }

  private addPointLine(line: string): void {
    const name = line.startsWith(METRIC_OPEN) ? line.slice(METRIC_OPEN.length, line.indexOf('"', METRIC_OPEN.length)) : undefined;
    const time = line.indexOf(TIME_OPEN);
    const value = time < 0 ? -1 : line.indexOf(VALUE_OPEN, time);
    const tags = value < 0 ? -1 : line.indexOf(TAGS_OPEN, value);
    if (name !== undefined && line.startsWith(POINT_TYPE, METRIC_OPEN.length + name.length + 1) && tags > 0 && line.endsWith('}}}')) {
      const def = this.describe(name);
      if (def !== undefined) {
        const t = Date.parse(line.slice(time + TIME_OPEN.length, value - 1));
        this.series.addTagText(def, Number(line.slice(value + VALUE_OPEN.length, tags)), line.slice(tags + TAGS_OPEN.length, -2), t);
      }
      return;
    }
    const parsed = JSON.parse(line) as PointLine;
    const def = parsed.type === 'Point' && parsed.metric !== undefined ? this.describe(parsed.metric) : undefined;
    if (def !== undefined && parsed.data !== undefined)
      this.series.add(def, parsed.data.value ?? 0, parsed.data.tags ?? {}, Date.parse(parsed.data.time ?? ''));
  }

  /** Queues a push of the series that changed since the last one. */
  flush(): Promise<void> {
    const batch = this.series.collect();
    if (batch.length > 0) this.queue = this.queue.then(() => this.push(batch));
    return this.queue;
  }

  private async push(batch: PromTimeSeries[]): Promise<void> {
    this.pushes += 1;
    try {
      await pushTimeSeries(this.config, batch, this.headers);
    } catch (error) {
      this.failed += 1;
      this.lastError = error instanceof Error ? error.message : String(error);
      this.logError(`Failed to send the time series data to the endpoint (${displayUrl(this.config.url)}): ${this.lastError}`);
    }
  }

  /** Stops the timer, pushes what is left, then the stale markers when asked for; resolves when all pushes settled. */
  async stop(): Promise<RemoteWriteStats> {
    clearInterval(this.timer);
    await this.flush();
    if (this.config.staleMarkers && this.series.size > 0) {
      const markers = this.series.staleMarkers(Date.now());
      this.queue = this.queue.then(() => this.push(markers));
      await this.queue;
    }
    return this.stats();
  }

  stats(): RemoteWriteStats {
    return {
      url: displayUrl(this.config.url),
      trends: this.config.trendAsNativeHistogram ? 'native-histogram' : 'stats',
      pushes: this.pushes,
      failedPushes: this.failed,
      series: this.series.promSeriesCount,
      ...(this.lastError === undefined ? {} : { lastError: this.lastError }),
    };
  }
}
