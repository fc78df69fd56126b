// `gateway-harness load`: runs a load scenario (load/scenarios.ts) with a profile (load/profiles.ts) on a real k6, or on
// the Node engine, against a target or the embedded sandbox; the report set through reports/, with charts from the
// run's NDJSON stream. Exit 0 passed, 1 failed/incomplete, 2 usage/unusable target, 99 thresholds, 130/143 interrupted,
// k6's codes passed through.
import type { Command } from 'commander';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { HarnessError } from '../../api/errors.ts';
import { startLiveDashboard, type LiveDashboard } from '../../load/runner/live-dashboard.ts';
import { PROFILES, PROFILE_NAMES } from '../../load/profiles.ts';
import { SCENARIOS, SCENARIO_NAMES, scenarioNameOf } from '../../load/scenarios.ts';
import { prepareUserScript, type UserScript } from '../../load/runner/user-script.ts';
import { loadInterruption, loadReportMeta, loadRunReport } from '../../load/runner/load-report.ts';
import { readBaseline } from '../../drift/baseline-files.ts';
import { baselineValidatorsModule } from '../../drift/baseline-validators.ts';
import { checkScenarioChoice, parseLoadFlags, type LoadFlags, type RawLoadFlags } from '../../load/runner/load-options.ts';
import type { Progress } from '../../reports/progress.ts';
import { AGGREGATES_FILE } from '../../reports/metric-aggregates.ts';
import { loadCapacityWarning } from '../../load/runner/capacity/cache.ts';
import { checkLoadRun, exitCodeOf, newLoadRunId, runLoad, type LoadRun } from '../../load/runner/run-load.ts';
import type { RunInterrupt } from '../../reports/interrupt-watch.ts';
import type { MoneySettings } from '../../ledger/money-settings.ts';
import { commandProgress, finishRun, prepareReportDir, reportSecrets, unusableTarget, watchRun } from '../report-output.ts';
import { describeTarget, type TargetConfig } from '../../api/target-config.ts';
import { planLines } from '../../ledger/plan.ts';
import { checkDryRunCap, loadMoneyPlan, plannedOptions } from '../../load/runner/money-plan.ts';
import { livePlanOf } from '../../load/runner/live-plan.ts';
import { addMoneyOptions, moneySettingsFrom, type MoneyOptions } from '../money-options.ts';
import { addEnvVarOption } from '../flag-vocabulary.ts';
import { addLoadFlags } from '../load-flags.ts';
import { addTargetOptions, configFromOptions, type TargetOptions } from '../target-options.ts';
import { addCompareOptions, compareWithRun, type CompareFlags } from '../compare-options.ts';

