// `gateway-harness conformance`: the CI gate — runs the conformance suite (vitest) against a target or the embedded
// sandbox, writes junit.xml and summary.json, prints expected vs received for failures; exit 0 passed, 1 failed, 2 usage.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { EXIT, HarnessError } from '../../api/errors.ts';
import { describeTarget, type TargetConfig } from '../../api/target-config.ts';
import { compileGrep, selectCases, type ApiSelection } from '../../conformance/plan.ts';
import { JUNIT_FILE, SUMMARY_FILE, formatFailure, type Summary } from '../../conformance/report.ts';
import {
  SESSION_ENV_VAR,
  SETTINGS_ENV_VAR,
  defaultReportDir,
  encodeSession,
  newRunId,
  readSettingsFile,
  settingsForSandbox,
  startEmbeddedSandbox,
  type Session,
} from '../../conformance/session.ts';
import { DEFAULT_SETTINGS } from '../../conformance/settings.ts';
import { getProfile, listProfiles } from '../../sandbox/profiles/registry.ts';
import type { RunningSandbox } from '../../sandbox/server.ts';
import { addTargetOptions, configFromOptions, type TargetOptions } from '../target-options.ts';

interface ConformanceOptions extends TargetOptions {
  api: string;
  grep?: string;
  reportDir?: string;
  profile?: string;
  seed?: string;
  settings?: string;
  list?: boolean;
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VITEST_CONFIG = resolve(ROOT, 'conformance/vitest.conformance.config.ts');

function usage(message: string): HarnessError {
  return new HarnessError('GH_ERR_USAGE', message);
}

function parseApi(value: string): ApiSelection {
  if (value === 'v1' || value === 'v2' || value === 'both') return value;
  throw usage(`--api must be v1, v2 or both (got "${value.slice(0, 20)}")`);
}

function parseSeed(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d{1,10}$/.test(value) || Number(value) > 2 ** 31 - 1) throw usage('--seed must be a whole number from 0 to 2147483647');
  return Number(value);
}

function checkProfile(name: string): void {
  try {
    getProfile(name);
  } catch {
    throw usage(`--profile: unknown profile "${name.slice(0, 40)}" (known: ${listProfiles().map((p) => p.name).join(', ')})`);
  }
}

