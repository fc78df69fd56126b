// Every TypeScript file of the repository is type-checked by `npm run typecheck`: a file that no tsconfig includes
// (tests of a new room, a bench, a worker) compiles nowhere, and its type errors surface only when it runs.
import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The tsconfig files `npm run typecheck` runs, read from package.json's script (so the test follows the script). */
function typecheckConfigs(): string[] {
  const pkg = JSON.parse(ts.sys.readFile(join(ROOT, 'package.json')) ?? '{}') as { scripts: Record<string, string> };
  return [...(pkg.scripts['typecheck'] ?? '').matchAll(/-p (\S+)/g)].map((m) => m[1] as string);
}

/** The repository's .ts files (not declarations), outside what git ignores or tools generate. */
function sourceFiles(dir = ROOT): string[] {
  const skip = new Set(['node_modules', 'dist', '.git', 'out', 'coverage']);
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return skip.has(entry.name) ? [] : sourceFiles(join(dir, entry.name));
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [relative(ROOT, join(dir, entry.name))] : [];
  });
}

function filesOf(config: string): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, config),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  return (parsed?.fileNames ?? []).map((file) => relative(ROOT, file));
}

describe('typecheck coverage', () => {
  test('every .ts file of the repository is in some tsconfig that npm run typecheck checks', () => {
    const configs = typecheckConfigs();
    expect(configs.length).toBeGreaterThanOrEqual(4);
    const checked = new Set(configs.flatMap(filesOf));
    const tracked = sourceFiles();
    expect(tracked.length).toBeGreaterThan(100);
    expect(tracked.filter((file) => !checked.has(file))).toEqual([]);
  });
});
