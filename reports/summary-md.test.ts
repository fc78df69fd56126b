// summary.md: the verdict on its first line for every verdict, what failed with ids and rules, safe Markdown, and a
// size that fits a PR comment.
import { describe, expect, it } from 'vitest';
import { assembleReport } from './assemble.ts';
import { fromConformanceRun } from '../conformance/section.ts';
import { passingConformanceRun, sampleConformanceRun } from './fixtures/sample-runs.ts';
import { realK6Summary } from './fixtures/full-report.ts';
import { buildLoadSection } from './k6-summary.ts';
import { generatorReport } from './generator.ts';
import { driftSection } from './sections.ts';
import { MAX_MARKDOWN_CHARS, mdCode, mdText, renderSummaryMarkdown } from './summary-md.ts';
import { VERDICT_WORD } from './verdict.ts';
import type { CaseResult } from '../conformance/types.ts';

const meta = { runId: 'r', startedAt: Date.UTC(2026, 0, 1), durationMs: 10, target: { url: 'http://127.0.0.1:1' } };
const load = buildLoadSection(realK6Summary(), { scenario: 'mixed', profile: 'smoke', engine: 'k6 v0.48.0' });

describe('first line', () => {
  it.each([
    ['pass', assembleReport({ ...meta, command: 'gate', load })],
    ['fail', fromConformanceRun(sampleConformanceRun(), meta)],
    ['incomplete', assembleReport({ ...meta, command: 'gate' })],
    ['unusable', assembleReport({ ...meta, command: 'gate', error: { code: 'GH_ERR_CONFIG', message: 'bad flag' } })],
    [
      'thresholds',
      assembleReport({
        ...meta,
        command: 'load',
        load: { ...load, verdict: 'thresholds', thresholds: [{ metric: 'm', expression: 'p(95)<1', ok: false }] },
      }),
    ],
  ] as const)('%s: the verdict word and the verdict line', (verdict, report) => {
    expect(report.verdict).toBe(verdict);
    const first = renderSummaryMarkdown(report).split('\n')[0] ?? '';
    expect(first).toContain(VERDICT_WORD[verdict]);
    expect(first).toContain(mdText(report.verdictLine));
  });
});

