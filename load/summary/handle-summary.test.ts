// The load section's verdict from k6's end-of-test data (the rules of reports/sections.ts, as a load bundle's data
// shapes them): pass, thresholds crossed, failed check, incomplete when a threshold had no samples or a check never
// ran, unusable when setup() did not complete; the JUnit testcases; and what handleSummary writes.
import { describe, expect, it } from 'vitest';
import { assembleReport } from '../../reports/assemble.ts';
import { buildLoadSection, type K6SummaryData, type K6SummaryMetric } from '../../reports/k6-summary.ts';
import { reportJunitXml } from '../../reports/junit-report.ts';
import type { LoadSection } from '../../reports/model.ts';
import { renderSummaryMarkdown } from '../../reports/summary-md.ts';
import { K6_SUMMARY_FILE, keptSummaryData, reportPath, summaryFiles } from './handle-summary.ts';

const run = { scenario: 'topup-flow', profile: 'smoke', engine: 'k6 v0.48.0' };
const section = (d: K6SummaryData): LoadSection => buildLoadSection(d, { ...run, setupRequired: true });
const report = (d: K6SummaryData) =>
  assembleReport({
    runId: 'r1',
    command: 'load',
    startedAt: 0,
    durationMs: 2500,
    target: { url: 'http://127.0.0.1:1', embedded: true },
    load: section(d),
  });

const trend = (values: Record<string, number>, thresholds?: Record<string, boolean>): K6SummaryMetric => ({
  type: 'trend',
  values,
  ...(thresholds === undefined ? {} : { thresholds: Object.fromEntries(Object.entries(thresholds).map(([k, ok]) => [k, { ok }])) }),
});
const rate = (passes: number, fails: number, thresholds?: Record<string, boolean>): K6SummaryMetric => ({
  type: 'rate',
  values: { rate: passes + fails === 0 ? 0 : passes / (passes + fails), passes, fails },
  ...(thresholds === undefined ? {} : { thresholds: Object.fromEntries(Object.entries(thresholds).map(([k, ok]) => [k, { ok }])) }),
});
const counter = (count: number, thresholds?: Record<string, boolean>): K6SummaryMetric => ({
  type: 'counter',
  values: { count, rate: count },
  ...(thresholds === undefined ? {} : { thresholds: Object.fromEntries(Object.entries(thresholds).map(([k, ok]) => [k, { ok }])) }),
});

function data(
  overrides: Record<string, K6SummaryMetric> = {},
  checks = [{ name: 'http status is 200', passes: 10, fails: 0 }],
): K6SummaryData {
  return {
    setup_data: { v2: {} },
    state: { testRunDurationMs: 2500 },
    root_group: { name: '', checks, groups: [] },
    metrics: {
      http_reqs: counter(10),
      iterations: counter(4),
      gateway_outcomes: counter(10),
      'http_req_duration{operation:v2.transaction.topup}': trend({ count: 4, med: 3, 'p(95)': 9, max: 10 }, { 'p(95)<5000': true }),
      gateway_failed: rate(0, 10, { 'rate<=0': true }),
      gateway_schema_violations: counter(0, { 'count==0': true }),
      'checks{check:http status is 200}': rate(10, 0, { 'rate>=1': true }),
      ...overrides,
    },
  };
}

describe('the load section of a bundle run', () => {
  it('passes when every threshold held with samples and every check ran', () => {
    const s = section(data());
    expect(s).toMatchObject({ verdict: 'pass', setupCompleted: true, requests: { count: 10 }, durationMs: 2500 });
    expect(report(data()).verdictLine).toBe(
      'PASS: load topup-flow/smoke (k6 v0.48.0): 10 requests, 4 thresholds met, 10 checks passed [target: the embedded sandbox, not a gateway]',
    );
    expect(s.metrics['http_req_duration{operation:v2.transaction.topup}']?.values).toEqual({ count: 4, med: 3, 'p(95)': 9, max: 10 });
  });

  it('says thresholds crossed (exit 99) and names the threshold with its observed value', () => {
    const r = report(data({ gateway_failed: rate(3, 7, { 'rate<=0': false }) }));
    expect([r.verdict, r.exitCode]).toEqual(['thresholds', 99]);
    expect(r.verdictLine).toBe(
      'THRESHOLDS CROSSED: load topup-flow/smoke (k6 v0.48.0): 1 of 4 thresholds crossed (gateway_failed rate<=0, observed 30.00%) [target: the embedded sandbox, not a gateway]',
    );
  });

  it('calls a threshold without samples unverified (incomplete, exit 1), though k6 reports it ok', () => {
    const d = data({ 'http_req_duration{operation:v2.transaction.status}': trend({ count: 0, 'p(95)': 0 }, { 'p(95)<2000': true }) });
    const s = section(d);
    expect(s.verdict).toBe('incomplete');
    expect(s.thresholds.find((t) => t.metric.endsWith('status}'))).toEqual({
      metric: 'http_req_duration{operation:v2.transaction.status}',
      expression: 'p(95)<2000',
      ok: true,
      verified: false,
    });
    expect(report(d).verdictLine).toBe(
      'INCOMPLETE: load topup-flow/smoke (k6 v0.48.0): 1 threshold unverified, the metric got no sample (http_req_duration{operation:v2.transaction.status} p(95)<2000) [target: the embedded sandbox, not a gateway]',
    );
  });

  it('calls a run that sent nothing incomplete', () => {
    const s = section(data({ http_reqs: counter(0), iterations: counter(0) }, []));
    expect(s.verdict).toBe('incomplete');
    expect(report(data({ http_reqs: counter(0), iterations: counter(0) }, [])).verdictLine).toMatch(
      /^INCOMPLETE: load topup-flow\/smoke \(k6 v0\.48\.0\): no request was sent, nothing was measured/,
    );
  });

  it('calls the target unusable (exit 2) when setup() did not complete, whatever the thresholds say', () => {
    const d = { ...data({ gateway_failed: rate(1, 0, { 'rate<=0': false }) }), setup_data: undefined };
    const r = report(d);
    expect([r.verdict, r.exitCode, r.load?.setupCompleted]).toEqual(['unusable', 2, false]);
    expect(r.verdictLine).toMatch(
      /^UNUSABLE TARGET: load topup-flow\/smoke \(k6 v0\.48\.0\): setup\(\) did not complete: the target could not be used/,
    );
  });

  it('fails on a failing check that no threshold tolerates', () => {
    expect(
      section(
        data({}, [
          { name: 'http status is 200', passes: 10, fails: 0 },
          { name: 'custom', passes: 1, fails: 1 },
        ]),
      ).verdict,
    ).toBe('fail');
  });

  it('leaves failures of a check to its own threshold (a profile tolerating 1 %)', () => {
    const tolerated = data({ 'checks{check:http status is 200}': rate(999, 1, { 'rate>=0.99': true }) }, [
      { name: 'http status is 200', passes: 999, fails: 1 },
    ]);
    expect(section(tolerated).verdict).toBe('pass');
    const crossed = data({ 'checks{check:http status is 200}': rate(90, 10, { 'rate>=0.99': false }) }, [
      { name: 'http status is 200', passes: 90, fails: 10 },
    ]);
    expect(section(crossed).verdict).toBe('thresholds');
  });

  it('lists an expected check that never ran, so it cannot vanish silently', () => {
    const s = section(data({ 'checks{check:status confirms the outcome}': rate(0, 0, { 'rate>=1': true }) }));
    expect(s.verdict).toBe('incomplete');
    expect(s.checks.find((c) => c.name === 'status confirms the outcome')).toEqual({
      name: 'status confirms the outcome',
      path: '::status confirms the outcome',
      passes: 0,
      fails: 0,
    });
  });
});

