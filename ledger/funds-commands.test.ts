// The money of a test run against a standalone `gateway-harness sandbox` (real child processes): the gate passes on the
// sandbox's default funds and on 1,000 USD (cut to fit); a wallet that cannot cover a plan's smallest form stops it before the first charge, in one line.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLE_LOAN_NUMBERS } from '../sandbox/data/index.ts';
import { STATS_PATH } from '../sandbox/app.ts';
import { waitFor } from '../sandbox/routes/testing.ts';
import { cleanEnv, spawnCli, type CliChild } from '../scripts/fixtures/run-cli.ts';

const USER = 'funds-agent';
const PASSWORD = 'Funds-Pass-31';
const RUN_TIMEOUT_MS = 240_000;
const work = mkdtempSync(join(tmpdir(), 'gh-funds-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `gateway-harness sandbox` (time scale 0.01, default funds unless given, or a profile), once it says where it listens. */
async function standaloneSandbox(funds?: number, profile?: string): Promise<{ child: CliChild; url: string }> {
  const args = [
    'sandbox',
    '--time-scale',
    '0.01',
    '--user',
    USER,
    '--password',
    PASSWORD,
    ...(funds === undefined ? [] : ['--funds', String(funds)]),
    ...(profile === undefined ? [] : ['--sandbox-profile', profile]),
  ];
  const child = spawnCli(args, { env: cleanEnv(), cwd: work });
  await waitFor(() => /sandbox listening on (\S+)/.test(child.stdout()) || child.hasExited(), 'the sandbox listening', {
    timeoutMs: 30_000,
    intervalMs: 20,
  });
  const url = /sandbox listening on (\S+)/.exec(child.stdout())?.[1];
  if (url === undefined) throw new Error(`the sandbox did not start: ${child.output()}`);
  return { child, url };
}

async function run(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnCli(args, { env: cleanEnv({ GATEWAY_USER: USER, GATEWAY_PASSWORD: PASSWORD }), cwd: work });
  const { code } = await child.exited;
  return { code, stdout: child.stdout(), stderr: child.stderr() };
}

const auth = { authorization: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}` };

/** The wallet's available funds (the sandbox serves them negated: prepaid terms). */
async function funds(url: string): Promise<number> {
  return -(await balance(url));
}

/** The wallet's balance as the target answers it (the spec's balance read): unchanged means nothing was charged. */
async function balance(url: string): Promise<number> {
  const res = await fetch(`${url}/api/v2/account/balance`, { headers: auth });
  return ((await res.json()) as { payLoad: number }).payLoad;
}

async function chargingRequests(url: string): Promise<number> {
  const res = await fetch(`${url}${STATS_PATH}`, { headers: auth });
  return ((await res.json()) as { chargingRequests: number }).chargingRequests;
}

/** The conformance settings a user gives for this sandbox: its loan numbers (LOAN-TWO-STEP needs one). */
function settingsFile(): string {
  const path = join(work, 'settings.json');
  writeFileSync(path, JSON.stringify({ loanNumbers: SAMPLE_LOAN_NUMBERS }));
  return path;
}

/** The standalone sandbox at `url` as the target, at its time scale. */
const targetAt = (url: string): string[] => ['--target', url, '--time-scale', '0.01'];

const gateArgs = (url: string, dir: string): string[] => [
  'gate',
  ...targetAt(url),
  '--engine',
  'node',
  '--report-dir',
  join(work, dir),
  '--settings',
  settingsFile(),
];

describe('the gate against a standalone sandbox', () => {
  it(
    'passes on the default funds (10,000 USD): the plan is priced and covered, no top-up refused for lack of funds',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      const { child, url } = await standaloneSandbox();
      try {
        const gate = await run(gateArgs(url, 'default-funds'));
        expect(gate.stdout + gate.stderr).toMatch(
          /money: gate needs up to [\d.]+ USD for \d+ charging requests: covered by the wallet \(balance -10000 /,
        );
        expect(gate.stdout + gate.stderr).not.toMatch(/Insufficient funds/);
        expect(gate.stdout.split('\n')[0]).toMatch(/^PASS/);
        expect(gate.code).toBe(0);
        // The plan is a bound: what the run spent is within what it was priced at.
        const priced = Number(/money: gate needs up to ([\d.]+) USD/.exec(gate.stdout + gate.stderr)?.[1]);
        const spent = 10_000 - (await funds(url));
        expect(spent).toBeGreaterThan(0);
        expect(spent).toBeLessThanOrEqual(priced);
      } finally {
        await child.stop();
      }
    },
  );

  it(
    'a wallet of 3,000 USD: GEN charging runs and POLL top-ups cut to fit, said in the output; PASS, never an Insufficient funds',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      const { child, url } = await standaloneSandbox(3_000);
      try {
        const gate = await run(gateArgs(url, 'fitted-wallet'));
        const output = gate.stdout + gate.stderr;
        expect(output).toMatch(
          /cut to fit: wallet 3000.00 USD < [\d.]+ USD for the full plan: GEN charging budget 30 → \d+ runs per charging property/,
        );
        expect(gate.stdout).toMatch(
          /money: ran smaller to fit the wallet \(wallet 3000.00 USD < [\d.]+ USD for the full plan: GEN charging budget 30 → \d+ runs/,
        );
        // The verdict line says it too, and so does the report it is written into.
        const cut =
          /ran smaller to fit the wallet: wallet 3000.00 USD < [\d.]+ USD for the full plan: GEN charging budget 30 → \d+ runs per charging property/;
        expect(gate.stdout.split('\n')[0]).toMatch(cut);
        expect(
          (JSON.parse(readFileSync(join(work, 'fitted-wallet', 'summary.json'), 'utf8')) as { verdictLine: string }).verdictLine,
        ).toMatch(cut);
        expect(output).not.toMatch(/Insufficient funds/);
        expect(gate.stdout.split('\n')[0]).toMatch(/^PASS/);
        expect(gate.code).toBe(0);
        // The fitted plan is a bound: the run spent no more than it was priced at.
        const priced = Number(/money: gate needs up to ([\d.]+) USD/.exec(output)?.[1]);
        expect(priced).toBeLessThanOrEqual(3_000);
        expect(3_000 - (await funds(url))).toBeLessThanOrEqual(priced);
      } finally {
        await child.stop();
      }
    },
  );

  it(
    'shape-small-wallet (1,000 USD): GEN, POLL and the smoke load cut to fit, said; PASS, spent within the price (before: GH_ERR_FUNDS, exit 2)',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      const { child, url } = await standaloneSandbox(undefined, 'shape-small-wallet');
      try {
        const gate = await run(gateArgs(url, 'small-wallet'));
        const output = gate.stdout + gate.stderr;
        expect(output).toMatch(/cut to fit: wallet 1000.00 USD < [\d.]+ USD for the full plan: smoke load \d+ → \d+ iterations/);
        expect(gate.stdout.split('\n')[0]).toMatch(/^PASS: .*ran smaller to fit the wallet: .*smoke load \d+ → [1-9]\d* iterations/);
        // The harness never blames the gateway for its own money gap: no refusal for lack of funds, nothing failed.
        expect(output).not.toMatch(/Insufficient funds|FAILED|GH_ERR_FUNDS/);
        expect(gate.code).toBe(0);
        const priced = Number(/money: gate needs up to ([\d.]+) USD/.exec(output)?.[1]);
        expect(priced).toBeLessThanOrEqual(1_000);
        const spent = 1_000 - (await funds(url));
        expect(spent).toBeGreaterThan(0);
        expect(spent).toBeLessThanOrEqual(priced);
      } finally {
        await child.stop();
      }
    },
  );

  it(
    'a wallet of 50 USD: even the smallest plan does not fit: one line naming the amount it needs and what to do, exit 2, nothing charged',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      const { child, url } = await standaloneSandbox(50);
      try {
        const before = await balance(url);
        const gate = await run(gateArgs(url, 'tiny-wallet'));
        expect(gate.stderr.trim().split('\n')).toHaveLength(1);
        expect(gate.stderr).toMatch(
          /^gateway-harness: GH_ERR_FUNDS: gate \(even at its smallest: GEN charging budget 1 runs per charging property, POLL top-ups 6 top-ups per version, smoke load 0 iterations\): the wallet cannot cover this run: it needs up to [\d.]+ USD for \d+ charging requests .* the wallet holds 50.00 USD .*; top up the wallet by [\d.]+ USD, run one version \(--api v2 needs up to [\d.]+ USD\), run a smaller plan .*; stopped before the first charge\n$/,
        );
        expect(gate.stdout + gate.stderr).not.toMatch(/Insufficient funds|FAILED/);
        expect(gate.code).toBe(2);
        // First contact probes the unshown write paths with bodies that cannot charge (no skuId, no amount): requests to
        // charging routes, but no charge. The wallet is what must not move.
        expect(await balance(url)).toBe(before);
      } finally {
        await child.stop();
      }
    },
  );
});

describe('a load the wallet cannot cover', () => {
  it('stops before the first charge with the same line, exit 2', { timeout: RUN_TIMEOUT_MS }, async () => {
    const { child, url } = await standaloneSandbox(1);
    try {
      const load = await run([
        'load',
        ...targetAt(url),
        '--engine',
        'node',
        '--scenario',
        'topup-flow',
        '--profile',
        'smoke',
        '--report-dir',
        join(work, 'load'),
      ]);
      expect(load.stderr).toMatch(
        /GH_ERR_FUNDS: load topup-flow \(smoke\): the wallet cannot cover this run: it needs up to [\d.]+ USD for \d+ charging requests .* the wallet holds 1.00 USD .* top up the wallet by [\d.]+ USD.*; stopped before the first charge\n$/,
      );
      expect(load.code).toBe(2);
      expect(await chargingRequests(url)).toBe(0);
    } finally {
      await child.stop();
    }
  });
});

describe('migrate and baseline record/check price their plan against the balance the same way', () => {
  it(
    'a wallet of 1 USD: each stops before its first charge with GH_ERR_FUNDS, exit 2; nothing is charged',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      const { child, url } = await standaloneSandbox(1);
      try {
        const common = targetAt(url);
        const record = await run([
          'baseline',
          'record',
          ...common,
          '--out-dir',
          join(work, 'baseline'),
          '--report-dir',
          join(work, 'baseline-money'),
        ]);
        expect(record.stderr).toMatch(
          /GH_ERR_FUNDS: baseline record: the wallet cannot cover this run: it needs up to [\d.]+ USD for \d+ charging requests .* the wallet holds 1.00 USD .*; stopped before the first charge\n$/,
        );
        expect(record.code).toBe(2);
        const migrate = await run(['migrate', ...common, '--report-dir', join(work, 'migrate')]);
        expect(migrate.stderr).toMatch(
          /GH_ERR_FUNDS: migrate: the wallet cannot cover this run: it needs up to [\d.]+ USD for \d+ charging requests .* the wallet holds 1.00 USD .*; stopped before the first charge/,
        );
        expect(migrate.code).toBe(2);
        expect(await chargingRequests(url)).toBe(0);
      } finally {
        await child.stop();
      }
    },
  );
});
