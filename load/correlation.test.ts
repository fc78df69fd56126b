// correlationIds of load runs: unique across VUs, iterations and instances (distributed runs), within 50 characters.
import { describe, expect, it } from 'vitest';
import { MAX_CORRELATION_ID_LENGTH, createCorrelationIds, instanceToken } from './correlation.ts';

describe('correlation ids', () => {
  it('never repeat across instances, VUs and iterations, and stay within the spec limit', () => {
    const seen = new Set<string>();
    // Three "pods" started in the same millisecond whose VU numbers and iterations repeat.
    for (let pod = 0; pod < 3; pod++) {
      const ids = createCorrelationIds(instanceToken(Math.random, () => 1_700_000_000_000));
      for (let vu = 1; vu <= 20; vu++) {
        for (let iteration = 0; iteration < 50; iteration++) {
          for (let n = 0; n < 2; n++) {
            const id = ids.next(vu, iteration);
            expect(id.length).toBeLessThanOrEqual(MAX_CORRELATION_ID_LENGTH);
            expect(seen.has(id), id).toBe(false);
            seen.add(id);
          }
        }
      }
    }
    expect(seen.size).toBe(3 * 20 * 50 * 2);
  });

  it('differ between two instances with the same clock, VU and iteration (the random part of the token)', () => {
    const clock = () => 1_700_000_000_000;
    let r = 0;
    const sequence = () => (r += 0.1) % 1;
    const a = createCorrelationIds(instanceToken(sequence, clock)).next(1, 0);
    const b = createCorrelationIds(instanceToken(sequence, clock)).next(1, 0);
    expect(a).not.toBe(b);
  });

  it('stay short for a long run (a million VUs, a billion iterations)', () => {
    expect(createCorrelationIds(instanceToken()).next(1_000_000, 1_000_000_000).length).toBeLessThanOrEqual(MAX_CORRELATION_ID_LENGTH);
  });

  it('refuse to exceed the limit rather than truncate into a duplicate', () => {
    expect(() => createCorrelationIds('x'.repeat(40)).next(123456, 123456)).toThrow(/exceeds 50 characters/);
  });
});
