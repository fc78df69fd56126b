// The real k6 binaries the tests and benches compare against: the one the harness would run (K6_BIN, else k6 on PATH)
// and the newest beside it (K6_LATEST_BIN, else k6-latest next to it), each with its version: both ends of the range.
import { execFileSync } from 'node:child_process';
import { findK6, findLatestK6 } from '../engine-select.ts';
import { K6_DEFAULT_ENV } from './k6-process.ts';

export interface K6Binary {
  readonly path: string;
  /** `v0.48.0`, or the path when `k6 version` says nothing readable. */
  readonly version: string;
}

export function k6Version(path: string): string {
  try {
    return /v\d+\.\d+\.\d+/.exec(execFileSync(path, ['version'], { encoding: 'utf8', env: { ...process.env, ...K6_DEFAULT_ENV } }))?.[0] ?? path;
  } catch {
    return path;
  }
}

/** The oldest-supported and newest k6 found (none, one or two), oldest first. */
export function supportedK6s(env: NodeJS.ProcessEnv = process.env): K6Binary[] {
  const first = findK6(env);
  const latest = findLatestK6(env, first);
  return [first?.path, latest].filter((p): p is string => p !== undefined).map((path) => ({ path, version: k6Version(path) }));
}
