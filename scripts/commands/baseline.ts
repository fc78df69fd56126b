// `gateway-harness baseline record|check`: learn the target's payload contract into committed files, and later check
// the target against them (breaking → exit 1, non-breaking reported). Thin over drift/.
import type { Progress } from '../../reports/progress.ts';
import type { RunInterrupt } from '../../reports/interrupt-watch.ts';
import { newRunId } from '../../api/run-id.ts';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { EXIT, HarnessError, isHarnessError } from '../../api/errors.ts';
import { faultLine } from '../../api/faults.ts';
import { OPERATIONS } from '../../api/operations.ts';
import { printable } from '../../api/printable.ts';
import { describeTarget, type TargetConfig } from '../../api/target-config.ts';
import { DiscoveryError } from '../../target/fixtures.ts';
import { givenSettings, SETTINGS_ENV_VAR } from '../../target/embedded.ts';
import type { ConformanceSettings } from '../../target/settings.ts';
import { DEFAULT_BASELINE_DIR, readBaseline } from '../../drift/baseline-files.ts';
import { driftReportSection } from '../../drift/report.ts';
import { checkBaseline, recordBaseline } from '../../drift/run.ts';
import { openTargetSession, type TargetSession, type TargetSessionOptions } from '../../target/session.ts';
import type { MoneySettings } from '../../ledger/money-settings.ts';
import type { MoneyPlan } from '../../ledger/plan.ts';
import { fundsPlanOf, type FundsPlan } from '../../ledger/funds.ts';
import { assembleReport, type ReportInput } from '../../reports/assemble.ts';
import type { ReportInterruption } from '../../reports/interruption.ts';
import { VERDICT_EXIT } from '../../reports/verdict.ts';
import { getProfile, listProfiles } from '../../sandbox/profiles/registry.ts';
import { addMoneyOptions, type MoneyOptions } from '../money-options.ts';
import { armMoney, checkSessionFunds, decideMoney, openCommandMoney, settleMoney, type CommandMoney } from '../money-run.ts';
import { commandProgress, earlyEndReport, finishRun, prepareReportDir, reportSecrets, unusableTarget, watchRun } from '../report-output.ts';
import { outMovedTo, renamedOption } from '../flag-vocabulary.ts';
import { plannedTarget } from './conformance.ts';
import { addTargetOptions, configFromOptions, type TargetOptions } from '../target-options.ts';

/** Flags every drift/migrate command shares: the embedded sandbox's profile and seed, the settings file, money. */
export interface SessionFlags extends TargetOptions, MoneyOptions {
  /** `--sandbox-profile` (or the old `--profile`). */
  sandboxProfile?: string;
  seed?: string;
  settings?: string;
}

export function addSessionOptions(cmd: Command): Command {
  addTargetOptions(cmd);
  cmd
    .option(
      '--sandbox-profile <name>',
      'embedded sandbox behaviour profile, e.g. a contract change (see `gateway-harness sandbox --list-profiles`)',
    )
    .option('--seed <n>', "seed of the run: the embedded sandbox's catalog (default 1; this command generates nothing else)")
    .option(
      '--settings <path>',
      `JSON file of number plans, account numbers and assumed field paths, as for conformance (env ${SETTINGS_ENV_VAR})`,
    );
  renamedOption(cmd, '--profile <name>', '--sandbox-profile');
  return cmd;
}

const usage = (message: string): HarnessError => new HarnessError('GH_ERR_USAGE', message);

/** Validates the session flags against the config; throws GH_ERR_USAGE (exit 2) before anything starts. */
export function sessionOptionsFrom(opts: SessionFlags, config: TargetConfig): TargetSessionOptions {
  if (config.baseUrl !== undefined && (opts.sandboxProfile !== undefined || opts.seed !== undefined)) {
    throw usage('--sandbox-profile and --seed apply to the embedded sandbox only (drop --target / GATEWAY_BASE_URL to use it)');
  }
  let seed: number | undefined;
  if (opts.seed !== undefined) {
    if (!/^\d{1,10}$/.test(opts.seed) || Number(opts.seed) > 2 ** 31 - 1) throw usage('--seed must be a whole number from 0 to 2147483647');
    seed = Number(opts.seed);
  }
  if (opts.sandboxProfile !== undefined) {
    try {
      getProfile(opts.sandboxProfile);
    } catch {
      throw usage(
        `--sandbox-profile: unknown profile "${opts.sandboxProfile.slice(0, 40)}" (known: ${listProfiles()
          .map((p) => p.name)
          .join(', ')})`,
      );
    }
  }
  const settings: ConformanceSettings = givenSettings(opts.settings);
  return {
    settings,
    ...(seed === undefined ? {} : { seed }),
    ...(opts.sandboxProfile === undefined ? {} : { profile: opts.sandboxProfile }),
  };
}

