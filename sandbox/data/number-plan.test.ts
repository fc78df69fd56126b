// Tests of the number plans: longest-prefix country match and "must follow the country's format" (Jamaica 1876 + 7 digits).
// A table of numbers per country, plus a round trip over every country's sample number.
import { describe, expect, it } from 'vitest';
import { countryOfNumber, generateSandboxData, isValidNumberForCountry, nationalNumber, normalizeMobile } from './index.ts';
import type { Country } from './index.ts';

const data = generateSandboxData(3, { now: Date.UTC(2025, 0, 15) });
const country = (code: string): Country => data.index.countryByCode.get(code) as Country;

describe('countryOfNumber + isValidNumberForCountry', () => {
  it.each<[string, string | undefined, boolean]>([
    ['18762345678', 'JM', true],
    ['+18762345678', 'JM', true],
    ['1876234567', 'JM', false],
    ['187623456789', 'JM', false],
    ['12125551234', 'US', true],
    ['1212555123', 'US', false],
    ['18682345678', 'TT', true],
    ['18292345678', 'DO', true],
    ['919876543210', 'IN', true],
    ['91987654321', 'IN', false],
    ['923001234567', 'PK', true],
    ['525512345678', 'MX', true],
    ['34612345678', 'ES', true],
    ['3461234567', 'ES', false],
    ['447700900123', 'GB', true],
    ['9771234567890', 'NP', true],
    ['5511987654321', 'BR', true],
    ['999123456789', undefined, false],
    ['', undefined, false],
    ['1876-234-5678', undefined, false],
    ['abc', undefined, false],
  ])('%s -> %s (valid %s)', (mobile, code, valid) => {
    const found = countryOfNumber(data, mobile);
    expect(found?.countryCode).toBe(code);
    if (found !== undefined) expect(isValidNumberForCountry(found, mobile)).toBe(valid);
  });

  it('never takes a number of another NANP country for a US number', () => {
    expect(isValidNumberForCountry(country('US'), '18762345678')).toBe(false);
    expect(isValidNumberForCountry(country('US'), '12462345678')).toBe(false);
    expect(isValidNumberForCountry(country('JM'), '12125551234')).toBe(false);
  });

  it('round-trips every country sample number', () => {
    for (const c of data.countries) {
      const mobile = data.samples.validMobiles[c.countryCode] as string;
      expect(countryOfNumber(data, mobile)?.countryCode).toBe(c.countryCode);
      expect(isValidNumberForCountry(c, mobile)).toBe(true);
      expect(nationalNumber(c, mobile)?.length).toBe(c.nationalNumberLength);
      expect(Number(c.numberLength)).toBe(mobile.length - c.internationalCountryCode.length);
    }
  });

  it('normalizes only a leading plus', () => {
    expect(normalizeMobile('+123')).toBe('123');
    expect(normalizeMobile('1 23')).toBeUndefined();
    expect(normalizeMobile('1'.repeat(40))).toBeUndefined();
  });
});
