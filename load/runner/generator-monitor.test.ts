// The /proc readings of the generator monitor: CPU from a stat line (a command name with spaces and parens), shares of
// the cores between two readings, and a live reading of this very process.
import { describe, expect, it } from 'vitest';
import { cpuMsOfStat, cpusInList, pointBetween, procTimes } from './generator-monitor.ts';

describe('the /proc readings', () => {
  it('reads utime + stime (fields 14 and 15, in 1/100 s) after a command name holding spaces and parens', () => {
    const stat = '4242 (k6 (run) x) S 1 4242 1 0 -1 4194304 124 0 0 0 150 50 0 0 20 0 12 0 26863 3133440 393';
    expect(cpuMsOfStat(stat)).toBe(2000);
  });

  it('turns two readings into shares of the cores and the wait per wake-up', () => {
    const point = pointBetween({ cpuMs: 1000, waitMs: 100, slices: 10 }, { cpuMs: 2800, waitMs: 1100, slices: 110 }, 1000, 2, 5000);
    expect(point).toEqual({ t: 5000, cpuShare: 0.9, runQueueShare: 0.5, waitPerSliceMs: 10 });
  });

  it('counts the CPUs of a Cpus_allowed_list (the cores a pinned k6 may use), none for a list it cannot read', () => {
    expect(cpusInList('0')).toBe(1);
    expect(cpusInList('0-3,6\n')).toBe(5);
    expect(cpusInList('1,3-4')).toBe(3);
    expect(cpusInList('')).toBeUndefined();
    expect(cpusInList('3-1')).toBeUndefined();
  });

  it.skipIf(process.platform !== 'linux')('reads this process while it runs', () => {
    const times = procTimes(process.pid);
    expect(times?.cpuMs).toBeGreaterThan(0);
    expect(times?.slices).toBeGreaterThan(0);
  });
});
