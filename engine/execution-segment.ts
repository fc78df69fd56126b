// k6's execution segments (lib/execution_segment.go), so one test can be split over several instances exactly as k6
// (and k6-operator) split it: `--execution-segment` / `--execution-segment-sequence`, scaling, striping, re-segmenting.
// A port of the Go code: rationals as exact BigInt fractions, striped offsets and the segmented index as k6 computes them.

export class ExecutionSegmentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExecutionSegmentError';
  }
}

/** An exact non-negative rational n/d (normalised, d > 0), enough of big.Rat for segments. */
export class Rat {
  readonly n: bigint;
  readonly d: bigint;

  constructor(n: bigint, d: bigint = 1n) {
    if (d === 0n) throw new ExecutionSegmentError('division by zero');
    if (d < 0n) {
      n = -n;
      d = -d;
    }
    const g = gcdBig(n < 0n ? -n : n, d);
    this.n = g === 0n ? 0n : n / g;
    this.d = g === 0n ? 1n : d / g;
  }

  static readonly ZERO = new Rat(0n);
  static readonly ONE = new Rat(1n);

  add(o: Rat): Rat {
    return new Rat(this.n * o.d + o.n * this.d, this.d * o.d);
  }
  sub(o: Rat): Rat {
    return new Rat(this.n * o.d - o.n * this.d, this.d * o.d);
  }
  mul(o: Rat): Rat {
    return new Rat(this.n * o.n, this.d * o.d);
  }
  cmp(o: Rat): number {
    const l = this.n * o.d;
    const r = o.n * this.d;
    return l < r ? -1 : l > r ? 1 : 0;
  }
  /** big.Rat.RatString: "n" for integers, "n/d" otherwise. */
  toString(): string {
    return this.d === 1n ? String(this.n) : `${this.n}/${this.d}`;
  }
  toNumber(): number {
    return Number(this.n) / Number(this.d);
  }
}

