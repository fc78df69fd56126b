// `gateway-harness conformance`: the conformance suite against the target (or the embedded sandbox): preflight, the
// cases with progress on stderr, then the report set through reports/ and the verdict as the first stdout line.
// Exit 0 pass, 1 fail/incomplete, 2 usage or unusable target (one line; the reports still say so).
import type { Command } from 'commander';
import { newRunId } from '../../api/run-id.ts';
import { EXIT, HarnessError } from '../../api/errors.ts';
import { addFaultCounts, createFaultTally, type FaultTally } from '../../api/faults.ts';
import { OPERATIONS } from '../../api/operations.ts';
import { describeTarget, type ResolvedTargetConfig, type TargetConfig } from '../../api/target-config.ts';
import { compileGrep, type ApiSelection } from '../../conformance/plan.ts';
import { genOnly, planWithGen } from '../../conformance/gen/plan.ts';
import {
  DEFAULT_GEN_BUDGET,
  FUZZ_GEN_BUDGET,
  parseGenBudget,
  parseGenSeed,
  parseReplay,
  type GenOptions,
} from '../../conformance/gen/options.ts';
import { runConformanceSuite, suiteTarget, withSimulator, type SuiteOutcome, type SuiteRequest } from '../../conformance/run-suite.ts';
import { RunCorrelationIds } from '../../conformance/correlation-ids.ts';
import { conformanceUnderLoad, underLoadProfile } from './conformance-under-load.ts';
import { loadArtifacts, loadFaults } from '../../load/runner/load-report.ts';
import { conformanceFundsPlan, fittedRun } from '../../conformance/money-plan.ts';
import { SETTINGS_ENV_VAR, givenSettings, settingsForSandbox, startEmbeddedSandbox } from '../../target/embedded.ts';
import type { ConformanceCase } from '../../conformance/types.ts';
import { assertChargesAllowed } from '../../ledger/guard.ts';
import { planLines, type MoneyPlan } from '../../ledger/plan.ts';
import { assembleReport, withFirstContact, type ReportInput } from '../../reports/assemble.ts';
import { conformanceSection } from '../../conformance/section.ts';
import { getProfile, listProfiles } from '../../sandbox/profiles/registry.ts';
import type { RunningSandbox } from '../../sandbox/server.ts';
import {
  commandProgress,
  earlyEndReport,
  finishRun,
  prepareReportDir,
  reportSecrets,
  unusableTarget,
  watchedPhase,
  watchRun,
} from '../report-output.ts';
import { addMoneyOptions, moneySettingsFrom, type MoneyOptions } from '../money-options.ts';
import { addTargetOptions, configFileGiven, configFromOptions, type TargetOptions } from '../target-options.ts';
import { narrowerOption, renamedOption } from '../flag-vocabulary.ts';
import { firstContact, verdictNoteOf, withDiscoveredSettings, type FirstContact } from '../../target/discover/first-contact.ts';
import { DiscoveryStopped } from '../../target/discover/reader.ts';
import { createChargeLearning, type ChargeLearning } from '../../target/discover/charge-learning.ts';
import type { ConformanceSettings } from '../../target/settings.ts';
import type { ProfileName } from '../../load/profiles.ts';
import type { RunTarget } from '../../reports/model.ts';
import type { Progress } from '../../reports/progress.ts';
import type { RunInterrupt } from '../../reports/interrupt-watch.ts';
import type { ReportInterruption } from '../../reports/interruption.ts';
import { renderChargeFindings } from '../../target/discover/render.ts';

export interface ConformanceOptions extends TargetOptions, MoneyOptions {
  api: string;
  /** --under-load [profile] (#33). */
  underLoad?: string | true;
  grep?: string;
  reportDir?: string;
  /** `--sandbox-profile` (or the old `--profile`). */
  sandboxProfile?: string;
  /** The one `--seed`: the embedded sandbox's catalog and the GEN inputs. */
  seed?: string;
  /** Old, narrower: the catalog alone (fuzz's `--sandbox-seed`). */
  sandboxSeed?: string;
  settings?: string;
  list?: boolean;
  allowSkips?: boolean;
  genSeed?: string;
  genBudget?: string;
  replay?: string;
  /** False with --no-gen: the hand-written cases only. */
  gen?: boolean;
}