describe('reports of a bundle run', () => {
  it('write one JUnit testcase per threshold and per check', () => {
    const xml = reportJunitXml(report(data({ gateway_failed: rate(3, 7, { 'rate<=0': false }) })));
    const names = [...xml.matchAll(/<testcase name="([^"]+)"/g)].map((m) => m[1]);
    expect(names).toEqual([
      'threshold checks{check:http status is 200} rate&gt;=1',
      'threshold gateway_failed rate&lt;=0',
      'threshold gateway_schema_violations count==0',
      'threshold http_req_duration{operation:v2.transaction.topup} p(95)&lt;5000',
      'check http status is 200',
    ]);
    expect(xml).toMatch(/<testsuite name="load\.topup-flow\.smoke" id="0" tests="5" failures="1" errors="0" skipped="0"/);
    expect(xml).toMatch(/<failure message="threshold crossed: gateway_failed rate&lt;=0, observed 30\.00%" type="threshold">/);
  });

  it('mark unverified thresholds and checks that never ran as skipped, never passed', () => {
    const xml = reportJunitXml(
      report(
        data({
          'http_req_duration{operation:v2.transaction.status}': trend({ count: 0 }, { 'p(95)<2000': true }),
          'checks{check:status confirms the outcome}': rate(0, 0, { 'rate>=1': true }),
        }),
      ),
    );
    expect(xml).toMatch(/<testsuite name="load\.topup-flow\.smoke"[^>]* skipped="3"/);
    expect(xml).toMatch(/<testcase name="check status confirms the outcome"[^>]*>\s*<skipped message="never ran in this run/);
  });

  it('open summary.md with the verdict', () => {
    const md = renderSummaryMarkdown(report(data({ gateway_failed: rate(3, 7, { 'rate<=0': false }) })));
    expect(md.split('\n')[0]).toBe(
      '## 🚨 THRESHOLDS CROSSED: load topup-flow/smoke (k6 v0.48.0): 1 of 4 thresholds crossed (gateway_failed rate&lt;=0, observed 30.00%) \\[target: the embedded sandbox, not a gateway\\]',
    );
  });
});

describe('handleSummary', () => {
  it("keeps k6's data as k6-summary.json in the report directory and prints the verdict line", () => {
    const files = summaryFiles(data(), run, '/tmp/report/');
    expect(Object.keys(files).sort()).toEqual([`/tmp/report/${K6_SUMMARY_FILE}`, 'stdout']);
    const kept = JSON.parse(files[`/tmp/report/${K6_SUMMARY_FILE}`] as string) as K6SummaryData;
    expect(kept.metrics.http_reqs?.values.count).toBe(10);
    expect(files.stdout).toBe(
      `PASS: load topup-flow/smoke (k6 v0.48.0): 10 requests, 4 thresholds met, 10 checks passed\nk6 summary data: /tmp/report/${K6_SUMMARY_FILE}\n`,
    );
    expect(reportPath('', 'summary.json')).toBe('summary.json');
  });

  it("keeps only whether setup() completed, not its data (the target's catalog)", () => {
    expect(keptSummaryData({ ...data(), setup_data: { v2: { skus: [1, 2, 3] } } }).setup_data).toBe(true);
    expect('setup_data' in keptSummaryData({ ...data(), setup_data: undefined })).toBe(false);
    expect(section(keptSummaryData({ ...data(), setup_data: undefined })).verdict).toBe('unusable');
  });
});
