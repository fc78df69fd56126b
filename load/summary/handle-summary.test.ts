// The load summary and its reports from k6's end-of-test data: the verdict (pass, thresholds crossed, failed check,
// incomplete when a threshold had no samples), one JUnit testcase per threshold and per check, the Markdown headline.
import { describe, expect, it } from 'vitest';
import { buildLoadSummary, type RunInfo } from './build-summary.ts';
import { reportPath, summaryFiles } from './handle-summary.ts';
import type { K6SummaryData, K6SummaryMetric } from './k6-summary-data.ts';
import { loadJunitXml, loadSummaryMarkdown } from './write-reports.ts';

const run: RunInfo = { scenario: 'topup-flow', profile: 'smoke', api: 'v2', target: 'embedded sandbox', environment: 'sandbox', timeScale: 0.01, runId: 'r1', schemaChecks: true };

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

function data(overrides: Record<string, K6SummaryMetric> = {}, checks = [{ name: 'http status is 200', passes: 10, fails: 0 }]): K6SummaryData {
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

describe('buildLoadSummary', () => {
  it('passes when every threshold held with samples and every check ran', () => {
    const summary = buildLoadSummary(data(), run);
    expect(summary).toMatchObject({ verdict: 'pass', exitCode: 0, iterations: 4, requests: 10, durationSec: 2.5, problems: [] });
    expect(summary.headline).toMatch(/^PASS: load topup-flow \(smoke, api v2\) against embedded sandbox/);
    expect(summary.operations).toEqual([{ id: 'v2.transaction.topup', latencyMs: { count: 4, med: 3, 'p(95)': 9, max: 10 } }]);
    expect(summary.gateway).toMatchObject({ responses: 10, failed: 0, failedRate: 0, schemaViolations: 0, unresolved: 0 });
  });

  it('says thresholds crossed (exit 99) and names the threshold with its observed value', () => {
    const summary = buildLoadSummary(data({ gateway_failed: rate(3, 7, { 'rate<=0': false }) }), run);
    expect(summary).toMatchObject({ verdict: 'thresholds', exitCode: 99, gateway: { failed: 3 } });
    expect(summary.problems[0]).toBe('threshold crossed: gateway_failed rate<=0 (observed 0.3)');
  });

  it('calls a threshold without samples unverified (incomplete, exit 1), though k6 reports it ok', () => {
    const summary = buildLoadSummary(data({ 'http_req_duration{operation:v2.transaction.status}': trend({ count: 0, 'p(95)': 0 }, { 'p(95)<2000': true }) }), run);
    expect(summary).toMatchObject({ verdict: 'incomplete', exitCode: 1 });
    expect(summary.problems).toEqual(['threshold unverified (no samples): http_req_duration{operation:v2.transaction.status} p(95)<2000']);
  });

  it('calls a run that sent nothing incomplete', () => {
    const summary = buildLoadSummary(data({ http_reqs: counter(0), iterations: counter(0) }, []), run);
    expect(summary.verdict).toBe('incomplete');
    expect(summary.problems).toContain('no request was sent');
  });

  it('calls the target unusable (exit 2) when setup() did not complete, whatever the thresholds say', () => {
    const summary = buildLoadSummary({ ...data({ gateway_failed: rate(1, 0, { 'rate<=0': false }) }), setup_data: undefined }, run);
    expect(summary).toMatchObject({ verdict: 'unusable', exitCode: 2 });
    expect(summary.problems[0]).toMatch(/^setup\(\) did not complete: the target could not be used/);
    expect(summary.headline).toMatch(/^UNUSABLE TARGET: /);
  });

  it('fails on a failing check that no threshold tolerates', () => {
    const summary = buildLoadSummary(data({}, [{ name: 'http status is 200', passes: 10, fails: 0 }, { name: 'custom', passes: 1, fails: 1 }]), run);
    expect(summary).toMatchObject({ verdict: 'fail', exitCode: 1 });
  });

  it('lists an expected check that never ran, so it cannot vanish silently', () => {
    const summary = buildLoadSummary(data({ 'checks{check:status confirms the outcome}': rate(0, 0, { 'rate>=1': true }) }), run);
    expect(summary.verdict).toBe('incomplete');
    expect(summary.checks.find((c) => c.name === 'status confirms the outcome')).toMatchObject({ passes: 0, fails: 0, ok: false });
  });
});

describe('reports', () => {
  it('write one JUnit testcase per threshold and per check, check thresholds folded into their check', () => {
    const xml = loadJunitXml(buildLoadSummary(data({ gateway_failed: rate(3, 7, { 'rate<=0': false }) }), run));
    const names = [...xml.matchAll(/<testcase name="([^"]+)"/g)].map((m) => m[1]);
    expect(names).toEqual([
      'threshold gateway_failed rate&lt;=0',
      'threshold gateway_schema_violations count==0',
      'threshold http_req_duration{operation:v2.transaction.topup} p(95)&lt;5000',
      'check http status is 200',
    ]);
    expect(xml).toMatch(/tests="4" failures="1" errors="0" skipped="0"/);
    expect(xml).toMatch(/<failure message="crossed: rate&lt;=0 \(observed 0.3\)" type="threshold">/);
  });

  it('mark unverified thresholds and checks that never ran as skipped, never passed', () => {
    const xml = loadJunitXml(
      buildLoadSummary(data({ 'http_req_duration{operation:v2.transaction.status}': trend({ count: 0 }, { 'p(95)<2000': true }), 'checks{check:status confirms the outcome}': rate(0, 0, { 'rate>=1': true }) }), run),
    );
    expect(xml).toMatch(/skipped="2"/);
  });

  it('open summary.md with the verdict', () => {
    const md = loadSummaryMarkdown(buildLoadSummary(data({ gateway_failed: rate(3, 7, { 'rate<=0': false }) }), run));
    expect(md.split('\n')[0]).toBe('# Load run: THRESHOLDS CROSSED: load topup-flow (smoke, api v2) against embedded sandbox — threshold crossed: gateway_failed rate<=0 (observed 0.3)');
  });

  it('returns the three files under the report directory plus the text k6 prints', () => {
    const files = summaryFiles(data(), run, '/tmp/report/');
    expect(Object.keys(files).sort()).toEqual(['/tmp/report/junit.xml', '/tmp/report/summary.json', '/tmp/report/summary.md', 'stdout']);
    expect(JSON.parse(files['/tmp/report/summary.json'] as string)).toMatchObject({ schema: 'gateway-harness/load-summary/1', verdict: 'pass' });
    expect(files.stdout).toMatch(/^load: PASS/);
    expect(reportPath('', 'summary.json')).toBe('summary.json');
  });
});
