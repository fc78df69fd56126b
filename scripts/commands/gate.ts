// `gateway-harness gate`: the CI gate before an upgrade — conformance, the mixed scenario's smoke load, and the drift
// check when a baseline exists, one verdict and one report set. Thin over gate/run-gate.ts; options registered here only.
import { newRunId } from '../../api/run-id.ts';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { HarnessError } from '../../api/errors.ts';
import { SETTINGS_ENV_VAR, givenSettings } from '../../target/embedded.ts';
import type { ConformanceSettings } from '../../target/settings.ts';
import { DEFAULT_BASELINE_DIR, baselineExists, readBaseline } from '../../drift/baseline-files.ts';
import { GATE_LOAD, runGate, type GateOutcome, type GateRequest } from '../../gate/run-gate.ts';
import { UNDER_LOAD_DEFAULT_PROFILE, UNDER_LOAD_SCENARIO } from '../../gate/under-load.ts';
import { underLoadProfile } from './conformance-under-load.ts';
import { ENGINE_CHOICES, selectEngine, type EngineChoice } from '../../load/engine-select.ts';
import { withFirstContact } from '../../reports/assemble.ts';
import { commandProgress, finishRun, prepareReportDir, reportSecrets, unusableTarget, watchRun } from '../report-output.ts';
import { addTargetOptions, configFromOptions, type TargetOptions } from '../target-options.ts';
import { verdictNoteOf, withDiscoveredSettings, type FirstContact } from '../../target/discover/first-contact.ts';
import { addCompareOptions, compareWithRun, type CompareFlags } from '../compare-options.ts';
import { addSandboxOptions, catalogSeed, checkProfile, checkTarget, contactUnderWatch, parseApi, plannedTarget } from './conformance.ts';
import { DEFAULT_GEN_BUDGET, parseGenBudget, parseGenSeed } from '../../conformance/gen/options.ts';

export interface GateOptions extends TargetOptions, CompareFlags {
  api: string;
  reportDir?: string;
  allowSkips?: boolean;
  baseline?: string;
  sandboxProfile?: string;
  seed?: string;
  sandboxSeed?: string;
  genSeed?: string;
  genBudget?: string;
  settings?: string;
  engine: string;
  underLoad?: string | true;
}

const usage = (message: string): HarnessError => new HarnessError('GH_ERR_USAGE', message);

function parseEngine(value: string): EngineChoice {
  if ((ENGINE_CHOICES as readonly string[]).includes(value)) return value as EngineChoice;
  throw usage(`--engine must be one of ${ENGINE_CHOICES.join(', ')} (got "${value.slice(0, 20)}")`);
}

async function runGateCommand(opts: GateOptions): Promise<number> {
  const api = parseApi(opts.api);
  const engine = parseEngine(opts.engine);
  const underLoad = underLoadProfile(opts.underLoad);
  const given = configFromOptions(opts);
  checkTarget(given, opts, 'gate');
  const runId = newRunId();
  const reportDir = prepareReportDir(opts.reportDir, runId);
  const secrets = reportSecrets(given);
  // First contact: a target with no config file gets its field names and write paths discovered before anything runs.
  const settingsGiven = givenSettings(opts.settings);
  const contact = await contactUnderWatch(given, { opts, settings: settingsGiven }, { command: 'gate', runId, reportDir, secrets, api });
  if (typeof contact === 'number') return contact;
  const config = contact.config;
  const parts = gatePartsOf(opts, contact, settingsGiven);
  // The engine is chosen now, so a K6_BIN that is not a k6 stops the gate before anything is sent.
  selectEngine(engine, process.env, process.cwd());
  const baseline = gateBaselineOf(opts);
  const compare = compareWithRun(opts);
  const progress = commandProgress();
  // SIGINT/SIGTERM: the running part stops, nothing after it runs, the reports say INTERRUPTED (exit 128 + signal).
  const interrupt = watchRun({
    command: 'gate',
    runId,
    reportDir,
    startedAt: Date.now(),
    target: plannedTarget(config, api),
    secrets,
    progress,
  });
  let outcome;
  try {
    outcome = await runGate({
      interrupt,
      runId,
      reportDir,
      config,
      api,
      allowSkips: opts.allowSkips === true,
      ...parts,
      ...baseline,
      engine,
      secrets,
      progress,
      ...(compare === undefined ? {} : { compare }),
      cwd: process.cwd(),
      env: process.env,
      ...(underLoad === undefined ? {} : { underLoad }),
    });
  } finally {
    progress.done();
  }
  try {
    return finishGate(outcome, contact, reportDir, secrets);
  } finally {
    interrupt.dispose();
  }
}

