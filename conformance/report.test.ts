// The verdict of a run and the reports built from it: every verdict path (pass, fail, incomplete by skips, skips
// accepted, nothing passed, unresolved transactions, unusable target), and junit.xml/summary.json carrying the same.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VERDICT_EXIT } from '../reports/verdict.ts';
import { buildJunit, buildSummary, headline, verdictOfRun, writeConformanceReports, type SummaryMeta } from './report.ts';
import type { CaseResult, CaseStatus, RunResult } from './types.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const META: SummaryMeta = {
  runId: 'r1',
  target: 'http://gw.test',
  timeScale: 1,
  api: 'both',
  allowSkips: false,
  timeouts: { requestMs: 30_000, pollIntervalMs: 5_000, pollDeadlineMs: 185_000 },
};

function result(id: string, status: CaseStatus, durationMs = 10): CaseResult {
  return {
    id,
    group: id.startsWith('TRG') ? 'TRG' : 'ENV',
    title: `title of ${id}`,
    api: 'v2',
    specSection: 'Section',
    rule: 'The rule.',
    assumed: [],
    exclusive: false,
    status,
    ...(status === 'skipped' ? { skipReason: 'the target cannot provide a Pin SKU' } : {}),
    failures:
      status === 'failed'
        ? [
            {
              check: 'response-code-510',
              operation: 'v2.transaction.topup',
              caseId: id,
              severity: 'error',
              message: "expected responseCode '510'",
              expected: "HTTP 200, responseCode '510'",
              received: "HTTP 200, responseCode '500'",
              request: { operationId: 'v2.transaction.topup', method: 'POST', url: 'http://gw.test/api/v2/transaction/topup', headers: { Authorization: 'Basic [REDACTED]' }, body: { skuId: 1 } },
            },
          ]
        : [],
    notes: [],
    requests: 1,
    startedAt: 1_700_000_000_000,
    durationMs,
  };
}

function run(statuses: CaseStatus[], unresolved = 0): RunResult {
  return {
    startedAt: 1_700_000_000_000,
    durationMs: 1234,
    cases: statuses.map((s, i) => result(`ENV-${i}`, s)),
    drain: {
      submitted: 3,
      pendingAtBoundary: unresolved,
      unresolved: Array.from({ length: unresolved }, (_, i) => ({ correlationId: `c${i}`, operationId: 'v2.transaction.topup', caseId: 'ENV-0', outcome: 'Unknown' as const })),
      waitedMs: 5,
      serviceTimeoutWaitMs: 0,
    },
  };
}

