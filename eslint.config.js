// Lint rules for the whole tree. The one rule that matters most: api/ and schemas/ stay runtime-neutral
// (no node:* and no k6 imports), because the same code is bundled into k6 scripts and run in Node.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const nodeBuiltins = builtinModules.flatMap((m) => [m, `${m}/*`]);
/**
 * The runtime-neutral files, listed once: tsconfig.neutral.json's include (api/, schemas/, the report modules a k6
 * handleSummary uses, the money guard's half bundled into k6, engine/durations.ts). Lint and the ES2019 type check
 * read the same list, and api/runtime-neutral.test.ts checks every file on it.
 */
const NEUTRAL_FILES = ts
  .readConfigFile(fileURLToPath(new URL('./tsconfig.neutral.json', import.meta.url)), ts.sys.readFile)
  .config.include.filter((pattern) => !pattern.endsWith('.d.ts'));

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'reports/out/**', 'schemas/generated/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // Commands are short pipelines of named steps (ARCHITECTURE.md): a function past 60 lines is a warning to split it.
    // Tests, their fixtures and benches read top to bottom as scripts and are left out.
    files: ['**/*.ts'],
    ignores: ['**/*.test.ts', '**/fixtures/**', '**/bench/**'],
    rules: { 'max-lines-per-function': ['warn', { max: 60, skipBlankLines: true, skipComments: true, IIFEs: true }] },
  },
  {
    files: NEUTRAL_FILES,
    languageOptions: { globals: { ...globals.es2021 } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', ...nodeBuiltins], message: 'runtime-neutral (tsconfig.neutral.json: bundled into k6): no Node built-ins.' },
            { group: ['k6', 'k6/*'], message: 'runtime-neutral (tsconfig.neutral.json: also run in Node): no k6 modules.' },
            { group: ['zod', 'zod/*'], message: 'zod does not load in k6 v0.48 (no BigInt): validate user input in config/.' },
          ],
        },
      ],
    },
  },
  {
    // Inlined into report.html (and the live dashboard) and run in a browser: browser globals, plus uPlot (the inlined library's global).
    files: ['reports/html/page.js', 'reports/html/live.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser, uPlot: 'readonly' } },
  },
  {
    // A k6 script (fixture capture): k6's globals.
    files: ['reports/fixtures/k6-capture.js'],
    languageOptions: { globals: { __ENV: 'readonly', __VU: 'readonly', __ITER: 'readonly' } },
    rules: { '@typescript-eslint/no-unused-vars': ['error', { caughtErrors: 'none' }] },
  },
);