/** The conformance part's inputs: the embedded sandbox's profile and seed, the settings (with what first contact learned), GEN's seed and budget. */
function gatePartsOf(
  opts: GateOptions,
  contact: FirstContact,
  settingsGiven: ConformanceSettings,
): Pick<GateRequest, 'profile' | 'seed' | 'settings' | 'gen'> {
  const profile = opts.sandboxProfile ?? contact.config.sandbox.profile ?? 'faithful';
  checkProfile(profile);
  const seed = catalogSeed(opts, contact.config.sandbox.seed);
  const settings = withDiscoveredSettings(settingsGiven, contact);
  return {
    profile,
    seed,
    settings,
    gen: { seed: parseGenSeed(opts.genSeed ?? opts.seed), budget: parseGenBudget(opts.genBudget, DEFAULT_GEN_BUDGET) },
  };
}

/** A baseline named with --baseline must be there; the default one is used when present. A broken one stops here. */
function gateBaselineOf(opts: GateOptions): Pick<GateRequest, 'baselineDir' | 'baseline'> {
  const baselineDir = opts.baseline ?? DEFAULT_BASELINE_DIR;
  if (opts.baseline !== undefined && !baselineExists(baselineDir)) {
    throw usage(
      `--baseline: no baseline in ${resolve(baselineDir)} (record one with \`gateway-harness baseline record --out-dir ${baselineDir}\`)`,
    );
  }
  return baselineExists(baselineDir) ? { baselineDir, baseline: readBaseline(baselineDir) } : { baselineDir };
}

/** The reports and the exit code; an unusable target is one line (exit 2). A plan cut to fit the wallet is said on the verdict line too. */
function finishGate(outcome: GateOutcome, contact: FirstContact, reportDir: string, secrets: readonly string[]): number {
  // First contact's own requests before the run are part of what the target served: counted with the gate's.
  const report = withFirstContact(outcome.report, contact.reads);
  if (outcome.unusable) throw unusableTarget(report, reportDir, secrets);
  return finishRun(report, reportDir, {
    secrets,
    extra: outcome.notes,
    ...verdictNoteOf(contact.note, outcome.learnedOnCharge, outcome.cuts ?? []),
  }).exitCode;
}

export function register(program: Command): void {
  const cmd = program
    .command('gate')
    .description(
      'The CI gate, one verdict and one report set from three parts:\n' +
        '  1. the conformance suite;\n' +
        `  2. the ${GATE_LOAD.scenario} load scenario's ${GATE_LOAD.profile} profile (on k6 from K6_BIN or PATH,\n` +
        '     else on the Node engine);\n' +
        `  3. the drift check, when a baseline exists (default ${DEFAULT_BASELINE_DIR}/).\n` +
        'With no --target, one embedded sandbox (127.0.0.1, time scale 0.01) serves all.\n' +
        'The first stdout line is the verdict; the report dir gets summary.json,\n' +
        'junit.xml, summary.md and report.html.\n' +
        'Exit 0 pass; 1 failed or incomplete (something not verified); 2 usage or\n' +
        'config error, or an unusable target (one line); 99 load thresholds crossed; 130/143\n' +
        'interrupted by SIGINT/SIGTERM (the running part stops, nothing after it runs).',
    )
    .option('--api <version>', 'v1, v2 or both', 'both')
    .option(
      '--report-dir <dir>',
      'where summary.json, junit.xml, summary.md, report.html and the load metrics go (default reports/out/<run-id>/)',
    )
    .option(
      '--allow-skips',
      'accept what could not be verified (skipped cases, operations or transactions): the verdict can then pass, and lists them',
    )
    .option(
      '--baseline <dir>',
      `drift baseline to check against (default ${DEFAULT_BASELINE_DIR}/ when it exists; record one with \`gateway-harness baseline record\`)`,
    )
    .option('--gen-budget <runs|duration>', 'GEN budget per property: a number of runs (default 30) or a duration (e.g. 20s)')
    .option(
      '--settings <path>',
      `JSON file of conformance settings: number plans, loan numbers, assumed field paths (env ${SETTINGS_ENV_VAR})`,
    )
    .option(
      '--under-load [profile]',
      `run the suite again while the ${UNDER_LOAD_SCENARIO} scenario holds its load (profile, default ${UNDER_LOAD_DEFAULT_PROFILE}) on the same target, instead of the smoke load; the report names every case that passed idle and fails under load (a failure), or the reverse`,
    )
    .option('--engine <engine>', `load engine: ${ENGINE_CHOICES.join(', ')} (auto: k6 if found, else the Node engine)`, 'auto');
  addSandboxOptions(cmd, 'e.g. a planted bug');
  addTargetOptions(cmd);
  addCompareOptions(cmd, true);
  cmd.action(async (opts: GateOptions) => {
    process.exitCode = await runGateCommand(opts);
  });
}