interface LoadOptions extends TargetOptions, RawLoadFlags, MoneyOptions, CompareFlags {
  list?: boolean;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function printList(): void {
  const out = (line: string): boolean => process.stdout.write(`${line}\n`);
  out('Scenarios:');
  for (const name of SCENARIO_NAMES) out(`  ${name}\t${SCENARIOS[name].description}`);
  out('Profiles:');
  for (const name of PROFILE_NAMES) out(`  ${name}\t${PROFILES[name].description}`);
}

/** The options only `load` has (the shared ones come from ../load-flags.ts). */
function addRunOptions(cmd: Command): void {
  cmd
    .option(
      '--script <file>',
      "your own k6 script (.ts or .js) written with 'gateway-harness/load' (docs/load-runs.md): the same reports, thresholds and money guard",
    )
    .option('--engine <engine>', 'auto (k6 if found, else the Node engine), k6 or node', 'auto')
    .option('--report-dir <dir>', 'where summary.json, junit.xml, summary.md and report.html go (default reports/out/<run-id>/)')
    .option(
      '-o, --out <output>',
      `json=FILE: also keep k6's raw NDJSON metric stream, one line per sample (the report reads ${AGGREGATES_FILE}, one line per second and tag set); ` +
        "prometheus=URL: Prometheus remote write during the run (k6's experimental-prometheus-rw series on either engine; K6_PROMETHEUS_RW_* settings apply). Repeatable",
      collect,
    )
    .option(
      '--dashboard [port]',
      'serve a live dashboard on 127.0.0.1 during the run (charts update as it goes; at the end the page is the report); default port: any free one',
    )
    .option('-i, --iterations <n>', 'iterations shared by the VUs, as k6 --iterations (smoke: instead of its few iterations)')
    .option('--summary-export <file>', "write k6's summary-export JSON of the run to this file (either engine)")
    .option('--funds <usd>', 'starting balance of the embedded sandbox (default 1000000000)')
    .option(
      '--baseline <dir>',
      'check every payload against this recorded baseline too (gateway-harness baseline record --out-dir DIR): what the drift rules call breaking is a violation',
    )
    .option('--promote-observed', 'count observed-payload findings (observed-payloads.md) as violations, not warnings')
    .option('--list', 'print the scenarios and profiles and exit');
}

export function register(program: Command): void {
  const cmd = program
    .command('load')
    .description(
      'Run a load scenario with a profile on k6 (K6_BIN or k6 on PATH), or on the Node engine when no k6 is found.\n' +
        'With no --target it starts the embedded sandbox on 127.0.0.1 (time scale 0.01, generous funds).\n' +
        `Writes summary.json, junit.xml, summary.md and report.html (charts from the per-second metrics, ${AGGREGATES_FILE}) to the report dir.\n` +
        'Exit 0 passed, 1 incomplete or a failed check, 2 usage/config error or unusable target (charging scenarios against\n' +
        'production are refused without --allow-charges --max-spend), 99 thresholds crossed, 130/143 interrupted by\n' +
        'SIGINT/SIGTERM (partial reports marked INTERRUPTED; a second signal aborts at once), other k6 codes passed through.\n' +
        'Charging requests go through the money guard: ledger.jsonl, spend cap, reconciliation at the end.',
    );
  addLoadFlags(cmd, { scenario: true, profile: true, api: true, vus: true, duration: true, rate: true, threshold: true });
  addRunOptions(cmd);
  addEnvVarOption(cmd);
  addTargetOptions(cmd);
  // load has no --allow-skips of its own: the comparison brings one.
  addCompareOptions(cmd, true, true);
  addMoneyOptions(cmd);
  cmd.action(async (opts: LoadOptions) => {
    if (opts.list === true) {
      printList();
      process.exitCode = 0;
      return;
    }
    checkScenarioChoice(opts);
    // Read (and compiled) before anything starts: a broken baseline or script ends the command with exit 2 and one line.
    const baselineModule = opts.baseline === undefined ? undefined : baselineValidatorsModule(readBaseline(opts.baseline));
    const script = opts.script === undefined ? undefined : await prepareUserScript(opts.script, process.cwd(), baselineModule);
    try {
      await runLoadCommand(opts, script, baselineModule);
    } finally {
      script?.dispose();
    }
  });
}

/** `--dashboard`: the live page, with the run's planned stages and thresholds (what the bundle's options will say). */
async function openDashboard(
  flags: LoadFlags,
  outJson: string | undefined,
  runId: string,
  progress: Progress,
): Promise<LiveDashboard | undefined> {
  if (flags.dashboardPort === undefined || outJson === undefined) return undefined;
  const planned = plannedOptions(flags);
  const plan = livePlanOf(planned);
  const title = `load ${scenarioNameOf(flags.scenario)}/${flags.profile}`;
  const dashboard = await startLiveDashboard({
    port: flags.dashboardPort,
    ndjsonPath: resolve(process.cwd(), outJson),
    meta: { title, runId, ...(plan === undefined ? {} : { plan }) },
    thresholds: planned.thresholds,
  });
  progress.line(`load: live dashboard on ${dashboard.url} (at the end the page becomes the report)`);
  return dashboard;
}

/** One load run once its flags and script are read: the dry run, the refusals, the run, the reports. */
async function runLoadCommand(opts: LoadOptions, script: UserScript | undefined, baselineModule: string | undefined): Promise<void> {
  const flags = parseLoadFlags(opts, script);
  const config = configFromOptions(opts);
  const money = moneySettingsFrom(opts, config.environment);
  if (opts.dryRun === true) return printDryRun(flags, config, money);
  const scriptNote = checkLoadRun(flags, config, money);
  const capacityNote = loadCapacityWarning(flags, config.baseUrl ?? 'embedded sandbox', process.env, process.cwd());
  if (flags.dashboardPort !== undefined && flags.outJson?.endsWith('.gz') === true) {
    throw new HarnessError(
      'GH_ERR_USAGE',
      '--dashboard reads the metric stream while it is written: give --out json=FILE without .gz (or no --out json)',
    );
  }
  const compare = compareWithRun(opts);
  const runId = newLoadRunId();
  const reportDir = prepareReportDir(flags.reportDir, runId);
  const dashboardStream = dashboardStreamOf(flags);
  const progress = commandProgress();
  if (scriptNote !== undefined) progress.line(scriptNote);
  if (capacityNote !== undefined) progress.line(capacityNote);
  const secrets = reportSecrets(config);
  const meta = loadReportMeta(flags, config);
  // SIGINT/SIGTERM: the engine stops gracefully, the partial reports say INTERRUPTED, exit 128 + signal.
  const interrupt = watchRun({
    command: 'load',
    runId,
    reportDir,
    startedAt: Date.now(),
    target: { url: config.baseUrl ?? 'embedded sandbox', embedded: config.baseUrl === undefined, ...meta.target },
    secrets,
    progress,
  });
  try {
    const outJson = flags.outJson ?? dashboardStream;
    const runFlags = { ...flags, reportDir, ...(outJson === undefined ? {} : { outJson }) };
    const live = await runWithDashboard({
      flags: runFlags,
      dashboardFlags: flags,
      config,
      money,
      runId,
      progress,
      interrupt,
      baselineModule,
    });
    await reportLoadRun(live, { allowSkips: opts.allowSkips === true, meta, compare, interrupt, secrets });
  } finally {
    interrupt.dispose();
    if (dashboardStream !== undefined) rmSync(dirname(dashboardStream), { recursive: true, force: true });
  }
}

/** `--dry-run`: the money plan priced (and held against the cap), printed; nothing is sent. */
async function printDryRun(flags: LoadFlags, config: TargetConfig, money: MoneySettings): Promise<void> {
  const plan = await checkDryRunCap(config, money, loadMoneyPlan(flags, describeTarget(config)));
  for (const line of planLines(plan, money)) process.stdout.write(`${line}\n`);
  process.exitCode = 0;
}

/**
 * The live dashboard tails the run's NDJSON stream: plain text then (gzip would hold it back until the end), outside
 * the report dir unless --out json= names it (the report reads the per-second aggregates), removed after the run.
 */
function dashboardStreamOf(flags: LoadFlags): string | undefined {
  if (flags.dashboardPort === undefined || flags.outJson !== undefined) return undefined;
  return join(mkdtempSync(join(tmpdir(), 'gh-dashboard-')), 'metrics.ndjson');
}

/** The run, with the live dashboard open beside it when asked for (finished empty if the run throws). */
async function runWithDashboard(request: {
  readonly flags: LoadFlags;
  /** The flags as given: the dashboard opens only for --dashboard. */
  readonly dashboardFlags: LoadFlags;
  readonly config: TargetConfig;
  readonly money: MoneySettings;
  readonly runId: string;
  readonly progress: Progress;
  readonly interrupt: RunInterrupt;
  readonly baselineModule: string | undefined;
}): Promise<{ readonly run: LoadRun; readonly dashboard: LiveDashboard | undefined }> {
  const { flags, progress, interrupt, baselineModule } = request;
  let dashboard: LiveDashboard | undefined;
  try {
    dashboard = await openDashboard(request.dashboardFlags, flags.outJson, request.runId, progress);
    interrupt.enter('load');
    const io = { cwd: process.cwd(), env: process.env, progress, runId: request.runId, interrupt };
    const run = await runLoad(flags, request.config, { ...io, ...(baselineModule === undefined ? {} : { baselineModule }) }, request.money);
    return { run, dashboard };
  } catch (error) {
    await dashboard?.finish(undefined);
    throw error;
  } finally {
    progress.done();
  }
}

/** The reports (compared with an earlier run when asked and the run was whole), the dashboard's last page, the exit code. */
async function reportLoadRun(
  live: { readonly run: LoadRun; readonly dashboard: LiveDashboard | undefined },
  context: {
    readonly allowSkips: boolean;
    readonly meta: ReturnType<typeof loadReportMeta>;
    readonly compare: ReturnType<typeof compareWithRun>;
    readonly interrupt: RunInterrupt;
    readonly secrets: readonly string[];
  },
): Promise<void> {
  const { run, dashboard } = live;
  const interruption = loadInterruption(run, context.interrupt, run.startedAt);
  // An unusable target or an interrupted run is not compared: nothing, or only part, was measured.
  const comparison =
    run.summaryData === undefined || run.unusable !== undefined || interruption !== undefined
      ? undefined
      : await context.compare?.(run, context.meta);
  const report = await loadRunReport(run, context.meta, {
    allowSkips: context.allowSkips,
    ...(interruption === undefined ? {} : { interruption }),
    ...(comparison === undefined ? {} : { comparison }),
  });
  if (run.unusable !== undefined) {
    await dashboard?.finish(undefined);
    throw unusableTarget(report, run.reportDir, context.secrets);
  }
  const { written } = finishRun(report, run.reportDir, { secrets: context.secrets });
  const html = written.paths.reportHtml;
  await dashboard?.finish(html !== undefined && existsSync(html) ? readFileSync(html, 'utf8') : undefined);
  process.exitCode = exitCodeOf(run.engineExit, written.report);
}
