// Number plans, generated numbers, valid amounts and run timing: the small pure pieces the cases build requests from.
// A wrong number or amount here would make a faithful gateway look broken, so each rule is pinned.
import { describe, expect, test } from 'vitest';
import { DEFAULT_FIELD_MAPPING } from '../api/field-mapping.ts';
import { SPEC_JAMAICA_PLAN, makeMobile, planFromCountryRecord, prefixesFromCountryRecord, validAmount } from './fixtures.ts';
import { parseSettings } from './settings.ts';
import { SPEC_DURATIONS, computeTiming, DEFAULT_TIMING_INPUT } from './timing.ts';

const TRIGGERS = ['666666', '555555', '510', '500', '888'];

describe('numbers', () => {
  test("the spec's Jamaica example: 1876 followed by 7 digits", () => {
    for (let i = 0; i < 200; i++) {
      const mobile = makeMobile(SPEC_JAMAICA_PLAN) as string;
      expect(mobile).toMatch(/^1876[0-9]{7}$/);
      expect(TRIGGERS.some((t) => mobile.endsWith(t)), mobile).toBe(false);
    }
  });

  test('a requested trigger suffix, and no other trigger', () => {
    for (const suffix of TRIGGERS) {
      const mobile = makeMobile(SPEC_JAMAICA_PLAN, suffix) as string;
      expect(mobile).toMatch(/^1876[0-9]{7}$/);
      expect(mobile.endsWith(suffix)).toBe(true);
    }
    expect(makeMobile({ prefix: '91', nationalLength: 3 }, '666666')).toBeUndefined();
  });

  test('numbers of a wide plan keep out of the narrower plans inside it (US 1 vs Jamaica 1876)', () => {
    for (let i = 0; i < 300; i++) {
      const mobile = makeMobile({ prefix: '1', nationalLength: 10 }, '', new Set(), ['1876', '1809', '1849']) as string;
      expect(mobile).toMatch(/^1[0-9]{10}$/);
      expect(['1876', '1809', '1849'].some((p) => mobile.startsWith(p)), mobile).toBe(false);
    }
  });

  test('plans from catalog/countries records (calling code + area code, numberLength after the calling code)', () => {
    const jm = { countryCode: 'JM', internationalCountryCode: '1', areaCodes: '876', numberLength: '10' };
    const dominican = { countryCode: 'DO', internationalCountryCode: '1', areaCodes: '809,829,849', numberLength: '10' };
    const india = { countryCode: 'IN', internationalCountryCode: '91', areaCodes: '', numberLength: '10' };
    expect(planFromCountryRecord(jm, DEFAULT_FIELD_MAPPING)).toEqual({ prefix: '1876', nationalLength: 7 });
    expect(planFromCountryRecord(india, DEFAULT_FIELD_MAPPING)).toEqual({ prefix: '91', nationalLength: 10 });
    expect(prefixesFromCountryRecord(dominican, DEFAULT_FIELD_MAPPING)).toEqual(['1809', '1829', '1849']);
    expect(planFromCountryRecord({ countryCode: 'XX' }, DEFAULT_FIELD_MAPPING)).toBeUndefined();
  });
});

describe('amounts', () => {
  test('open range: inside the wallet-currency bounds, no currency sent', () => {
    expect(validAmount({ dialingPrefixes: [], minWalletAmount: 5, maxWalletAmount: 100 })).toEqual({ amount: 53 });
    const tight = validAmount({ dialingPrefixes: [], minWalletAmount: 5, maxWalletAmount: 5.5 });
    expect(tight?.amount).toBeGreaterThan(5);
    expect(tight?.amount).toBeLessThan(5.5);
  });

  test('fixed denomination: the face value in its own currency', () => {
    expect(validAmount({ dialingPrefixes: [], minWalletAmount: 10.92, maxWalletAmount: 10.92, minFaceValue: 798, faceValueCurrency: 'INR' })).toEqual({
      amount: 798,
      transactionCurrencyCode: 'INR',
    });
    expect(validAmount({ dialingPrefixes: [] })).toBeUndefined();
  });
});

describe('timing', () => {
  test('delay triggers: the client gives up at a third of the scaled delay at most', () => {
    for (const scale of [1, 0.1, 0.01]) {
      const timing = computeTiming({ ...DEFAULT_TIMING_INPUT, timeScale: scale });
      for (const delay of [SPEC_DURATIONS.delay555555Ms, SPEC_DURATIONS.delay666666Ms]) {
        expect(timing.delayTimeoutMs(delay)).toBeLessThanOrEqual((delay * scale) / 3 + 1);
      }
    }
    expect(computeTiming({ ...DEFAULT_TIMING_INPUT, timeScale: 1, delayTimeoutFraction: 0.9 }).delayTimeoutMs(90_000)).toBe(30_000);
  });

  test('at scale 1: 30 s requests, 5 s polls, a deadline past the 2-minute service timeout', () => {
    const timing = computeTiming({ ...DEFAULT_TIMING_INPUT, timeScale: 1 });
    expect(timing.requestTimeoutMs).toBe(30_000);
    expect(timing.pollIntervalMs).toBe(5_000);
    expect(timing.pollDeadlineMs).toBeGreaterThan(SPEC_DURATIONS.serviceTimeoutMs);
  });

  test('fast scales keep a real-time floor on ordinary timeouts, never on the delay timeouts', () => {
    const timing = computeTiming({ ...DEFAULT_TIMING_INPUT, timeScale: 0.01 });
    expect(timing.requestTimeoutMs).toBe(DEFAULT_TIMING_INPUT.minRequestTimeoutMs);
    expect(timing.delayTimeoutMs(SPEC_DURATIONS.delay555555Ms)).toBe(300);
  });
});

describe('settings', () => {
  test('a bad value names the field and its source', () => {
    expect(() => parseSettings({ numbers: { JM: { prefix: '18a', nationalLength: 7 } } }, 'my.json')).toThrow(/numbers\.JM\.prefix \(from my\.json\)/);
    expect(() => parseSettings({ unknown: 1 }, 'my.json')).toThrow(/GH_ERR_CONFIG|unrecognized|Unrecognized/i);
    expect(parseSettings({ loanNumbers: ['18761234567'] }, 'x').loanNumbers).toEqual(['18761234567']);
  });
});
