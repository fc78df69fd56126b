// Free space for a k6 run's ledger: k6 cannot wait for its ledger line to be durable (it logs it and sends), so on a
// full disk the line would be lost while the charge leaves. The harness refuses to start without headroom and stops k6
// (at once) when the report dir's free space falls under a floor, long before a line could fail to be written.
import { statfsSync } from 'node:fs';
import { EXIT, HarnessError } from '../api/errors.ts';

export interface DiskHeadroom {
  /** Free bytes needed to start a guarded k6 run. */
  readonly startBytes: number;
  /** Under this many free bytes k6 is stopped: what VUs in flight may still log fits in it. */
  readonly stopBytes: number;
}

export const DEFAULT_DISK_HEADROOM: DiskHeadroom = Object.freeze({ startBytes: 16 * 1024 * 1024, stopBytes: 4 * 1024 * 1024 });

/** How often (ms) the free space is read during a guarded k6 run. */
export const HEADROOM_POLL_MS = 50;

/** Free bytes for an unprivileged writer on the file system holding `dir`; undefined when it cannot be told. */
export function freeBytes(dir: string): number | undefined {
  try {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return undefined;
  }
}

const kib = (n: number): string => `${Math.floor(n / 1024)} KiB`;

/** Refuses (GH_ERR_LEDGER, exit 2) a guarded k6 run whose report dir has less free space than it needs to start. */
export function assertHeadroom(dir: string, headroom: DiskHeadroom): void {
  const free = freeBytes(dir);
  if (free === undefined || free >= headroom.startBytes) return;
  throw new HarnessError(
    'GH_ERR_LEDGER',
    `${dir} has ${kib(free)} free: a k6 run that charges needs at least ${kib(headroom.startBytes)} there for its ledger (k6 cannot wait for a line to be on disk); nothing was sent — free some space or name another --report-dir`,
    { exitCode: EXIT.usage },
  );
}

/** A line for the output when the free space fell under the floor (undefined while it has not). */
export function headroomLow(dir: string, headroom: DiskHeadroom): string | undefined {
  const free = freeBytes(dir);
  return free !== undefined && free < headroom.stopBytes ? `${dir} has ${kib(free)} free (under ${kib(headroom.stopBytes)})` : undefined;
}

/** Why a ledger write failed, for the output: ENOSPC (or a quota) said as a full disk at the ledger's path. */
export function whyNotWritten(path: string, error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return `disk full at ${path}`;
  return `cannot write the ledger ${path} (${error instanceof Error ? error.message : String(error)})`;
}
