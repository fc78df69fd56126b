// What a run's VUs take in memory: a VU count past three quarters of the machine is refused naming the memory it
// would need and the count that fits; a large but possible one is said up front; a small one says nothing.
import { describe, expect, it } from 'vitest';
import { checkVuMemory, runVus, VU_MEMORY_MB } from './vu-memory.ts';

const GB = 1024 ** 3;

describe('checkVuMemory', () => {
  it('--vus 100000 on a 24 GB machine is refused on both engines, with the memory it needs and what fits', () => {
    expect(() => checkVuMemory('k6', 100_000, 24 * GB)).toThrow(
      /^--vus 100000: k6 needs about 195\.3 GB for that many VUs \(2 MB each, measured\), and this machine has 24\.0 GB: use at most 9216 VUs here/,
    );
    expect(() => checkVuMemory('node', 100_000, 24 * GB)).toThrow(
      /^--vus 100000: the Node engine needs about 48\.8 GB .* use at most 36864 VUs here/,
    );
  });

  it('a large run that fits is said with its memory; a small one says nothing', () => {
    expect(checkVuMemory('k6', 2_000, 24 * GB)).toBe(
      'load: up to 2000 VUs on k6 take about 3.9 GB of memory (2 MB each, measured); starting them takes a while',
    );
    expect(checkVuMemory('node', 2_000, 24 * GB)).toBeUndefined();
    expect(checkVuMemory('k6', 300, 24 * GB)).toBeUndefined();
  });

  it('the bound is the measured figure: the largest count that fits passes, one more is refused', () => {
    const fit = Math.floor((24 * 1024 * 0.75) / VU_MEMORY_MB.node);
    expect(() => checkVuMemory('node', fit, 24 * GB)).not.toThrow();
    expect(() => checkVuMemory('node', fit + 1, 24 * GB)).toThrow(/GH_ERR_USAGE|--vus/);
  });

  it("a run's VUs: --vus, else the profile's count or arrival pool", () => {
    expect(runVus('smoke', undefined)).toBe(2);
    expect(runVus('breakpoint', undefined)).toBe(1_000);
    expect(runVus('load', 40)).toBe(40);
  });
});
