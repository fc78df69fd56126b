// `gateway-harness merge-results FILE...`: one verdict for a distributed run — the instances' k6 NDJSON merged (counts
// and rates exact, percentiles from HdrHistograms), thresholds evaluated once over the whole, the usual report files.
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { HarnessError } from '../../api/errors.ts';
import { printable } from '../../api/printable.ts';
import { mergeResults } from '../../distributed/merge/merge-results.ts';
import { readThresholdsFile, thresholdsForProfile, type ThresholdPlan } from '../../distributed/merge/threshold-source.ts';
import { PROFILE_NAMES, isProfileName } from '../../load/profiles.ts';
import { API_SELECTIONS, SCENARIO_NAMES, type ApiSelection, type ScenarioName } from '../../load/scenarios.ts';
import { groupThresholds, parseThresholdOverride, type ThresholdOverride } from '../../load/thresholds.ts';
import { createProgress } from '../../reports/progress.ts';
import { parseTimeScaleFlag, TIME_SCALE_HELP } from '../target-options.ts';
import { newRunId } from '../../api/run-id.ts';
import { envOption } from '../flag-vocabulary.ts';
import { addLoadFlags } from '../load-flags.ts';

interface MergeOptions {
  thresholds?: string;
  scenario?: string;
  profile?: string;
  api: string;
  timeScale?: string;
  targetEnv?: string;
  threshold?: string[];
  target?: string;
  reportDir?: string;
  series: boolean;
  runId?: string;
}

function usage(message: string): HarnessError {
  return new HarnessError('GH_ERR_USAGE', message);
}

/** The thresholds to evaluate: --thresholds FILE, or --scenario/--profile (never both: one source, stated). */
export function planFromOptions(opts: MergeOptions): ThresholdPlan {
  const timeScale = opts.timeScale === undefined ? undefined : parseTimeScaleFlag(opts.timeScale);
  const byProfile = opts.scenario !== undefined || opts.profile !== undefined;
  if (opts.thresholds !== undefined) {
    if (byProfile || (opts.threshold ?? []).length > 0 || timeScale !== undefined) {
      throw usage('--thresholds FILE already holds the thresholds: drop --scenario, --profile, --threshold and --time-scale');
    }
    return readThresholdsFile(resolve(opts.thresholds));
  }
  if (!byProfile) {
    throw usage(
      'no thresholds to judge the run by: give --thresholds FILE (the thresholds.json k6-operator wrote) or --scenario and --profile',
    );
  }
  if (opts.scenario === undefined || !(SCENARIO_NAMES as readonly string[]).includes(opts.scenario)) {
    throw usage(`--scenario must be one of ${SCENARIO_NAMES.join(', ')}`);
  }
  if (opts.profile === undefined || !isProfileName(opts.profile)) throw usage(`--profile must be one of ${PROFILE_NAMES.join(', ')}`);
  if (!(API_SELECTIONS as readonly string[]).includes(opts.api)) throw usage('--api must be v1, v2 or both');
  if (opts.targetEnv !== undefined && opts.targetEnv !== 'sandbox' && opts.targetEnv !== 'production')
    throw usage('--target-env must be sandbox or production');
  const overrides: ThresholdOverride[] = [];
  for (const text of opts.threshold ?? []) {
    const parsed = parseThresholdOverride(text);
    if ('error' in parsed) throw usage(`--threshold: ${parsed.error}`);
    overrides.push(parsed);
  }
  return thresholdsForProfile({
    scenario: opts.scenario as ScenarioName,
    profile: opts.profile,
    api: opts.api as ApiSelection,
    timeScale: timeScale ?? 1,
    environment: opts.targetEnv === 'production' ? 'production' : 'sandbox',
    thresholdOverrides: groupThresholds(overrides),
    ...(opts.target === undefined ? {} : { target: opts.target }),
  });
}

export function register(program: Command): void {
  const cmd = program
    .command('merge-results')
    .description(
      "Merge the k6 NDJSON of a distributed run's instances (one file per instance, e.g. k6-operator pods; gzip accepted,\n" +
        "'-' reads stdin) into one run: counts and rates exact, trend percentiles from the raw samples through HdrHistograms,\n" +
        'constant memory. Evaluates the thresholds once over the whole run and writes summary.json, junit.xml, summary.md\n' +
        'and report.html. Thresholds: --thresholds FILE (the thresholds.json k6-operator wrote) or --scenario/--profile.\n' +
        'Exit 0 passed, 1 a check failed or the run is incomplete, 2 usage/config error, 99 thresholds crossed.',
    )
    .argument('[files...]', 'k6 NDJSON files (--out json=...), one per instance')
    .option('--thresholds <file>', 'k6 thresholds JSON: the run plan k6-operator wrote, a k6 options file, or { metric: [expr] }');
  addLoadFlags(cmd, {
    scenario: { help: `compute the thresholds of this scenario (${SCENARIO_NAMES.join(', ')})` },
    profile: { help: `...with this profile (${PROFILE_NAMES.join(', ')})`, defaultValue: false },
    api: { help: '...and API selection: v1, v2 or both' },
  });
  cmd
    .option(
      '--time-scale <factor>',
      `...and the target's time scale (the time-to-final budget scales by it): ${TIME_SCALE_HELP}; default 1`,
    )
    .option('--target-env <kind>', '...and environment kind: sandbox or production (default sandbox)');
  addLoadFlags(cmd, { threshold: { help: '...with the same --threshold overrides the run had (repeatable)' } });
  cmd
    .option('--target <url>', "what the reports call the target (default: from the thresholds file, else the requests' URLs)")
    .option('--report-dir <dir>', 'where the reports go (default reports/out/<run-id>/)')
    .option('--run-id <id>', "the merged run's id (default <time>-merge-<random>)")
    .option('--no-series', 'skip the time series (report.html charts), saving the first pass over the files')
    .action(async (files: string[], opts: MergeOptions) => {
      const plan = planFromOptions(opts);
      if (files.length === 0) throw usage('no NDJSON file given: merge-results FILE... (one per instance, e.g. results/*.ndjson.gz)');
      const runId = opts.runId ?? newRunId('merge');
      const reportDir = resolve(opts.reportDir ?? join('reports', 'out', runId));
      const progress = createProgress();
      const outcome = await mergeResults({ files, plan, reportDir, runId, series: opts.series, progress });
      progress.done();
      const out = (line: string): boolean => process.stdout.write(`${line}\n`);
      out(outcome.report.verdictLine);
      const points = outcome.files.reduce((sum, f) => sum + f.points, 0);
      out(
        `merged ${outcome.files.length} instance file(s), ${points} points, run of ${(outcome.report.durationMs / 1000).toFixed(1)} s; thresholds from ${plan.source}`,
      );
      for (const f of outcome.files) {
        const ids = f.instanceIds.size === 0 ? '' : ` (instance_id ${[...f.instanceIds].join(', ')})`;
        out(`  ${f.path}: ${f.points} points${ids}`);
      }
      for (const u of outcome.unverified) out(`  unverified (no samples): ${u}`);
      for (const w of outcome.warnings) process.stderr.write(`gateway-harness: warning: ${printable(w)}\n`);
      out(`reports: ${Object.values(outcome.written.paths).join(', ')}`);
      process.exitCode = outcome.report.exitCode;
    });
  envOption(program.commands.find((c) => c.name() === 'merge-results') as Command);
}