/** `conformance` runs the hand-written cases and GEN; `fuzz` runs GEN alone with its larger default budget. */
export type ConformanceMode = 'conformance' | 'fuzz';

function genOptionsFrom(opts: ConformanceOptions, mode: ConformanceMode): GenOptions {
  const replay = parseReplay(opts.replay);
  return {
    seed: parseGenSeed(opts.genSeed ?? opts.seed),
    budget: parseGenBudget(opts.genBudget, mode === 'fuzz' ? FUZZ_GEN_BUDGET : DEFAULT_GEN_BUDGET),
    ...(replay === undefined ? {} : { replay }),
  };
}

/** The run's GEN options: undefined with --no-gen (fuzz always runs GEN). */
function genFor(opts: ConformanceOptions, mode: ConformanceMode): GenOptions | undefined {
  return mode === 'fuzz' || opts.gen !== false ? genOptionsFrom(opts, mode) : undefined;
}

function planFor(
  opts: ConformanceOptions,
  api: ApiSelection,
  mode: ConformanceMode,
  gen: GenOptions | undefined = genFor(opts, mode),
): ConformanceCase[] {
  const selection = { api, ...(opts.grep === undefined ? {} : { grep: opts.grep }) };
  if (mode === 'fuzz') return genOnly(selection, gen as GenOptions);
  return planWithGen(selection, gen);
}

function usage(message: string): HarnessError {
  return new HarnessError('GH_ERR_USAGE', message);
}

export function parseApi(value: string): ApiSelection {
  if (value === 'v1' || value === 'v2' || value === 'both') return value;
  throw usage(`--api must be v1, v2 or both (got "${value.slice(0, 20)}")`);
}

/** What `--seed` seeds, worded once for gate, conformance and fuzz. */
export const SEED_HELP =
  "seed of the run: the embedded sandbox's catalog (default 1) and the generated (GEN) inputs (default: a fresh one, printed in the report)";

/**
 * The embedded sandbox's behaviour profile and the run's one seed (gate, conformance, fuzz), with the old spellings
 * accepted for one release: --profile (now --sandbox-profile), --gen-seed and --sandbox-seed (each one half of --seed).
 */
export function addSandboxOptions(cmd: Command, example: string): Command {
  cmd
    .option('--sandbox-profile <name>', `embedded sandbox behaviour profile, ${example} (see \`gateway-harness sandbox --list-profiles\`)`)
    .option('--seed <n>', SEED_HELP);
  renamedOption(cmd, '--profile <name>', '--sandbox-profile');
  narrowerOption(cmd, '--gen-seed <n>', 'seeds the GEN inputs alone: --seed seeds them and the sandbox catalog');
  narrowerOption(cmd, '--sandbox-seed <n>', 'seeds the sandbox catalog alone: --seed seeds it and the GEN inputs');
  return cmd;
}

/** The embedded sandbox's catalog seed: the old narrower flag, else the one --seed, else the config's. */
export function catalogSeed(opts: { readonly seed?: string; readonly sandboxSeed?: string }, fallback: number): number {
  return parseSeed(opts.sandboxSeed ?? opts.seed, fallback);
}

export function parseSeed(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d{1,10}$/.test(value) || Number(value) > 2 ** 31 - 1) throw usage('--seed must be a whole number from 0 to 2147483647');
  return Number(value);
}

export function checkProfile(name: string): void {
  try {
    getProfile(name);
  } catch {
    throw usage(
      `--sandbox-profile: unknown profile "${name.slice(0, 40)}" (known: ${listProfiles()
        .map((p) => p.name)
        .join(', ')})`,
    );
  }
}

function printPlan(cases: readonly ConformanceCase[]): void {
  const lines = cases.map((c) => `${c.id}\t${c.exclusive === true ? 'exclusive' : 'concurrent'}\t${c.specSection}\t${c.title}\n`);
  // `conformance --list | head` closes the pipe early: that is not an error.
  process.stdout.once('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  process.stdout.write(lines.join(''));
}

/** What conformance sends that charges: one request per request case, plus the multi-step cases' transactions. */
export function conformancePlan(cases: readonly ConformanceCase[], target: string): MoneyPlan {
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
        : {
            operation,
            note: `${n} request case${n === 1 ? '' : 's'}, and the ${scenarios} multi-step cases decide their own transactions as they run`,
          };
    }),
  };
}

