// The comparison's statistics against known values and by simulation: exact binomial ranks, interval coverage, the
// design effect under autocorrelation (a naive test that ignores it alarms far too often), Holm.
import { describe, expect, it } from 'vitest';
import { prng } from '../reports/fixtures/synthetic-k6.ts';
import { SparseHistogram } from './histogram.ts';
import { estimateQuantile, quantileTest, sampleOfValues, type QuantileSample } from './quantiles.ts';
import {
  binomialQuantile,
  designEffect,
  holm,
  minimumSamples,
  normalCdf,
  normalQuantile,
  quantileRankInterval,
  twoProportionTest,
  wilsonInterval,
} from './statistics.ts';

/** Exact binomial CDF by summing the pmf (small n only): the reference for binomialQuantile. */
function binomialCdf(n: number, p: number, k: number): number {
  let sum = 0;
  let pmf = (1 - p) ** n;
  for (let i = 0; i <= k; i++) {
    sum += pmf;
    pmf = (pmf * (n - i) * p) / ((i + 1) * (1 - p));
  }
  return sum;
}

describe('normal distribution', () => {
  it('matches tabulated values', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-2.575829)).toBeCloseTo(0.005, 6);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.005)).toBeCloseTo(-2.575829, 5);
  });
});

describe('binomialQuantile', () => {
  it('is the smallest k whose exact CDF reaches the probability', () => {
    for (const [n, p] of [
      [20, 0.95],
      [104, 0.95],
      [300, 0.5],
      [57, 0.01],
    ] as const) {
      for (const prob of [0.005, 0.025, 0.5, 0.975, 0.995]) {
        const k = binomialQuantile(n, p, prob);
        expect(binomialCdf(n, p, k)).toBeGreaterThanOrEqual(prob * (1 - 1e-9));
        if (k > 0) expect(binomialCdf(n, p, k - 1)).toBeLessThan(prob);
      }
    }
  });

  it('stays finite and central at millions of trials', () => {
    const k = binomialQuantile(5_000_000, 0.95, 0.5);
    expect(Math.abs(k - 4_750_000)).toBeLessThan(5);
  });
});

describe('quantile intervals', () => {
  it('needs 104 independent samples to bound a p95 at 99 % (and says so below)', () => {
    expect(minimumSamples(0.95, 0.01)).toBe(104);
    expect(quantileRankInterval(103, 0.95, 0.01).upper).toBeUndefined();
    expect(quantileRankInterval(104, 0.95, 0.01).upper).toBe(104);
  });

  it('covers the true p95 at least 99 % of the time on independent samples (distribution-free)', () => {
    const random = prng(7);
    // Exponential latencies with mean 20 ms: the true p95 is 20 · ln 20.
    const truth = 20 * Math.log(20);
    let covered = 0;
    const runs = 400;
    for (let r = 0; r < runs; r++) {
      const values = Array.from({ length: 500 }, () => -20 * Math.log(1 - random()));
      const e = estimateQuantile(sampleOfValues(values, 20), 0.95, 0.01);
      if ((e.low ?? -Infinity) <= truth && truth <= (e.high ?? Infinity)) covered++;
    }
    // Histogram buckets are 0.1 % wide; the nominal coverage is ≥ 99 %; 400 runs: allow sampling noise down to 97.5 %.
    expect(covered / runs).toBeGreaterThanOrEqual(0.975);
  });
});

/**
 * A run whose latency has slow stretches: each of `batches` periods is slow (× slow) with chance 0.1; `perBatch`
 * samples each, uniform 10..20 ms times `scale`.
 */
function burstyRun(random: () => number, batches: number, perBatch: number, slow = 2, scale = 1): QuantileSample {
  const values: number[] = [];
  for (let b = 0; b < batches; b++) {
    const factor = random() < 0.1 ? slow : 1;
    for (let i = 0; i < perBatch; i++) values.push(scale * factor * (10 + 10 * random()));
  }
  return sampleOfValues(values, batches);
}

