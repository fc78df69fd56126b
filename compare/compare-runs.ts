// `gateway-harness compare BASELINE CANDIDATE` and `--compare-with` on load and gate: two report dirs read (one
// streaming pass each), judged per operation, as the report's `comparison` section or a whole report of its own.
import { assembleReport, type ReportInput } from '../reports/assemble.ts';
import type { ComparisonSection, RunReport } from '../reports/model.ts';
import { compareRuns, DEFAULT_COMPARE_SETTINGS, type CompareSettings } from './judge.ts';
import { readRunSamples } from './run-samples.ts';

export interface CompareRequest {
  readonly baselineDir: string;
  readonly candidateDir: string;
  readonly settings?: CompareSettings;
  readonly allowSkips?: boolean;
}

/** The comparison section of two report dirs (baseline first). */
export async function comparisonOf(request: CompareRequest): Promise<ComparisonSection> {
  const baseline = await readRunSamples(request.baselineDir);
  const candidate = await readRunSamples(request.candidateDir);
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
