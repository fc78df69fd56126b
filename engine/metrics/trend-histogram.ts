// A k6 Trend kept in an HdrHistogram (hdr-histogram-js) instead of every sample: memory stays flat in long soaks, and
// histograms from several workers or instances merge exactly. Percentiles are within 0.1 % (3 significant digits), and
// exact (k6's interpolation) while a trend holds few samples.
import type { JsHistogram } from 'hdr-histogram-js';
import { decodeTrendHdr, encodeTrendHdr, newTrendHdr, TREND_SCALE } from '../../stats/trend-hdr.ts';

/**
 * Up to this many samples the trend also keeps them, so percentiles are exactly k6's (linear interpolation between
 * sorted samples) for short runs and smoke tests; past it only the histogram remains (memory stays bounded).
 */
export const EXACT_SAMPLES = 1_000;

/** k6's TrendSink.P over sorted samples. */
function interpolate(sorted: readonly number[], pct: number): number {
  const i = (pct / 100) * (sorted.length - 1);
  const lo = sorted[Math.floor(i)] as number;
  const hi = sorted[Math.ceil(i)] as number;
  return lo + (hi - lo) * (i - Math.floor(i));
}

/** The serialisable state of a TrendHistogram (for worker → controller messages and merge-results). */
export interface TrendHistogramState {
  count: number;
  sum: number;
  min: number;
  max: number;
  /** The samples themselves while there are at most EXACT_SAMPLES of them. */
  samples?: number[];
  /** Compressed base64 HdrHistogram of the non-negative values (×1000), '' when none. */
  positive: string;
  /** Same for the magnitudes of negative values. */
  negative: string;
}

export class TrendHistogram {
  count = 0;
  sum = 0;
  min = Infinity;
  max = -Infinity;
  /** In stats/trend-hdr.ts's layout (the per-second aggregates' too); negative values go to the mirror histogram. */
  private positive: JsHistogram | undefined;
  private negative: JsHistogram | undefined;
  private samples: number[] | undefined = [];
  private sorted = true;

  /** One sample, or `times` samples of this value (merge-results reading per-second aggregates). */
  add(value: number, times = 1): void {
    if (!Number.isFinite(value) || times < 1) return;
    this.count += times;
    if (this.samples !== undefined) {
      if (this.samples.length + times <= EXACT_SAMPLES) {
        for (let i = 0; i < times; i++) this.samples.push(value);
        this.sorted = false;
      } else this.samples = undefined;
    }
    this.sum += value * times;
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
    if (value >= 0) (this.positive ??= newTrendHdr()).recordValueWithCount(Math.round(value * TREND_SCALE), times);
    else (this.negative ??= newTrendHdr()).recordValueWithCount(Math.round(-value * TREND_SCALE), times);
  }

  /** Adds every sample of another histogram (exact: same bucket layout). */
  merge(other: TrendHistogram): void {
    if (other.count === 0) return;
    if (this.samples !== undefined && other.samples !== undefined && this.samples.length + other.samples.length <= EXACT_SAMPLES) {
      this.samples.push(...other.samples);
      this.sorted = false;
    } else this.samples = undefined;
    this.count += other.count;
    this.sum += other.sum;
    this.min = Math.min(this.min, other.min);
    this.max = Math.max(this.max, other.max);
    if (other.positive !== undefined) (this.positive ??= newTrendHdr()).add(other.positive);
    if (other.negative !== undefined) (this.negative ??= newTrendHdr()).add(other.negative);
  }

  get avg(): number {
    return this.count === 0 ? 0 : this.sum / this.count;
  }

  /**
   * The value at percentile `pct` (0..100). With 0 samples 0 and with 1 the sample itself, like k6's TrendSink.P; up
   * to EXACT_SAMPLES samples k6's exact interpolation; beyond, the histogram's value (within its 0.1 % precision),
   * clamped into [min, max] so p(0)/p(100) equal the exact extremes.
   */
  percentile(pct: number): number {
    if (this.count === 0) return 0;
    if (this.count === 1) return this.min;
    if (this.samples !== undefined) {
      if (!this.sorted) {
        this.samples.sort((a, b) => a - b);
        this.sorted = true;
      }
      return interpolate(this.samples, pct);
    }
    const negCount = this.negative?.totalCount ?? 0;
    const rank = (pct / 100) * this.count; // how many samples lie at or below the answer
    let value: number;
    if (rank <= negCount && this.negative !== undefined) {
      // Among negatives, a low rank is a large magnitude: read the mirror histogram from the top.
      const mirrorPct = Math.max(0, Math.min(100, 100 - (rank / negCount) * 100));
      value = -this.negative.getValueAtPercentile(mirrorPct) / TREND_SCALE;
    } else if (this.positive !== undefined) {
      const posCount = this.positive.totalCount;
      const posPct = Math.max(0, Math.min(100, ((rank - negCount) / posCount) * 100));
      value = this.positive.getValueAtPercentile(posPct) / TREND_SCALE;
    } else {
      value = this.max;
    }
    return Math.min(this.max, Math.max(this.min, value));
  }

  toState(): TrendHistogramState {
    return {
      count: this.count,
      sum: this.sum,
      min: this.min,
      max: this.max,
      ...(this.samples === undefined ? {} : { samples: [...this.samples] }),
      positive: this.positive === undefined ? '' : encodeTrendHdr(this.positive),
      negative: this.negative === undefined ? '' : encodeTrendHdr(this.negative),
    };
  }

  static fromState(state: TrendHistogramState): TrendHistogram {
    const t = new TrendHistogram();
    t.count = state.count;
    t.sum = state.sum;
    t.min = state.count === 0 ? Infinity : state.min;
    t.max = state.count === 0 ? -Infinity : state.max;
    t.samples = state.samples === undefined ? undefined : [...state.samples];
    t.sorted = false;
    if (state.positive !== '') t.positive = decodeTrendHdr(state.positive);
    if (state.negative !== '') t.negative = decodeTrendHdr(state.negative);
    return t;
  }

  /** Bytes held by the histograms and the bounded sample list: flat however many samples were recorded. */
  get footprintBytes(): number {
    return (
      (this.positive?.estimatedFootprintInBytes ?? 0) + (this.negative?.estimatedFootprintInBytes ?? 0) + (this.samples?.length ?? 0) * 8
    );
  }
}
