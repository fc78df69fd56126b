// Exact decimal arithmetic behind the money rule: doubles read as the decimals they print as, exact sums and
// products, half-away-from-zero rounding only when asked, and the money helpers built on it.
import { describe, expect, it } from 'vitest';
import { add, compare, decimalOf, mul, round, shift, sub, toNumber, toText } from './decimal.ts';
import { convert, formatExact, moneyAdd, moneySub, moneyTimes, priceOf, withinBounds } from './money.ts';

describe('decimal', () => {
  it('reads a double as the decimal it prints as', () => {
    expect(toText(decimalOf(4.995))).toBe('4.995');
    expect(toText(decimalOf(12.345))).toBe('12.345');
    expect(toText(decimalOf(-0.5))).toBe('-0.5');
    expect(toText(decimalOf(1e-7))).toBe('0.0000001');
    expect(toText(decimalOf(1.5e21))).toBe('1500000000000000000000');
    expect(toText(decimalOf(100))).toBe('100');
  });

  it('refuses NaN and infinities', () => {
    expect(() => decimalOf(Number.NaN)).toThrow(RangeError);
    expect(() => decimalOf(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it('adds, subtracts and multiplies exactly', () => {
    expect(toNumber(add(decimalOf(0.1), decimalOf(0.2)))).toBe(0.3);
    expect(toNumber(sub(decimalOf(1), decimalOf(0.9)))).toBe(0.1);
    expect(toText(mul(decimalOf(12.345), decimalOf(96.5)))).toBe('1191.2925');
    expect(toText(shift(decimalOf(1191.2925), 2))).toBe('11.912925');
  });

  it('rounds half away from zero, only when asked', () => {
    expect(toText(round(decimalOf(4.995), 2))).toBe('5');
    expect(toText(round(decimalOf(-4.995), 2))).toBe('-5');
    expect(toText(round(decimalOf(4.994), 2))).toBe('4.99');
    expect(toText(round(decimalOf(4.9), 2))).toBe('4.9');
  });

  it('compares exactly', () => {
    expect(compare(decimalOf(4.995), decimalOf(5))).toBe(-1);
    expect(compare(decimalOf(5), decimalOf(5.0))).toBe(0);
    expect(compare(decimalOf(100.001), decimalOf(100))).toBe(1);
  });
});

describe('money helpers', () => {
  it('bounds hold on the amount as sent', () => {
    const bounds = { min: 5, max: 100, currency: 'USD' };
    expect(withinBounds(4.995, bounds)).toBe(false);
    expect(withinBounds(5, bounds)).toBe(true);
    expect(withinBounds(100, bounds)).toBe(true);
    expect(withinBounds(100.001, bounds)).toBe(false);
  });

  it('prices exactly: discount off, fee on', () => {
    expect(priceOf(12.345, 3.5, 0.1)).toBe(12.012925);
    expect(priceOf(10, 0, 0)).toBe(10);
    expect(priceOf(4.5, 3.5, 0)).toBe(4.3425);
  });

  it('sums without binary residue', () => {
    expect(moneyAdd(0.1, 0.2)).toBe(0.3);
    expect(moneySub(1, 0.9)).toBe(0.1);
    expect(moneyTimes(19.99, 3)).toBe(59.97);
  });

  it('converts currencies to the cent, and not at all at rate 1', () => {
    expect(convert(12.345, 1)).toBe(12.345);
    expect(convert(1000, 1 / 156.2)).toBe(6.4);
  });

  it('prints at least two decimals and never rounds', () => {
    expect(formatExact(5)).toBe('5.00');
    expect(formatExact(5.5)).toBe('5.50');
    expect(formatExact(12.345)).toBe('12.345');
  });
});
