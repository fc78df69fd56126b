// A sparse latency histogram with a fixed relative precision (n significant digits of the value in µs), for the run
// comparison: it needs "how many samples at or below v" per time batch, which engine/metrics' HdrHistogram (a dense
// array per instance, kilobytes each) cannot give for hundreds of batch × operation cells in constant memory.

/** Values are kept in µs (k6 trends are ms with µs resolution): the bucket of v is v in µs to `digits` digits. */
const MICROS = 1_000;

export class SparseHistogram {
  count = 0;
  private readonly buckets = new Map<number, number>();
  private sortedKeys: number[] | undefined;

  /** `digits` significant digits per bucket: 3 → within 0.1 %, 2 → within 1 % (time batches: 10x fewer cells). */
  constructor(readonly digits = 3) {}

  /** The bucket a value (ms) falls in, as its representative value in µs. */
  keyOf(ms: number): number {
    const us = Math.max(0, Math.round(ms * MICROS));
    const limit = 10 ** this.digits;
    if (us < limit) return us;
    const step = 10 ** (Math.floor(Math.log10(us)) - this.digits + 1);
    return Math.round(us / step) * step;
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
    for (const [key, n] of other.buckets) this.add(key / MICROS, n);
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
      if (seen >= target) return key / MICROS;
    }
    return (this.keys().at(-1) ?? 0) / MICROS;
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
      if (i % every === every - 1 || i === keys.length - 1) out.push([key / MICROS, seen / this.count]);
    }
    return out;
  }
}
