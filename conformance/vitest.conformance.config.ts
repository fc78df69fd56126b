// Vitest configuration of the conformance suite run against a target (`gateway-harness conformance` starts it).
// One suite file, one fork: the runner inside it decides concurrency, so vitest must not split or time out cases.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  test: {
    root,
    include: ['conformance/suites/**/*.suite.ts'],
    // The runner bounds every case (per-case timeout, polling deadlines); vitest's own timeout only stops a hang.
    testTimeout: 30 * 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
    sequence: { concurrent: false },
    passWithNoTests: false,
  },
});
