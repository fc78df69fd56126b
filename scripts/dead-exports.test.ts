// No dead exports: a name a source file exports must be used somewhere (in another file, or in its own beyond the
// declaration). An export nobody uses is code nobody runs, and it misleads the next reader into thinking it matters.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'out', 'coverage', 'generated']);

function tsFiles(dir = ROOT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return SKIP_DIRS.has(entry.name) ? [] : tsFiles(join(dir, entry.name));
    return /\.(ts|mjs)$/.test(entry.name) ? [join(dir, entry.name)] : [];
  });
}

/** How often each identifier occurs across all files (declarations included). */
function identifierCounts(texts: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const text of texts) for (const [word] of text.matchAll(/[A-Za-z_$][\w$]*/g)) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

const EXPORT_DECLARATION = /^export (?:async )?(?:function\*?|const|let|class|interface|type|enum) ([A-Za-z_$][\w$]*)/gm;

describe('dead exports', () => {
  test('every exported name of a source file is used somewhere', () => {
    const files = tsFiles();
    const texts = files.map((file) => readFileSync(file, 'utf8'));
    const counts = identifierCounts(texts);
    const dead = files.flatMap((file, i) =>
      file.endsWith('.test.ts')
        ? []
        : [...(texts[i] as string).matchAll(EXPORT_DECLARATION)]
            .filter((m) => counts.get(m[1] as string) === 1)
            .map((m) => `${relative(ROOT, file)}: ${m[1] as string}`),
    );
    expect(files.length).toBeGreaterThan(100);
    expect(dead).toEqual([]);
  });
});