/** Refuses what conformance (or the gate, which runs it) must not do before anything is started. */
export function checkTarget(
  config: TargetConfig,
  opts: { readonly sandboxProfile?: string; readonly sandboxSeed?: string },
  command = 'conformance',
): void {
  if (config.environment === 'production') {
    throw usage(
      `${command} sends top-ups and other charging transactions to made-up numbers and relies on sandbox triggers: point it at a sandbox environment (--target-env sandbox); --allow-charges does not apply to it`,
    );
  }
  if (config.baseUrl !== undefined && (opts.sandboxProfile !== undefined || opts.sandboxSeed !== undefined)) {
    throw usage(
      '--sandbox-profile and --sandbox-seed apply to the embedded sandbox only (drop --target / GATEWAY_BASE_URL to use it; --seed then seeds the GEN inputs alone)',
    );
  }
}

/** The report's target before the run knows more (an embedded sandbox's URL is known only once it started). */
export function plannedTarget(config: TargetConfig, api: ApiSelection): ReportInput['target'] {
  return {
    url: config.baseUrl ?? 'embedded sandbox',
    embedded: config.baseUrl === undefined,
    environment: config.environment,
    timeScale: config.timeScale,
    api,
  };
}

/**
 * First contact under a signal watch of its own (the run's is installed once the target is resolved): a signal there
 * ends the command with the INTERRUPTED report set and 128 + signal (returned) instead of killing it with no report.
 * It runs when no config file is given (the flags' or the working directory's), and learns loan numbers when the
 * given settings name none.
 */
export async function contactUnderWatch(
  config: TargetConfig,
  given: { readonly opts: TargetOptions; readonly settings: ConformanceSettings },
  run: { command: string; runId: string; reportDir: string; secrets: readonly string[]; api: ApiSelection },
): Promise<FirstContact | number> {
  const known = { hasConfigFile: configFileGiven(given.opts), loanNumbersKnown: given.settings.loanNumbers.length > 0 };
  const options = {
    command: run.command,
    runId: run.runId,
    reportDir: run.reportDir,
    startedAt: Date.now(),
    target: plannedTarget(config, run.api),
    secrets: run.secrets,
  };
  const interrupt = watchRun(options);
  try {
    const watched = await watchedPhase(
      interrupt,
      'first contact',
      options,
      (stop) => firstContact(config, { ...known, stop }),
      (report, ended) =>
        withFirstContact(report, ended.value?.reads ?? (ended.error instanceof DiscoveryStopped ? ended.error.reads : undefined)),
    );
    return 'exitCode' in watched ? watched.exitCode : watched.value;
  } finally {
    interrupt.dispose();
  }
}

/** What the run is to send, known from the flags alone (before anything is started). */
interface ConformancePlan {
  readonly config: TargetConfig;
  readonly gen: GenOptions | undefined;
  readonly cases: ConformanceCase[];
  readonly money: ReturnType<typeof moneySettingsFrom>;
}

/** One conformance run as its steps share it: what runs, against what (after first contact), where its reports go. */
interface ConformanceRun {
  readonly opts: ConformanceOptions;
  readonly mode: ConformanceMode;
  readonly api: ApiSelection;
  readonly gen: GenOptions | undefined;
  readonly cases: ConformanceCase[];
  readonly runId: string;
  readonly reportDir: string;
  readonly secrets: string[];
  readonly contact: FirstContact;
  readonly config: TargetConfig;
  readonly profile: string;
  readonly seed: number;
  readonly settings: ConformanceSettings;
  readonly allowSkips: boolean;
  readonly loadProfile: ProfileName | undefined;
}

