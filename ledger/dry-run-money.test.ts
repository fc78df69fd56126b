// Dry runs tell the truth about money (#32): a capped `load --dry-run` whose cap is in another currency than the
// target's wallet is refused as the real run would be, and migrate's priced dry run counts one plan one way.
import { describe, expect, it } from 'vitest';
import { runCli } from '../scripts/fixtures/run-cli.ts';
import { useProductionSandbox } from './fixtures/production-sandbox.ts';

const sandbox = useProductionSandbox(100_000);
const production = (): string[] => ['--target', sandbox().url, '--env', 'production', '--time-scale', '0.01', '--allow-charges'];
/** `load --dry-run` of the smoke top-up flow against production under `--max-spend <amount> <currency>`. */
const cappedLoadDryRun = (cap: string): ReturnType<typeof runCli> =>
  runCli(['load', '--scenario', 'topup-flow', '--profile', 'smoke', '--dry-run', ...production(), '--max-spend', ...cap.split(' ')]);

describe('load --dry-run with a cap', () => {
  it('in another currency than the wallet: refused (exit 2) as the real run would be, saying why', async () => {
    const run = await cappedLoadDryRun('100 JPY');
    expect(run.code, run.output).toBe(2);
    expect(run.output).toMatch(/--max-spend 100 JPY: the target's wallet is in USD/);
    expect(sandbox().app.stats.snapshot().chargingRequests).toBe(0);
  });

  it("in the wallet's currency: the plan, exit 0", async () => {
    const run = await cappedLoadDryRun('100 USD');
    expect(run.code, run.output).toBe(0);
    expect(run.stdout).toMatch(/^dry run: load/);
  });
});

describe('migrate --dry-run with a cap', () => {
  it('says one number of charging requests for one plan', async () => {
    const run = await runCli(['migrate', '--dry-run', ...production(), '--max-spend', '5', 'USD']);
    expect(run.code, run.output).toBe(0);
    const atMost = /charging requests: at most (\d+)/.exec(run.stdout)?.[1];
    const priced = /for (\d+) charging requests/.exec(run.stdout)?.[1];
    expect(atMost, run.stdout).toBeDefined();
    expect(atMost).toBe(priced);
    expect(sandbox().app.stats.snapshot().chargingRequests).toBe(0);
  });
});
