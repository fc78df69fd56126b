// `gateway-harness baseline record|check`: learn the target's payload contract into committed files, and later check
// the target against them (breaking → exit 1, non-breaking reported). Thin over drift/.
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { EXIT, HarnessError } from '../../api/errors.ts';
import { describeTarget, type TargetConfig } from '../../api/target-config.ts';
import { OPERATIONS } from '../../api/operations.ts';
import type { MoneyPlan } from '../../ledger/plan.ts';
import { addMoneyOptions, type MoneyOptions } from '../money-options.ts';
import { armMoney, decideMoney, openCommandMoney, settleMoney } from '../money-run.ts';
import { DiscoveryError } from '../../conformance/fixtures.ts';
import { defaultReportDir, newRunId, readSettingsFile, SETTINGS_ENV_VAR } from '../../conformance/session.ts';
import { DEFAULT_SETTINGS, type ConformanceSettings } from '../../conformance/settings.ts';
import { DEFAULT_BASELINE_DIR, readBaseline } from '../../drift/baseline-files.ts';
import { driftVerdict } from '../../drift/check.ts';
import { DRIFT_JSON, DRIFT_MD, driftSection, findingLine, verdictLine, writeDriftReport } from '../../drift/report.ts';
import { checkBaseline, recordBaseline } from '../../drift/run.ts';
import { openTargetSession, type TargetSession, type TargetSessionOptions } from '../../drift/target-session.ts';
import { VERDICT_EXIT } from '../../reports/verdict.ts';
import { getProfile, listProfiles } from '../../sandbox/profiles/registry.ts';
import { addTargetOptions, configFromOptions, type TargetOptions } from '../target-options.ts';

/** Flags every drift/migrate command shares: the embedded sandbox's profile and seed, and the settings file. */
export interface SessionFlags extends TargetOptions, MoneyOptions {
  profile?: string;
  seed?: string;
  settings?: string;
}

export function addSessionOptions(cmd: Command): Command {
  addTargetOptions(cmd);
  return cmd
    .option('--profile <name>', 'embedded sandbox behaviour profile, e.g. a contract change (see `gateway-harness sandbox --list-profiles`)')
    .option('--seed <n>', 'embedded sandbox catalog seed (default 1)')
    .option('--settings <path>', `JSON file of number plans, account numbers and assumed field paths, as for conformance (env ${SETTINGS_ENV_VAR})`);
}

const usage = (message: string): HarnessError => new HarnessError('GH_ERR_USAGE', message);

/** Validates the session flags against the config; throws GH_ERR_USAGE (exit 2) before anything starts. */
export function sessionOptionsFrom(opts: SessionFlags, config: TargetConfig): TargetSessionOptions {
  if (config.baseUrl !== undefined && (opts.profile !== undefined || opts.seed !== undefined)) {
    throw usage('--profile and --seed apply to the embedded sandbox only (drop --target / GATEWAY_BASE_URL to use it)');
  }
  let seed: number | undefined;
  if (opts.seed !== undefined) {
    if (!/^\d{1,10}$/.test(opts.seed) || Number(opts.seed) > 2 ** 31 - 1) throw usage('--seed must be a whole number from 0 to 2147483647');
    seed = Number(opts.seed);
  }
  if (opts.profile !== undefined) {
    try {
      getProfile(opts.profile);
    } catch {
      throw usage(`--profile: unknown profile "${opts.profile.slice(0, 40)}" (known: ${listProfiles().map((p) => p.name).join(', ')})`);
    }
  }
  const settingsPath = opts.settings ?? process.env[SETTINGS_ENV_VAR];
  const settings: ConformanceSettings = settingsPath === undefined || settingsPath === '' ? DEFAULT_SETTINGS : readSettingsFile(settingsPath);
  return { settings, ...(seed === undefined ? {} : { seed }), ...(opts.profile === undefined ? {} : { profile: opts.profile }) };
}

/** Runs work on an open session and always closes it; a catalog that cannot be read makes the target unusable (exit 2). */
export async function withSession<T>(config: TargetConfig, options: TargetSessionOptions, work: (session: TargetSession) => Promise<T>): Promise<T> {
  const session = await openTargetSession(config, options);
  try {
    return await work(session);
  } catch (error) {
    if (error instanceof DiscoveryError) throw new HarnessError('GH_ERR_TARGET', error.message, { exitCode: EXIT.usage, cause: error });
    throw error;
  } finally {
    await session.close();
  }
}

const progressTo = (prefix: string) => (line: string): void => {
  process.stderr.write(`${prefix}: ${line}\n`);
};

interface RecordFlags extends SessionFlags {
  out: string;
  reportDir?: string;
  readsOnly?: boolean;
}

/** What observing sends that charges: each transaction operation once per input (1–2 from the catalog). */
export function baselinePlan(what: string, readsOnly: boolean, target: string): MoneyPlan {
  return {
    what,
    target,
    items: readsOnly ? [] : OPERATIONS.filter((op) => op.charges).map((operation) => ({ operation, count: 2, note: 'one transaction per input, at most 2 inputs from the catalog' })),
  };
}

