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

/** A tsx script in a child process: its stdout when it exits 0. */
function runTsx(args: string[], cwd: string): { done: Promise<string>; kill: () => void } {
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

/**
 * Makes `fifos` named pipes, then runs `reader` (a tsx script and its arguments, which reads them and prints its measure
 * as the last stdout line, JSON) beside the generator feeding `bytesPerFifo` into each; the reader's measure. Both
 * children are killed when either fails. The merge and the comparison memory benches measure through it.
 */
export async function measureThroughFifos<M>(fifos: readonly string[], reader: string[], bytesPerFifo: number, gzip = false): Promise<M> {
  const made = spawnSync('mkfifo', fifos);
  if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr.toString()}`);
  const read = runTsx(reader, ROOT);
  const generate = runTsx(
    [
      'distributed/bench/generate-ndjson.ts',
      '--bytes-per-instance',
      String(Math.ceil(bytesPerFifo)),
      ...(gzip ? ['--gzip'] : []),
      ...fifos,
    ],
    ROOT,
  );
  try {
    const [out] = await Promise.all([read.done, generate.done]);
    return JSON.parse(out.trim().split('\n').pop() ?? '{}') as M;
  } catch (error) {
    read.kill();
    generate.kill();
    throw error;
  }
}

/** Pipes `totalBytes` of NDJSON (split over `instances` named pipes) through merge-results in a child process. */
export async function measureMerge(totalBytes: number, instances = 3, options: { gzip?: boolean } = {}): Promise<MergeMeasure> {
  const dir = mkdtempSync(join(tmpdir(), 'gh-merge-rss-'));
  try {
    const fifos = Array.from({ length: instances }, (_, i) => join(dir, `instance-${i}.ndjson`));
    const result = await measureThroughFifos<Omit<MergeMeasure, 'inputMB'>>(
      fifos,
      ['distributed/bench/merge-rss.ts', join(dir, 'reports'), ...fifos],
      totalBytes / instances,
      options.gzip === true,
    );
    return { inputMB: Math.round(totalBytes / 1e6), ...result };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
