// Executor schedule math, table-driven: ramping-vus targets over time, arrival-rate start times and counts, and how
// worker segments share VUs and iterations (the shares add up to the whole, so merged runs equal one run).
import { describe, expect, it } from 'vitest';
import { constantArrivalTimes, rampingArrivalTimes, rampingVUsAt, shareOf } from './schedule.ts';

describe('rampingVUsAt', () => {
  const stages = [
    { durationMs: 10_000, target: 10 },
    { durationMs: 5_000, target: 10 },
    { durationMs: 10_000, target: 0 },
  ];
  it.each([
    [0, 0],
    [999, 0],
    [1_000, 1],
    [5_000, 5],
    [9_999, 9],
    [10_000, 10],
    [14_999, 10],
    [15_000, 10],
    [16_000, 9],
    [20_000, 5],
    [25_000, 0],
    [30_000, 0],
  ])('at %i ms → %i VUs', (t, vus) => {
    expect(rampingVUsAt(0, stages, t)).toBe(vus);
  });

  it('jumps at once on a zero-length stage', () => {
    expect(
      rampingVUsAt(
        1,
        [
          { durationMs: 0, target: 7 },
          { durationMs: 1000, target: 7 },
        ],
        0,
      ),
    ).toBe(7);
  });
});

describe('arrival-rate schedules', () => {
  it.each([
    [100, 1_000, 2_000, 200],
    [3, 1_000, 1_000, 3],
    [1, 1_000, 10_500, 11],
    [50, 60_000, 60_000, 50],
  ])('constant %i per %i ms for %i ms starts %i iterations', (rate, unit, duration, count) => {
    const times = [...constantArrivalTimes(rate, unit, duration)];
    expect(times).toHaveLength(count);
    expect(times[0]).toBe(0);
    expect(times[1] ?? unit / rate).toBeCloseTo(unit / rate, 9);
  });

  it.each([
    [0, [{ durationMs: 10_000, target: 100 }], 499],
    [
      0,
      [
        { durationMs: 1_000, target: 100 },
        { durationMs: 1_000, target: 100 },
      ],
      149,
    ],
    [50, [{ durationMs: 2_000, target: 50 }], 99],
    [100, [{ durationMs: 4_000, target: 0 }], 199],
    [
      0,
      [
        { durationMs: 1_000, target: 10 },
        { durationMs: 1_500, target: 10 },
      ],
      19,
    ],
  ])('ramping from %i over %j starts the area under the rate curve, less the one due at the very end', (startRate, stages, count) => {
    const times = [...rampingArrivalTimes(startRate, 1_000, stages)];
    expect(times).toHaveLength(count);
    for (let i = 1; i < times.length; i++) expect(times[i] as number).toBeGreaterThanOrEqual(times[i - 1] as number);
  });

  it.each([1, 2, 3, 4])('%i worker segments together start exactly the iterations of one', (workers) => {
    const whole = [...constantArrivalTimes(97, 1_000, 3_000)];
    const parts = Array.from({ length: workers }, (_, index) => [...constantArrivalTimes(97, 1_000, 3_000, { index, count: workers })])
      .flat()
      .sort((a, b) => a - b);
    expect(parts).toEqual(whole);
    const rampWhole = [...rampingArrivalTimes(0, 1_000, [{ durationMs: 2_000, target: 80 }])];
    const rampParts = Array.from({ length: workers }, (_, index) => [
      ...rampingArrivalTimes(0, 1_000, [{ durationMs: 2_000, target: 80 }], { index, count: workers }),
    ])
      .flat()
      .sort((a, b) => a - b);
    expect(rampParts).toEqual(rampWhole);
  });
});

describe('shareOf', () => {
  it.each([
    [10, 3],
    [1, 4],
    [7, 7],
    [1000, 2],
  ])('splits %i among %i workers without loss', (total, count) => {
    const shares = Array.from({ length: count }, (_, index) => shareOf(total, { index, count }));
    expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
    expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
  });
});
