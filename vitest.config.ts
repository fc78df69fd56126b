// Vitest configuration for the project's own tests. The conformance suite against a target is not a vitest run:
// `gateway-harness conformance` runs its plan with conformance/runner.ts directly.
import { defineConfig } from 'vitest/config';

/**
 * The profile meta-tests run the whole conformance plan against dozens of sandboxes, with client timeouts of a few
 * hundred ms (time scale 0.02). On a 2-core machine they must not compete with each other or with the rest of the
 * suite for the CPU, or a delayed answer and an event-loop lag look alike: they run after everything else, one file
 * at a time (each file runs its own profiles a few at a time).
 */
const META_TESTS = ['conformance/planted-bugs.test.ts', 'conformance/benign-profiles.test.ts'];
const EXCLUDE = ['node_modules/**', 'dist/**'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'unit', include: ['**/*.test.ts'], exclude: [...EXCLUDE, ...META_TESTS] } },
      { extends: true, test: { name: 'meta', include: META_TESTS, exclude: EXCLUDE, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
