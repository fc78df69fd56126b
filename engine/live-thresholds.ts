// Thresholds evaluated while a run goes, from its k6 NDJSON stream (either engine writes it): the same parser, metric
// sinks and evaluation the engine judges the end of a run with, fed the stream's points as they are read (#34 item 5).
import { percentilesOf } from './controller/thresholds.ts';
import { MetricStore, type MetricDef } from './metrics/store.ts';
import { evaluateThresholds, parseThresholds, type MetricThresholds } from './thresholds.ts';

/** One threshold now: ok, crossed, or no samples yet (null). */
export interface LiveThresholdState {
  readonly metric: string;
  readonly expression: string;
  readonly ok: boolean | null;
}

export class LiveThresholds {
  private readonly store: MetricStore;
  private readonly sets: MetricThresholds[];
  private firstPoint: number | undefined;

  /** `thresholds`: k6 options.thresholds (strings or { threshold, abortOnFail }). */
  constructor(thresholds: Readonly<Record<string, unknown>>) {
    this.sets = parseThresholds(thresholds);
    this.store = new MetricStore(
      this.sets
        .filter((t) => t.tags.length > 0)
        .map((t) => ({ metric: t.metric, name: t.summaryName, suffix: t.summaryName.slice(t.metric.length + 1, -1), tags: t.tags })),
    );
  }

  /** One NDJSON line: a metric's definition, or a sample of it (anything else, or unreadable, is skipped). */
  addLine(line: string): void {
    if (line.length === 0) return;
    let entry: {
      type?: string;
      metric?: string;
      data?: { name?: string; type?: string; contains?: string; value?: number; time?: string; tags?: Record<string, string> | null };
    };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      return;
    }
    const data = entry.data;
    if (data === undefined) return;
    if (entry.type === 'Metric' && typeof data.name === 'string' && this.store.get(data.name) === undefined) {
      try {
        this.store.define({ name: data.name, type: data.type, contains: data.contains ?? 'default' } as MetricDef);
      } catch {
        // not a metric the store can hold: its thresholds stay "no samples"
      }
      return;
    }
    if (
      entry.type !== 'Point' ||
      typeof entry.metric !== 'string' ||
      typeof data.value !== 'number' ||
      this.store.get(entry.metric) === undefined
    )
      return;
    const time = data.time === undefined ? Date.now() : Date.parse(data.time);
    this.firstPoint ??= time;
    this.store.add(entry.metric, data.value, data.tags ?? {}, time);
  }

  /** Every threshold as it stands after the points read so far. */
  states(nowMs: number = Date.now()): LiveThresholdState[] {
    const elapsed = this.firstPoint === undefined ? 0 : Math.max(1, nowMs - this.firstPoint);
    const out: LiveThresholdState[] = [];
    for (const set of this.sets) {
      const sink = this.store.sinkOf(set.summaryName);
      const verdict =
        sink === undefined || sink.empty
          ? undefined
          : evaluateThresholds(set, sink.thresholdValues(elapsed, percentilesOf(set)), elapsed).results;
      for (const t of set.thresholds)
        out.push({ metric: set.key, expression: t.source, ok: verdict === undefined ? null : (verdict[t.source]?.ok ?? null) });
    }
    return out;
  }
}
