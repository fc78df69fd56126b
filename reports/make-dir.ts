// Creates a report directory and its missing parents, one mkdir each. Node's own recursive mkdir spins forever on some
// paths (`/proc/foo` on Linux: ENOENT forever), so a bad --report-dir would hang the command instead of one line.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Makes `dir` (and its missing parents); throws the first mkdir's error (code ENOENT, EACCES, ENOTDIR, ...) once. */
export function makeDirectory(dir: string): void {
  const missing: string[] = [];
  let current = resolve(dir);
  while (!existsSync(current)) {
    missing.push(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const path of missing.reverse()) {
    try {
      mkdirSync(path);
    } catch (error) {
      // Made meanwhile by another process (two runs sharing reports/out): what was wanted exists.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && statSync(path).isDirectory()) continue;
      throw error;
    }
  }
  if (!statSync(resolve(dir)).isDirectory()) {
    throw Object.assign(new Error(`${resolve(dir)} is not a directory`), { code: 'ENOTDIR' });
  }
}
