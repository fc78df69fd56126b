// Vitest configuration for the project's own tests (not the conformance suite run against a target,
// which `gateway-harness conformance` starts with its own config in conformance/vitest.conformance.config.ts).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', 'conformance/suites/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
