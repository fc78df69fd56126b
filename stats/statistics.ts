// The statistics of a run comparison, and of migrate's v1/v2 latency: distribution-free quantile confidence intervals
// from binomial order-statistic bounds, Mood's quantile test, the two-proportion test, Holm's correction. Pure functions.

/** Standard normal CDF (Abramowitz–Stegun 7.1.26 on erf; |error| < 1.5e-7, enough for p-values). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

/** Standard normal quantile (Acklam's rational approximation, relative error < 1.2e-9). */
export function normalQuantile(p: number): number {
  if (p <= 0) return -Infinity;
  if (p >= 1) return Infinity;
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const [a0, a1, a2, a3, a4, a5] = a as [number, number, number, number, number, number];
  const [b0, b1, b2, b3, b4] = b as [number, number, number, number, number];
  const [c0, c1, c2, c3, c4, c5] = c as [number, number, number, number, number, number];
  const [d0, d1, d2, d3] = d as [number, number, number, number];
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (((((c0 * q + c1) * q + c2) * q + c3) * q + c4) * q + c5) / ((((d0 * q + d1) * q + d2) * q + d3) * q + 1);
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return ((((((a0 * r + a1) * r + a2) * r + a3) * r + a4) * r + a5) * q) / (((((b0 * r + b1) * r + b2) * r + b3) * r + b4) * r + 1);
}

function logGamma(x: number): number {
  // Lanczos (g = 7, n = 9): 15 significant digits for x > 0.
  const g = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
    -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const y = x - 1;
  let sum = g[0] as number;
  for (let i = 1; i < 9; i++) sum += (g[i] as number) / (y + i);
  const t = y + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(sum);
}

/**
 * Smallest k in 0..n with P(Bin(n, p) ≤ k) ≥ prob: the exact binomial quantile, summed in log space from the mode
 * outwards (no underflow at millions of trials). n is whole.
 */
export function binomialQuantile(n: number, p: number, prob: number): number {
  if (n <= 0) return 0;
  if (p <= 0) return 0;
  if (p >= 1) return n;
  const logPmf = (k: number): number =>
    logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1) + k * Math.log(p) + (n - k) * Math.log(1 - p);
  // Only the ±12 sd around the mean carry mass above 1e-30; the CDF below that window is 0 to double precision.
  const sd = Math.sqrt(n * p * (1 - p));
  const from = Math.max(0, Math.floor(n * p - 12 * sd - 2));
  const to = Math.min(n, Math.ceil(n * p + 12 * sd + 2));
  let cdf = 0;
  for (let k = from; k <= to; k++) {
    cdf += Math.exp(logPmf(k));
    if (cdf >= prob * (1 - 1e-12)) return k;
  }
  return to;
}

/**
 * The distribution-free (1 − alpha) interval of the q-quantile from n independent samples, as sample ranks (1-based):
 * X(lower) ≤ ξq ≤ X(upper) with probability ≥ 1 − alpha, from the binomial count of samples below ξq. `upper` is
 * undefined when n is too small for the interval to be bounded above (then nothing can be concluded).
 */
export function quantileRankInterval(n: number, q: number, alpha: number): { lower: number | undefined; upper: number | undefined } {
  const whole = Math.floor(n);
  if (whole < 1) return { lower: undefined, upper: undefined };
  // P(X(l) ≤ ξ) = P(B ≥ l), B ~ Bin(n, q): the largest l with P(B ≤ l − 1) ≤ alpha/2; symmetric for u.
  const l = binomialQuantile(whole, q, alpha / 2);
  const u = binomialQuantile(whole, q, 1 - alpha / 2) + 1;
  return { lower: l >= 1 ? l : undefined, upper: u <= whole ? u : undefined };
}

/**
 * The smallest number of independent samples whose (1 − alpha) interval of the q-quantile is bounded on both sides:
 * below it a comparison of that quantile is "incomplete".
 */
export function minimumSamples(q: number, alpha: number): number {
  // P(all n samples below ξq) = q^n must be ≤ alpha/2 (else X(n) is not an upper bound); same for the lower side.
  return Math.ceil(Math.log(alpha / 2) / Math.log(Math.max(q, 1 - q)));
}

export interface ProportionTest {
  /** Two-sided p-value of "both proportions are equal". */
  readonly pValue: number;
  readonly z: number;
}

/**
 * Two-proportion z-test with effective sample sizes (n / design effect): successes x of n on each side, the pooled
 * proportion under the null. No difference to test (both 0 or both 1) is p = 1.
 */
export function twoProportionTest(x1: number, n1: number, x2: number, n2: number, effect1 = 1, effect2 = 1): ProportionTest {
  if (n1 <= 0 || n2 <= 0) return { pValue: 1, z: 0 };
  const p1 = x1 / n1;
  const p2 = x2 / n2;
  const pooled = (x1 + x2) / (n1 + n2);
  const variance = pooled * (1 - pooled) * (effect1 / n1 + effect2 / n2);
  if (variance <= 0) return { pValue: 1, z: 0 };
  const z = (p2 - p1) / Math.sqrt(variance);
  return { pValue: Math.min(1, 2 * (1 - normalCdf(Math.abs(z)))), z };
}

/** Per time batch of a run: how many samples it had and how many of them were "hits" (failed, or below a value). */
export interface BatchCount {
  readonly n: number;
  readonly hits: number;
}

/**
 * The design effect of a proportion measured over a run's time batches: the dispersion of the batch proportions
 * against the binomial variance they would have if samples were independent (1 = independent; 3 = the samples carry
 * a third of the information). Autocorrelated latency under load shows here as batches that disagree more than chance.
 * Floored at 1 (never claim more information than the samples hold); 1 with fewer than 4 usable batches.
 */
export function designEffect(batches: readonly BatchCount[], p: number): number {
  const used = batches.filter((b) => b.n > 0);
  if (used.length < 4 || p <= 0 || p >= 1) return 1;
  let chi = 0;
  for (const b of used) chi += (b.hits - b.n * p) ** 2 / (b.n * p * (1 - p));
  return Math.max(1, chi / (used.length - 1));
}

/**
 * Holm's step-down correction: which of the p-values are significant at family-wise error rate alpha. Each test's
 * adjusted p-value is returned too (min(1, max over the steps so far of (m − i) · p(i))).
 */
export function holm(pValues: readonly number[], alpha: number): { readonly significant: boolean[]; readonly adjusted: number[] } {
  const m = pValues.length;
  const order = pValues.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0]);
  const adjusted = new Array<number>(m).fill(1);
  let running = 0;
  for (const [rank, [p, index]] of order.entries()) {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[index] = running;
  }
  return { significant: adjusted.map((p) => p <= alpha), adjusted };
}

/** Wilson's score interval of a proportion x/n at confidence 1 − alpha (n may be an effective, fractional size). */
export function wilsonInterval(x: number, n: number, alpha: number): { low: number; high: number } | undefined {
  if (n <= 0) return undefined;
  const z = normalQuantile(1 - alpha / 2);
  const p = x / n;
  const denominator = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denominator;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}
