// GEN's reach in the reports: summary.json keeps each GEN case's inputs, requests and covered items; summary.md and
// report.html show them collapsed with what a run did not reach; a run without GEN cases shows no such section.
import { describe, expect, it } from 'vitest';
import { fromConformanceRun } from '../conformance/section.ts';
import type { CaseResult, RunResult } from '../conformance/types.ts';
import { passingConformanceRun } from './fixtures/sample-runs.ts';
import { genCoverageHeadline, genCoverageRows } from './gen-coverage.ts';
import { loadHtmlAssets, renderReportHtml } from './html/report-html.ts';
import { renderSummaryMarkdown } from './summary-md.ts';

const meta = { runId: 'r', startedAt: Date.UTC(2026, 0, 1), durationMs: 10, target: { url: 'http://127.0.0.1:1' } };

function withGen(run: RunResult): RunResult {
  const base = run.cases[0] as CaseResult;
  const gen: CaseResult = {
    ...base,
    id: 'GEN-BILLPAY-TYPES-V1',
    group: 'GEN',
    gen: {
      inputs: 30,
      requests: 101,
      charging: 30,
      space: ['skuId type', 'amount type', 'accountNumber type'],
      covered: ['skuId type'],
    },
  };
  return { ...run, cases: [...run.cases, gen] };
}

describe('GEN coverage in the reports', () => {
  it('summary.json keeps the reach; the rows count covered of the space and list what was not reached', () => {
    const report = fromConformanceRun(withGen(passingConformanceRun()), meta);
    const rows = genCoverageRows(report.conformance?.cases ?? []);
    expect(rows).toEqual([
      {
        id: 'GEN-BILLPAY-TYPES-V1',
        inputs: 30,
        requests: 101,
        charging: 30,
        covered: 1,
        of: 3,
        missing: ['amount type', 'accountNumber type'],
      },
    ]);
    expect(genCoverageHeadline(rows)).toBe(
      'GEN coverage: 1 of 3 items reached by 1 generated case(s) (30 inputs, 101 requests, 30 charging)',
    );
  });

  it('summary.md and report.html show the table; without GEN cases neither shows it', () => {
    const assets = loadHtmlAssets();
    const report = fromConformanceRun(withGen(passingConformanceRun()), meta);
    const md = renderSummaryMarkdown(report);
    expect(md).toContain('| `GEN-BILLPAY-TYPES-V1` | 30 | 101 (30) | 1 of 3 | amount type; accountNumber type |');
    const html = renderReportHtml(report, assets);
    expect(html).toMatch(/<details class="gen-coverage"><summary>GEN coverage: 1 of 3 items/);
    expect(html).toContain('<td class="num">1 of 3</td><td>amount type; accountNumber type</td>');
    const plain = fromConformanceRun(passingConformanceRun(), meta);
    expect(renderSummaryMarkdown(plain)).not.toContain('GEN coverage');
    expect(renderReportHtml(plain, assets)).not.toContain('gen-coverage"><summary>');
  });
});
