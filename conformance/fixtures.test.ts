// Run timing and settings: the small pure pieces the cases are timed and configured by (number plans, numbers and
// amounts are api/catalog-facts.ts, tested there). A wrong timeout here would make a faithful gateway look broken.
import { describe, expect, test } from 'vitest';
import { parseSettings } from '../target/settings.ts';
import { SPEC_DURATIONS, computeTiming, DEFAULT_TIMING_INPUT } from './timing.ts';

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
    expect(() => parseSettings({ numbers: { JM: { prefix: '18a', nationalLength: 7 } } }, 'my.json')).toThrow(
      /numbers\.JM\.prefix \(from my\.json\)/,
    );
    expect(() => parseSettings({ unknown: 1 }, 'my.json')).toThrow(/GH_ERR_CONFIG|unrecognized|Unrecognized/i);
    expect(parseSettings({ loanNumbers: ['18761234567'] }, 'x').loanNumbers).toEqual(['18761234567']);
  });
});
