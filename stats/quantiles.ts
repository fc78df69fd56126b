// Latency quantiles of a run with distribution-free confidence intervals, and the test that two runs' quantiles
// differ: exact binomial order statistics on the histogram, with the sample size deflated by the autocorrelation the
// run's time batches show. Shared by the run comparison and migrate's v1/v2 latency (one implementation).
import { SparseHistogram } from './histogram.ts';
import { designEffect, quantileRankInterval, twoProportionTest } from './statistics.ts';

/** A latency sample: every value in one histogram, and the same values cut into consecutive time batches. */
export interface QuantileSample {
  readonly total: SparseHistogram;
  readonly batches: readonly SparseHistogram[];
}

export interface QuantileEstimate {
  /** Nearest-rank quantile (ms). */
  readonly value: number;
  /** The (1 − alpha) interval's bounds (ms); undefined when too few effective samples bound it. */
  readonly low: number | undefined;
  readonly high: number | undefined;
  readonly n: number;
  /** n ÷ the design effect at this quantile. */
  readonly effective: number;
}

/** Consecutive values (in arrival order) as a sample cut into `batches` equal batches (migrate's measurements). */
export function sampleOfValues(values: readonly number[], batches = 8): QuantileSample {
  const total = new SparseHistogram(0.001);
  const cut: SparseHistogram[] = Array.from({ length: Math.max(1, Math.min(batches, values.length)) }, () => new SparseHistogram(0.01));
  for (const [i, v] of values.entries()) {
    total.add(v);
    (cut[Math.floor((i * cut.length) / values.length)] as SparseHistogram).add(v);
  }
  return { total, batches: cut };
}

/** How many samples of each batch lie at or below `ms`, and the design effect of that proportion. */
function effectAt(sample: QuantileSample, ms: number): number {
  const counts = sample.batches.map((b) => ({ n: b.count, hits: b.countAtOrBelow(ms) }));
  const n = counts.reduce((s, c) => s + c.n, 0);
  const hits = counts.reduce((s, c) => s + c.hits, 0);
  return n === 0 ? 1 : designEffect(counts, hits / n);
}

/** The q-quantile (0..1) with its distribution-free (1 − alpha) interval at the sample's effective size. */
export function estimateQuantile(sample: QuantileSample, q: number, alpha: number): QuantileEstimate {
  const n = sample.total.count;
  if (n === 0) return { value: 0, low: undefined, high: undefined, n: 0, effective: 0 };
  const value = sample.total.quantile(q);
  const effective = n / effectAt(sample, value);
  // Ranks of the interval at the effective size, scaled back to ranks of the whole sample.
  const ranks = quantileRankInterval(effective, q, alpha);
  const scale = n / Math.floor(effective);
  return {
    value,
    low: ranks.lower === undefined ? undefined : sample.total.valueAtRank(ranks.lower * scale),
    high: ranks.upper === undefined ? undefined : sample.total.valueAtRank(ranks.upper * scale),
    n,
    effective,
  };
}

/**
 * Mood's quantile test with effective sizes: the pooled q-quantile θ of both samples; under "same q-quantile" each
 * side has about a q share of its samples at or below θ; the two shares are compared by the two-proportion test,
 * each side's variance inflated by its design effect. Two-sided p-value.
 */
export function quantileTest(a: QuantileSample, b: QuantileSample, q: number): number {
  if (a.total.count === 0 || b.total.count === 0) return 1;
  const pooled = new SparseHistogram(0.001);
  pooled.merge(a.total);
  pooled.merge(b.total);
  const theta = pooled.quantile(q);
  return twoProportionTest(
    a.total.countAtOrBelow(theta),
    a.total.count,
    b.total.countAtOrBelow(theta),
    b.total.count,
    effectAt(a, theta),
    effectAt(b, theta),
  ).pValue;
}
