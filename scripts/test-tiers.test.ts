// The quick tier stays quick: every test file that starts child processes, finds a real k6 or drives a browser is
// listed out of it, and every listed file exists (a renamed test would otherwise slip back into the quick tier).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NOT_QUICK, NOT_QUICK_MARKERS, SERIAL_AT_END, START_FIRST } from './test-tiers.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The project's test files (not node_modules', not build output). */
function testFilesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(`${ROOT}/${dir}`, { withFileTypes: true })) {
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory() && !['node_modules', 'dist', '.git', 'out'].includes(entry.name)) found.push(...testFilesUnder(path));
    else if (entry.isFile() && entry.name.endsWith('.test.ts')) found.push(path);
  }
  return found;
}
const testFiles = testFilesUnder('').sort();

describe('test tiers (scripts/test-tiers.ts)', () => {
  it.each(testFiles)('%s is out of the quick tier if it needs k6, a browser or child processes', (file) => {
    const source = readFileSync(`${ROOT}/${file}`, 'utf8');
    const marker = NOT_QUICK_MARKERS.find((m) => m.test(source));
    if (marker !== undefined) expect(NOT_QUICK, `${file} shows ${String(marker)}`).toContain(file);
  });

  it('every file it leaves out exists', () => {
    for (const file of NOT_QUICK) expect(existsSync(`${ROOT}/${file}`), file).toBe(true);
  });

  it('every file the full suite starts first or runs serially exists, and none is in both lists', () => {
    for (const file of [...START_FIRST, ...SERIAL_AT_END]) expect(existsSync(`${ROOT}/${file}`), file).toBe(true);
    expect(START_FIRST.filter((file) => SERIAL_AT_END.includes(file))).toEqual([]);
  });
});
