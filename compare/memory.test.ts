// The comparison streams: its peak memory does not follow the runs' size. Two generated runs flow through named pipes
// (nothing on disk) at two sizes, 4x apart, through merge-results' reader; `COMPARE_BENCH_MB` in a bench run goes to 1 GB+.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { measureCompare } from './bench/measure-compare.ts';

const SMALL_MB = 40;
const LARGE_MB = 160;
/** The bound merge-results holds for a gigabyte of input; a comparison of two runs must stay under it too. */
const RSS_BOUND_MB = 200;
/**
 * Growth allowed from the small to the large input (V8 settles its heap; no sample is kept). Each run is read on a
 * thread whose young generation is capped (compare/run-samples-thread.ts, as merge-results reads), so the bound is the
 * same on every Node: measured +12 MB on Node 20 and +9 MB on Node 24 from 40 to 160 MB of input (before the cap:
 * +40 MB on Node 20, +47 MB on Node 24).
 */
const GROWTH_BOUND_MB = 40;

const hasMkfifo = spawnSync('mkfifo', ['--version']).status === 0;
if (!hasMkfifo) console.warn('compare/memory.test.ts: no mkfifo on this machine: the memory bound test is SKIPPED');

describe.skipIf(!hasMkfifo)('compare memory', () => {
  it(`stays under ${RSS_BOUND_MB} MB and does not grow with the input (${SMALL_MB} MB vs ${LARGE_MB} MB of NDJSON, two runs)`, async () => {
    const small = await measureCompare(SMALL_MB * 1e6);
    const large = await measureCompare(LARGE_MB * 1e6);
    console.log(
      `compare peak RSS: ${small.maxRssMB} MB for ${small.inputMB} MB (${small.requests} requests), ${large.maxRssMB} MB for ${large.inputMB} MB (${large.requests} requests)`,
    );
    expect(large.requests).toBeGreaterThan(3.5 * small.requests);
    expect(large.maxRssMB).toBeLessThan(RSS_BOUND_MB);
    expect(large.maxRssMB - small.maxRssMB).toBeLessThan(GROWTH_BOUND_MB);
  }, 180_000);
});
