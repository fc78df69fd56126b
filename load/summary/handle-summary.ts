// k6's handleSummary for every load bundle: builds the summary once and returns the three report files (k6 writes
// them) plus the text it prints. The report directory comes from GATEWAY_REPORT_DIR (the CLI creates it).
import { buildLoadSummary, type RunInfo } from './build-summary.ts';
import type { K6SummaryData } from './k6-summary-data.ts';
import { JUNIT_XML, SUMMARY_JSON, SUMMARY_MD, loadJunitXml, loadSummaryMarkdown, loadSummaryText } from './write-reports.ts';

export function reportPath(dir: string, file: string): string {
  return dir === '' ? file : `${dir.replace(/[/\\]+$/, '')}/${file}`;
}

export function summaryFiles(data: K6SummaryData, run: RunInfo, reportDir: string): Record<string, string> {
  const summary = buildLoadSummary(data, run);
  const json = reportPath(reportDir, SUMMARY_JSON);
  const junit = reportPath(reportDir, JUNIT_XML);
  const md = reportPath(reportDir, SUMMARY_MD);
  return {
    [json]: `${JSON.stringify(summary, null, 2)}\n`,
    [junit]: loadJunitXml(summary),
    [md]: loadSummaryMarkdown(summary),
    stdout: loadSummaryText(summary, [json, junit, md]),
  };
}
