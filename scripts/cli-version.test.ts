// `gateway-harness --version` prints the version package.json gives, the one source reports read too (it was a
// constant of its own in scripts/cli.ts, which a release would forget to bump).
import { describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import { runCli } from './fixtures/run-cli.ts';

describe('--version', () => {
  it('is package.json version', async () => {
    const result = await runCli(['--version']);
    expect(result.stdout.trim()).toBe(packageJson.version);
    expect(result.code).toBe(0);
  });
});
