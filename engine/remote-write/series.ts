// The time series of k6's Prometheus remote-write output, kept as it keeps them: one aggregate per metric and tag set
// for the whole run (counter total, last gauge value, rate so far, trend stats or a native histogram), named k6_*.
import { TrendHistogram } from '../metrics/trend-histogram.ts';
import { trendStat } from '../metrics/sinks.ts';
import type { MetricContains, MetricDef, Tags } from '../metrics/store.ts';
import type { MetricType } from '../thresholds.ts';
import { statSuffix, type RemoteWriteConfig } from './config.ts';
import { NativeHistogram } from './native-histogram.ts';
import { STALE_PLACEHOLDER, type PromLabel, type PromTimeSeries } from './wire.ts';

export const METRIC_PREFIX = 'k6_';
/**
 * Tags never written as labels: a raw URL (ids and query strings make one series per request) and error texts (they
 * carry addresses and ports). Requests are told apart by `operation` (the catalog id) and `name` (the path template).
 */
export const UNBOUNDED_TAGS: ReadonlySet<string> = new Set(['url', 'error']);
/** Tag texts remembered per metric before its cache starts over (raw URLs in tags make one text per request). */
const TAG_TEXT_CACHE = 50_000;

type Aggregate =
  | { kind: 'counter'; value: number }
  | { kind: 'gauge'; value: number }
  | { kind: 'rate'; trues: number; total: number }
  | { kind: 'trend'; trend: TrendHistogram }
  | { kind: 'histogram'; histogram: NativeHistogram };

interface Series {
  readonly key: string;
  readonly name: string;
  readonly type: MetricType;
  readonly contains: MetricContains;
  /** Sorted, without __name__. */
  readonly labels: PromLabel[];
  readonly aggregate: Aggregate;
  /** Latest sample time, truncated to the millisecond (the series' timestamp). */
  latest: number;
}

/** k6 sends times in seconds (base unit), other values as they are. */
function adapt(contains: MetricContains, value: number): number {
  return contains === 'time' ? value / 1000 : value;
}

function baseUnit(contains: MetricContains): string {
  return contains === 'time' ? '_seconds' : contains === 'data' ? '_bytes' : '';
}

function newAggregate(type: MetricType, nativeHistogram: boolean): Aggregate {
  switch (type) {
    case 'counter':
      return { kind: 'counter', value: 0 };
    case 'gauge':
      return { kind: 'gauge', value: 0 };
    case 'rate':
      return { kind: 'rate', trues: 0, total: 0 };
    case 'trend':
      return nativeHistogram ? { kind: 'histogram', histogram: new NativeHistogram() } : { kind: 'trend', trend: new TrendHistogram() };
  }
}

