// The k6/http request timeout goes through the engine's one duration parser, so every timeout k6 accepts works here.
// (It once had its own `ms|s|m` regex that refused '1m30s'.)
import { describe, expect, it } from 'vitest';
import { requestTimeoutMs } from './http.ts';

describe('k6/http params.timeout', () => {
  it.each([
    [undefined, 60_000],
    ['1m30s', 90_000],
    ['500ms', 500],
    ['2h', 7_200_000],
    ['1.5s', 1_500],
    [2500, 2_500],
  ])('%s → %d ms, as k6 reads it', (value, ms) => {
    expect(requestTimeoutMs(value)).toBe(ms);
  });

  it.each(['soon', '10', '5 s', '1x', ''])('refuses %j naming the param', (value) => {
    expect(() => requestTimeoutMs(value)).toThrow(/http params\.timeout/);
  });
});
