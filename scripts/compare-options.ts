// The comparison's options, shared by `compare`, `load --compare-with` and `gate --compare-with`: significance level
// and practical thresholds (defaults: α 0.01, p95 +10 % and +5 ms, failure rates +0.5 points).
import type { Command } from 'commander';
import { HarnessError } from '../api/errors.ts';
import { DEFAULT_COMPARE_SETTINGS, type CompareSettings } from '../compare/judge.ts';

export interface CompareFlags {
  alpha?: string;
  latencyThreshold?: string;
  latencyThresholdMs?: string;
  failureThreshold?: string;
}

export function addCompareOptions(command: Command): Command {
  const d = DEFAULT_COMPARE_SETTINGS;
  return command
    .option('--alpha <level>', `comparison: significance level, corrected over the operations by Holm (default ${d.alpha})`)
    .option('--latency-threshold <percent>', `comparison: smallest p95 increase that counts, relative (default ${d.latencyRelative * 100}%)`)
    .option('--latency-threshold-ms <ms>', `comparison: ...and absolute; both must be exceeded (default ${d.latencyAbsoluteMs})`)
    .option('--failure-threshold <points>', `comparison: smallest failure-rate increase that counts, in percentage points (default ${d.failureRatePoints})`);
}

function number(flag: string, text: string | undefined, fallback: number, ok: (n: number) => boolean, what: string): number {
  if (text === undefined) return fallback;
  const n = Number(text.trim().replace(/%$/, ''));
  if (text.trim() === '' || !Number.isFinite(n) || !ok(n)) throw new HarnessError('GH_ERR_USAGE', `${flag} must be ${what} (got '${text}')`);
  return n;
}

export function compareSettingsOf(flags: CompareFlags): CompareSettings {
  const d = DEFAULT_COMPARE_SETTINGS;
  return {
    alpha: number('--alpha', flags.alpha, d.alpha, (n) => n > 0 && n < 0.5, 'a level between 0 and 0.5, e.g. 0.01'),
    latencyQuantile: d.latencyQuantile,
    latencyRelative: number('--latency-threshold', flags.latencyThreshold, d.latencyRelative * 100, (n) => n >= 0, 'a percentage ≥ 0, e.g. 10%') / 100,
    latencyAbsoluteMs: number('--latency-threshold-ms', flags.latencyThresholdMs, d.latencyAbsoluteMs, (n) => n >= 0, 'milliseconds ≥ 0'),
    failureRatePoints: number('--failure-threshold', flags.failureThreshold, d.failureRatePoints, (n) => n >= 0 && n <= 100, 'percentage points 0..100'),
  };
}
