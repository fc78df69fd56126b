// The runtime-neutral files (tsconfig.neutral.json's one list) run inside k6 bundles as well as Node: this test fails on any import of a Node built-in
// (node:* or bare, e.g. 'fs'), or of k6, in their source files. It backs up the lint rule and also covers generated files.
// This file itself runs only in Node under vitest, so it may read the files it checks.
// eslint-disable-next-line no-restricted-imports -- test-only: reads the sources it checks
import { readFileSync } from 'node:fs';
// eslint-disable-next-line no-restricted-imports -- test-only: Node's own list of built-in module names
import { builtinModules } from 'node:module';
// eslint-disable-next-line no-restricted-imports -- test-only
import { dirname, join, relative } from 'node:path';
// eslint-disable-next-line no-restricted-imports -- test-only
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { moduleSpecifiers } from '../scripts/import-graph.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const BUILTINS = new Set(builtinModules);

/** Why a specifier is not allowed in runtime-neutral code, or undefined when it is fine. */
export function forbiddenReason(specifier: string): string | undefined {
  if (specifier.startsWith('node:')) return 'Node built-in';
  if (BUILTINS.has(specifier) || BUILTINS.has(specifier.split('/')[0] ?? '')) return 'Node built-in';
  if (specifier === 'k6' || specifier.startsWith('k6/')) return 'k6 module';
  // zod 4 needs BigInt, which k6 v0.48 lacks: validation of user input stays in config/.
  if (specifier === 'zod' || specifier.startsWith('zod/')) return 'zod (does not load in k6 v0.48)';
  return undefined;
}

describe('runtime-neutral api/ and schemas/', () => {
  it('the detector itself catches every forbidden form', () => {
    const sample = [
      "import { readFileSync } from 'node:fs';",
      "import path from 'path';",
      "import type { Agent } from 'http';",
      "export { x } from 'fs/promises';",
      "import http from 'k6/http';",
      "import 'k6';",
      "const m = await import('node:crypto');",
      "const b = require('buffer');",
      "import { z } from 'zod';",
      "import { x } from './local.ts';",
    ].join('\n');
    const reasons = Object.fromEntries(moduleSpecifiers(sample).map((s) => [s, forbiddenReason(s)]));
    expect(reasons).toEqual(
      Object.fromEntries([
        ['node:fs', 'Node built-in'],
        ['path', 'Node built-in'],
        ['http', 'Node built-in'],
        ['fs/promises', 'Node built-in'],
        ['k6/http', 'k6 module'],
        ['k6', 'k6 module'],
        ['node:crypto', 'Node built-in'],
        ['buffer', 'Node built-in'],
        ['zod', 'zod (does not load in k6 v0.48)'],
        ['./local.ts', undefined],
      ]),
    );
  });

  // The one list of runtime-neutral files: tsconfig.neutral.json's include (eslint.config.js reads it too).
  const neutral = ts.parseJsonConfigFileContent(
    ts.readConfigFile(join(ROOT, 'tsconfig.neutral.json'), (path) => readFileSync(path, 'utf8')).config,
    ts.sys,
    ROOT,
  );
  const files = neutral.fileNames.filter((file) => !file.endsWith('.test.ts') && !file.endsWith('.d.ts'));

  it('finds the source files to check', () => {
    expect(files.length).toBeGreaterThan(5);
    expect(files.map((file) => relative(ROOT, file))).toEqual(
      expect.arrayContaining(['api/operations.ts', 'ledger/budget.ts', 'reports/verdict.ts', 'engine/durations.ts']),
    );
  });

  it('the ES2019, no-Node type check (tsconfig.neutral.json) rejects Node globals and newer built-ins', () => {
    const config = ts.readConfigFile(join(ROOT, 'tsconfig.neutral.json'), (path) => readFileSync(path, 'utf8'));
    const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
    const probe = join(ROOT, 'api', '__probe__.ts');
    const source = [
      "export const a = Buffer.from('x');",
      'export const b = process.env.HOME;',
      "export const c = 'x'.replaceAll('x', 'y');",
      'export const d = [1].at(0);',
      'export const e = Object.fromEntries([["k", 1]]);',
    ].join('\n');
    const host = ts.createCompilerHost(parsed.options);
    const read = host.readFile.bind(host);
    host.readFile = (file) => (file === probe ? source : read(file));
    const exists = host.fileExists.bind(host);
    host.fileExists = (file) => file === probe || exists(file);
    const program = ts.createProgram([probe], { ...parsed.options, noEmit: true }, host);
    const lines = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file?.fileName === probe)
      .map((d) => ts.getLineAndCharacterOfPosition(d.file as ts.SourceFile, d.start ?? 0).line);
    // Lines 0-3 use what k6 v0.48 lacks; line 4 (ES2019's Object.fromEntries) is fine.
    expect([...new Set(lines)].sort()).toEqual([0, 1, 2, 3]);
  });

  it('no runtime-neutral source file imports a Node built-in, k6 or zod', () => {
    const offences = files.flatMap((file) =>
      moduleSpecifiers(readFileSync(file, 'utf8'))
        .map((specifier) => ({ specifier, reason: forbiddenReason(specifier) }))
        .filter((hit) => hit.reason !== undefined)
        .map((hit) => `${relative(ROOT, file)}: '${hit.specifier}' (${hit.reason})`),
    );
    expect(offences).toEqual([]);
  });
});