describe('body', () => {
  it('lists each failed case with id, rule and expected vs received, and the skipped ones', () => {
    const md = renderSummaryMarkdown(fromConformanceRun(sampleConformanceRun(), meta));
    expect(md).toContain('### Failed conformance cases (2)');
    expect(md).toContain("- **TRG-510-V2** mobile ending 510 → '510' — _Errors / Sandbox simulation triggers (top-up operation)_");
    expect(md).toContain("expected `responseCode '510'`, received `responseCode '000' (HTTP 200)`");
    expect(md).toContain('- conformance `LOAN-TWO-STEP`: no number with dues is configured (settings.loanNumbers)');
  });

  it('shows thresholds and breaking drift', () => {
    const md = renderSummaryMarkdown(
      assembleReport({
        ...meta,
        command: 'gate',
        load,
        drift: driftSection({
          baselineDir: 'b',
          findings: [{ operationId: 'v2.catalog.skus', path: 'payLoad[].skuId', kind: 'breaking', change: 'removed', detail: 'gone' }],
        }),
      }),
    );
    expect(md).toContain('| `http_req_duration p(95)<2000` | ✅ met |');
    expect(md).toContain('### Breaking drift (1)');
  });

  it('escapes table pipes, HTML and backticks coming from the gateway', () => {
    expect(mdText('a|b<script>')).toBe('a\\|b&lt;script&gt;');
    expect(mdCode('x`y')).toBe('`` x`y ``');
    const run = passingConformanceRun();
    const evil: CaseResult = { ...sampleConformanceRun().cases.find((c) => c.id === 'TRG-510-V2')!, title: 'pipe | and <img src=x>' };
    const md = renderSummaryMarkdown(fromConformanceRun({ ...run, cases: [...run.cases, evil] }, meta));
    expect(md).not.toContain('<img');
    expect(md).toContain('pipe \\| and &lt;img src=x&gt;');
  });

  it('stays within a PR comment', () => {
    const run = sampleConformanceRun();
    const failed = run.cases.find((c) => c.status === 'failed')!;
    const many = Array.from({ length: 200 }, (_, i) => ({ ...failed, id: `TRG-${i}`, rule: 'r'.repeat(5_000) }));
    const md = renderSummaryMarkdown(fromConformanceRun({ ...run, cases: many }, meta));
    expect(md.length).toBeLessThanOrEqual(MAX_MARKDOWN_CHARS);
    expect(md).toContain('… (truncated: see report.html for everything)');
    expect(md.split('\n')[0]).toMatch(/^## ❌ FAIL: /);
  });
});

describe('faults', () => {
  it('names the faults seen when there were any, with the total in summary.json, and says nothing when none', () => {
    const faulted = assembleReport({
      ...meta,
      command: 'load',
      load,
      faults: { timeout: 2, connection: 0, 'server-error': 1, malformed: 0 },
    });
    expect(faulted.faults).toEqual({ timeout: 2, connection: 0, 'server-error': 1, malformed: 0, total: 3 });
    expect(renderSummaryMarkdown(faulted)).toMatch(/^Faults seen .*: 2 client timeouts \(Unknown\), 1 HTTP 5xx \(Failed\)\.$/m);
    const clean = assembleReport({
      ...meta,
      command: 'load',
      load,
      faults: { timeout: 0, connection: 0, 'server-error': 0, malformed: 0 },
    });
    expect(renderSummaryMarkdown(clean)).not.toContain('Faults seen');
  });
});

describe('payload checks of a load run', () => {
  const payloadChecks = {
    violations: 2,
    warnings: 1,
    baselineDir: '/repo/gateway-baseline',
    byPath: [
      { operation: 'v2.catalog.operators', path: '$.payLoad[*].operatorId', layer: 'spec' as const, severity: 'error' as const, count: 2 },
      {
        operation: 'v2.promotion.current',
        path: '$.payLoad[*].product',
        layer: 'observed' as const,
        severity: 'warning' as const,
        count: 1,
      },
    ],
    samples: [
      {
        operation: 'v2.catalog.operators',
        path: '$.payLoad[*].operatorId',
        layer: 'spec' as const,
        severity: 'error' as const,
        message: 'payLoad[0].operatorId must be an integer',
        received: '"45"',
      },
    ],
  };
  const report = assembleReport({ ...meta, command: 'load', load: { ...load, payloadChecks } });

  it('summary.md lists the counts per operation and path, and the samples', () => {
    const md = renderSummaryMarkdown(report);
    expect(md).toContain('2 violations, 1 warnings');
    expect(md).toContain('| `v2.catalog.operators` | `$.payLoad[*].operatorId` | spec | ❌ error | 2 |');
    expect(md).toContain('operatorId must be an integer; received `"45"`');
    expect(md).toContain('`/repo/gateway-baseline`');
  });

  it('report.html shows the same, escaped', async () => {
    const { loadHtmlAssets, renderReportHtml } = await import('./html/report-html.ts');
    const html = renderReportHtml(report, loadHtmlAssets());
    expect(html).toContain('<h3>Payload checks</h3>');
    expect(html).toContain('<code>$.payLoad[*].operatorId</code>');
    expect(html).toContain('<code>&quot;45&quot;</code>');
  });
});

describe("the latency's accuracy of a load run", () => {
  const second = (loopDelayP99Ms: number) => ({ t: Date.UTC(2026, 0, 1, 0, 0, 1), cpuShare: 0.5, loopDelayP99Ms, busyShare: 0.5 });
  const withGenerator = (loopDelayP99Ms: number) =>
    renderSummaryMarkdown(
      assembleReport({ ...meta, command: 'load', load: { ...load, generator: generatorReport('node', 2, [second(loopDelayP99Ms)]) } }),
    );

  it('says within the goal, with the most the generator added, under a 🎯', () => {
    expect(withGenerator(1.2)).toContain(
      '- 🎯 latency within +3 ms + 5 % of what the gateway served: the generator added at most 1.20 ms in any of its 1 measured second',
    );
  });

  it('says outside the goal, by how much and in which second, under a ⚠️', () => {
    const md = withGenerator(17.2);
    expect(md).toContain(
      "- ⚠️ latency outside the +3 ms + 5 % accuracy goal: the generator's own delay added up to 17.2 ms in 1 of its 1 measured second",
    );
    expect(md).not.toContain('🎯');
  });

  it('says nothing of it without the generator measured', () => {
    expect(renderSummaryMarkdown(assembleReport({ ...meta, command: 'load', load }))).not.toMatch(/accuracy|latency within/);
  });
});