/** The run on its resolved target: the embedded sandbox (when it is one), the report's target, the signal watch. */
interface ConformanceSession extends ConformanceRun {
  readonly sandbox: RunningSandbox | undefined;
  readonly resolved: ResolvedTargetConfig;
  readonly target: RunTarget;
  readonly learning: ChargeLearning;
  readonly progress: Progress;
  readonly interrupt: RunInterrupt;
  /** Every response tallied by fault kind (api/faults.ts) for the reports; the cases judge them as always. */
  readonly faults: FaultTally;
}

type SuiteRan = Extract<SuiteOutcome, { kind: 'run' }>;
type UnderLoadPass = Awaited<ReturnType<typeof conformanceUnderLoad>>;

function planRun(opts: ConformanceOptions, api: ApiSelection, mode: ConformanceMode): ConformancePlan {
  const config = configFromOptions(opts);
  const gen = genFor(opts, mode);
  return { config, gen, cases: planFor(opts, api, mode, gen), money: moneySettingsFrom(opts, config.environment) };
}

/** The one production guard first (the same line as every command), then conformance's own rule. */
function refuseForbidden(plan: ConformancePlan, opts: ConformanceOptions): void {
  const charging = conformancePlan(plan.cases, describeTarget(plan.config)).items.map((i) => i.operation);
  assertChargesAllowed('conformance', charging, plan.money);
  checkTarget(plan.config, opts);
}

/** First contact: a target with no config file gets its field names and write paths discovered before any case runs. */
async function contactTarget(
  opts: ConformanceOptions,
  plan: ConformancePlan,
  what: Pick<ConformanceRun, 'api' | 'mode'>,
): Promise<ConformanceRun | number> {
  const { api } = what;
  const runId = newRunId();
  const reportDir = prepareReportDir(opts.reportDir, runId);
  const secrets = reportSecrets(plan.config);
  const settingsGiven = givenSettings(opts.settings);
  const given = { opts, settings: settingsGiven };
  const contact = await contactUnderWatch(plan.config, given, { command: 'conformance', runId, reportDir, secrets, api });
  if (typeof contact === 'number') return contact;
  const config = contact.config;
  const profile = opts.sandboxProfile ?? config.sandbox.profile ?? 'faithful';
  checkProfile(profile);
  const seed = catalogSeed(opts, config.sandbox.seed);
  const settings = withDiscoveredSettings(settingsGiven, contact);
  if (plan.cases.length === 0) {
    throw usage(`no conformance case matches --api ${api}${opts.grep === undefined ? '' : ` --grep ${opts.grep}`}`);
  }
  const allowSkips = opts.allowSkips === true;
  const loadProfile = underLoadProfile(opts.underLoad);
  return {
    opts,
    ...what,
    gen: plan.gen,
    cases: plan.cases,
    runId,
    reportDir,
    secrets,
    contact,
    config,
    profile,
    seed,
    settings,
    allowSkips,
    loadProfile,
  };
}

/** The resolved target (the sandbox's URL and settings when it is one), the run's learned mapping, its signal watch. */
function openSession(run: ConformanceRun, sandbox: RunningSandbox | undefined, faults: FaultTally): ConformanceSession {
  const { config, api, profile, seed, runId, reportDir, secrets } = run;
  const settings = sandbox === undefined ? run.settings : settingsForSandbox(run.settings, sandbox);
  const resolved: ResolvedTargetConfig = { ...config, baseUrl: sandbox === undefined ? (config.baseUrl as string) : sandbox.url };
  const target = suiteTarget(resolved, api, sandbox === undefined ? undefined : { profile, seed });
  // The run's one learned mapping: transaction-result fields learned on its first successful charges.
  const learning = createChargeLearning(resolved.fieldMapping);
  const progress = commandProgress();
  // SIGINT/SIGTERM: no case starts after it, the cases run so far are reported as INTERRUPTED (exit 128 + signal).
  const interrupt = watchRun({ command: 'conformance', runId, reportDir, startedAt: Date.now(), target, secrets, progress });
  interrupt.enter('conformance');
  return { ...run, sandbox, settings, resolved, target, learning, progress, interrupt, faults };
}

