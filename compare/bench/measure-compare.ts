// Measures the comparison's peak memory on generated runs of a given size: each run's dir holds a named pipe as its
// metrics.ndjson, fed by the merge bench's generator (nothing on disk), read by a compare process that reports its RSS.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTsx } from '../../distributed/bench/measure-merge.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

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
    const made = spawnSync('mkfifo', fifos);
    if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr.toString()}`);
    const compare = runTsx(['compare/bench/compare-rss.ts', ...runs], ROOT);
    const generate = runTsx(['distributed/bench/generate-ndjson.ts', '--bytes-per-instance', String(Math.ceil(totalBytes / 2)), ...fifos], ROOT);
    try {
      const [out] = await Promise.all([compare.done, generate.done]);
      const result = JSON.parse(out.trim().split('\n').pop() ?? '{}') as Omit<CompareMeasure, 'inputMB'>;
      return { inputMB: Math.round(totalBytes / 1e6), ...result };
    } catch (error) {
      compare.kill();
      generate.kill();
      throw error;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
