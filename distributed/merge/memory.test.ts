// merge-results streams: its peak memory does not follow the input's size. Generated instance NDJSON flows through
// named pipes (nothing on disk) at two sizes, 4x apart; the full-gigabyte figure is `npm run bench:merge`.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { measureMerge } from '../bench/measure-merge.ts';

const SMALL_MB = 60;
const LARGE_MB = 240;
/** The bound the brief sets for a gigabyte of input; the large run must stay under it too. */
const RSS_BOUND_MB = 200;
/**
 * Growth allowed from the small to the large run (4x the input), the same on every supported Node. The merge keeps
 * ~10 MB live at any size; what could grow is V8's young generation, which capped-thread.ts caps (measured 60 → 240 MB:
 * Node 20 +6 MB, Node 22 -8 MB, Node 24 +7 to +13 MB; without the cap Node 24 grew +51 MB here, 277 MB at 1.1 GB).
 */
const GROWTH_BOUND_MB = 25;

const hasMkfifo = spawnSync('mkfifo', ['--version']).status === 0;
if (!hasMkfifo) console.warn('distributed/merge/memory.test.ts: no mkfifo on this machine: the memory bound test is SKIPPED');

describe.skipIf(!hasMkfifo)('merge-results memory', () => {
  it(`stays under ${RSS_BOUND_MB} MB and does not grow with the input (${SMALL_MB} MB vs ${LARGE_MB} MB of NDJSON in 3 pipes)`, async () => {
    const small = await measureMerge(SMALL_MB * 1e6);
    const large = await measureMerge(LARGE_MB * 1e6);
    console.log(
      `merge-results peak RSS on Node ${process.version}: ${small.maxRssMB} MB for ${small.inputMB} MB (${small.points} points), ${large.maxRssMB} MB for ${large.inputMB} MB (${large.points} points)`,
    );
    // Both read everything: the points scale with the input while the memory does not.
    expect(large.points).toBeGreaterThan(3.5 * small.points);
    expect(large.iterations).toBeGreaterThan(3.5 * small.iterations);
    expect(large.maxRssMB).toBeLessThan(RSS_BOUND_MB);
    expect(large.maxRssMB - small.maxRssMB).toBeLessThan(GROWTH_BOUND_MB);
  }, 180_000);
});