/** Runs work on an open session and always closes it; a catalog that cannot be read makes the target unusable (exit 2). */
export async function withSession<T>(
  config: TargetConfig,
  options: TargetSessionOptions,
  work: (session: TargetSession) => Promise<T>,
): Promise<T> {
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

/** What a session's command reports as its target: the URL without credentials, and the profile when embedded. */
export function reportTarget(session: TargetSession, profile: string | undefined): ReportInput['target'] {
  return {
    url: session.config.baseUrl,
    environment: session.config.environment,
    timeScale: session.config.timeScale,
    embedded: session.embedded,
    ...(session.embedded ? { profile: profile ?? 'faithful' } : {}),
  };
}

/** What a judging command runs on its session, and what of it goes into the report. */
export interface JudgedRun<T> {
  /** The command as its money session and ledger name it ('baseline check'), and as the report does ('baseline-check'). */
  readonly moneyCommand: string;
  readonly reportCommand: string;
  /** Put before each progress line of the run. */
  readonly progressPrefix: string;
  /** `stop` is aborted on the first SIGINT/SIGTERM: the run starts nothing new and returns what it has. */
  run(session: TargetSession, progress: (line: string) => void, money: CommandMoney, stop: AbortSignal): Promise<T>;
  section(result: T, allowSkips: boolean): Pick<ReportInput, 'drift' | 'migration'>;
  /** Lines printed after the verdict, before the money's. */
  extra?(result: T): readonly string[];
  /** Its charging plan when known before the run (baseline check): priced against the balance before the first charge. */
  readonly funds?: FundsPlan;
  /** The target went silent during the run (api/faults.ts createSilenceWatch): the line naming the phase. */
  silence?(result: T): string | undefined;
}

/**
 * A judging command on one target session under the money guard (baseline check, migrate): the money session armed
 * before anything is sent, the run with its progress, the money settled (an unresolved charge makes the run
 * incomplete, whatever the run said: reports/assemble.ts), then the report set and the verdict. SIGINT/SIGTERM during
 * the run: nothing new starts, the partial report set says INTERRUPTED (exit 128 + signal), the open charges are
 * polled briefly and what stays open is printed with its reconcile command; a second signal aborts at once.
 */
export async function judgeOnSession<T>(
  opts: { readonly reportDir?: string; readonly allowSkips?: boolean },
  config: TargetConfig,
  sessionOptions: TargetSessionOptions,
  money: MoneySettings,
  job: JudgedRun<T>,
): Promise<number> {
  const runId = newRunId();
  const reportDir = prepareReportDir(opts.reportDir, runId);
  const startedAt = Date.now();
  const cm = openCommandMoney(money, { command: job.moneyCommand, runId, reportDir, config });
  const secrets = reportSecrets(config);
  const progress = commandProgress();
  const planned = plannedTarget(config, 'both');
  // SIGINT/SIGTERM from the preflight on: the reads in flight are abandoned, the report set says INTERRUPTED.
  const interrupt = watchRun({ command: job.reportCommand, runId, reportDir, startedAt, target: planned, secrets, progress });
  interrupt.enter(`${job.moneyCommand} preflight`);
  const run: JudgeRun<T> = { job, runId, reportDir, startedAt, allowSkips: opts.allowSkips === true, cm, secrets, progress, interrupt };
  let opened = false;
  try {
    return await withSession(
      config,
      { ...sessionOptions, hooks: cm.hooks, allowCharges: money.allowCharges, stop: interrupt.signal },
      async (session) => {
        opened = true;
        await armMoney(cm, session);
        interrupt.enter(job.moneyCommand);
        return await judgeSession(run, session, reportTarget(session, sessionOptions.profile ?? config.sandbox.profile));
      },
    );
  } catch (error) {
    // Stopped before a session was open (the preflight): nothing was sent that charges, the report set says so.
    const interruption = interrupt.interruption(startedAt);
    if (opened || interruption === undefined) throw error;
    progress.done();
    const report = earlyEndReport({ runId, command: job.reportCommand, startedAt, target: planned }, { interruption });
    return finishRun(report, reportDir, { secrets }).exitCode;
  } finally {
    interrupt.dispose();
    cm.session.close();
  }
}

/** One judging run's own parts, shared by its steps. */
interface JudgeRun<T> {
  readonly job: JudgedRun<T>;
  readonly runId: string;
  readonly reportDir: string;
  readonly startedAt: number;
  readonly allowSkips: boolean;
  readonly cm: CommandMoney;
  readonly secrets: readonly string[];
  readonly progress: Progress;
  readonly interrupt: RunInterrupt;
}

/** The job on its open session (funds check first), then the money settled and the report set with the verdict. */
async function judgeSession<T>(run: JudgeRun<T>, session: TargetSession, target: ReportInput['target']): Promise<number> {
  const { job, cm, interrupt, allowSkips, startedAt } = run;
  const result = await runJob(run, session, target);
  const interrupted = interrupt.received() !== undefined;
  // A silent target gets the interrupted run's short bounded polls of what is open, not whole poll deadlines.
  const silence = interrupted ? undefined : job.silence?.(result);
  const settled = await settleMoney(cm, session, { allowSkips, interrupted: interrupted || silence !== undefined });
  const interruption = interrupt.interruption(startedAt, settled.reconcile === undefined ? {} : { reconcile: settled.reconcile });
  const report = assembleReport({
    runId: run.runId,
    command: job.reportCommand,
    startedAt,
    durationMs: Date.now() - startedAt,
    allowSkips,
    target,
    ...(interruption === undefined ? job.section(result, allowSkips) : interruptedSections(job.section(result, allowSkips))),
    ...settled.report,
    ...(interruption === undefined ? {} : { interruption }),
    // Unusable, naming the phase; what the silence kept from running is listed as not run.
    ...(silence === undefined ? {} : { error: { code: 'GH_ERR_TARGET', message: silence } }),
  });
  if (silence !== undefined) throw unusableTarget(report, run.reportDir, run.secrets);
  return finishRun(report, run.reportDir, { secrets: run.secrets, extra: [...(job.extra?.(result) ?? []), ...settled.lines] }).exitCode;
}

/** The funds check and the job; a catalog that cannot be read or a silent target is unusable (exit 2), naming the phase. */
async function runJob<T>(run: JudgeRun<T>, session: TargetSession, target: ReportInput['target']): Promise<T> {
  const { job, cm, interrupt, progress } = run;
  try {
    // Before the first charge, under the run's signal watch (a signal there skips it: the run stops before charging).
    if (job.funds !== undefined) await checkSessionFunds(session, job.funds, cm.faults, interrupt.signal);
    return await job.run(session, (line) => progress.line(`${job.progressPrefix}: ${line}`), cm, interrupt.signal);
  } catch (error) {
    // The catalog could not be read (a target gone silent after the preflight, an empty catalog), or the funds
    // check found the target silent: unusable, and the report set says so (exit 2), naming the phase.
    const silent = isHarnessError(error) && error.code === 'GH_ERR_TARGET';
    if (!(error instanceof DiscoveryError) && !silent) throw error;
    const report = earlyEndReport(
      { runId: run.runId, command: job.reportCommand, startedAt: run.startedAt, allowSkips: run.allowSkips, target },
      { error: { code: 'GH_ERR_TARGET', message: (error as Error).message } },
    );
    throw unusableTarget(report, run.reportDir, run.secrets);
  } finally {
    progress.done();
  }
}

/** An interrupted run's sections hold what was judged up to the signal; none of them may read as a pass. */
function interruptedSections(sections: Pick<ReportInput, 'drift' | 'migration'>): Pick<ReportInput, 'drift' | 'migration'> {
  return {
    ...(sections.drift === undefined ? {} : { drift: { ...sections.drift, verdict: 'interrupted' } }),
    ...(sections.migration === undefined ? {} : { migration: { ...sections.migration, verdict: 'interrupted' } }),
  };
}

const progressTo =
  (prefix: string) =>
  (line: string): void => {
    process.stderr.write(`${prefix}: ${printable(line)}\n`);
  };

interface RecordFlags extends SessionFlags {
  outDir: string;
  reportDir?: string;
  readsOnly?: boolean;
}

/** What observing sends that charges: each transaction operation once per input (1–2 from the catalog). */
export function baselinePlan(what: string, readsOnly: boolean, target: string): MoneyPlan {
  return {
    what,
    target,
    items: readsOnly
      ? []
      : OPERATIONS.filter((op) => op.charges).map((operation) => ({
          operation,
          count: 2,
          note: 'one transaction per input, at most 2 inputs from the catalog',
        })),
  };
}

/** A recording stopped by a signal: nothing was written to --out-dir; the open charges are polled briefly, then the report set. */
async function interruptedRecord(
  cm: CommandMoney,
  session: TargetSession,
  run: { runId: string; reportDir: string; startedAt: number; secrets: readonly string[]; interruption: ReportInterruption },
): Promise<number> {
  const settled = await settleMoney(cm, session, { allowSkips: false, interrupted: true });
  const interruption = settled.reconcile === undefined ? run.interruption : { ...run.interruption, reconcile: settled.reconcile };
  const target = reportTarget(session, session.config.sandbox.profile);
  const report = earlyEndReport(
    { runId: run.runId, command: 'baseline-record', startedAt: run.startedAt, target },
    { ...settled.report, interruption },
  );
  return finishRun(report, run.reportDir, { secrets: run.secrets, extra: settled.lines }).exitCode;
}

async function runRecord(opts: RecordFlags): Promise<number> {
  const config = configFromOptions(opts);
  const sessionOptions = sessionOptionsFrom(opts, config);
  const readsOnly = opts.readsOnly === true;
  const money = decideMoney(opts, config, baselinePlan('baseline record', readsOnly, describeTarget(config)));
  if (money === undefined) return EXIT.ok;
  const runId = newRunId();
  const startedAt = Date.now();
  // Only a money run writes here (ledger.jsonl) and an interrupted one its report set; the baseline goes to --out-dir.
  const reportDir = resolve(opts.reportDir ?? join('reports', 'out', runId));
  const cm = openCommandMoney(money, { command: 'baseline record', runId, reportDir, config });
  const secrets = reportSecrets(config);
  // SIGINT/SIGTERM from the preflight on: the reads in flight are abandoned, no baseline is written, the report set
  // says INTERRUPTED (exit 128 + signal).
  const interrupt = watchRun({ command: 'baseline-record', runId, reportDir, startedAt, target: plannedTarget(config, 'both'), secrets });
  interrupt.enter('baseline record preflight');
  let opened = false;
  try {
    return await withSession(
      config,
      { ...sessionOptions, hooks: cm.hooks, allowCharges: money.allowCharges, readsOnly, stop: interrupt.signal },
      async (session) => {
        opened = true;
        await armMoney(cm, session);
        const plan = fundsPlanOf('baseline record', baselinePlan('baseline record', readsOnly, session.label).items);
        await checkSessionFunds(session, plan, cm.faults, interrupt.signal);
        interrupt.enter('baseline record');
        const result = await recordBaseline(session, opts.outDir, { progress: progressTo('baseline'), stop: interrupt.signal });
        const interruption = interrupt.interruption(startedAt);
        if (interruption !== undefined) return await interruptedRecord(cm, session, { runId, reportDir, startedAt, secrets, interruption });
        return await recorded(cm, session, opts.outDir, result);
      },
    );
  } catch (error) {
    // Stopped before a session was open (the preflight): nothing was sent that charges, the report set says so.
    const interruption = interrupt.interruption(startedAt);
    if (opened || interruption === undefined) throw error;
    const report = earlyEndReport(
      { runId, command: 'baseline-record', startedAt, target: plannedTarget(config, 'both') },
      { interruption },
    );
    return finishRun(report, reportDir, { secrets }).exitCode;
  } finally {
    interrupt.dispose();
    cm.session.close();
  }
}

/** A recording that ran to its end: what was recorded, what was not, and the money settled (exit 1 when open). */
async function recorded(cm: CommandMoney, session: TargetSession, out: string, result: Awaited<ReturnType<typeof recordBaseline>>) {
  const ops = result.baseline.index.operations;
  const observed = ops.filter((o) => o.state === 'observed').length;
  if (observed === 0) {
    throw new HarnessError(
      'GH_ERR_TARGET',
      `baseline record: no operation answered successfully on ${session.label}; see the lines above`,
      {
        exitCode: EXIT.usage,
      },
    );
  }
  process.stdout.write(`baseline: recorded ${observed} of ${ops.length} operations from ${session.label} into ${resolve(out)}\n`);
  for (const o of ops.filter((x) => x.state !== 'observed')) process.stdout.write(`  ${o.state} ${o.operationId}: ${o.reason ?? ''}\n`);
  process.stdout.write(`commit ${resolve(out)} and run \`gateway-harness baseline check --baseline ${out}\` later\n`);
  // The recording itself succeeded; unresolved charging transactions still make the run incomplete (exit 1).
  const settled = await settleMoney(cm, session, { allowSkips: false });
  for (const line of settled.lines) process.stdout.write(`${line}\n`);
  process.stdout.write(`faults seen: ${faultLine(settled.report.faults)}\n`);
  return settled.report.ledger === undefined ? EXIT.ok : VERDICT_EXIT[settled.report.ledger.verdict];
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
  // The money guard first (refusal or --dry-run's plan, nothing read or sent); then a missing or broken baseline is a
  // usage error before any request leaves.
  const money = decideMoney(opts, config, baselinePlan('baseline check', readsOnly, describeTarget(config)));
  if (money === undefined) return EXIT.ok;
  const baseline = readBaseline(opts.baseline);
  return judgeOnSession(opts, config, { ...sessionOptions, readsOnly }, money, {
    moneyCommand: 'baseline check',
    reportCommand: 'baseline-check',
    progressPrefix: 'baseline',
    funds: fundsPlanOf('baseline check', baselinePlan('baseline check', readsOnly, describeTarget(config)).items),
    run: (session, progress, _money, stop) => checkBaseline(session, baseline, { progress, stop }),
    section: (result, allowSkips) => ({ drift: driftReportSection(result, { allowSkips }) }),
    silence: (result) => result.silence,
  });
}

export function register(program: Command): void {
  const baseline = program
    .command('baseline')
    .description(
      "Learn the target's payload contract into committed files (record), and check the target against them later (check).\n" +
        "Breaking differences (the spec's Versioning rule 4: removed or renamed fields or headers, changed types) fail the check; non-breaking ones are reported.",
    );
  const record = baseline
    .command('record')
    .description(
      "Call every read operation (and, on a sandbox, every transaction) with inputs from the target's own catalog and write one inferred schema per operation.\n" +
        'With no --target it records the embedded sandbox. Exit 0 written, 2 usage/config error or unusable target.',
    )
    .option('--out-dir <dir>', 'baseline directory to write (index.json + operations/*.json)', DEFAULT_BASELINE_DIR)
    .option('--report-dir <dir>', 'where ledger.jsonl goes when charging requests are recorded (default reports/out/<run-id>/)')
    .option(
      '--reads-only',
      'send no charging request: transactions (and the reads that need one) are not observed; what a production target allows without --allow-charges',
    );
  addSessionOptions(record);
  addMoneyOptions(record);
  outMovedTo(record, '--out-dir', 'the baseline directory');
  record.action(async (opts: RecordFlags) => {
    process.exitCode = await runRecord(opts);
  });
  const check = baseline
    .command('check')
    .description(
      'Observe the target again and compare with a recorded baseline. Exit 0 no breaking change, 1 breaking change (or nothing checkable: incomplete), 2 usage/config error.\n' +
        'Writes summary.json, junit.xml, summary.md and report.html to the report directory.',
    )
    .option('--baseline <dir>', 'baseline directory to check against', DEFAULT_BASELINE_DIR)
    .option('--report-dir <dir>', 'where summary.json, junit.xml, summary.md and report.html go (default reports/out/<run-id>/)')
    .option(
      '--allow-skips',
      'pass even when operations of the baseline could not be checked now (e.g. transactions on a production target)',
    )
    .option('--reads-only', 'send no charging request: transactions (and the reads that need one) are not checked');
  addSessionOptions(check);
  addMoneyOptions(check);
  check.action(async (opts: CheckFlags) => {
    process.exitCode = await runCheck(opts);
  });
}
