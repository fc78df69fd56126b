// The proof of #31 on this tree, as a user runs it: per shape profile (and the faithful sandbox) a standalone sandbox
// child, `discover --write-config` (timed), then `gate --target` with no config and with the written one; one table,
// with each gate's priced plan beside what the wallet lost.
// Usage: npm run proof:shapes [-- --shapes shape-snake,faithful] [--time-scale 0.01]. Every child is bounded and killed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_DEFAULTS } from '../api/target-config.ts';
import { SHAPE_PROFILES } from '../sandbox/profiles/shapes.ts';
import { cleanEnv, runCliProcess, spawnCli, type CliChild } from './cli-child.ts';

const SANDBOX_START_MS = 60_000;
const DISCOVER_MS = 300_000;
const GATE_MS = 900_000;

interface GateOutcome {
  readonly exit: number;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly notVerified: number;
  readonly skippedNames: readonly string[];
  readonly verdictLine: string;
  /** What the gate's funds check priced its plan at ("money: gate needs up to X"), and what the wallet lost. */
  readonly priced?: number;
  readonly spent?: number;
}

interface ShapeRow {
  readonly shape: string;
  readonly discoverSeconds: number;
  readonly discoverExit: number;
  readonly noConfig: GateOutcome;
  readonly withConfig: GateOutcome;
}