function suiteRequestOf(session: ConformanceSession): SuiteRequest {
  const { opts, mode, api, gen, cases, settings, resolved, sandbox, progress } = session;
  const where =
    sandbox === undefined
      ? describeTarget(session.config)
      : `embedded sandbox (${sandbox.url}, profile ${session.profile}, seed ${session.seed})`;
  return {
    config: resolved,
    settings,
    cases,
    api,
    progress,
    onResponse: (response) => session.faults.add(response),
    stop: session.interrupt.signal,
    learning: session.learning,
    // One id memory for both passes of --under-load: the loaded pass never repeats an id the idle pass sent.
    ids: new RunCorrelationIds(),
    funds: conformanceFundsPlan(mode, cases, settings, gen),
    // A wallet too small for the whole plan: GEN's charging runs and the POLL top-ups cut to fit (said in the report).
    fitted: (values) => {
      const fitted = fittedRun(values, gen, settings);
      return { cases: planFor(opts, api, mode, fitted.gen), settings: fitted.settings };
    },
    announce: `${mode}: ${where}, time scale ${resolved.timeScale}, ${cases.length} case${cases.length === 1 ? '' : 's'}; reports in ${session.reportDir}`,
  };
}

/** The idle pass, then with --under-load (#33) the second pass under the mixed scenario's load, once the idle pass ran whole. */
async function runPasses(session: ConformanceSession): Promise<{ outcome: SuiteOutcome; underLoad?: UnderLoadPass }> {
  const { progress, interrupt, sandbox, loadProfile } = session;
  try {
    const suite = suiteRequestOf(session);
    const outcome = await runConformanceSuite(suite);
    for (const line of renderChargeFindings(session.learning.findings())) progress.line(line);
    const whole = outcome.kind === 'run' && outcome.run.silence === undefined && interrupt.received() === undefined;
    if (loadProfile === undefined || !whole || outcome.kind !== 'run') return { outcome };
    const { api, runId, reportDir, allowSkips, secrets, resolved } = session;
    const request = { profile: loadProfile, api, runId, reportDir, allowSkips, secrets, progress, interrupt, resolved };
    const underLoad = await conformanceUnderLoad(
      { ...request, ...(sandbox === undefined ? {} : { sandbox }), sandboxProfile: session.profile, suite },
      outcome.run,
    );
    return { outcome, underLoad };
  } finally {
    progress.done();
  }
}

/** The report's common fields for a run that started at `startedAt` and took `durationMs`. */
function reportBase(session: ConformanceSession, startedAt: number, durationMs: number) {
  return { runId: session.runId, command: 'conformance', startedAt, durationMs, allowSkips: session.allowSkips };
}

/** No usable target: unusable (exit 2) with the reports, or INTERRUPTED when a signal stopped it there. */
function reportUnusable(
  session: ConformanceSession,
  outcome: Extract<SuiteOutcome, { kind: 'unusable' }>,
  interruption: ReportInterruption | undefined,
): number {
  const { target, contact, reportDir, secrets } = session;
  const run = { ...reportBase(session, outcome.startedAt, outcome.durationMs), target };
  if (interruption === undefined) {
    const report = earlyEndReport(run, { error: { code: 'GH_ERR_TARGET', message: outcome.reason } });
    throw unusableTarget(withFirstContact(report, contact.reads), reportDir, secrets);
  }
  const report = earlyEndReport(run, { interruption });
  const note = verdictNoteOf(contact.note, session.learning.findings());
  return finishRun(withFirstContact(report, contact.reads), reportDir, { secrets, ...note }).exitCode;
}

