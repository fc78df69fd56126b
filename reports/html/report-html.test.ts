// report.html without a browser: self-contained (no external URL, no src/href leaving the page, a CSP that forbids
// fetches), the verdict first, every failure with its rule, and text from the gateway escaped.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembleReport } from '../assemble.ts';
import { generatorReport } from '../generator.ts';
import { fromConformanceRun } from '../../conformance/section.ts';
import { fullReport } from '../fixtures/full-report.ts';
import { passingConformanceRun, SAMPLE_MIGRATION_PAIRS, sampleConformanceRun } from '../fixtures/sample-runs.ts';
import { migrationSection } from '../sections.ts';
import type { RunReport } from '../model.ts';
import { escapeHtml, loadHtmlAssets, renderReportHtml, VERDICT_MEANING } from './report-html.ts';
import type { CaseResult } from '../../conformance/types.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-html-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const assets = loadHtmlAssets();
let report: RunReport;
let html: string;
beforeAll(async () => {
  report = await fullReport(join(dir, 'full.ndjson'));
  html = renderReportHtml(report, assets);
});
const meta = { runId: 'r', startedAt: Date.UTC(2026, 0, 1), target: { url: 'http://127.0.0.1:1' } };

describe('self-contained', () => {
  it('no external URL anywhere: the only URLs are the loopback target the report is about', () => {
    const urls = html.match(/https?:\/\/[^\s"'<>)]+/g) ?? [];
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url).toMatch(/^http:\/\/(127\.0\.0\.1|\[REDACTED\]@127\.0\.0\.1)[:/]/);
  });

  it('nothing leaves the page: no src, no external href, no link, no @import or url() but data:', () => {
    expect(html).not.toMatch(/<(link|img|iframe|object|embed)\b/i);
    expect(html).not.toMatch(/\ssrc\s*=/i);
    for (const [, href] of html.matchAll(/\shref\s*=\s*"([^"]*)"/gi)) expect(href).toMatch(/^#/);
    expect(html).not.toMatch(/@import/i);
    for (const [, target] of html.matchAll(/url\(\s*['"]?([^'")]*)/gi)) expect(target).toMatch(/^data:/);
  });

  it('a Content-Security-Policy forbids every fetch; inline scripts and styles only', () => {
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">`,
    );
  });

  it('inlines the pinned charting library with its licence, and the chart data', () => {
    expect(assets.chartName).toMatch(/^uPlot \d+\.\d+\.\d+$/);
    expect(html).toContain(assets.chartJs.slice(0, 200));
    expect(html).toContain('Copyright (c) 2022 Leon Sorokin');
    expect(html).toMatch(/<script type="application\/json" id="report-data">\{"load":\{"series":\{"intervalMs":500,/);
  });

  it("draws the generator's own chart when the load section carries its measurements, and not otherwise", () => {
    const load = report.load;
    if (load === undefined) throw new Error('no load section');
    expect(html).not.toContain('data-chart="generator"');
    const generator = generatorReport('node', 2, [{ t: Date.UTC(2026, 0, 1, 0, 0, 1), cpuShare: 0.5, loopDelayP99Ms: 120, busyShare: 1 }]);
    const withGenerator = renderReportHtml({ ...report, load: { ...load, generator } }, assets);
    expect(withGenerator).toContain('data-chart="generator"');
    // Beside it, the requests measured while it was starved or preempted (page.js draws it from the windows and series).
    expect(withGenerator).toContain('data-chart="generator-preempted"');
    expect(html).not.toContain('data-chart="generator-preempted"');
    expect(withGenerator).toMatch(/"generator":\{"source":"node","cores":2,.*"loopDelayP99Ms":\[120\]/);
    // The latency's accuracy, said as a marked line: one second 120 ms late puts the figures outside the goal.
    expect(withGenerator).toContain('<p class="accuracy outside">latency outside the +3 ms + 5 % accuracy goal');
    expect(html).not.toContain('class="accuracy');
  });
});

describe('content', () => {
  it('opens with the verdict banner: word, meaning, reasons', () => {
    const bodyStart = html.slice(html.indexOf('<body>'));
    expect(bodyStart.indexOf('data-verdict="fail"')).toBeLessThan(bodyStart.indexOf('<main>'));
    expect(html).toContain(VERDICT_MEANING.fail);
    expect(html).toContain('<li>conformance: 2 of 23 cases failed (TRG-510-V2, LEN-CORR-51-V1)</li>');
  });

  it('a failure of the v1/v2 comparison alone says a version difference, not a broken spec rule (#34 item 4)', () => {
    const migrateOnly = assembleReport({
      runId: 'm',
      command: 'migrate',
      startedAt: meta.startedAt,
      durationMs: 1_000,
      target: { url: 'http://127.0.0.1:1', environment: 'sandbox', timeScale: 0.01, api: 'both', embedded: true },
      migration: migrationSection(SAMPLE_MIGRATION_PAIRS),
    });
    expect(migrateOnly.verdict).toBe('fail');
    const page = renderReportHtml(migrateOnly, assets);
    expect(page).toContain('v2 answers differently from v1 where a client moving to v2 would notice');
    expect(page).not.toContain(VERDICT_MEANING.fail);
  });

  it('every failed case with id, spec rule, expected vs received and the redacted request', () => {
    for (const id of ['TRG-510-V2', 'LEN-CORR-51-V1']) expect(html).toContain(`data-case="${id}"`);
    expect(html).toContain('“Mobile number ends with 510 | responseCode 510 (The SKU is out of stock)”');
    expect(html).toContain('<pre>responseCode &#39;510&#39;</pre>');
    expect(html).toContain('POST http://127.0.0.1:40123/api/v2/transaction/topup\nauthorization: Basic [REDACTED]');
  });

  it('drift, migration and ledger sections when present, and not otherwise', () => {
    for (const id of ['conformance', 'load', 'drift', 'migration', 'ledger']) expect(html).toContain(`id="${id}"`);
    const only = renderReportHtml(fromConformanceRun(passingConformanceRun(), meta), assets);
    for (const id of ['load', 'drift', 'migration', 'ledger']) expect(only).not.toContain(`id="${id}"`);
    expect(only).toContain('data-verdict="pass"');
  });

  it('escapes whatever the gateway sent', () => {
    const evil: CaseResult = {
      ...sampleConformanceRun().cases.find((c) => c.id === 'TRG-510-V2')!,
      title: '</script><script>alert(1)</script>',
    };
    const page = renderReportHtml(fromConformanceRun({ ...passingConformanceRun(), cases: [evil] }, meta), assets);
    expect(page).not.toContain('<script>alert(1)');
    expect(page).toContain(escapeHtml('</script><script>alert(1)</script>'));
  });

  it('a run stopped early shows its error; the same report renders the same bytes', () => {
    const stopped = assembleReport({
      ...meta,
      command: 'gate',
      durationMs: 1,
      error: { code: 'GH_ERR_TARGET', message: 'connection refused' },
    });
    expect(renderReportHtml(stopped, assets)).toContain('<strong>GH_ERR_TARGET</strong>: connection refused');
    expect(renderReportHtml(report, assets)).toBe(html);
  });
});

describe('what was not verified is shown, never hidden', () => {
  it('transactions left open by the drain, baseline operations not checked, pairs not compared, unverified thresholds', () => {
    const run = passingConformanceRun();
    const withDrain = {
      ...run,
      drain: {
        submitted: 2,
        pendingAtBoundary: 1,
        waitedMs: 5,
        serviceTimeoutWaitMs: 0,
        unresolved: [
          { correlationId: 'corr-open-1', operationId: 'v2.transaction.topup', caseId: 'BAL-CHARGE-V2', outcome: 'Unknown' as const },
        ],
      },
    };
    const page = renderReportHtml(
      assembleReport({
        runId: 'r',
        command: 'gate',
        startedAt: meta.startedAt,
        durationMs: 1,
        target: meta.target,
        conformance: fromConformanceRun(withDrain, meta).conformance,
        drift: {
          verdict: 'incomplete',
          baselineDir: 'b',
          compared: ['v2.catalog.skus'],
          findings: [],
          notChecked: [{ operationId: 'v2.transaction.esim', reason: 'charges money', skipped: true }],
        },
        migration: {
          verdict: 'incomplete',
          pairs: [],
          notCompared: [{ purpose: 'esim.status', v1: 'v1.esim.status', v2: 'v2.esim.status', reason: 'no eSIM order' }],
        },
        load: {
          verdict: 'incomplete',
          scenario: 'mixed',
          profile: 'smoke',
          engine: 'node',
          durationMs: 1,
          requests: { count: 1, rate: 1 },
          thresholds: [{ metric: 'gateway_time_to_final', expression: 'p(95)<6200', ok: true, verified: false }],
          checks: [{ name: 'status confirms the outcome', path: '::status confirms the outcome', passes: 0, fails: 0 }],
          metrics: {},
        },
      }),
      assets,
    );
    expect(page).toMatch(/Transactions not final after the drain \(1\): not verified[\s\S]*corr-open-1/);
    expect(page).toMatch(/Not checked \(1\)[\s\S]*v2\.transaction\.esim[\s\S]*charges money/);
    expect(page).toMatch(/Not compared \(1\): not verified[\s\S]*esim\.status[\s\S]*no eSIM order/);
    expect(page).toMatch(
      /gateway_time_to_final<\/code><\/td><td><code>p\(95\)&lt;6200<\/code><\/td><td><span class="chip skipped">unverified: no sample/,
    );
    expect(page).toMatch(/status confirms the outcome<\/td><td><span class="chip skipped">never ran/);
  });
});
