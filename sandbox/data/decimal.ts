// Exact decimal arithmetic for the sandbox's money: a double is read through its shortest decimal text (4.995 is 4.995,
// not 4.99499999...), sums, differences and products are exact (BigInt), and only an explicit round() rounds.
// Why: bounds and charges must be computed on the amount as sent, never on a binary approximation of it.

/** value = units / 10^scale; normalized (no trailing zero digits in units unless scale is 0). */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

const NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/;

function normalize(units: bigint, scale: number): Decimal {
  let u = units;
  let s = scale;
  while (s > 0 && u % 10n === 0n) {
    u /= 10n;
    s -= 1;
  }
  if (s < 0) {
    u *= 10n ** BigInt(-s);
    s = 0;
  }
  return { units: u, scale: s };
}

/** The decimal a finite double stands for (its shortest round-trip text, as JSON printed it). */
export function decimalOf(value: number): Decimal {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite amount: ${String(value)}`);
  const match = NUMBER_TEXT.exec(String(value));
  if (match === null) throw new RangeError(`cannot read ${String(value)} as a decimal`);
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  const digits = BigInt(`${whole ?? '0'}${fraction}`);
  return normalize(sign === '-' ? -digits : digits, fraction.length - Number(exponent));
}

function aligned(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.units * 10n ** BigInt(scale - a.scale), b.units * 10n ** BigInt(scale - b.scale), scale];
}

export function add(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = aligned(a, b);
  return normalize(x + y, scale);
}

export function sub(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = aligned(a, b);
  return normalize(x - y, scale);
}

export function mul(a: Decimal, b: Decimal): Decimal {
  return normalize(a.units * b.units, a.scale + b.scale);
}

/** a / 10^places, exactly (percentages). */
export function shift(a: Decimal, places: number): Decimal {
  return normalize(a.units, a.scale + places);
}

/** Rounded to `places` decimals, half away from zero. Only currency conversions round (see money.ts). */
export function round(a: Decimal, places: number): Decimal {
  if (a.scale <= places) return a;
  const divisor = 10n ** BigInt(a.scale - places);
  const negative = a.units < 0n;
  const magnitude = negative ? -a.units : a.units;
  let q = magnitude / divisor;
  if ((magnitude % divisor) * 2n >= divisor) q += 1n;
  return normalize(negative ? -q : q, places);
}

export function compare(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const [x, y] = aligned(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Exact decimal text ("12.345", "-0.5", "7"). */
export function toText(a: Decimal): string {
  const negative = a.units < 0n;
  const digits = (negative ? -a.units : a.units).toString().padStart(a.scale + 1, '0');
  const text = a.scale === 0 ? digits : `${digits.slice(0, digits.length - a.scale)}.${digits.slice(digits.length - a.scale)}`;
  return negative ? `-${text}` : text;
}

/** The double nearest to the decimal: exact whenever the decimal has at most 15 significant digits. */
export function toNumber(a: Decimal): number {
  return Number(toText(a));
}