function withName(labels: readonly PromLabel[], name: string): PromLabel[] {
  const all = [...labels, { name: '__name__', value: name }];
  return all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export class RemoteWriteSeries {
  private readonly series = new Map<string, Series>();
  /** Keys of series that got a sample with a later millisecond since the last collect (k6's "seen"). */
  private seen = new Set<string>();
  /** Per metric, NDJSON tag texts already seen → their series (addTagText). */
  private readonly byText = new Map<string, Map<string, Series>>();

  constructor(private readonly config: Pick<RemoteWriteConfig, 'trendAsNativeHistogram' | 'trendStats'>) {}

  get size(): number {
    return this.series.size;
  }

  /** The names of the series one k6 series maps to (a trend gives one per stat, or one histogram). */
  private namesOf(s: Series): string[] {
    const base = `${METRIC_PREFIX}${s.name}`;
    switch (s.aggregate.kind) {
      case 'counter':
        return [`${base}_total`];
      case 'gauge':
        return [base];
      case 'rate':
        return [`${base}_rate`];
      case 'histogram':
        return [`${base}${baseUnit(s.contains)}`];
      case 'trend':
        return this.config.trendStats.map((stat) => `${base}_${statSuffix(stat)}`);
    }
  }

  /** Prometheus series written so far (what a receiver holds from this run). */
  get promSeriesCount(): number {
    let n = 0;
    for (const s of this.series.values()) n += this.namesOf(s).length;
    return n;
  }

  add(metric: Pick<MetricDef, 'name' | 'type' | 'contains'>, value: number, tags: Tags, time: number): void {
    this.record(this.seriesFor(metric, tags), value, time);
  }

  /**
   * A sample whose tags are still the JSON text of an NDJSON point line (sorted, as the engine writes them): the text
   * finds its series without parsing, once seen. The cache is bounded (raw URLs make texts unique; their series are not).
   */
  addTagText(metric: Pick<MetricDef, 'name' | 'type' | 'contains'>, value: number, tagsJson: string, time: number): void {
    let texts = this.byText.get(metric.name);
    if (texts === undefined) this.byText.set(metric.name, (texts = new Map()));
    let s = texts.get(tagsJson);
    if (s === undefined) {
      if (texts.size >= TAG_TEXT_CACHE) texts.clear();
      s = this.seriesFor(metric, JSON.parse(tagsJson) as Tags);
      texts.set(tagsJson, s);
    }
    this.record(s, value, time);
  }

  private seriesFor(metric: Pick<MetricDef, 'name' | 'type' | 'contains'>, tags: Tags): Series {
    const keys = Object.keys(tags)
      .filter((k) => !UNBOUNDED_TAGS.has(k) && k !== '' && tags[k] !== '' && tags[k] !== undefined)
      .sort();
    let key = metric.name;
    for (const k of keys) key += `\u0000${k}\u0001${tags[k] as string}`;
    let s = this.series.get(key);
    if (s === undefined) {
      s = {
        key,
        name: metric.name,
        type: metric.type,
        contains: metric.contains,
        labels: keys.map((k) => ({ name: k, value: tags[k] as string })),
        aggregate: newAggregate(metric.type, this.config.trendAsNativeHistogram),
        latest: Number.NEGATIVE_INFINITY,
      };
      this.series.set(key, s);
    }
    return s;
  }

  private record(s: Series, value: number, time: number): void {
    const at = Math.floor(time);
    if (at > s.latest) {
      s.latest = at;
      this.seen.add(s.key);
    }
    const a = s.aggregate;
    switch (a.kind) {
      case 'counter':
        a.value += value;
        break;
      case 'gauge':
        a.value = value;
        break;
      case 'rate':
        a.total += 1;
        if (value !== 0) a.trues += 1;
        break;
      case 'trend':
        a.trend.add(value);
        break;
      case 'histogram':
        a.histogram.observe(adapt(s.contains, value));
        break;
    }
  }

  private toProm(s: Series): PromTimeSeries[] {
    const a = s.aggregate;
    const names = this.namesOf(s);
    const sample = (name: string, value: number): PromTimeSeries => ({
      labels: withName(s.labels, name),
      samples: [{ value, timestamp: s.latest }],
    });
    switch (a.kind) {
      case 'counter':
      case 'gauge':
        return [sample(names[0] as string, a.value)];
      case 'rate':
        return [sample(names[0] as string, a.total === 0 ? 0 : a.trues / a.total)];
      case 'histogram':
        return [{ labels: withName(s.labels, names[0] as string), histograms: [a.histogram.toProto(s.latest)] }];
      case 'trend':
        return this.config.trendStats.map((stat, i) => {
          const v = stat === 'sum' ? a.trend.sum : (trendStat(a.trend, stat) ?? 0);
          return sample(names[i] as string, adapt(s.contains, v));
        });
    }
  }

  /** The series that got newer samples since the last call, with their values so far (a push's content). */
  collect(): PromTimeSeries[] {
    const out: PromTimeSeries[] = [];
    for (const key of this.seen) out.push(...this.toProm(this.series.get(key) as Series));
    this.seen = new Set();
    return out;
  }

  /** Every series with a stale marker at `now` + 1 ms (after any sample already sent, as k6 does); the value is the
   * wire's stand-in, written as Prometheus' stale NaN when encoded (wire.ts). */
  staleMarkers(now: number): PromTimeSeries[] {
    const at = Math.floor(now) + 1;
    const out: PromTimeSeries[] = [];
    for (const s of this.series.values()) {
      for (const name of this.namesOf(s))
        out.push({ labels: withName(s.labels, name), samples: [{ value: STALE_PLACEHOLDER, timestamp: at }] });
    }
    return out;
  }
}
