// Measures the comparison's peak memory on generated runs of a given size: each run's dir holds a named pipe as its
// metrics.ndjson, fed by the merge bench's generator (nothing on disk), read by a compare process that reports its RSS.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureThroughFifos } from '../../distributed/bench/measure-merge.ts';

export interface CompareMeasure {
  readonly inputMB: number;
  readonly maxRssMB: number;
  readonly requests: number;
  readonly seconds: number;
}

/** Two runs of `totalBytes / 2` NDJSON each through named pipes into one comparison in a child process. */
export async function measureCompare(totalBytes: number): Promise<CompareMeasure> {
  const dir = mkdtempSync(join(tmpdir(), 'gh-compare-rss-'));
  try {
    const runs = ['baseline', 'candidate'].map((name) => join(dir, name));
    for (const run of runs) mkdirSync(run);
    const fifos = runs.map((run) => join(run, 'metrics.ndjson'));
    const result = await measureThroughFifos<Omit<CompareMeasure, 'inputMB'>>(
      fifos,
      ['compare/bench/compare-rss.ts', ...runs],
      totalBytes / 2,
    );
    return { inputMB: Math.round(totalBytes / 1e6), ...result };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
