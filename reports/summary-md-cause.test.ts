// summary.md leads to the cause: crossed thresholds first with the met ones folded away, a rerun command and a curl
// line under each failed case, and every part that did not run saying why (#34 "Reports that lead to the cause").
import { describe, expect, it } from 'vitest';
import { assembleReport } from './assemble.ts';
import { fromConformanceRun } from '../conformance/section.ts';
import { sampleConformanceRun } from './fixtures/sample-runs.ts';
import { realK6Summary } from './fixtures/full-report.ts';
import { buildLoadSection } from './k6-summary.ts';
import { renderSummaryMarkdown, rerunCommand } from './summary-md.ts';

const meta = { runId: 'r', startedAt: Date.UTC(2026, 0, 1), durationMs: 10, target: { url: 'http://127.0.0.1:1' } };
const load = buildLoadSection(realK6Summary(), { scenario: 'mixed', profile: 'smoke', engine: 'k6 v0.48.0' });

describe('summary.md leads to the cause', () => {
  it('puts the crossed threshold first and folds the met ones into <details>', () => {
    const last = load.thresholds.length - 1;
    const thresholds = load.thresholds.map((th, i) => (i === last ? { ...th, ok: false } : { ...th, ok: true, verified: true }));
    const md = renderSummaryMarkdown(assembleReport({ ...meta, command: 'load', load: { ...load, verdict: 'thresholds', thresholds } }));
    const crossed = md.indexOf('🚨 crossed');
    const details = md.indexOf('<details><summary>');
    expect(load.thresholds.length).toBeGreaterThan(2);
    expect(crossed).toBeGreaterThan(0);
    expect(details).toBeGreaterThan(crossed);
    expect(md).toContain(`<details><summary>${last} of ${load.thresholds.length} thresholds met</summary>`);
    expect(md.slice(0, details)).not.toContain('✅ met');
  });

  it('gives every failed case the command that reruns it alone and a curl line with credential placeholders', () => {
    const md = renderSummaryMarkdown(fromConformanceRun(sampleConformanceRun(), meta));
    expect(md).toContain("rerun: `gateway-harness conformance --grep '^TRG-510-V2 ' --target 'http://127.0.0.1:1'`");
    expect(md).toMatch(/curl: `curl -sS -X POST -u "\$GATEWAY_USER:\$GATEWAY_PASSWORD" .*'http:\/\/[^`]*topup'`/);
    expect(md).not.toMatch(/Basic [A-Za-z0-9+/=]{8,}/);
  });

  it('says why a part did not run, without changing the verdict', () => {
    const report = assembleReport({
      ...meta,
      command: 'gate',
      load,
      notRun: [{ part: 'drift', reason: 'no baseline in gateway-baseline (record one with `gateway-harness baseline record`)' }],
    });
    expect(report.verdict).toBe('pass');
    expect(report.notRun).toEqual([{ part: 'drift', reason: expect.stringContaining('no baseline') }]);
    expect(renderSummaryMarkdown(report)).toContain('- ⏭️ drift did not run: no baseline in gateway-baseline');
  });

  it('reruns against the embedded sandbox without a target, and keeps a hostile id and URL out of the shell', () => {
    expect(
      rerunCommand('LEN-CORR-51-V2', { url: 'http://127.0.0.1:9', embedded: true, environment: 'sandbox', timeScale: 1, api: 'both' }),
    ).toBe("gateway-harness conformance --grep '^LEN-CORR-51-V2 '");
    expect(
      rerunCommand("X';rm -rf /;'", { url: "http://h/'$(id)", embedded: false, environment: 'sandbox', timeScale: 1, api: 'v1' }),
    ).toBe("gateway-harness conformance --grep '^Xrm-rf ' --target 'http://h/'\\''$(id)' --api v1");
  });

  it('reruns as the run ran: the embedded sandbox behaviour profile and the time scale (a planted bug passes without them)', () => {
    const embedded = { url: 'http://127.0.0.1:9', embedded: true, environment: 'sandbox', api: 'both' } as const;
    expect(rerunCommand('TRG-510-V2', { ...embedded, timeScale: 0.01, profile: 'bug-trigger-510-code' })).toBe(
      "gateway-harness conformance --grep '^TRG-510-V2 ' --sandbox-profile bug-trigger-510-code --time-scale 0.01",
    );
    expect(rerunCommand('TRG-510-V2', { ...embedded, timeScale: 1, profile: 'faithful' })).toBe(
      "gateway-harness conformance --grep '^TRG-510-V2 '",
    );
    expect(rerunCommand('X', { ...embedded, timeScale: 1, profile: "x;$(id)'" })).toBe(
      "gateway-harness conformance --grep '^X ' --sandbox-profile xid",
    );
    // The same catalog: the embedded sandbox's seed (a report without one, from before 1.4, reruns without it).
    expect(rerunCommand('TRG-510-V2', { ...embedded, timeScale: 1, profile: 'faithful', seed: 7 })).toBe(
      "gateway-harness conformance --grep '^TRG-510-V2 ' --seed 7",
    );
    // A given target's own profile (a standalone harness sandbox) is not the embedded one's: no --sandbox-profile then.
    expect(rerunCommand('X', { ...embedded, embedded: false, url: 'http://h', timeScale: 0.5, profile: 'bug-x' })).toBe(
      "gateway-harness conformance --grep '^X ' --target 'http://h' --time-scale 0.5",
    );
  });
});

describe('report.html leads to the cause too', () => {
  it('a failed case has its Reproduce block; a part that did not run says why', async () => {
    const { renderReportHtml, loadHtmlAssets } = await import('./html/report-html.ts');
    const failing = fromConformanceRun(sampleConformanceRun(), meta);
    const html = renderReportHtml({ ...failing, notRun: [{ part: 'drift', reason: 'no baseline in b' }] }, loadHtmlAssets());
    expect(html).toContain('<summary>Reproduce</summary><pre>gateway-harness conformance --grep &#39;^TRG-510-V2 &#39;');
    expect(html).toContain('curl -sS -X POST -u &quot;$GATEWAY_USER:$GATEWAY_PASSWORD&quot;');
    expect(html).toContain('<strong>drift</strong> did not run: no baseline in b');
  });
});
