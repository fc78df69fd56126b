// A Prometheus native (sparse, exponential) histogram as k6's remote-write output builds one per Trend series:
// client_golang with NativeHistogramBucketFactor 1.1 (schema 3: 8 buckets per power of two, each ≈ 9 % wide).
import type { PromBucketSpan, PromHistogram } from './wire.ts';

/** Schema client_golang picks for a bucket factor of 1.1 (floor(log2(log2(1.1))) = −3). */
export const NATIVE_SCHEMA = 3;
/** client_golang's DefNativeHistogramZeroThreshold (2^−128): values at most this far from 0 count in the zero bucket. */
export const ZERO_THRESHOLD = 2.938735877055719e-39;
/** client_golang's nativeHistogramBounds[3], verbatim (the last digits differ from Math.pow's). */
const BOUNDS_SCHEMA_3: readonly number[] = [
  0.5, 0.5452538663326288, 0.5946035575013605, 0.6484197773255048, 0.7071067811865475, 0.7711054127039704, 0.8408964152537144,
  0.9170040432046711,
];

/** Math.frexp: v = frac × 2^exp with frac in [0.5, 1). */
function frexp(v: number): [number, number] {
  let exp = Math.floor(Math.log2(v)) + 1;
  let frac = v / 2 ** exp;
  // log2 can be off by one near powers of two: put frac back into [0.5, 1).
  while (frac >= 1) {
    frac /= 2;
    exp += 1;
  }
  while (frac < 0.5) {
    frac *= 2;
    exp -= 1;
  }
  return [frac, exp];
}

/** The bucket index of |v| (> 0) at schema 3: bucket i holds (2^((i−1)/8), 2^(i/8)]. */
export function bucketIndex(v: number): number {
  const [frac, exp] = frexp(Math.abs(v));
  let i = 0;
  while (i < BOUNDS_SCHEMA_3.length && (BOUNDS_SCHEMA_3[i] as number) < frac) i++;
  return i + (exp - 1) * BOUNDS_SCHEMA_3.length;
}

/** Upper bound of bucket `index` (its lower bound is the upper bound of index − 1). */
export function bucketUpperBound(index: number): number {
  return 2 ** (index / 2 ** NATIVE_SCHEMA);
}

/** Spans and deltas like client_golang's makeBuckets: gaps of one or two empty buckets stay inside a span. */
function encodeBuckets(buckets: ReadonlyMap<number, number>): { spans: PromBucketSpan[]; deltas: number[] } {
  const keys = [...buckets.keys()].sort((a, b) => a - b);
  const spans: Array<{ offset: number; length: number }> = [];
  const deltas: number[] = [];
  let previous = 0;
  let next = 0;
  const append = (count: number): void => {
    (spans[spans.length - 1] as { length: number }).length += 1;
    deltas.push(count - previous);
    previous = count;
  };
  keys.forEach((key, n) => {
    const gap = key - next;
    if (n === 0 || gap > 2) spans.push({ offset: gap, length: 0 });
    else for (let j = 0; j < gap; j++) append(0);
    append(buckets.get(key) as number);
    next = key + 1;
  });
  return { spans, deltas };
}

export class NativeHistogram {
  private readonly positive = new Map<number, number>();
  private readonly negative = new Map<number, number>();
  private zero = 0;
  private count = 0;
  private sum = 0;

  observe(v: number): void {
    this.count += 1;
    this.sum += v;
    if (v > ZERO_THRESHOLD || v < -ZERO_THRESHOLD) {
      const buckets = v > 0 ? this.positive : this.negative;
      const index = bucketIndex(v);
      buckets.set(index, (buckets.get(index) ?? 0) + 1);
    } else this.zero += 1;
  }

  toProto(timestamp: number): PromHistogram {
    const positive = encodeBuckets(this.positive);
    const negative = encodeBuckets(this.negative);
    return {
      countInt: this.count,
      sum: this.sum,
      schema: NATIVE_SCHEMA,
      zeroThreshold: ZERO_THRESHOLD,
      zeroCountInt: this.zero,
      negativeSpans: negative.spans,
      negativeDeltas: negative.deltas,
      positiveSpans: positive.spans,
      positiveDeltas: positive.deltas,
      timestamp,
    };
  }
}
