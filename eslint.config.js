// Lint rules for the whole tree. The one rule that matters most: api/ and schemas/ stay runtime-neutral
// (no node:* and no k6 imports), because the same code is bundled into k6 scripts and run in Node.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { builtinModules } from 'node:module';

const nodeBuiltins = builtinModules.flatMap((m) => [m, `${m}/*`]);
const NEUTRAL_REPORT_MODULES = ['verdict', 'junit-xml', 'model', 'assemble', 'sections', 'k6-summary', 'junit-report', 'summary-md', 'interruption', 'redact-report', 'comparison-text'].map(
  (name) => `reports/${name}.ts`,
);
/** The money guard's runtime-neutral half (bundled into k6 with the load suites); tsconfig.neutral.json lists the same files. */
const NEUTRAL_LEDGER_MODULES = ['money-settings', 'guard', 'price-book', 'entry', 'budget', 'hooks', 'ledger-state', 'bundle-host', 'read-prices', 'reconcile', 'plan'].map(
  (name) => `ledger/${name}.ts`,
);

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
    // The runtime-neutral report modules (a k6 handleSummary may use them); tsconfig.neutral.json lists the same files.
    // engine/durations.ts: the one k6 duration parser, bundled into k6 with load/thresholds.ts.
    files: ['api/**', 'schemas/**', ...NEUTRAL_REPORT_MODULES, ...NEUTRAL_LEDGER_MODULES, 'engine/durations.ts'],
    languageOptions: { globals: { ...globals.es2021 } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', ...nodeBuiltins], message: 'api/ and schemas/ are runtime-neutral: no Node built-ins.' },
            { group: ['k6', 'k6/*'], message: 'api/ and schemas/ are runtime-neutral: no k6 modules.' },
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
