// `gateway-harness compare BASELINE CANDIDATE` and `--compare-with` on load and gate: two report dirs read (one
// streaming pass each), judged per operation, as the report's `comparison` section or a whole report of its own.
import { assembleReport, type ReportInput } from '../reports/assemble.ts';
import type { ComparisonSection, RunReport } from '../reports/model.ts';
import { compareRuns } from './judge.ts';
import { DEFAULT_COMPARE_SETTINGS, type CompareSettings } from '../stats/regression-settings.ts';
import { runFiles, type ReportFacts } from './run-samples.ts';
import { readRunSamplesInThread } from './run-samples-thread.ts';

export interface CompareRequest {
  readonly baselineDir: string;
  readonly candidateDir: string;
  /** The candidate's facts and files when its summary.json is not written yet (load, gate). */
  readonly candidate?: ReportFacts & { readonly files?: readonly string[] };
  readonly settings?: CompareSettings;
  readonly allowSkips?: boolean;
}

/** Refuses a --compare-with dir that holds no run before any load is sent (exit 2, one line). */
export function checkBaselineDir(dir: string): void {
  runFiles(dir);
}

/** The comparison section of two report dirs (baseline first). */
export async function comparisonOf(request: CompareRequest): Promise<ComparisonSection> {
  // Each run is read on its own capped thread, one after the other: the memory of one reading at a time.
  const baseline = await readRunSamplesInThread(request.baselineDir);
  const candidate = await readRunSamplesInThread(request.candidateDir, request.candidate);
  return compareRuns(baseline, candidate, request.settings ?? DEFAULT_COMPARE_SETTINGS, { allowSkips: request.allowSkips ?? false });
}

/** A whole report (command `compare`) whose one section is the comparison. */
export async function compareReport(request: CompareRequest & { readonly runId: string }): Promise<RunReport> {
  const startedAt = Date.now();
  const comparison = await comparisonOf(request);
  const input: ReportInput = {
    runId: request.runId,
    command: 'compare',
    startedAt,
    durationMs: Date.now() - startedAt,
    allowSkips: request.allowSkips ?? false,
    target: { url: `${comparison.baseline.dir} → ${comparison.candidate.dir}` },
    comparison,
  };
  return assembleReport(input);
}
