// A sparse latency histogram with a fixed relative precision (log-spaced buckets of the value in µs), for the run
// comparison: it needs "how many samples at or below v" per time batch, which engine/metrics' HdrHistogram (a dense
// array per instance, kilobytes each) cannot give for hundreds of batch × operation cells in constant memory.

/** Values are kept in µs (k6 trends are ms with µs resolution); bucket k ≥ 1 holds values near (1 + precision)^(k − 1) µs. */
const MICROS = 1_000;

export class SparseHistogram {
  count = 0;
  private readonly buckets = new Map<number, number>();
  private sortedKeys: number[] | undefined;
  private readonly logStep: number;

  /**
   * `precision`: relative width of a bucket. 0.001 (0.1 %, the default) for a run's whole histogram; 0.01 for time
   * batches (about 230 buckets per decade at most, so hundreds of batch × operation cells stay small).
   */
  constructor(readonly precision = 0.001) {
    this.logStep = Math.log1p(precision);
  }

  /** The bucket of a value (ms): 0 below 1 µs. */
  keyOf(ms: number): number {
    const us = ms * MICROS;
    return us < 1 ? 0 : Math.round(Math.log(us) / this.logStep) + 1;
  }

  /** A bucket's representative value in ms. */
  private valueOf(key: number): number {
    return key === 0 ? 0 : Math.round(Math.exp((key - 1) * this.logStep)) / MICROS;
  }

  add(ms: number, times = 1): void {
    if (!Number.isFinite(ms) || times <= 0) return;
    const key = this.keyOf(ms);
    const before = this.buckets.get(key);
    if (before === undefined) this.sortedKeys = undefined;
    this.buckets.set(key, (before ?? 0) + times);
    this.count += times;
  }

  /** Adds every sample of another histogram (re-bucketed to this one's precision). */
  merge(other: SparseHistogram): void {
    for (const [key, n] of other.buckets) this.add(other.valueOf(key), n);
  }

  private keys(): number[] {
    this.sortedKeys ??= [...this.buckets.keys()].sort((a, b) => a - b);
    return this.sortedKeys;
  }

  /** The value (ms) of the sample of 1-based rank r in ascending order (clamped to 1..count); 0 when empty. */
  valueAtRank(rank: number): number {
    if (this.count === 0) return 0;
    const target = Math.min(this.count, Math.max(1, Math.ceil(rank)));
    let seen = 0;
    for (const key of this.keys()) {
      seen += this.buckets.get(key) as number;
      if (seen >= target) return this.valueOf(key);
    }
    return this.valueOf(this.keys().at(-1) ?? 0);
  }

  /** Nearest-rank q-quantile (0..1) in ms. */
  quantile(q: number): number {
    return this.valueAtRank(q * this.count);
  }

  /** Samples whose bucket is at or below v's bucket (at this histogram's precision). */
  countAtOrBelow(ms: number): number {
    const limit = this.keyOf(ms);
    let seen = 0;
    for (const key of this.keys()) {
      if (key > limit) break;
      seen += this.buckets.get(key) as number;
    }
    return seen;
  }

  /** The empirical CDF as at most `points` [ms, fraction ≤ ms] pairs (report.html draws it). */
  cdf(points = 120): Array<[number, number]> {
    const keys = this.keys();
    if (keys.length === 0) return [];
    const every = Math.max(1, Math.ceil(keys.length / points));
    const out: Array<[number, number]> = [];
    let seen = 0;
    for (const [i, key] of keys.entries()) {
      seen += this.buckets.get(key) as number;
      if (i % every === every - 1 || i === keys.length - 1) out.push([this.valueOf(key), seen / this.count]);
    }
    return out;
  }

  /** Plain data to cross a thread boundary (compare/run-samples-thread.ts); `fromData` rebuilds it exactly. */
  toData(): SparseHistogramData {
    return { precision: this.precision, count: this.count, buckets: [...this.buckets] };
  }

  static fromData(data: SparseHistogramData): SparseHistogram {
    const h = new SparseHistogram(data.precision);
    for (const [key, n] of data.buckets) h.buckets.set(key, n);
    h.count = data.count;
    return h;
  }
}

export interface SparseHistogramData {
  readonly precision: number;
  readonly count: number;
  readonly buckets: ReadonlyArray<readonly [number, number]>;
}
