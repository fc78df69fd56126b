// `gateway-harness compare BASELINE CANDIDATE`: is the candidate run slower or less reliable than the baseline, per
// operation, and how sure is that? Two report dirs (any engine, single or distributed) → the usual report set.
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { compareReport } from '../../compare/compare-runs.ts';
import { addCompareOptions, compareSettingsOf, type CompareFlags } from '../compare-options.ts';
import { finishRun, prepareReportDir } from '../report-output.ts';
import { newRunId } from '../../api/run-id.ts';

interface CompareOptions extends CompareFlags {
  reportDir?: string;
  runId?: string;
  allowSkips?: boolean;
}

export function register(program: Command): void {
  const command = program
    .command('compare')
    .description(
      "Compare two load runs (their report dirs: per-second metrics, an older run's NDJSON, or a distributed run's\n" +
        'instance files) per operation:\n' +
        'latency p50/p95/p99 with confidence intervals, business and HTTP failure rates, schema violations, throughput,\n' +
        'time to final. A regression is significant (Holm-corrected) and beyond a practical threshold; too few samples is\n' +
        'incomplete, never "no regression". Exit 0 no regression, 1 a regression or incomplete, 2 usage error.',
    )
    .argument('<baseline>', 'report dir of the earlier run (e.g. the last green run kept as a CI artifact)')
    .argument('<candidate>', 'report dir of the run to judge')
    .option('--report-dir <dir>', 'where the reports go (default reports/out/<run-id>/)')
    .option('--run-id <id>', "the comparison's id (default <time>-compare-<random>)")
    .option('--allow-skips', 'accept operations with too few samples to conclude (stated in every report)');
  addCompareOptions(command).action(async (baseline: string, candidate: string, opts: CompareOptions) => {
    const settings = compareSettingsOf(opts);
    const runId = opts.runId ?? newRunId('compare');
    const reportDir = prepareReportDir(opts.reportDir, runId);
    const report = await compareReport({
      baselineDir: resolve(baseline),
      candidateDir: resolve(candidate),
      settings,
      allowSkips: opts.allowSkips === true,
      runId,
    });
    process.exitCode = finishRun(report, reportDir, { secrets: [] }).exitCode;
  });
}
