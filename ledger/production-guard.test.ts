// The production guard end to end: against a sandbox in production mode, every command that would send a charging
// request refuses without --allow-charges --max-spend (exit 2, one line) and nothing reaches the sandbox (its request
// counters stay at 0); --dry-run prints the plan and sends nothing either (migrate's, with a cap, reads the catalog to
// price it, and sends nothing charging); a bundle run directly refuses in init.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runEngine } from '../engine/run.ts';
import { blankGatewayEnvEachTest, runCli as run } from '../scripts/fixtures/run-cli.ts';
import { productionBundleEnv, useProductionSandbox } from './fixtures/production-sandbox.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-guard-'));
const sandbox = useProductionSandbox();
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
blankGatewayEnvEachTest();

const production = (): string[] => ['--target', sandbox().url, '--target-env', 'production', '--time-scale', '0.01'];

/** Every command (and engine) that can send a charging request, with what it needs besides the target. */
const COMMANDS: ReadonlyArray<[string, string[]]> = [
  ['load topup-flow on the Node engine', ['load', '--scenario', 'topup-flow', '--engine', 'node']],
  ['load mixed on k6', ['load', '--scenario', 'mixed', '--engine', 'k6']],
  ['load giftcard-flow (auto engine)', ['load', '--scenario', 'giftcard-flow']],
  ['migrate', ['migrate']],
  ['baseline record', ['baseline', 'record', '--out-dir', join(dir, 'baseline')]],
  ['baseline check', ['baseline', 'check', '--baseline', join(dir, 'no-baseline')]],
  ['conformance', ['conformance']],
];

describe('production target without --allow-charges --max-spend', () => {
  it.each(COMMANDS)('%s: refused, exit 2, one line, nothing reaches the sandbox', async (_name, args) => {
    const { code, stdout, stderr } = await run([...args, ...production(), '--report-dir', join(dir, 'r')]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(
      /^gateway-harness: GH_ERR_CHARGES: .* sends charging operations \(.*\) and the target is production .*refused, nothing was sent; add --allow-charges --max-spend AMOUNT CURRENCY/,
    );
    expect(sandbox().app.stats.snapshot().requestsTotal).toBe(0);
  });

  it.each(COMMANDS.filter(([name]) => !name.startsWith('conformance') && name !== 'migrate'))(
    '%s --dry-run: prints the plan, exit 0, nothing reaches the sandbox',
    async (_name, args) => {
      const { code, stdout } = await run([...args, ...production(), '--dry-run', '--allow-charges', '--max-spend', '25', 'USD']);
      expect(code).toBe(0);
      // A capped load dry run reads the wallet's currency (a cap in another one would refuse the run): nothing charging.
      expect(stdout).toMatch(
        /^dry run: .* \(production\); nothing (charging )?was sent( \(its catalog was read for the wallet's currency\))?\ncharging operations:\n {2}v\d\.transaction\./,
      );
      expect(stdout).toMatch(/worst-case spend: 25\.00 USD \(the cap/);
      expect(sandbox().app.stats.snapshot().chargingRequests).toBe(0);
      if (args[0] !== 'load') expect(sandbox().app.stats.snapshot().requestsTotal).toBe(0);
    },
  );

  it('migrate --dry-run with a cap prices its plan from the catalog (reads only): nothing charging reaches the sandbox', async () => {
    const { code, stdout } = await run(['migrate', ...production(), '--dry-run', '--allow-charges', '--max-spend', '25', 'USD']);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^dry run: migrate .* \(production\); nothing charging was sent \(its catalog was read to price the plan\)\ncharging operations:\n {2}v\d\.transaction\./,
    );
    expect(stdout).toMatch(/worst-case spend: [\d.]+ USD for \d+ charging requests/);
    expect(stdout).toMatch(/the cap does NOT cover a complete run: .* more than the cap 25\.00 USD/);
    expect(sandbox().app.stats.snapshot().chargingRequests).toBe(0);
  });

  it('conformance --dry-run lists its charging operations, and says a production run would be refused', async () => {
    const { code, stdout } = await run(['conformance', ...production(), '--dry-run']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/v2\.transaction\.topup {2}/);
    expect(stdout).toMatch(/worst-case spend: none — the run would be refused/);
    expect(sandbox().app.stats.snapshot().requestsTotal).toBe(0);
  });

  it('a load bundle run directly on the Node engine refuses in init: nothing reaches the sandbox', async () => {
    const env = productionBundleEnv(sandbox().url, 'both', 'guard', join(dir, 'engine'));
    let errors = '';
    const stderr = { write: (chunk: string) => ((errors += chunk), true) } as unknown as NodeJS.WritableStream;
    const result = await runEngine({
      script: 'load/topup-flow.load.ts',
      env: { ...env, GATEWAY_MONEY: '' },
      cwd: process.cwd(),
      workers: 1,
      progress: 'none',
      stderr,
      stdout: stderr,
    });
    expect(result.exitCode).toBe(107);
    expect(errors).toMatch(/load topup-flow sends charging operations .* and the target is production/);
    expect(sandbox().app.stats.snapshot().requestsTotal).toBe(0);
  });
});
