// The capacity search against a fake measurement with a known boundary: it finds the boundary within its precision,
// stops, never measures a VU count twice, and keeps to its budget and ceiling.
import { describe, expect, it } from 'vitest';
import { searchCapacity, type SearchSettings } from './search.ts';

/** Meets the goal up to `boundary` VUs; each measurement takes `stepMs` of a fake clock. */
function fake(boundary: number, overrides: Partial<SearchSettings<number>> = {}, stepMs = 7_000) {
  let clock = 0;
  const measured: number[] = [];
  const settings: SearchSettings<number> = {
    startVus: 10,
    maxVus: 1_000,
    precision: 0.1,
    budgetMs: 10 * 60_000,
    now: () => clock,
    measure: (vus) => {
      measured.push(vus);
      clock += stepMs;
      return Promise.resolve({ ok: vus <= boundary, detail: vus * 3 });
    },
    ...overrides,
  };
  return { settings, measured };
}

describe('the capacity search', () => {
  it('doubles to the first failure, then bisects to within its precision, and keeps the last good measurement', async () => {
    const { settings, measured } = fake(137);
    const r = await searchCapacity(settings);
    expect(r.stoppedBy).toBe('bracket');
    expect(r.capacity?.vus).toBeLessThanOrEqual(137);
    expect(r.capacity?.vus).toBeGreaterThanOrEqual(137 * 0.9);
    expect(r.capacity?.detail).toBe((r.capacity?.vus ?? 0) * 3);
    expect(r.firstBad).toBeGreaterThan(137);
    expect((r.firstBad ?? 0) - (r.capacity?.vus ?? 0)).toBeLessThanOrEqual(Math.max(1, Math.floor((r.capacity?.vus ?? 0) * 0.1)));
    expect(measured.slice(0, 5)).toEqual([10, 20, 40, 80, 160]);
    expect(new Set(measured).size).toBe(measured.length);
  });

  it('halves down when even the start fails, and says so when nothing meets the goal', async () => {
    const some = fake(3);
    expect((await searchCapacity(some.settings)).capacity?.vus).toBe(3);
    expect(some.measured.slice(0, 3)).toEqual([10, 5, 2]);
    const none = fake(0);
    const r = await searchCapacity(none.settings);
    expect(r).toMatchObject({ capacity: undefined, firstBad: 1, stoppedBy: 'floor' });
  });

  it('stops at the ceiling when every step meets the goal', async () => {
    const { settings, measured } = fake(1e9, { maxVus: 300 });
    const r = await searchCapacity(settings);
    expect(r).toMatchObject({ capacity: { vus: 300 }, firstBad: undefined, stoppedBy: 'ceiling' });
    expect(measured).toEqual([10, 20, 40, 80, 160, 300]);
  });

  it('starts no step the budget cannot hold (the slowest step so far must still fit)', async () => {
    const { settings, measured } = fake(137, { budgetMs: 30_000 });
    const r = await searchCapacity(settings);
    expect(r.stoppedBy).toBe('budget');
    // 7 s a step: the fifth would end at 35 s, past 30 s.
    expect(measured).toEqual([10, 20, 40, 80]);
    expect(r.capacity?.vus).toBe(80);
  });
});