async function runRecord(opts: RecordFlags): Promise<number> {
  const config = configFromOptions(opts);
  const sessionOptions = sessionOptionsFrom(opts, config);
  const readsOnly = opts.readsOnly === true;
  const money = decideMoney(opts, config, baselinePlan('baseline record', readsOnly, describeTarget(config)));
  if (money === undefined) return EXIT.ok;
  const runId = newRunId();
  const reportDir = opts.reportDir === undefined ? defaultReportDir(process.cwd(), runId) : resolve(opts.reportDir);
  const cm = openCommandMoney(money, { command: 'baseline record', runId, reportDir, config });
  try {
    return await withSession(config, { ...sessionOptions, hooks: cm.hooks, allowCharges: money.allowCharges, readsOnly }, async (session) => {
      await armMoney(cm, session);
      const result = await recordBaseline(session, opts.out, { progress: progressTo('baseline') });
      const ops = result.baseline.index.operations;
      const observed = ops.filter((o) => o.state === 'observed').length;
      if (observed === 0) {
        throw new HarnessError('GH_ERR_TARGET', `baseline record: no operation answered successfully on ${session.label}; see the lines above`, { exitCode: EXIT.usage });
      }
      process.stdout.write(`baseline: recorded ${observed} of ${ops.length} operations from ${session.label} into ${resolve(opts.out)}\n`);
      for (const o of ops.filter((x) => x.state !== 'observed')) process.stdout.write(`  ${o.state} ${o.operationId}: ${o.reason ?? ''}\n`);
      process.stdout.write(`commit ${resolve(opts.out)} and run \`gateway-harness baseline check --baseline ${opts.out}\` later\n`);
      // The recording itself succeeded; unresolved charging transactions still make the run incomplete (exit 1).
      return VERDICT_EXIT[await settleMoney(cm, session, 'pass', { allowSkips: false, reportDir, files: {} })];
    });
  } finally {
    cm.session.close();
  }
}

interface CheckFlags extends SessionFlags {
  baseline: string;
  reportDir?: string;
  allowSkips?: boolean;
  readsOnly?: boolean;
}

async function runCheck(opts: CheckFlags): Promise<number> {
  const config = configFromOptions(opts);
  const sessionOptions = sessionOptionsFrom(opts, config);
  const readsOnly = opts.readsOnly === true;
  const money = decideMoney(opts, config, baselinePlan('baseline check', readsOnly, describeTarget(config)));
  if (money === undefined) return EXIT.ok;
  // A missing or broken baseline is a usage error before any request leaves.
  const baseline = readBaseline(opts.baseline);
  const runId = newRunId();
  const reportDir = opts.reportDir === undefined ? defaultReportDir(process.cwd(), runId) : resolve(opts.reportDir);
  const cm = openCommandMoney(money, { command: 'baseline check', runId, reportDir, config });
  try {
    return await withSession(config, { ...sessionOptions, hooks: cm.hooks, allowCharges: money.allowCharges, readsOnly }, async (session) => {
      await armMoney(cm, session);
      const result = await checkBaseline(session, baseline, { progress: progressTo('baseline') });
      const allowSkips = opts.allowSkips === true;
      const verdict = driftVerdict(result, { allowSkips });
      const section = driftSection(result, verdict, session.label, opts.baseline);
      const files = writeDriftReport(reportDir, section);
      const out = (line: string): void => {
        process.stdout.write(`${line}\n`);
      };
      out(verdictLine(section));
      for (const f of section.findings) out(findingLine(f));
      for (const n of section.notChecked.filter((x) => x.skipped)) out(`not checked ${n.operationId}: ${n.reason}`);
      out(`reports: ${files.join(', ')}`);
      return VERDICT_EXIT[await settleMoney(cm, session, verdict, { allowSkips, reportDir, files: { json: [DRIFT_JSON], md: [DRIFT_MD] } })];
    });
  } finally {
    cm.session.close();
  }
}

export function register(program: Command): void {
  const baseline = program
    .command('baseline')
    .description(
      "Learn the target's payload contract into committed files (record), and check the target against them later (check).\n" +
        'Breaking differences (the spec\'s Versioning rule 4: removed or renamed fields or headers, changed types) fail the check; non-breaking ones are reported.',
    );
  const record = baseline
    .command('record')
    .description(
      'Call every read operation (and, on a sandbox, every transaction) with inputs from the target\'s own catalog and write one inferred schema per operation.\n' +
        'With no --target it records the embedded sandbox. Exit 0 written, 2 usage/config error or unusable target.',
    )
    .option('--out <dir>', 'baseline directory to write (index.json + operations/*.json)', DEFAULT_BASELINE_DIR)
    .option('--report-dir <dir>', 'where ledger.jsonl goes when charging requests are sent (default reports/out/<run-id>/)')
    .option('--reads-only', 'send no charging request: transactions (and the reads that need one) are not observed; what a production target allows without --allow-charges');
  addSessionOptions(record);
  addMoneyOptions(record);
  record.action(async (opts: RecordFlags) => {
    process.exitCode = await runRecord(opts);
  });
  const check = baseline
    .command('check')
    .description(
      'Observe the target again and compare with a recorded baseline. Exit 0 no breaking change, 1 breaking change (or nothing checkable: incomplete), 2 usage/config error.\n' +
        'Writes drift.json and drift.md to the report directory.',
    )
    .option('--baseline <dir>', 'baseline directory to check against', DEFAULT_BASELINE_DIR)
    .option('--report-dir <dir>', 'where drift.json and drift.md go (default reports/out/<run-id>/)')
    .option('--allow-skips', 'pass even when operations of the baseline could not be checked now (e.g. transactions on a production target)')
    .option('--reads-only', 'send no charging request: transactions (and the reads that need one) are not checked');
  addSessionOptions(check);
  addMoneyOptions(check);
  check.action(async (opts: CheckFlags) => {
    process.exitCode = await runCheck(opts);
  });
}