describe('verdict of a run', () => {
  const table: ReadonlyArray<[string, CaseStatus[], boolean, number, string, RegExp]> = [
    ['every case passed', ['passed', 'passed'], false, 0, 'pass', /^conformance: PASS — all 2 cases passed;/],
    ['a case failed', ['passed', 'failed', 'skipped'], false, 0, 'fail', /^conformance: FAIL — 1 of 3 cases failed, 1 of 3 passed, 1 skipped \(not verified\);/],
    ['a case skipped', ['passed', 'skipped'], false, 0, 'incomplete', /^conformance: INCOMPLETE — 1 of 2 passed, 1 skipped \(not verified\);/],
    ['skips accepted', ['passed', 'skipped'], true, 0, 'pass', /^conformance: PASS — 1 of 2 passed, 1 skipped \(not verified; accepted with --allow-skips\);/],
    ['nothing passed', ['skipped', 'skipped'], false, 0, 'incomplete', /^conformance: INCOMPLETE — no case passed \(0 of 2\): nothing was verified, 2 skipped/],
    ['nothing passed, skips accepted', ['skipped'], true, 0, 'incomplete', /^conformance: INCOMPLETE — no case passed/],
    ['no case at all', [], false, 0, 'incomplete', /^conformance: INCOMPLETE — no case passed \(0 of 0\)/],
    ['a transaction not final after the drain', ['passed'], false, 1, 'incomplete', /^conformance: INCOMPLETE — all 1 case passed, 1 transaction not final after the drain \(not verified\);/],
    ['unresolved accepted with --allow-skips', ['passed'], true, 1, 'pass', /^conformance: PASS — .*accepted with --allow-skips/],
  ];
  for (const [title, statuses, allowSkips, unresolved, verdict, line] of table) {
    it(`${title} → ${verdict} (exit ${VERDICT_EXIT[verdict as keyof typeof VERDICT_EXIT]})`, () => {
      const r = run(statuses, unresolved);
      expect(verdictOfRun(r, allowSkips)).toBe(verdict);
      expect(headline({ kind: 'run', run: r }, { ...META, allowSkips })).toMatch(line);
    });
  }

  it('the verdict heads summary.json, as on the first line', () => {
    const r = run(['passed', 'skipped']);
    const summary = buildSummary({ kind: 'run', run: r }, { ...META, allowSkips: true });
    expect(Object.keys(summary).slice(0, 3)).toEqual(['verdict', 'headline', 'allowSkips']);
    expect(summary).toMatchObject({ verdict: 'pass', allowSkips: true, counts: { total: 2, passed: 1, skipped: 1, failed: 0 } });
    expect(summary.headline).toBe(headline({ kind: 'run', run: r }, { ...META, allowSkips: true }));
    expect(summary.skipped).toEqual([{ caseId: 'ENV-1', reason: 'the target cannot provide a Pin SKU' }]);
  });

  it('an unusable target: its own verdict, the reason, no cases', () => {
    const summary = buildSummary({ kind: 'unusable', reason: 'http://gw.test: cannot connect: ECONNREFUSED', startedAt: 0, durationMs: 3 }, META);
    expect(summary).toMatchObject({ verdict: 'unusable', unusable: 'http://gw.test: cannot connect: ECONNREFUSED', counts: { total: 0 } });
    expect(summary.headline).toBe('conformance: UNUSABLE TARGET — http://gw.test: cannot connect: ECONNREFUSED');
  });
});

describe('junit.xml from the run itself', () => {
  it('one testcase per case id, the group as classname, the measured duration as time', () => {
    const r: RunResult = { startedAt: 1_700_000_000_000, durationMs: 2000, cases: [result('TRG-666666-V2', 'passed', 1517), result('ENV-1', 'passed', 3)] };
    const xml = buildJunit({ kind: 'run', run: r }, META);
    expect(xml).toContain('<testcase name="TRG-666666-V2 title of TRG-666666-V2" classname="TRG" time="1.517">');
    expect(xml).toContain('<testcase name="ENV-1 title of ENV-1" classname="ENV" time="0.003">');
    expect(xml.match(/<testcase /g)).toHaveLength(2);
    expect(xml).toMatch(/<testsuite name="conformance"[^>]* time="2\.000"/);
  });

  it('a failure carries expected vs received and the redacted request; a skip its reason', () => {
    const xml = buildJunit({ kind: 'run', run: run(['failed', 'skipped']) }, META);
    expect(xml).toMatch(/<failure message="expected responseCode &apos;510&apos;" type="response-code-510">[\s\S]*expected: HTTP 200, responseCode &apos;510&apos;[\s\S]*received: HTTP 200, responseCode &apos;500&apos;[\s\S]*Authorization: Basic \[REDACTED\]/);
    expect(xml).toContain('<skipped message="not verified: the target cannot provide a Pin SKU"/>');
  });

  it('the verdict, --allow-skips and the skip count are in the suite properties and counts', () => {
    const xml = buildJunit({ kind: 'run', run: run(['passed', 'skipped', 'skipped']) }, { ...META, allowSkips: true });
    expect(xml).toContain('<property name="verdict" value="PASS"/>');
    expect(xml).toContain('<property name="allowSkips" value="true"/>');
    expect(xml).toContain('<property name="skipped" value="2"/>');
    expect(xml).toMatch(/<testsuite [^>]*skipped="2"/);
  });

  it('writeConformanceReports writes both files and returns their paths', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gh-report-'));
    dirs.push(dir);
    const paths = writeConformanceReports(join(dir, 'nested'), { kind: 'run', run: run(['passed']) }, META);
    expect(JSON.parse(readFileSync(paths.summary, 'utf8'))).toMatchObject({ verdict: 'pass', runId: 'r1' });
    expect(readFileSync(paths.junit, 'utf8')).toMatch(/^<\?xml/);
  });
});