/** A standalone `gateway-harness sandbox` child; resolves with its URL once its first stdout line names it. */
async function startSandboxChild(profile: string, timeScale: string): Promise<{ url: string; child: CliChild }> {
  const args = ['sandbox', '--sandbox-profile', profile, '--time-scale', timeScale, '--host', '127.0.0.1', '--port', '0'];
  const child = spawnCli(args, { env: cleanEnv() });
  const deadline = Date.now() + SANDBOX_START_MS;
  for (;;) {
    const url = /sandbox listening on (http:\/\/\S+)/.exec(child.stdout())?.[1];
    if (url !== undefined) return { url, child };
    if (child.hasExited() || Date.now() > deadline) {
      await child.stop();
      throw new Error(`sandbox --sandbox-profile ${profile} did not start: ${child.output().slice(0, 400)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The sandboxes running now, stopped when this script is interrupted (its gate and discover children end by themselves). */
const liveSandboxes = new Set<CliChild>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void Promise.all([...liveSandboxes].map((child) => child.stop())).finally(() => process.exit(130));
  });
}

/** Runs `body` against a fresh sandbox of `profile` (a fresh wallet each time) and always stops the child. */
async function withSandbox<T>(profile: string, timeScale: string, body: (url: string) => Promise<T>): Promise<T> {
  const { url, child } = await startSandboxChild(profile, timeScale);
  liveSandboxes.add(child);
  try {
    return await body(url);
  } finally {
    liveSandboxes.delete(child);
    await child.stop();
  }
}

interface ReportFile {
  readonly skipped?: readonly { readonly section: string; readonly id: string }[];
  readonly conformance?: { readonly counts: { passed: number; failed: number; skipped: number } };
}

function readGateReport(reportDir: string, exit: number, stdout: string): GateOutcome {
  const verdictLine = stdout.split('\n')[0] ?? '';
  let report: ReportFile = {};
  try {
    report = JSON.parse(readFileSync(join(reportDir, 'summary.json'), 'utf8')) as ReportFile;
  } catch {
    // An unusable target or a usage error writes no summary: the exit code and the verdict line say it.
  }
  const counts = report.conformance?.counts ?? { passed: 0, failed: 0, skipped: 0 };
  const skipped = report.skipped ?? [];
  const skippedNames = skipped.map((item) => (item.section === 'conformance' ? item.id : `${item.section}:${item.id}`));
  return { exit, ...counts, notVerified: skipped.length, skippedNames, verdictLine };
}

/** The wallet's balance (the sandbox's default credentials; prepaid: negative is funds); undefined when unreadable. */
async function balanceOf(url: string): Promise<number | undefined> {
  const auth = Buffer.from(`${CONFIG_DEFAULTS.user}:${CONFIG_DEFAULTS.password}`).toString('base64');
  try {
    const res = await fetch(`${url}/api/v2/account/balance`, { headers: { authorization: `Basic ${auth}` } });
    const payLoad = ((await res.json()) as { payLoad?: unknown }).payLoad;
    return typeof payLoad === 'number' ? payLoad : undefined;
  } catch {
    return undefined;
  }
}

/** The gate, with its plan's price (its money line) beside what the wallet lost. */
async function gate(url: string, timeScale: string, cwd: string, config: string | undefined): Promise<GateOutcome> {
  const before = await balanceOf(url);
  const outcome = await gateRun(url, timeScale, cwd, config);
  const after = await balanceOf(url);
  const priced = outcome.priced;
  return {
    ...outcome,
    ...(before === undefined || after === undefined ? {} : { spent: Math.round((after - before) * 100) / 100 }),
    ...(priced === undefined ? {} : { priced }),
  };
}

async function gateRun(url: string, timeScale: string, cwd: string, config: string | undefined): Promise<GateOutcome> {
  const reportDir = mkdtempSync(join(tmpdir(), 'gh-shape-gate-'));
  const args = [
    'gate',
    '--target',
    url,
    '--time-scale',
    timeScale,
    '--report-dir',
    reportDir,
    ...(config === undefined ? [] : ['--config', config]),
  ];
  try {
    const run = await runCliProcess(args, { cwd, timeoutMs: GATE_MS });
    const priced = /money: gate needs up to ([\d.]+) /.exec(run.output)?.[1];
    return { ...readGateReport(reportDir, run.code, run.stdout), ...(priced === undefined ? {} : { priced: Number(priced) }) };
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}

async function proveShape(shape: string, timeScale: string): Promise<ShapeRow> {
  const cwd = mkdtempSync(join(tmpdir(), 'gh-shape-proof-'));
  const configFile = join(cwd, 'written.config.json');
  try {
    const { seconds, exit } = await withSandbox(shape, timeScale, async (url) => {
      const started = performance.now();
      const run = await runCliProcess(['discover', '--target', url, '--write-config', configFile], { cwd, timeoutMs: DISCOVER_MS });
      return { seconds: (performance.now() - started) / 1000, exit: run.code };
    });
    const noConfig = await withSandbox(shape, timeScale, (url) => gate(url, timeScale, cwd, undefined));
    const withConfig = exit === 0 ? await withSandbox(shape, timeScale, (url) => gate(url, timeScale, cwd, configFile)) : noConfig;
    return { shape, discoverSeconds: seconds, discoverExit: exit, noConfig, withConfig };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

function cell(outcome: GateOutcome): string {
  const money = outcome.priced === undefined ? '' : `; priced ${outcome.priced.toFixed(2)}, spent ${outcome.spent?.toFixed(2) ?? '?'}`;
  return `exit ${outcome.exit}: ${outcome.passed}/${outcome.failed}/${outcome.skipped}/${outcome.notVerified}${money}`;
}

function printTable(rows: readonly ShapeRow[]): void {
  const lines = [
    '| shape | discover | no config: exit p/f/s/nv; priced, spent (USD) | with config: exit p/f/s/nv; priced, spent (USD) | not verified (no config; with config) |',
    '|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const discover = `${row.discoverSeconds.toFixed(1)} s${row.discoverExit === 0 ? '' : ` (exit ${row.discoverExit})`}`;
    const names = `${row.noConfig.skippedNames.join(', ') || '-'}; ${row.withConfig.skippedNames.join(', ') || '-'}`;
    lines.push(`| ${row.shape} | ${discover} | ${cell(row.noConfig)} | ${cell(row.withConfig)} | ${names} |`);
  }
  process.stdout.write(`${lines.join('\n')}\n\nverdict lines:\n`);
  for (const row of rows)
    process.stdout.write(`${row.shape}\n  no config:   ${row.noConfig.verdictLine}\n  with config: ${row.withConfig.verdictLine}\n`);
}

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}

async function main(): Promise<void> {
  const every = ['faithful', ...SHAPE_PROFILES.map((profile) => profile.name)];
  const chosen = option('--shapes')?.split(',') ?? every;
  const unknown = chosen.filter((name) => !every.includes(name));
  if (unknown.length > 0) throw new Error(`unknown shape ${unknown.join(', ')}; choose from ${every.join(', ')}`);
  const timeScale = option('--time-scale') ?? '0.01';
  const rows: ShapeRow[] = [];
  for (const shape of chosen) {
    process.stderr.write(`shape-proof: ${shape} ...\n`);
    const row = await proveShape(shape, timeScale);
    rows.push(row);
    // Each row as soon as it is known: a long run stopped halfway still shows what it measured.
    process.stderr.write(
      `shape-proof: ${row.shape}: discover ${row.discoverSeconds.toFixed(1)} s; ${cell(row.noConfig)}; ${cell(row.withConfig)}\n`,
    );
  }
  printTable(rows);
  process.exitCode = rows.every((row) => row.noConfig.exit === 0 && row.withConfig.exit === 0) ? 0 : 1;
}

await main();
