// `gateway-harness conformance`: the CI gate. Checks the target can be used, runs the plan with the runner (progress on
// stderr), prints the verdict as the first stdout line, writes junit.xml and summary.json; exit 0 pass, 1 fail/incomplete, 2 unusable.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { EXIT, HarnessError } from '../../api/errors.ts';
import { describeTarget, type ResolvedTargetConfig, type TargetConfig } from '../../api/target-config.ts';
import { compileGrep, selectCases, type ApiSelection } from '../../conformance/plan.ts';
import { preflight } from '../../conformance/preflight.ts';
import { createProgress } from '../../conformance/progress.ts';
import { buildSummary, formatCaseFailure, SUMMARY_FILE, verdictOfRun, writeConformanceReports, type SummaryMeta } from '../../conformance/report.ts';
import type { GatewayResponse } from '../../api/envelope.ts';
import { createFaultTally, faultLine } from '../../api/faults.ts';
import { attachFaultCounts } from '../../ledger/report.ts';
import { runCases } from '../../conformance/runner.ts';
import { SETTINGS_ENV_VAR, defaultReportDir, newRunId, readSettingsFile, settingsForSandbox, startEmbeddedSandbox } from '../../conformance/session.ts';
import { DEFAULT_SETTINGS } from '../../conformance/settings.ts';
import { createNodeConformanceTarget, timingFor, type NodeConformanceTarget } from '../../conformance/target.ts';
import type { RunResult } from '../../conformance/types.ts';
import { VERDICT_EXIT, VERDICT_WORD } from '../../reports/verdict.ts';
import { getProfile, listProfiles } from '../../sandbox/profiles/registry.ts';
import type { RunningSandbox } from '../../sandbox/server.ts';
import { OPERATIONS } from '../../api/operations.ts';
import { assertChargesAllowed } from '../../ledger/guard.ts';
import { planLines, type MoneyPlan } from '../../ledger/plan.ts';
import { addMoneyOptions, moneySettingsFrom, type MoneyOptions } from '../money-options.ts';
import { addTargetOptions, configFromOptions, type TargetOptions } from '../target-options.ts';

interface ConformanceOptions extends TargetOptions, MoneyOptions {
  api: string;
  grep?: string;
  reportDir?: string;
  profile?: string;
  seed?: string;
  settings?: string;
  list?: boolean;
  allowSkips?: boolean;
}

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

/** Stdout: the verdict first, then what needs reading (failures, skips, open transactions), then where the reports are. */
function printOutcome(run: RunResult, meta: SummaryMeta, paths: { summary: string; junit: string }, colour: boolean): void {
  const out = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  const summary = buildSummary({ kind: 'run', run }, meta);
  const head = summary.headline;
  const word = VERDICT_WORD[summary.verdict];
  const sgr = summary.verdict === 'pass' ? '\u001b[32m' : summary.verdict === 'fail' ? '\u001b[31m' : '\u001b[33m';
  out(colour ? head.replace(word, `${sgr}${word}\u001b[0m`) : head);
  const failed = run.cases.filter((c) => c.status === 'failed');
  if (failed.length > 0) {
    out('');
    out(`Failed cases (${failed.length}):`);
    for (const c of failed) out(formatCaseFailure(c));
  }
  if (summary.skipped.length > 0) {
    out('');
    out(`Skipped cases (${summary.skipped.length}), not verified${meta.allowSkips ? ' (accepted with --allow-skips)' : ''}:`);
    for (const s of summary.skipped) out(`  ${s.caseId}: ${s.reason}`);
  }
  const unresolved = run.drain?.unresolved ?? [];
  if (unresolved.length > 0) {
    out('');
    out(`Transactions of the concurrent phase still not final after the drain (${unresolved.length}), not verified:`);
    for (const u of unresolved) out(`  ${u.caseId}: ${u.operationId} correlationId ${u.correlationId ?? '(none)'}: ${u.outcome}`);
  }
  out('');
  out(`reports: ${paths.junit}, ${paths.summary}`);
}

