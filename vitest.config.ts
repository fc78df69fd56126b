// Vitest configuration for the project's own tests. The conformance suite against a target is not a vitest run:
// `gateway-harness conformance` runs its plan with conformance/runner.ts directly.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
