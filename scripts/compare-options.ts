// The comparison's options, shared by `compare`, `load --compare-with` and `gate --compare-with`: significance level
// and practical thresholds (defaults: α 0.01, p95 +10 % and +5 ms, failure rates +0.5 points).
import type { Command } from 'commander';
import { HarnessError } from '../api/errors.ts';
import { resolve } from 'node:path';
import { checkBaselineDir, comparisonOf } from '../compare/compare-runs.ts';
import { DEFAULT_COMPARE_SETTINGS, type CompareSettings } from '../stats/regression-settings.ts';
import type { LoadRun } from '../load/runner/run-load.ts';
import { runMetricsFile } from '../load/runner/load-report.ts';
import type { ComparisonSection } from '../reports/model.ts';

export interface CompareFlags {
  compareWith?: string;
  allowSkips?: boolean;
  alpha?: string;
  latencyThreshold?: string;
  latencyThresholdMs?: string;
  failureThreshold?: string;
}

/**
 * `withBaseline`: load and gate also get --compare-with DIR (compare takes the two dirs as arguments);
 * `withAllowSkips`: a command without its own --allow-skips (load) gets one: the comparison's thin operations, and latency
 * thresholds crossed while the load generator was saturated (reports/generator.ts).
 */
export function addCompareOptions(command: Command, withBaseline = false, withAllowSkips = false): Command {
  const d = DEFAULT_COMPARE_SETTINGS;
  if (withBaseline) {
    command.option(
      '--compare-with <dir>',
      "compare this run's load with an earlier run's report dir (e.g. the last green run): a regression fails the run (exit 1)",
    );
  }
  if (withAllowSkips)
    command.option(
      '--allow-skips',
      'accept what could not be verified (stated in every report): comparison operations with too few samples; latency thresholds crossed while the load generator was saturated',
    );
  return command
    .option('--alpha <level>', `comparison: significance level, corrected over the operations by Holm (default ${d.alpha})`)
    .option(
      '--latency-threshold <percent>',
      `comparison: smallest p95 increase that counts, relative (default ${d.latencyRelative * 100}%)`,
    )
    .option('--latency-threshold-ms <ms>', `comparison: ...and absolute; both must be exceeded (default ${d.latencyAbsoluteMs})`)
    .option(
      '--failure-threshold <points>',
      `comparison: smallest failure-rate increase that counts, in percentage points (default ${d.failureRatePoints})`,
    );
}

function number(flag: string, text: string | undefined, fallback: number, ok: (n: number) => boolean, what: string): number {
  if (text === undefined) return fallback;
  const n = Number(text.trim().replace(/%$/, ''));
  if (text.trim() === '' || !Number.isFinite(n) || !ok(n))
    throw new HarnessError('GH_ERR_USAGE', `${flag} must be ${what} (got '${text}')`);
  return n;
}

export function compareSettingsOf(flags: CompareFlags): CompareSettings {
  const d = DEFAULT_COMPARE_SETTINGS;
  return {
    alpha: number('--alpha', flags.alpha, d.alpha, (n) => n > 0 && n < 0.5, 'a level between 0 and 0.5, e.g. 0.01'),
    latencyQuantile: d.latencyQuantile,
    latencyRelative:
      number('--latency-threshold', flags.latencyThreshold, d.latencyRelative * 100, (n) => n >= 0, 'a percentage ≥ 0, e.g. 10%') / 100,
    latencyAbsoluteMs: number('--latency-threshold-ms', flags.latencyThresholdMs, d.latencyAbsoluteMs, (n) => n >= 0, 'milliseconds ≥ 0'),
    failureRatePoints: number(
      '--failure-threshold',
      flags.failureThreshold,
      d.failureRatePoints,
      (n) => n >= 0 && n <= 100,
      'percentage points 0..100',
    ),
  };
}

/**
 * The comparison a load or gate run makes of its own load with --compare-with DIR, checked now (a dir without a run is
 * a usage error before any load is sent); undefined without --compare-with.
 */
export function compareWithRun(
  flags: CompareFlags,
): ((run: LoadRun, meta: { readonly scenario: string; readonly profile: string }) => Promise<ComparisonSection>) | undefined {
  if (flags.compareWith === undefined) return undefined;
  const baselineDir = resolve(flags.compareWith);
  checkBaselineDir(baselineDir);
  const settings = compareSettingsOf(flags);
  return (run, meta) =>
    comparisonOf({
      baselineDir,
      candidateDir: run.reportDir,
      candidate: {
        runId: run.runId,
        engine: run.engineLabel,
        scenario: meta.scenario,
        profile: meta.profile,
        files: [runMetricsFile(run)].filter((file): file is string => file !== undefined),
      },
      settings,
      allowSkips: flags.allowSkips === true,
    });
}