/** The cases' report (with the load's part under --under-load); a target gone silent in them is unusable (exit 2). */
function reportRan(
  session: ConformanceSession,
  outcome: SuiteRan,
  underLoad: UnderLoadPass | undefined,
  interruption?: ReportInterruption,
): number {
  const { faults, contact, reportDir, secrets } = session;
  const stopped = interruption === undefined ? {} : { interruption };
  const section = underLoad?.conformance ?? conformanceSection(outcome.run, { allowSkips: session.allowSkips, secrets });
  const load = underLoad?.load;
  const report = assembleReport({
    ...reportBase(session, outcome.run.startedAt, outcome.run.durationMs),
    target: withSimulator(session.target, outcome.simulator),
    conformance: interruption === undefined ? section : { ...section, verdict: 'interrupted' },
    faults: load === undefined ? faults.counts() : addFaultCounts(faults.counts(), loadFaults(load.run)),
    ...(load === undefined ? {} : { artifacts: loadArtifacts(load.run), ...(load.section === undefined ? {} : { load: load.section }) }),
    ...(load?.interruption === undefined ? stopped : { interruption: load.interruption }),
    ...(load?.error === undefined ? {} : { error: load.error }),
    // The target went silent during the cases: unusable, naming the phase; the cases it kept from running are listed.
    ...(outcome.run.silence === undefined || interruption !== undefined
      ? {}
      : { error: { code: 'GH_ERR_TARGET', message: outcome.run.silence } }),
  });
  if (outcome.run.silence !== undefined && interruption === undefined)
    throw unusableTarget(withFirstContact(report, contact.reads), reportDir, secrets);
  // A plan cut to fit the wallet is said on the verdict line (every report file carries it).
  return finishRun(withFirstContact(report, contact.reads), reportDir, {
    secrets,
    ...verdictNoteOf(contact.note, session.learning.findings(), outcome.cuts),
  }).exitCode;
}

/** The run on its target: the embedded sandbox started when none is given, the passes, the reports; all closed after. */
async function runOnTarget(run: ConformanceRun): Promise<number> {
  let sandbox: RunningSandbox | undefined;
  let dispose: (() => void) | undefined;
  const faults = createFaultTally();
  try {
    if (run.config.baseUrl === undefined) sandbox = await startEmbeddedSandbox(run.config, { profile: run.profile, seed: run.seed });
    const session = openSession(run, sandbox, faults);
    dispose = () => session.interrupt.dispose();
    const { outcome, underLoad } = await runPasses(session);
    const interruption = session.interrupt.interruption(outcome.kind === 'run' ? outcome.run.startedAt : outcome.startedAt);
    if (outcome.kind === 'unusable') return reportUnusable(session, outcome, interruption);
    return reportRan(session, outcome, underLoad, interruption);
  } finally {
    dispose?.();
    await sandbox?.close();
  }
}

export async function runConformance(opts: ConformanceOptions, mode: ConformanceMode = 'conformance'): Promise<number> {
  const api = parseApi(opts.api);
  compileGrep(opts.grep);
  if (opts.list === true) {
    printPlan(planFor(opts, api, mode));
    return EXIT.ok;
  }
  const plan = planRun(opts, api, mode);
  if (opts.dryRun === true) {
    for (const line of planLines(conformancePlan(plan.cases, describeTarget(plan.config)), plan.money)) process.stdout.write(`${line}\n`);
    return EXIT.ok;
  }
  refuseForbidden(plan, opts);
  const run = await contactTarget(opts, plan, { api, mode });
  return typeof run === 'number' ? run : runOnTarget(run);
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
    .option('--report-dir <dir>', 'where summary.json, junit.xml, summary.md and report.html go (default reports/out/<run-id>/)')
    .option(
      '--settings <path>',
      `JSON file of conformance settings: number plans, loan numbers, assumed field paths (env ${SETTINGS_ENV_VAR})`,
    )
    .option('--list', 'print the selected cases (id, phase, spec section, title) and exit')
    .option('--allow-skips', 'accept skipped cases (not verified): the verdict can then pass, and says how many were skipped')
    .option(
      '--gen-budget <runs|duration>',
      'GEN budget per property: a number of runs (default 30) or a duration (e.g. 20s); see `gateway-harness fuzz --help`',
    )
    .option('--no-gen', 'the hand-written cases only (no GEN properties)')
    .option(
      '--under-load [profile]',
      'run the suite again while the mixed scenario holds its load (profile, default load) on the same target; the report names every case that passed idle and fails under load (a failure), or the reverse',
    );
  addSandboxOptions(cmd, 'e.g. a planted bug');
  addTargetOptions(cmd);
  addMoneyOptions(cmd, { ledger: false });
  cmd.action(async (opts: ConformanceOptions) => {
    process.exitCode = await runConformance(opts);
  });
}