function gcdBig(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

function gcdNum(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** big.Rat.SetString's forms k6 accepts: a fraction "a/b", a decimal "0.25" (exponent allowed); plus k6's "N%". */
export function parseRat(text: string): Rat {
  const s = text.trim();
  const percent = /^([+-]?\d+)%$/.exec(s);
  if (percent !== null) return new Rat(BigInt(percent[1] as string), 100n);
  if (s.endsWith('%')) throw new ExecutionSegmentError(`'${text}' is not a valid percentage`);
  const fraction = /^([+-]?\d+)\/(\d+)$/.exec(s);
  if (fraction !== null) {
    if (BigInt(fraction[2] as string) === 0n)
      throw new ExecutionSegmentError(`'${text}' is not a valid percentage, decimal, fraction or interval value`);
    return new Rat(BigInt(fraction[1] as string), BigInt(fraction[2] as string));
  }
  const decimal = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(s);
  if (decimal === null || ((decimal[2] ?? '') === '' && (decimal[3] ?? '') === '')) {
    throw new ExecutionSegmentError(`'${text}' is not a valid percentage, decimal, fraction or interval value`);
  }
  const sign = decimal[1] === '-' ? -1n : 1n;
  const digits = `${decimal[2] ?? ''}${decimal[3] ?? ''}`;
  const exponent = Number(decimal[4] ?? '0') - (decimal[3] ?? '').length;
  if (Math.abs(exponent) > 1000) throw new ExecutionSegmentError(`'${text}' is out of range`);
  const mantissa = sign * BigInt(digits === '' ? '0' : digits);
  return exponent >= 0 ? new Rat(mantissa * 10n ** BigInt(exponent)) : new Rat(mantissa, 10n ** BigInt(-exponent));
}

/** A (from, to] share of a test's work, 0 <= from < to <= 1. */
export class ExecutionSegment {
  readonly length: Rat;
  private constructor(
    readonly from: Rat,
    readonly to: Rat,
  ) {
    this.length = to.sub(from);
  }

  /** Validates like k6's NewExecutionSegment. */
  static of(from: Rat, to: Rat): ExecutionSegment {
    if (from.cmp(Rat.ZERO) < 0)
      throw new ExecutionSegmentError(`segment start value must be at least 0 but was ${from.toNumber().toFixed(2)}`);
    if (from.cmp(to) >= 0)
      throw new ExecutionSegmentError(
        `segment start(${from.toNumber().toFixed(2)}) must be less than its end(${to.toNumber().toFixed(2)})`,
      );
    if (to.cmp(Rat.ONE) > 0) throw new ExecutionSegmentError(`segment end value can't be more than 1 but was ${to.toNumber().toFixed(2)}`);
    return new ExecutionSegment(from, to);
  }

  /** Unchecked (k6's newExecutionSegment): for sequences built from valid values. */
  static unchecked(from: Rat, to: Rat): ExecutionSegment {
    return new ExecutionSegment(from, to);
  }

  /** `from:to` or just `to` (then from 0), each a percentage, decimal or fraction; '' is the whole test. */
  static parse(text: string): ExecutionSegment {
    const value = text.trim() === '' ? '1' : text.trim();
    const colon = value.indexOf(':');
    const from = colon < 0 ? Rat.ZERO : parseRat(value.slice(0, colon));
    return ExecutionSegment.of(from, parseRat(colon < 0 ? value : value.slice(colon + 1)));
  }

  equals(o: ExecutionSegment): boolean {
    return this.from.cmp(o.from) === 0 && this.to.cmp(o.to) === 0;
  }

  toString(): string {
    return `${this.from.toString()}:${this.to.toString()}`;
  }
}

export const WHOLE_SEGMENT = ExecutionSegment.unchecked(Rat.ZERO, Rat.ONE);

/** `r1,r2,...,rn`: the segments (r1,r2], (r2,r3], ...; '' means none (the whole test). */
export function parseSequence(text: string): ExecutionSegment[] {
  if (text.trim() === '') return [];
  const points = text.split(',');
  if (points.length < 2)
    throw new ExecutionSegmentError(`at least 2 points are needed for an execution segment sequence, ${points.length} given`);
  const rats = points.map(parseRat);
  const segments: ExecutionSegment[] = [];
  for (let i = 1; i < rats.length; i++) segments.push(ExecutionSegment.of(rats[i - 1] as Rat, rats[i] as Rat));
  return segments;
}

/** k6's GetFilledExecutionSegmentSequence: the sequence (or the segment alone) padded to cover 0..1. */
export function filledSequence(sequence: readonly ExecutionSegment[], segment: ExecutionSegment | undefined): ExecutionSegment[] {
  let result: ExecutionSegment[];
  if (sequence.length === 0) {
    if (segment === undefined || segment.length.cmp(Rat.ONE) === 0) return [WHOLE_SEGMENT];
    result = [segment];
  } else result = [...sequence];
  const firstFrom = (result[0] as ExecutionSegment).from;
  if (firstFrom.cmp(Rat.ZERO) !== 0) result.unshift(ExecutionSegment.unchecked(Rat.ZERO, firstFrom));
  const lastTo = (result[result.length - 1] as ExecutionSegment).to;
  if (lastTo.cmp(Rat.ONE) !== 0) result.push(ExecutionSegment.unchecked(lastTo, Rat.ONE));
  return result;
}

function sequenceString(segments: readonly ExecutionSegment[]): string {
  return segments.length === 0
    ? ''
    : [(segments[0] as ExecutionSegment).from.toString(), ...segments.map((s) => s.to.toString())].join(',');
}

/**
 * A full sequence with its striping cached (k6's ExecutionSegmentSequenceWrapper): for each segment, the first index it
 * owns and the offsets to its next ones, repeating every `lcd` indexes.
 */
export class SequenceStripes {
  readonly lcd: number;
  /** Per segment: [start, offset1, offset2, ...] exactly as k6 keeps them. */
  private readonly offsets: number[][];

  constructor(readonly segments: readonly ExecutionSegment[]) {
    const first = segments[0];
    const last = segments[segments.length - 1];
    if (first === undefined || last === undefined || first.from.cmp(Rat.ZERO) !== 0 || last.to.cmp(Rat.ONE) !== 0) {
      throw new ExecutionSegmentError(`Cannot wrap around a non-full execution segment sequence '${sequenceString(segments)}'`);
    }
    // LCD of the lengths' denominators (k6's LCD).
    let lcd = Number(first.length.d);
    for (const s of segments.slice(1)) {
      const n = Number(s.length.d);
      if (lcd === n || lcd % n === 0) continue;
      lcd *= n / gcdNum(lcd, n);
    }
    this.lcd = lcd;
    const sorted = segments
      .map((s, originalIndex) => ({ norm: Number(s.length.n) * (lcd / Number(s.length.d)), originalIndex }))
      // sort.SliceStable by normalised numerator, biggest first.
      .sort((a, b) => b.norm - a.norm || a.originalIndex - b.originalIndex);
    const offsets: number[][] = segments.map(() => []);
    const prev = segments.map(() => 0);
    const chosen = sorted.map(() => 0);
    const save = (iteration: number, index: number, numerator: number): void => {
      const list = offsets[index] as number[];
      list.push(iteration - (prev[index] as number));
      prev[index] = iteration;
      if (list.length === numerator) list.push((list[0] as number) + lcd - iteration);
    };
    for (let i = 0; i < lcd; i++) {
      for (let k = 0; k < sorted.length; k++) {
        const num = (chosen[k] as number) * lcd;
        const denom = (sorted[k] as { norm: number }).norm;
        const q = Math.floor(num / denom);
        if (i > q || (i === q && num % denom === 0)) {
          chosen[k] = (chosen[k] as number) + 1;
          save(i, (sorted[k] as { originalIndex: number }).originalIndex, denom);
          break;
        }
      }
    }
    this.offsets = offsets;
  }

  /** [start, offsets] of a segment (k6's GetStripedOffsets). */
  striped(index: number): { start: number; offsets: number[] } {
    const list = this.offsets[index] as number[];
    return { start: list[0] as number, offsets: list.slice(1) };
  }

  /** How many of `value` items the segment gets (k6's ScaleInt64 on the wrapper). */
  scale(index: number, value: number): number {
    const { start, offsets } = this.striped(index);
    let result = Math.floor(value / this.lcd) * offsets.length;
    for (let gi = 0, i = start; i < value % this.lcd; i += offsets[gi] as number, gi++) result++;
    return result;
  }

  /** The index of a segment in this sequence (k6's FindSegmentPosition). */
  position(segment: ExecutionSegment): number {
    const index = this.segments.findIndex((s) => s.from.cmp(segment.from) >= 0);
    if (index < 0 || !(this.segments[index] as ExecutionSegment).equals(segment)) {
      throw new ExecutionSegmentError(`couldn't find segment ${segment.toString()} in sequence ${this.toString()}`);
    }
    return index;
  }

  toString(): string {
    return sequenceString(this.segments);
  }
}

/**
 * One instance's view of a split test (k6's ExecutionTuple): its segment in the (filled) sequence. `scale` shares a
 * count (VUs, iterations) so the instances' shares sum to it; `index(k)` is the test-wide index of this instance's
 * k-th item (iterations, VUs); `forValue` re-segments by a value as k6 does for shared iterations and arrival rates.
 */
export class ExecutionTuple {
  constructor(
    readonly stripes: SequenceStripes,
    readonly index: number,
  ) {}

  get segment(): ExecutionSegment {
    return this.stripes.segments[this.index] as ExecutionSegment;
  }

  /** True when the test is not split (one segment 0:1). */
  get whole(): boolean {
    return this.stripes.segments.length === 1;
  }

  scale(value: number): number {
    return this.whole ? value : this.stripes.scale(this.index, value);
  }

  /** The test-wide 0-based index of this instance's k-th (0-based) item: k6's SegmentedIndex unscaled value − 1. */
  globalIndex(k: number): number {
    const { start, offsets } = this.stripes.striped(this.index);
    const cycle = Math.floor(k / offsets.length);
    let at = start + cycle * this.stripes.lcd;
    for (let j = 0; j < k % offsets.length; j++) at += offsets[j] as number;
    return at;
  }

  /** This instance's items in test-wide order (0-based indexes), without end. */
  *globalIndexes(): Generator<number> {
    const { start, offsets } = this.stripes.striped(this.index);
    let at = start;
    for (let k = 0; ; k++) {
      yield at;
      at += offsets[k % offsets.length] as number;
    }
  }

  /**
   * k6's GetNewExecutionTupleFromValue: the sequence re-cut so each segment's length is its share of `value`, dropping
   * empty ones. Undefined when this instance's share of `value` is 0 (k6: the executor has no work here).
   */
  forValue(value: number): ExecutionTuple | undefined {
    if (value < 1) return undefined;
    if (value % this.stripes.lcd === 0) return this;
    const segments: ExecutionSegment[] = [];
    let prev = 0;
    let newIndex = -1;
    for (let i = 0; i < this.stripes.segments.length; i++) {
      const share = this.stripes.scale(i, value);
      if (share === 0) continue;
      if (i === this.index) newIndex = segments.length;
      segments.push(ExecutionSegment.unchecked(new Rat(BigInt(prev), BigInt(value)), new Rat(BigInt(prev + share), BigInt(value))));
      prev += share;
    }
    if (newIndex < 0) return undefined;
    return new ExecutionTuple(new SequenceStripes(segments), newIndex);
  }

  toString(): string {
    return `${this.segment.toString()} in ${this.stripes.toString()}`;
  }
}

/** The tuple of a run's `--execution-segment` and `--execution-segment-sequence` (either may be empty), like k6. */
export function executionTuple(segmentText = '', sequenceText = ''): ExecutionTuple {
  const segment = segmentText.trim() === '' ? undefined : ExecutionSegment.parse(segmentText);
  const sequence = parseSequence(sequenceText);
  const stripes = new SequenceStripes(filledSequence(sequence, segment));
  return new ExecutionTuple(stripes, stripes.position(segment ?? WHOLE_SEGMENT));
}

/** The whole test (no split). */
export const WHOLE_TUPLE = executionTuple();