function printPlan(api: ApiSelection, grep: string | undefined): void {
  const lines = selectCases({ api, ...(grep === undefined ? {} : { grep }) }).map(
    (c) => `${c.id}\t${c.exclusive === true ? 'exclusive' : 'concurrent'}\t${c.specSection}\t${c.title}\n`,
  );
  // `conformance --list | head` closes the pipe early: that is not an error.
  process.stdout.once('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  process.stdout.write(lines.join(''));
}

function readSummary(dir: string): Summary | undefined {
  const path = resolve(dir, SUMMARY_FILE);
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8')) as Summary;
}

function printOutcome(summary: Summary, reportDir: string): void {
  const out = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  const failedIds = [...new Set(summary.failures.filter((f) => f.severity === 'error').map((f) => f.caseId))];
  if (failedIds.length > 0) {
    out('');
    out(`Failed cases (${failedIds.length}):`);
    for (const id of failedIds) {
      const first = summary.failures.find((f) => f.caseId === id);
      out(`${id}: ${first?.title ?? ''}`);
      out(`  rule (${first?.specSection ?? ''}): ${first?.rule ?? ''}`);
      for (const f of summary.failures.filter((x) => x.caseId === id && x.severity === 'error')) out(formatFailure(f, '  '));
    }
  }
  if (summary.skipped.length > 0) {
    out('');
    out(`Skipped cases (${summary.skipped.length}), never counted as passed:`);
    for (const s of summary.skipped) out(`  ${s.caseId}: ${s.reason}`);
  }
  const c = summary.counts;
  out('');
  out(
    `conformance: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped of ${c.total} cases in ${(summary.durationMs / 1000).toFixed(1)} s ` +
      `against ${summary.target} (time scale ${summary.timeScale}, api ${summary.api})`,
  );
  out(`reports: ${resolve(reportDir, JUNIT_FILE)}, ${resolve(reportDir, SUMMARY_FILE)}`);
}

/** Refuses what conformance must not do before anything is started. */
function checkTarget(config: TargetConfig, opts: ConformanceOptions): void {
  if (config.environment === 'production') {
    throw usage('conformance sends top-ups and other charging transactions and relies on sandbox triggers: point it at a sandbox environment (--env sandbox)');
  }
  if (config.baseUrl !== undefined && (opts.profile !== undefined || opts.seed !== undefined)) {
    throw usage('--profile and --seed apply to the embedded sandbox only (drop --target / GATEWAY_BASE_URL to use it)');
  }
}

async function runConformance(opts: ConformanceOptions): Promise<number> {
  const api = parseApi(opts.api);
  compileGrep(opts.grep);
  if (opts.list === true) {
    printPlan(api, opts.grep);
    return EXIT.ok;
  }
  const config = configFromOptions(opts);
  checkTarget(config, opts);
  const profile = opts.profile ?? config.sandbox.profile ?? 'faithful';
  checkProfile(profile);
  const seed = parseSeed(opts.seed, config.sandbox.seed);
  const settingsPath = opts.settings ?? process.env[SETTINGS_ENV_VAR];
  let settings = settingsPath === undefined || settingsPath === '' ? DEFAULT_SETTINGS : readSettingsFile(settingsPath);
  if (selectCases({ api, ...(opts.grep === undefined ? {} : { grep: opts.grep }) }).length === 0) {
    throw usage(`no conformance case matches --api ${api}${opts.grep === undefined ? '' : ` --grep ${opts.grep}`}`);
  }

  const runId = newRunId();
  const reportDir = opts.reportDir === undefined ? defaultReportDir(process.cwd(), runId) : resolve(opts.reportDir);
  mkdirSync(reportDir, { recursive: true });

  let sandbox: RunningSandbox | undefined;
  let session: Session;
  if (config.baseUrl === undefined) {
    sandbox = await startEmbeddedSandbox(config, { profile, seed });
    settings = settingsForSandbox(settings, sandbox);
    session = {
      runId,
      config: { ...config, baseUrl: sandbox.url },
      settings,
      api,
      ...(opts.grep === undefined ? {} : { grep: opts.grep }),
      reportDir,
      targetLabel: `embedded sandbox (${sandbox.url}, profile ${profile}, seed ${seed})`,
    };
    process.stderr.write(`conformance: embedded sandbox on ${sandbox.url} (profile ${profile}, time scale ${config.timeScale})\n`);
  } else {
    session = { runId, config, settings, api, ...(opts.grep === undefined ? {} : { grep: opts.grep }), reportDir, targetLabel: describeTarget(config) };
    process.stderr.write(`conformance: target ${describeTarget(config)} (time scale ${config.timeScale})\n`);
  }

  const previous = process.env[SESSION_ENV_VAR];
  process.env[SESSION_ENV_VAR] = encodeSession(session);
  let failedTests = 0;
  let vitestErrors = 0;
  try {
    const { startVitest } = await import('vitest/node');
    const vitest = await startVitest(
      'test',
      [],
      {
        root: ROOT,
        config: VITEST_CONFIG,
        run: true,
        watch: false,
        reporters: [process.stdout.isTTY ? 'default' : 'verbose', 'junit'],
        outputFile: { junit: resolve(reportDir, JUNIT_FILE) },
      },
      {},
      { stdout: process.stdout, stderr: process.stderr },
    );
    failedTests = vitest.state.getCountOfFailedTests();
    vitestErrors = vitest.state.getUnhandledErrors().length;
  } finally {
    if (previous === undefined) delete process.env[SESSION_ENV_VAR];
    else process.env[SESSION_ENV_VAR] = previous;
    await sandbox?.close();
  }

  const summary = readSummary(reportDir);
  if (summary === undefined) {
    process.stderr.write(`gateway-harness: GH_ERR_INTERNAL: the suite wrote no ${SUMMARY_FILE} (see the errors above)\n`);
    return EXIT.checkFailed;
  }
  printOutcome(summary, reportDir);
  return summary.counts.failed > 0 || failedTests > 0 || vitestErrors > 0 ? EXIT.checkFailed : EXIT.ok;
}

export function register(program: Command): void {
  const cmd = program
    .command('conformance')
    .description(
      'Run the conformance suite: every documented rule of the gateway spec as cases with stable ids.\n' +
        'With no --target it starts the embedded sandbox on 127.0.0.1 (time scale 0.01). Exit 0 all passed, 1 a case failed, 2 usage/config error.',
    )
    .option('--api <version>', 'v1, v2 or both', 'both')
    .option('--grep <pattern>', 'only cases whose "<id> <title>" matches this regular expression (case-insensitive)')
    .option('--report-dir <dir>', 'where junit.xml and summary.json go (default reports/out/<run-id>/)')
    .option('--profile <name>', 'embedded sandbox behaviour profile, e.g. a planted bug (see `gateway-harness sandbox --list-profiles`)')
    .option('--seed <n>', 'embedded sandbox catalog seed (default 1)')
    .option('--settings <path>', `JSON file of conformance settings: number plans, loan numbers, assumed field paths (env ${SETTINGS_ENV_VAR})`)
    .option('--list', 'print the selected cases (id, phase, spec section, title) and exit');
  addTargetOptions(cmd);
  cmd.action(async (opts: ConformanceOptions) => {
    process.exitCode = await runConformance(opts);
  });
}