describe('design effect', () => {
  it('is 1 for independent samples and large for samples that come in slow stretches', () => {
    const random = prng(11);
    const independent = sampleOfValues(
      Array.from({ length: 2000 }, () => 10 + 10 * random()),
      40,
    );
    const bursty = burstyRun(random, 40, 50);
    const effectAt = (s: QuantileSample): number => {
      const e = estimateQuantile(s, 0.95, 0.01);
      return e.n / e.effective;
    };
    expect(effectAt(independent)).toBeLessThan(1.6);
    expect(effectAt(bursty)).toBeGreaterThan(4);
    expect(designEffect([{ n: 10, hits: 1 }], 0.1)).toBe(1);
  });

  it('keeps the A/A false-alarm rate of the p95 test at α under autocorrelation, where the naive test alarms often', () => {
    const random = prng(23);
    const runs = 300;
    let ours = 0;
    let naive = 0;
    for (let r = 0; r < runs; r++) {
      const a = burstyRun(random, 40, 50);
      const b = burstyRun(random, 40, 50);
      if (quantileTest(a, b, 0.95) <= 0.01) ours++;
      // The same test with every sample counted as independent information.
      const pooled = new SparseHistogram();
      pooled.merge(a.total);
      pooled.merge(b.total);
      const theta = pooled.quantile(0.95);
      if (twoProportionTest(a.total.countAtOrBelow(theta), a.total.count, b.total.countAtOrBelow(theta), b.total.count).pValue <= 0.01)
        naive++;
    }
    // At α = 0.01 about 3 of 300 alarms are expected; the naive test, blind to the slow stretches, raises many more.
    expect(ours / runs).toBeLessThanOrEqual(0.03);
    expect(naive / runs).toBeGreaterThan(0.15);
  });

  it('still finds a real +25 % shift in runs with milder slow stretches (×1.2, 200 of them)', () => {
    const random = prng(29);
    let found = 0;
    for (let r = 0; r < 50; r++) {
      if (quantileTest(burstyRun(random, 200, 30, 1.2), burstyRun(random, 200, 30, 1.2, 1.25), 0.95) <= 0.01) found++;
    }
    expect(found).toBeGreaterThanOrEqual(45);
  });
});

describe('proportions and Holm', () => {
  it('two-proportion test: a textbook value and the no-difference case', () => {
    // 0 of 1000 vs 20 of 1000: z = 0.02 / sqrt(0.01 · 0.99 · 0.002) = 4.49.
    const t = twoProportionTest(0, 1000, 20, 1000);
    expect(t.z).toBeCloseTo(4.494, 2);
    expect(t.pValue).toBeLessThan(1e-4);
    expect(twoProportionTest(0, 1000, 0, 1000).pValue).toBe(1);
    // The design effect deflates the evidence: 4 times the variance halves z.
    expect(twoProportionTest(0, 1000, 20, 1000, 4, 4).z).toBeCloseTo(t.z / 2, 6);
  });

  it('Wilson interval of 0 of 300 at 99 % is [0, ~2.2 %]', () => {
    const w = wilsonInterval(0, 300, 0.01);
    expect(w?.low).toBeCloseTo(0, 12);
    expect(w?.high).toBeCloseTo(0.0216, 3);
  });

  it("Holm's step-down: adjusted p-values and rejections", () => {
    const { significant, adjusted } = holm([0.01, 0.04, 0.03, 0.005], 0.05);
    expect(adjusted.map((p) => Number(p.toFixed(3)))).toEqual([0.03, 0.06, 0.06, 0.02]);
    expect(significant).toEqual([true, false, false, true]);
  });
});

describe('SparseHistogram', () => {
  it('quantiles within its 0.1 % buckets, counts at or below a value, merge', () => {
    const h = new SparseHistogram();
    for (let v = 1; v <= 1000; v++) h.add(v);
    expect(Math.abs(h.quantile(0.95) - 950) / 950).toBeLessThan(0.001);
    expect(h.countAtOrBelow(500)).toBe(500);
    const other = new SparseHistogram(0.01);
    other.merge(h);
    expect(other.count).toBe(1000);
    expect(Math.abs(other.quantile(0.5) - 500) / 500).toBeLessThan(0.01);
    expect(h.cdf(10).length).toBeLessThanOrEqual(11);
    expect(h.cdf(10).at(-1)?.[1]).toBe(1);
  });
});
