// One run per report directory: a lock file made with O_EXCL holding the run's pid and id, so a second run into the
// same directory is refused (naming the holder) instead of both writing one ledger and one metric stream.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../api/errors.ts';

export const DIR_LOCK_FILE = '.gateway-harness.lock';

export interface DirLock {
  release(): void;
}

interface Holder {
  readonly pid: number;
  readonly runId: string;
  readonly since: string;
}

function readHolder(path: string): Holder | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>;
    return typeof value.pid === 'number'
      ? { pid: value.pid, runId: String(value.runId ?? '?'), since: String(value.since ?? '?') }
      : undefined;
  } catch {
    return undefined;
  }
}

/** True while the process lives (EPERM: it lives, owned by someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tryCreate(path: string, holder: Holder): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, JSON.stringify(holder));
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Takes the directory for one run; throws GH_ERR_USAGE (exit 2) naming the holder's pid and run when a live process
 * holds it. A lock left by a dead process (kill -9) is taken over.
 */
export function lockReportDir(dir: string, runId: string): DirLock {
  const path = join(dir, DIR_LOCK_FILE);
  const mine: Holder = { pid: process.pid, runId, since: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    if (tryCreate(path, mine)) return { release: () => releaseIfMine(path, runId) };
    const holder = readHolder(path);
    if (holder !== undefined && processAlive(holder.pid)) {
      throw new HarnessError(
        'GH_ERR_USAGE',
        `report directory ${dir} is in use by run ${holder.runId} (pid ${holder.pid}, since ${holder.since}); wait for it to end or name another --report-dir`,
      );
    }
    // The holder is gone (or the file half-written by a process that died): taken over.
    rmSync(path, { force: true });
  }
  throw new HarnessError('GH_ERR_USAGE', `report directory ${dir}: another run took its lock meanwhile; name another --report-dir`);
}

function releaseIfMine(path: string, runId: string): void {
  const holder = readHolder(path);
  if (holder?.pid === process.pid && holder.runId === runId) rmSync(path, { force: true });
}
