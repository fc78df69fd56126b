// Measures merge-results' peak memory on a generated stream of a given size: named pipes carry the instances' NDJSON
// from a generator process to a merge process (nothing lands on disk), and the merge reports its peak RSS.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSX = ['--import', 'tsx'];

export interface MergeMeasure {
  readonly inputMB: number;
  readonly maxRssMB: number;
  readonly points: number;
  readonly lines: number;
  readonly iterations: number;
  readonly seconds: number;
  readonly exitCode: number;
}

/** A tsx script in a child process: its stdout when it exits 0 (also the run comparison's memory measure). */
export function runTsx(args: string[], cwd: string): { done: Promise<string>; kill: () => void } {
  const child = spawn(process.execPath, [...TSX, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const done = new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args[0]} exited ${code}: ${err.slice(-800)}`))));
  });
  return { done, kill: () => child.kill('SIGKILL') };
}

/** Pipes `totalBytes` of NDJSON (split over `instances` named pipes) through merge-results in a child process. */
export async function measureMerge(totalBytes: number, instances = 3, options: { gzip?: boolean } = {}): Promise<MergeMeasure> {
  const dir = mkdtempSync(join(tmpdir(), 'gh-merge-rss-'));
  try {
    const fifos = Array.from({ length: instances }, (_, i) => join(dir, `instance-${i}.ndjson`));
    const made = spawnSync('mkfifo', fifos);
    if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr.toString()}`);
    const merge = runTsx(['distributed/bench/merge-rss.ts', join(dir, 'reports'), ...fifos], ROOT);
    const generate = runTsx(['distributed/bench/generate-ndjson.ts', '--bytes-per-instance', String(Math.ceil(totalBytes / instances)), ...(options.gzip === true ? ['--gzip'] : []), ...fifos], ROOT);
    try {
      const [out] = await Promise.all([merge.done, generate.done]);
      const result = JSON.parse(out.trim().split('\n').pop() ?? '{}') as Omit<MergeMeasure, 'inputMB'>;
      return { inputMB: Math.round(totalBytes / 1e6), ...result };
    } catch (error) {
      merge.kill();
      generate.kill();
      throw error;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
