// k6's handleSummary for every load bundle: keeps k6's end-of-test data as k6-summary.json in the report directory (the
// Node side turns it and the NDJSON stream into the one report set through reports/) and prints the verdict line.
import { buildLoadSection, type K6SummaryData } from '../../reports/k6-summary.ts';
import { loadLine } from '../../reports/sections.ts';
import { VERDICT_WORD } from '../../reports/verdict.ts';

/** File name of the raw handleSummary data inside the report directory (reports' `artifacts.k6Summary`). */
export const K6_SUMMARY_FILE = 'k6-summary.json';

/** What the run was, for the verdict line k6 prints (never a credential). */
export interface SummaryRun {
  readonly scenario: string;
  readonly profile: string;
  /** 'k6 v0.48.0', 'k6' (version unknown: a bare `k6 run`) or 'node'. */
  readonly engine: string;
}

export function reportPath(dir: string, file: string): string {
  return dir === '' ? file : `${dir.replace(/[/\\]+$/, '')}/${file}`;
}

/**
 * The data as written: setup() data is the target's catalog (large, and none of the report's business) and becomes
 * `true`, so whether setup completed survives; everything else is k6's own, for the report and for merging runs.
 */
export function keptSummaryData(data: K6SummaryData): K6SummaryData {
  const kept: { -readonly [K in keyof K6SummaryData]: K6SummaryData[K] } = { ...data };
  delete kept.setup_data;
  if (data.setup_data !== undefined && data.setup_data !== null) kept.setup_data = true;
  return kept;
}

/** handleSummary's files: k6-summary.json, and on stdout the verdict line of this run (k6 prints it at the end). */
export function summaryFiles(data: K6SummaryData, run: SummaryRun, reportDir: string): Record<string, string> {
  const file = reportPath(reportDir, K6_SUMMARY_FILE);
  const section = buildLoadSection(data, { scenario: run.scenario, profile: run.profile, engine: run.engine, setupRequired: true });
  return {
    [file]: `${JSON.stringify(keptSummaryData(data))}\n`,
    stdout: `${VERDICT_WORD[section.verdict]}: ${loadLine(section)}\nk6 summary data: ${file}\n`,
  };
}
