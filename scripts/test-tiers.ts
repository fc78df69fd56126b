// The test tiers as data: `npm test` runs every test file; `npm run test:quick` (vitest.config.ts, GATEWAY_TEST_TIER=quick)
// leaves out the files below, so a change can be checked in about a minute on another Node (`npm run test:node`).

/**
 * What keeps a test file out of the quick tier, found in its source (scripts/test-tiers.test.ts checks that every file
 * showing one is listed): it starts child processes (the CLI, sandboxes, k6), finds a real k6 binary, or drives a browser.
 */
export const NOT_QUICK_MARKERS: readonly RegExp[] = [
  /from 'node:child_process'|\brunCliProcess\b|\bspawnCli\b/,
  /\bfindK6\b|\bfindLatestK6\b|k6-binaries/,
  /playwright-core/,
];

/** Files the quick tier leaves out, each for a marker above or, last, for its measured time. */
export const NOT_QUICK: readonly string[] = [
  // child processes, real k6, a browser
  'compare/memory.test.ts',
  'examples/grafana.test.ts',
  'load/prometheus-rw.test.ts',
  'reports/html/live-dashboard-browser.test.ts',
  'reports/html/comparison-browser.test.ts',
  'scripts/commands/compare.test.ts',
  'distributed/k6-operator/manifests.test.ts',
  'distributed/merge/memory.test.ts',
  'distributed/split-runs.test.ts',
  'engine/differential.test.ts',
  'engine/segments.test.ts',
  'ledger/cap-currency.test.ts',
  'ledger/crash-reconcile.test.ts',
  'ledger/faults-commands.test.ts',
  'ledger/faults-k6.test.ts',
  'ledger/k6-ledger.test.ts',
  'ledger/migrate-cap.test.ts',
  'ledger/reconcile-target.test.ts',
  'ledger/sandbox-restart.test.ts',
  'load/engine-differential.test.ts',
  'load/engine-select.test.ts',
  'load/k6-smoke.test.ts',
  'load/payload-violations.test.ts',
  'reports/html/report-browser.test.ts',
  'reports/k6-handle-summary.test.ts',
  'reports/k6-series.test.ts',
  'scripts/commands/conformance.test.ts',
  'scripts/commands/fuzz.test.ts',
  'scripts/commands/gate.test.ts',
  'scripts/commands/interrupt.test.ts',
  'scripts/commands/load.test.ts',
  'scripts/commands/migrate.test.ts',
  'scripts/commands/sandbox.test.ts',
  'scripts/recipe/recipe.test.ts',
  // in-process but long (seconds of one quick-tier run on Node 20, 2 cores shared by other work): load runs on the
  // engine's worker threads and whole baseline recordings; the full suite runs them on its Node
  'ledger/faults-load.test.ts', // 52 s
  'engine/run.test.ts', // 42 s
  'scripts/commands/baseline.test.ts', // 30 s
  'load/node-engine-smoke.test.ts', // 21 s
  'conformance/gen/gen-proof.test.ts', // ~3 min: GEN over 20 seeds against every GEN bug and benign profile (proof worker processes)
];
