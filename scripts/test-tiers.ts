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
  'gate/under-load.test.ts',
  'compare/memory.test.ts',
  'examples/grafana.test.ts',
  'load/prometheus-rw.test.ts',
  'load/prometheus-credentials.test.ts',
  'reports/html/live-dashboard-browser.test.ts',
  'reports/html/comparison-browser.test.ts',
  'reports/html/page-widths-browser.test.ts',
  'scripts/commands/compare.test.ts',
  'scripts/cli-pipe.test.ts',
  'scripts/commands/calibrate.test.ts', // child processes: calibrate's load steps through the measuring proxy
  'load/runner/capacity/accuracy.test.ts', // child processes: the measuring proxy, the CLI's load runs, real k6
  'gate/drift-silent.test.ts', // a whole gate in process (conformance, the Node engine's load, drift): about a minute
  'gate/drift-faults.test.ts', // a whole gate in process, its drift part's requests partly answered HTTP 503: about a minute
  'load/runner/harness-faults.test.ts', // a load whose charges stay unknown: the flows' polls and the reconcile wait out their deadlines, 20 s
  'distributed/k6-operator/manifests.test.ts',
  'distributed/merge/memory.test.ts',
  'distributed/split-runs.test.ts',
  'engine/differential.test.ts',
  'engine/controller/out-of-heap.test.ts',
  'engine/segments.test.ts',
  'engine/vus-differential.test.ts',
  'ledger/cap-currency.test.ts',
  'ledger/crash-reconcile.test.ts',
  'ledger/faults-commands.test.ts',
  'ledger/faults-k6.test.ts',
  'ledger/k6-full-disk.test.ts',
  'ledger/funds-commands.test.ts',
  'ledger/k6-ledger.test.ts',
  'ledger/migrate-cap.test.ts',
  'ledger/reconcile-target.test.ts',
  'ledger/sandbox-restart.test.ts',
  'load/engine-differential.test.ts',
  'load/engine-select.test.ts',
  'load/runner/user-script.test.ts',
  'load/runner/user-script-bare-k6.test.ts',
  'load/k6-smoke.test.ts',
  'load/k6-generator-hog.test.ts',
  'load/runner/metric-aggregates-run.test.ts',
  'load/payload-violations.test.ts',
  'reports/disk-full.test.ts',
  'reports/html/report-browser.test.ts',
  'reports/k6-handle-summary.test.ts',
  'reports/k6-series.test.ts',
  'scripts/commands/conformance.test.ts',
  'scripts/commands/fuzz.test.ts',
  'scripts/commands/gate.test.ts',
  'scripts/commands/gate-renamed.test.ts',
  'scripts/commands/load-renamed.test.ts',
  'scripts/commands/discover-bugs.test.ts',
  'scripts/commands/interrupt.test.ts',
  'scripts/commands/interrupt-judging.test.ts',
  'scripts/commands/load.test.ts',
  'scripts/commands/migrate.test.ts',
  'scripts/commands/sandbox.test.ts',
  'scripts/commands/silent-target.test.ts',
  'scripts/recipe/recipe.test.ts',
  'scripts/package.test.ts',
  // in-process but long (seconds of one quick-tier run on Node 20, 2 cores shared by other work): load runs on the
  // engine's worker threads and whole baseline recordings; the full suite runs them on its Node
  'ledger/faults-load.test.ts', // 52 s
  'reports/metric-aggregates.test.ts', // ~50 s: synthetic runs of 600 s and 30 000 requests, each read twice
  'engine/run.test.ts', // 42 s
  'scripts/commands/baseline.test.ts', // 30 s
  'load/node-engine-smoke.test.ts', // 21 s
  'load/assumed-path.test.ts',
  'load/generator-saturation.test.ts', // 40 s: three whole runs, two of them on deliberately blocked engine threads
  'target/discover/planted-bugs.test.ts', // ~35 s: discovery against all 48 planted-bug and 19 GEN-bug sandboxes
  'conformance/gen/gen-proof.test.ts', // ~3 min: GEN over 20 seeds against every GEN bug and benign profile (proof worker processes)
  'conformance/money-plan-spend.test.ts', // ~35 s: the whole plan, GEN included, against the embedded sandbox
  'scripts/commands/gate-compare.test.ts', // 44 s: two whole gates in process (first contact, conformance, the engine's load)
];

/**
 * The full suite's order (vitest.config.ts, scripts/test-sequencer.ts): these files start first, longest first, so the
 * ones that mostly wait (on scaled trigger delays, child processes, proof pools) overlap the rest of the suite instead
 * of ending it. Wall and CPU seconds of each run alone on an idle 2-core box, k6 on PATH (measured for the order only;
 * a stale figure changes the order, never a result).
 */
export const START_FIRST: readonly string[] = [
  'conformance/gen/gen-proof.test.ts', // 150 s wall, 51 s CPU
  'scripts/commands/interrupt.test.ts', // 133 s, 125 s
  'load/payload-violations.test.ts', // 115 s, 101 s
  'conformance/benign-profiles.test.ts', // 72 s, 10 s
  'scripts/recipe/recipe.test.ts', // 40 s CPU; 180 s wall measured on the shared, loaded box only (two made-up operations, four typechecks)
  'engine/differential.test.ts', // 51 s, 72 s
  'conformance/planted-bugs.test.ts', // 50 s, 27 s
  'ledger/faults-commands.test.ts', // 50 s, 16 s
  'load/engine-differential.test.ts', // 40 s, 43 s
  'ledger/faults-load.test.ts', // 37 s, 19 s
  'scripts/commands/gate.test.ts', // 30 s, 33 s
  'scripts/commands/hostile-targets.test.ts', // 30 s, 6 s
  'engine/run.test.ts', // 29 s, 34 s
  'ledger/faults-k6.test.ts', // 23 s, 6 s
];

/**
 * Files that time rates or bound memory with both cores busy (three k6 or engine instances at once, a generator feeding
 * gigabytes through pipes, arrival rates timed against k6): they run last, one at a time, so neither they nor the
 * timed tests beside them see a starved CPU.
 */
export const SERIAL_AT_END: readonly string[] = [
  'distributed/split-runs.test.ts',
  'distributed/merge/memory.test.ts',
  'engine/segments.test.ts',
  'engine/vus-differential.test.ts',
  'compare/memory.test.ts',
  'compare/real-runs.test.ts',
  // Its engine threads are blocked on purpose; the saturation it judges must be its own, not the suite's beside it.
  'load/generator-saturation.test.ts',
  // Two busy loops pinned beside a pinned k6: the starvation it judges must be the one it made, and no timed test beside it.
  'load/k6-generator-hog.test.ts',
  // Fifteen CLI children (k6 among them) against silent targets, each held to a bound from its response timeouts.
  'scripts/commands/silent-target.test.ts',
  // Two gates, each a suite run twice beside a load on the same process: its cases' 5 s client timeouts are the box's.
  'gate/under-load.test.ts',
  // Reported latency held against a measuring proxy's, on each engine: a busy suite beside it is a hog it did not plan.
  'load/runner/capacity/accuracy.test.ts',
];
