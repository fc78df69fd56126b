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
    return (
      /v\d+\.\d+\.\d+/.exec(execFileSync(path, ['version'], { encoding: 'utf8', env: { ...process.env, ...K6_DEFAULT_ENV } }))?.[0] ?? path
    );
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

/**
 * Both ends of the supported range as comparison slots for `describe.each`: [label, path], the path undefined when that
 * k6 is absent. A missing one is said on stderr (prefixed with `who`), so a skipped comparison never looks like a pass.
 */
export function k6ComparisonSlots(who: string, env: NodeJS.ProcessEnv = process.env): Array<[string, string | undefined]> {
  const first = findK6(env);
  const slots: Array<[string, string | undefined]> = [
    ['k6 (K6_BIN or k6 on PATH)', first?.path],
    ['k6 latest (K6_LATEST_BIN or k6-latest beside k6)', findLatestK6(env, first)],
  ];
  for (const [label, path] of slots) if (path === undefined) process.stderr.write(`${who}: ${label} not found, skipping its comparison\n`);
  return slots;
}
