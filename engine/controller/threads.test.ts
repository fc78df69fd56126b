// How many worker threads a run gets: 'auto' scales with the VUs up to the machine's cores; a number is taken as given.
import { describe, expect, test } from 'vitest';
import { consolidateOptions } from '../options.ts';
import { workerCount } from './threads.ts';

const withVUs = (vus: number) => consolidateOptions({ vus, duration: '10s' });

describe('workerCount', () => {
  test("'auto': one worker for a small test, one per 6 VUs above that, never more than the cores", () => {
    expect(workerCount('auto', withVUs(2), 2)).toBe(1);
    expect(workerCount('auto', withVUs(6), 2)).toBe(1);
    expect(workerCount('auto', withVUs(7), 2)).toBe(2);
    expect(workerCount('auto', withVUs(1000), 2)).toBe(2);
    expect(workerCount('auto', withVUs(1000), 16)).toBe(16);
    expect(workerCount('auto', withVUs(30), 16)).toBe(5);
    expect(workerCount('auto', withVUs(1), 1)).toBe(1);
  });

  test('counts the VUs of every scenario', () => {
    const options = consolidateOptions({
      scenarios: {
        a: { executor: 'constant-vus', vus: 5, duration: '5s' },
        b: { executor: 'per-vu-iterations', vus: 5, iterations: 1 },
      },
    });
    expect(workerCount('auto', options, 8)).toBe(2);
  });

  test('a number is taken as given; anything else is refused', () => {
    expect(workerCount(3, withVUs(2), 2)).toBe(3);
    expect(() => workerCount(0, withVUs(2), 2)).toThrow(/whole number ≥ 1/);
    expect(() => workerCount(1.5, withVUs(2), 2)).toThrow(/whole number ≥ 1/);
  });
});
