// Vitest configuration for the project's own tests. The conformance suite against a target is not a vitest run:
// `gateway-harness conformance` runs its plan with conformance/runner.ts directly.
import { defineConfig } from 'vitest/config';
import { NOT_QUICK } from './scripts/test-tiers.ts';

/**
 * The profile meta-tests run the whole conformance plan against dozens of sandboxes, with client timeouts of a few
 * hundred ms (time scale 0.02). On a 2-core machine they must not compete with each other or with the rest of the
 * suite for the CPU, or a delayed answer and an event-loop lag look alike: they run after everything else, one file
 * at a time (each file runs its own profiles a few at a time).
 */
const META_TESTS = ['conformance/planted-bugs.test.ts', 'conformance/benign-profiles.test.ts'];
/**
 * Split runs and the merge memory bound keep both cores busy for tens of seconds (three k6 or engine instances at once,
 * a generator feeding gigabytes through pipes); the segment comparison times arrival rates against k6. They run with
 * the meta-tests, after the rest and one file at a time, so neither they nor the timed tests beside them see a starved CPU.
 * The comparison's memory bound and its real-run pair (two engine loads whose failure counts are judged) run there too.
 */
const SERIAL_TESTS = ['distributed/split-runs.test.ts', 'distributed/merge/memory.test.ts', 'engine/segments.test.ts', 'compare/memory.test.ts', 'compare/real-runs.test.ts'];
const EXCLUDE = ['node_modules/**', 'dist/**'];
/**
 * `npm run test:quick` sets GATEWAY_TEST_TIER=quick: unit and in-process tests only (scripts/test-tiers.ts leaves out
 * k6, the browser and child processes), and no serial project. `npm test` runs everything.
 */
const QUICK = process.env.GATEWAY_TEST_TIER === 'quick';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two test files at a time: vitest's default on 2 cores is one (cores - 1), and most of the suite's wall time is a
    // test waiting on a child process (k6, the CLI) or a sandbox, not using a core. Measured: the suite's CPU time is
    // about three quarters of its wall time on one worker.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: ['**/*.test.ts'], exclude: [...EXCLUDE, ...META_TESTS, ...SERIAL_TESTS, ...(QUICK ? NOT_QUICK : [])] } },
      ...(QUICK ? [] : [{ extends: true as const, test: { name: 'meta', include: [...SERIAL_TESTS, ...META_TESTS], exclude: EXCLUDE, fileParallelism: false, sequence: { groupOrder: 1 } } }]),
    ],
  },
});
