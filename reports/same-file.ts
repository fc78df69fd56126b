// Whether two paths name one file after links are followed: the real path of the nearest existing directory (a
// symlinked directory is the directory it points to) and, when both exist, device and inode (hard links too).
import { existsSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** The path with every symbolic link in its existing part resolved. */
export function realPathOf(path: string): string {
  const absolute = resolve(path);
  if (existsSync(absolute)) return realpathSync(absolute);
  const parent = dirname(absolute);
  return parent === absolute ? absolute : join(realPathOf(parent), basename(absolute));
}

export function sameFile(a: string, b: string): boolean {
  if (realPathOf(a) === realPathOf(b)) return true;
  if (!existsSync(a) || !existsSync(b)) return false;
  const sa = statSync(a);
  const sb = statSync(b);
  return sa.dev === sb.dev && sa.ino === sb.ino;
}
