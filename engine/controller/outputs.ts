// Where a run's samples go besides the summary: the workers' NDJSON point lines (and the controller's own vus/vus_max)
// to the `--out json` file and to the remote-write output, which runs on its own thread from the test's start.
import { resolve } from 'node:path';
import { metricLine, NdjsonWriter, PointBuffer } from '../ndjson.ts';
import type { RemoteWriteConfig } from '../remote-write/config.ts';
import type { RemoteWriteStats } from '../remote-write/output.ts';
import { RemoteWriteThread } from '../remote-write/threaded.ts';
import type { EngineRuntime } from '../runtime.ts';
import type { MetricThresholds } from '../thresholds.ts';

/** How often the controller's buffered points are written (the scheduler adds vus/vus_max every second). */
const CONTROLLER_FLUSH_MS = 1_000;

export class RunOutputs {
  /** True when the workers must send their point lines (some output wants them). */
  readonly pointsWanted: boolean;
  private readonly writer: NdjsonWriter | undefined;
  /** The same lines handed to the caller as text (EngineRunOptions `jsonLines`). */
  private readonly lines: NdjsonWriter | undefined;
  private remoteWrite: RemoteWriteThread | undefined;
  private flushControllerPoints: () => void = () => undefined;
  private controllerTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly runtime: EngineRuntime,
    thresholds: readonly MetricThresholds[],
    cwd: string,
    outJson: string | undefined,
    private readonly remoteWriteConfig: RemoteWriteConfig | undefined,
    private readonly logError: (text: string) => void,
    jsonLines?: (text: string) => void,
  ) {
    const describe = (name: string): string | undefined => {
      const def = runtime.store.get(name);
      if (def === undefined) return undefined;
      const sources = thresholds.filter((t) => t.summaryName === name).flatMap((t) => t.thresholds.map((x) => x.source));
      return metricLine(def, sources, runtime.store.submetricsOf(name));
    };
    if (outJson !== undefined) this.writer = new NdjsonWriter(resolve(cwd, outJson), describe);
    if (jsonLines !== undefined) this.lines = new NdjsonWriter(jsonLines, describe);
    this.pointsWanted = this.writer !== undefined || this.lines !== undefined || remoteWriteConfig !== undefined;
    if (this.pointsWanted) {
      const controllerPoints = new PointBuffer(this.deliver, 64 * 1024);
      runtime.store.listener = (metric, value, tags, time) => controllerPoints.add(metric.name, value, tags, time);
      this.flushControllerPoints = () => controllerPoints.drain();
    }
  }

  /** A chunk of point lines (a worker's batch, or the controller's). */
  readonly deliver = (names: readonly string[], text: string): void => {
    this.writer?.writeChunk(names, text);
    this.lines?.writeChunk(names, text);
    this.remoteWrite?.addPointLines(names, text);
  };

  /** Started with the test, on its own thread: cutting and aggregating every sample must not slow the controller,
   * where an embedded target may be serving. */
  start(): void {
    // The controller's own points (vus, vus_max: a few a second) go out every second, not when 64 KB have gathered:
    // a reader of the stream during the run (load --dashboard) would otherwise see them only at the end (#34).
    if (this.pointsWanted) {
      this.controllerTimer = setInterval(() => this.flushControllerPoints(), CONTROLLER_FLUSH_MS);
      this.controllerTimer.unref();
    }
    if (this.remoteWriteConfig === undefined) return;
    this.remoteWrite = new RemoteWriteThread(this.remoteWriteConfig, (name) => this.runtime.store.get(name), this.logError);
    this.remoteWrite.start();
  }

  /** Flushes and closes every output; the remote-write output's counts when it was on. */
  async close(): Promise<RemoteWriteStats | undefined> {
    clearInterval(this.controllerTimer);
    this.flushControllerPoints();
    await this.writer?.close();
    return this.remoteWrite?.stop();
  }
}