/** What conformance sends that charges: one request per request case, plus the multi-step cases' transactions. */
export function conformancePlan(cases: ReturnType<typeof selectCases>, target: string): MoneyPlan {
  const requestCases = new Map<string, number>();
  for (const c of cases) if (c.kind === 'request') requestCases.set(c.operationId, (requestCases.get(c.operationId) ?? 0) + 1);
  const scenarios = cases.filter((c) => c.kind === 'scenario').length;
  const charging = OPERATIONS.filter((op) => op.charges && (requestCases.has(op.id) || scenarios > 0));
  return {
    what: 'conformance',
    target,
    items: charging.map((operation) => {
      const n = requestCases.get(operation.id) ?? 0;
      return scenarios === 0
        ? { operation, count: n, note: `${n} request case${n === 1 ? '' : 's'}` }
        : { operation, note: `${n} request case${n === 1 ? '' : 's'}, and the ${scenarios} multi-step cases decide their own transactions as they run` };
    }),
  };
}

/** Refuses what conformance must not do before anything is started. */
function checkTarget(config: TargetConfig, opts: ConformanceOptions, cases: ReturnType<typeof selectCases>): void {
  // The one production guard first (the same line as every command), then conformance's own rule.
  assertChargesAllowed('conformance', conformancePlan(cases, describeTarget(config)).items.map((i) => i.operation), moneySettingsFrom(opts, config.environment));
  if (config.environment === 'production') {
    throw usage(
      'conformance sends top-ups and other charging transactions to made-up numbers and relies on sandbox triggers: point it at a sandbox environment (--env sandbox); --allow-charges does not apply to it',
    );
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
  const cases = selectCases({ api, ...(opts.grep === undefined ? {} : { grep: opts.grep }) });
  if (opts.dryRun === true) {
    for (const line of planLines(conformancePlan(cases, describeTarget(config)), moneySettingsFrom(opts, config.environment))) process.stdout.write(`${line}\n`);
    return EXIT.ok;
  }
  checkTarget(config, opts, cases);
  const profile = opts.profile ?? config.sandbox.profile ?? 'faithful';
  checkProfile(profile);
  const seed = parseSeed(opts.seed, config.sandbox.seed);
  const settingsPath = opts.settings ?? process.env[SETTINGS_ENV_VAR];
  let settings = settingsPath === undefined || settingsPath === '' ? DEFAULT_SETTINGS : readSettingsFile(settingsPath);
  if (cases.length === 0) {
    throw usage(`no conformance case matches --api ${api}${opts.grep === undefined ? '' : ` --grep ${opts.grep}`}`);
  }

  const runId = newRunId();
  const reportDir = opts.reportDir === undefined ? defaultReportDir(process.cwd(), runId) : resolve(opts.reportDir);
  try {
    mkdirSync(reportDir, { recursive: true });
  } catch (error) {
    throw usage(`--report-dir: cannot create ${reportDir} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }

  let sandbox: RunningSandbox | undefined;
  let target: NodeConformanceTarget | undefined;
  const faults = createFaultTally();
  const tallied = (response: GatewayResponse): GatewayResponse => {
    faults.add(response);
    return response;
  };
  try {
    let resolved: ResolvedTargetConfig;
    let label: string;
    if (config.baseUrl === undefined) {
      sandbox = await startEmbeddedSandbox(config, { profile, seed });
      settings = settingsForSandbox(settings, sandbox);
      resolved = { ...config, baseUrl: sandbox.url };
      label = `embedded sandbox (${sandbox.url}, profile ${profile}, seed ${seed})`;
    } else {
      resolved = { ...config, baseUrl: config.baseUrl };
      label = describeTarget(config);
    }
    const plain = createNodeConformanceTarget(resolved);
    // Every response is tallied by fault kind (api/faults.ts) for the reports; the cases judge them as always.
    target = { ...plain, transport: { send: async (built, options) => tallied(await plain.transport.send(built, options)) } };
    const timing = timingFor(resolved, settings);
    const allowSkips = opts.allowSkips === true;
    const meta: SummaryMeta = {
      runId,
      target: label,
      timeScale: resolved.timeScale,
      api,
      ...(opts.grep === undefined ? {} : { grep: opts.grep }),
      allowSkips,
      timeouts: { requestMs: timing.requestTimeoutMs, pollIntervalMs: timing.pollIntervalMs, pollDeadlineMs: timing.pollDeadlineMs },
    };

    // A target that cannot be used at all is said once, before any case runs (exit 2).
    const checkedAt = Date.now();
    const check = await preflight(target, api === 'v1' ? 'v1' : 'v2', timing);
    if (!check.usable) {
      writeConformanceReports(reportDir, { kind: 'unusable', reason: check.reason, startedAt: checkedAt, durationMs: Date.now() - checkedAt }, meta);
      throw new HarnessError('GH_ERR_TARGET', check.reason, { exitCode: VERDICT_EXIT.unusable });
    }
    process.stderr.write(`conformance: ${label}, time scale ${resolved.timeScale}, ${cases.length} case${cases.length === 1 ? '' : 's'}; reports in ${reportDir}\n`);

    const interactive = process.stdout.isTTY === true && process.stderr.isTTY === true;
    const colour = interactive && process.env.NO_COLOR === undefined && process.env.TERM !== 'dumb';
    const groups = new Map<string, number>();
    for (const c of cases) groups.set(c.group, (groups.get(c.group) ?? 0) + 1);
    const progress = createProgress({ stream: process.stderr, interactive, colour, groups });
    let run: RunResult;
    try {
      run = await runCases(cases, { target, settings, timing, mapping: resolved.fieldMapping, onProgress: (event) => progress.onEvent(event) });
    } finally {
      progress.finish();
    }
    const paths = writeConformanceReports(reportDir, { kind: 'run', run }, meta);
    attachFaultCounts(reportDir, faults.counts(), { json: [SUMMARY_FILE] });
    process.stderr.write(`conformance: faults seen: ${faultLine(faults.counts())}\n`);
    printOutcome(run, meta, paths, colour);
    return VERDICT_EXIT[verdictOfRun(run, allowSkips)];
  } finally {
    await target?.close();
    await sandbox?.close();
  }
}

export function register(program: Command): void {
  const cmd = program
    .command('conformance')
    .description(
      'Run the conformance suite: every documented rule of the gateway spec as cases with stable ids.\n' +
        'With no --target it starts the embedded sandbox on 127.0.0.1 (time scale 0.01). The first stdout line is the verdict.\n' +
        'Exit 0 pass; 1 a case failed, or incomplete (a case skipped: not verified; nothing passed); 2 usage/config error or unusable target.',
    )
    .option('--api <version>', 'v1, v2 or both', 'both')
    .option('--grep <pattern>', 'only cases whose "<id> <title>" matches this regular expression (case-insensitive)')
    .option('--report-dir <dir>', 'where junit.xml and summary.json go (default reports/out/<run-id>/)')
    .option('--profile <name>', 'embedded sandbox behaviour profile, e.g. a planted bug (see `gateway-harness sandbox --list-profiles`)')
    .option('--seed <n>', 'embedded sandbox catalog seed (default 1)')
    .option('--settings <path>', `JSON file of conformance settings: number plans, loan numbers, assumed field paths (env ${SETTINGS_ENV_VAR})`)
    .option('--list', 'print the selected cases (id, phase, spec section, title) and exit')
    .option('--allow-skips', 'accept skipped cases (not verified): the verdict can then pass, and says how many were skipped');
  addTargetOptions(cmd);
  addMoneyOptions(cmd, { ledger: false });
  cmd.action(async (opts: ConformanceOptions) => {
    process.exitCode = await runConformance(opts);
  });
}
