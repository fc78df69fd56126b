// The four k6 sinks (Counter, Gauge, Rate, Trend): add samples, merge exactly across workers, and read the values the
// summary shows and the thresholds compare (k6 metrics/sink.go and thresholds.go Run), usable on their own.
import type { MetricType } from '../thresholds.ts';
import { TrendHistogram, type TrendHistogramState } from './trend-histogram.ts';

export type SinkState =
  | { type: 'counter'; count: number }
  | { type: 'gauge'; value: number; min: number; max: number; seen: boolean; lastAt: number }
  | { type: 'rate'; trues: number; total: number }
  | { type: 'trend'; trend: TrendHistogramState };

export interface Sink {
  readonly type: MetricType;
  /** `times`: that many samples of this value at once (a gauge takes it once). */
  add(value: number, at?: number, times?: number): void;
  merge(other: Sink): void;
  /** Values keyed as k6's summary shows them; trends use `trendStats` (summaryTrendStats). */
  summaryValues(durationMs: number, trendStats: readonly string[]): Record<string, number>;
  /** Values keyed as thresholds read them (`count`, `rate`, `value`, `avg`, `p(95)`...). */
  thresholdValues(durationMs: number, percentiles: readonly number[]): Record<string, number>;
  toState(): SinkState;
  readonly empty: boolean;
}

export class CounterSink implements Sink {
  readonly type = 'counter' as const;
  count = 0;
  add(value: number, _at?: number, times = 1): void {
    this.count += value * times;
  }
  merge(other: Sink): void {
    this.count += (other as CounterSink).count;
  }
  get empty(): boolean {
    return this.count === 0;
  }
  summaryValues(durationMs: number): Record<string, number> {
    return { count: this.count, rate: durationMs > 0 ? this.count / (durationMs / 1000) : 0 };
  }
  thresholdValues(durationMs: number): Record<string, number> {
    return durationMs > 0 ? { count: this.count, rate: this.count / (durationMs / 1000) } : { count: this.count };
  }
  toState(): SinkState {
    return { type: 'counter', count: this.count };
  }
}

export class GaugeSink implements Sink {
  readonly type = 'gauge' as const;
  value = 0;
  min = Infinity;
  max = -Infinity;
  seen = false;
  /** When the last value was set, so a merge keeps the latest value (workers' clocks are the same process clock). */
  lastAt = 0;
  add(value: number, at: number = Date.now()): void {
    this.value = value;
    this.lastAt = at;
    this.seen = true;
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
  }
  merge(other: Sink): void {
    const o = other as GaugeSink;
    if (!o.seen) return;
    if (!this.seen || o.lastAt >= this.lastAt) {
      this.value = o.value;
      this.lastAt = o.lastAt;
    }
    this.seen = true;
    this.min = Math.min(this.min, o.min);
    this.max = Math.max(this.max, o.max);
  }
  get empty(): boolean {
    return !this.seen;
  }
  summaryValues(): Record<string, number> {
    return this.seen ? { value: this.value, min: this.min, max: this.max } : { value: 0, min: 0, max: 0 };
  }
  thresholdValues(): Record<string, number> {
    return { value: this.value };
  }
  toState(): SinkState {
    return { type: 'gauge', value: this.value, min: this.min, max: this.max, seen: this.seen, lastAt: this.lastAt };
  }
}

export class RateSink implements Sink {
  readonly type = 'rate' as const;
  trues = 0;
  total = 0;
  add(value: number, _at?: number, times = 1): void {
    this.total += times;
    if (value !== 0) this.trues += times;
  }
  merge(other: Sink): void {
    const o = other as RateSink;
    this.trues += o.trues;
    this.total += o.total;
  }
  get empty(): boolean {
    return this.total === 0;
  }
  summaryValues(): Record<string, number> {
    return { rate: this.total === 0 ? 0 : this.trues / this.total, passes: this.trues, fails: this.total - this.trues };
  }
  thresholdValues(): Record<string, number> {
    return this.total > 0 ? { rate: this.trues / this.total } : {};
  }
  toState(): SinkState {
    return { type: 'rate', trues: this.trues, total: this.total };
  }
}

/** Reads one summaryTrendStats entry (avg, min, med, max, count, p(N)) from a trend; undefined when unknown. */
export function trendStat(trend: TrendHistogram, stat: string): number | undefined {
  switch (stat) {
    case 'avg':
      return trend.avg;
    case 'min':
      return trend.count === 0 ? 0 : trend.min;
    case 'max':
      return trend.count === 0 ? 0 : trend.max;
    case 'med':
      return trend.percentile(50);
    case 'count':
      return trend.count;
    default: {
      const m = /^p\((\d+(?:\.\d+)?)\)$/.exec(stat);
      return m === null ? undefined : trend.percentile(Number(m[1]));
    }
  }
}

export class TrendSink implements Sink {
  readonly type = 'trend' as const;
  trend = new TrendHistogram();
  add(value: number, _at?: number, times = 1): void {
    this.trend.add(value, times);
  }
  merge(other: Sink): void {
    this.trend.merge((other as TrendSink).trend);
  }
  get empty(): boolean {
    return this.trend.count === 0;
  }
  summaryValues(_durationMs: number, trendStats: readonly string[]): Record<string, number> {
    const out: Record<string, number> = {};
    for (const stat of trendStats) {
      const v = trendStat(this.trend, stat);
      if (v !== undefined) out[stat] = v;
    }
    return out;
  }
  thresholdValues(_durationMs: number, percentiles: readonly number[]): Record<string, number> {
    const t = this.trend;
    const out: Record<string, number> = {
      min: t.count === 0 ? 0 : t.min,
      max: t.count === 0 ? 0 : t.max,
      avg: t.avg,
      med: t.percentile(50),
    };
    for (const p of percentiles) out[`p(${String(p)})`] = t.percentile(p);
    return out;
  }
  toState(): SinkState {
    return { type: 'trend', trend: this.trend.toState() };
  }
}

export function newSink(type: MetricType): Sink {
  switch (type) {
    case 'counter':
      return new CounterSink();
    case 'gauge':
      return new GaugeSink();
    case 'rate':
      return new RateSink();
    case 'trend':
      return new TrendSink();
  }
}

export function sinkFromState(state: SinkState): Sink {
  switch (state.type) {
    case 'counter': {
      const s = new CounterSink();
      s.count = state.count;
      return s;
    }
    case 'gauge': {
      const s = new GaugeSink();
      Object.assign(s, { value: state.value, min: state.min, max: state.max, seen: state.seen, lastAt: state.lastAt });
      return s;
    }
    case 'rate': {
      const s = new RateSink();
      s.trues = state.trues;
      s.total = state.total;
      return s;
    }
    case 'trend': {
      const s = new TrendSink();
      s.trend = TrendHistogram.fromState(state.trend);
      return s;
    }
  }
}
