// Vitest configuration for the project's own tests. The conformance suite against a target is not a vitest run:
// `gateway-harness conformance` runs its plan with conformance/runner.ts directly.
import { defineConfig } from 'vitest/config';
import { NOT_QUICK, SERIAL_AT_END } from './scripts/test-tiers.ts';
import { SlowFirstSequencer } from './scripts/test-sequencer.ts';

const EXCLUDE = ['node_modules/**', 'dist/**'];
/**
 * `npm run test:quick` sets GATEWAY_TEST_TIER=quick: unit and in-process tests only (scripts/test-tiers.ts leaves out
 * k6, the browser and child processes), and no serial project. `npm test` runs everything.
 */
const QUICK = process.env.GATEWAY_TEST_TIER === 'quick';

export default defineConfig({
  test: {
    // A time limit catches a hang, never a speed (speed is the benches'): a test several times its idle time on a
    // shared 2-core box beside a CPU hog still ends in its verdict (30 s ran out for 6–19 s tests there).
    testTimeout: 90_000,
    hookTimeout: 90_000,
    pool: 'forks',
    // Four test files at a time on 2 cores: much of the suite's wall time is a test waiting on a child process (k6,
    // the CLI), a proof pool or a sandbox's scaled delay, not using a core (measured file by file: the proof
    // meta-tests use a third of their wall time in CPU or less). The slowest files start first (START_FIRST).
    // Measured on Node 24 with both k6 on PATH, idle 2-core box: npm test 442 s with three, 364 s with four.
    maxWorkers: 4,
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['**/*.test.ts'], exclude: [...EXCLUDE, ...SERIAL_AT_END, ...(QUICK ? NOT_QUICK : [])] },
      },
      // Timed and memory-bound files: after everything else, one at a time (scripts/test-tiers.ts SERIAL_AT_END).
      ...(QUICK
        ? []
        : [
            {
              extends: true as const,
              test: { name: 'serial', include: [...SERIAL_AT_END], exclude: EXCLUDE, fileParallelism: false, sequence: { groupOrder: 1 } },
            },
          ]),
    ],
  },
});
