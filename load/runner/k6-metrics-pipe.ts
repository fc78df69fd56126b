// A named pipe k6 writes its `--out json` stream into, read by the runner as k6 writes it: the per-second aggregates
// are made on the fly and the raw stream never reaches the disk (unless the user asked for it with --out json=FILE).
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HarnessError } from '../../api/errors.ts';

export interface MetricsPipe {
  /** Where k6 writes (`--out json=PATH`). */
  readonly path: string;
  /** After k6 has exited: waits for the last bytes, then removes the pipe. */
  close(): Promise<void>;
}

/**
 * Makes the pipe and starts reading it. The read end opens without waiting for a writer, and a write end of our own
 * stays open until close(): so a k6 that never opens the pipe (a script error) cannot hang the run, and the stream
 * ends only once k6 is gone and every byte it wrote was read.
 */
export function openMetricsPipe(onText: (chunk: string) => void): MetricsPipe {
  const dir = mkdtempSync(join(tmpdir(), 'gh-k6-metrics-'));
  const path = join(dir, 'metrics.ndjson');
  try {
    execFileSync('mkfifo', ['-m', '600', path]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new HarnessError(
      'GH_ERR_CONFIG',
      `cannot make a named pipe for k6's metrics (mkfifo: ${error instanceof Error ? error.message : String(error)}); pass --out json=FILE to keep k6's stream in a file instead`,
    );
  }
  const readFd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const keeper = openSync(path, constants.O_WRONLY);
  const socket = new Socket({ fd: readFd, readable: true, writable: false });
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => onText(chunk));
  const ended = new Promise<void>((resolveEnd) => {
    socket.once('end', resolveEnd);
    socket.once('close', () => resolveEnd());
    socket.once('error', () => resolveEnd());
  });
  return {
    path,
    close: async () => {
      closeSync(keeper);
      await ended;
      socket.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
