// The verdict of a conformance run and the reports built from it: every verdict path (pass, fail, incomplete by skips,
// skips accepted, nothing passed, transactions not final after the drain, unusable target), and junit.xml carrying it.
import { describe, expect, it } from 'vitest';
import type { CaseResult, CaseStatus, RunResult } from '../conformance/types.ts';
import { assembleReport } from './assemble.ts';
import type { RunReport } from './model.ts';
import { conformanceSection } from '../conformance/section.ts';
import { reportJunitXml } from './junit-report.ts';
import { VERDICT_EXIT, type Verdict } from './verdict.ts';

const TARGET = { url: 'http://gw.test' };

/** The report of conformance run `r`: its section (built here unless given) against TARGET. */
function conformanceReport(r: RunResult, allowSkips: boolean, section = conformanceSection(r, { allowSkips })): RunReport {
  return assembleReport({
    runId: 'r1',
    command: 'conformance',
    startedAt: r.startedAt,
    durationMs: r.durationMs,
    allowSkips,
    target: TARGET,
    conformance: section,
  });
}

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
              request: {
                operationId: 'v2.transaction.topup',
                method: 'POST',
                url: 'http://gw.test/api/v2/transaction/topup',
                headers: { Authorization: 'Basic [REDACTED]' },
                body: { skuId: 1 },
              },
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
      unresolved: Array.from({ length: unresolved }, (_, i) => ({
        correlationId: `c${i}`,
        operationId: 'v2.transaction.topup',
        caseId: 'ENV-0',
        outcome: 'Unknown' as const,
      })),
      waitedMs: 5,
      serviceTimeoutWaitMs: 0,
    },
  };
}

describe('verdict of a conformance run', () => {
  const table: ReadonlyArray<[string, CaseStatus[], boolean, number, Verdict, string]> = [
    ['every case passed', ['passed', 'passed'], false, 0, 'pass', 'PASS: conformance: all 2 cases passed'],
    ['a case failed', ['passed', 'failed', 'skipped'], false, 0, 'fail', 'FAIL: conformance: 1 of 3 cases failed (ENV-1)'],
    [
      'a case skipped',
      ['passed', 'skipped'],
      false,
      0,
      'incomplete',
      'INCOMPLETE: conformance: 1 of 2 cases skipped, not verified (ENV-1)',
    ],
    [
      'skips accepted',
      ['passed', 'skipped'],
      true,
      0,
      'pass',
      'PASS: conformance: 1 of 2 cases passed, 1 skipped (accepted with --allow-skips)',
    ],
    [
      'nothing passed',
      ['skipped', 'skipped'],
      false,
      0,
      'incomplete',
      'INCOMPLETE: conformance: no case passed (2 cases ran, 2 skipped), nothing was verified',
    ],
    [
      'nothing passed, skips accepted',
      ['skipped'],
      true,
      0,
      'incomplete',
      'INCOMPLETE: conformance: no case passed (1 case ran, 1 skipped), nothing was verified',
    ],
    ['no case at all', [], false, 0, 'incomplete', 'INCOMPLETE: conformance: no case passed (0 cases ran), nothing was verified'],
    [
      'a transaction not final after the drain',
      ['passed'],
      false,
      1,
      'incomplete',
      'INCOMPLETE: conformance: all 1 case passed; 1 transaction not final after the drain, not verified (c0)',
    ],
    [
      'unresolved accepted with --allow-skips',
      ['passed'],
      true,
      1,
      'pass',
      'PASS: conformance: all 1 case passed; 1 transaction not final after the drain, not verified (accepted with --allow-skips) (c0)',
    ],
  ];
  for (const [title, statuses, allowSkips, unresolved, verdict, line] of table) {
    it(`${title} → ${verdict} (exit ${VERDICT_EXIT[verdict]})`, () => {
      const r = run(statuses, unresolved);
      const section = conformanceSection(r, { allowSkips });
      expect(section.verdict).toBe(verdict);
      const report = conformanceReport(r, allowSkips, section);
      expect(report.verdictLine).toBe(line);
      expect(report.exitCode).toBe(VERDICT_EXIT[verdict]);
    });
  }

  it('lists every skip and every transaction left open as not verified, with its reason', () => {
    const r = run(['passed', 'skipped'], 1);
    const report = assembleReport({
      runId: 'r1',
      command: 'conformance',
      startedAt: 0,
      durationMs: 1,
      allowSkips: true,
      target: TARGET,
      conformance: conformanceSection(r, { allowSkips: true }),
    });
    expect(report.skipped).toEqual([
      { section: 'conformance', id: 'ENV-1', reason: 'the target cannot provide a Pin SKU' },
      { section: 'conformance', id: 'c0', reason: 'ENV-0: v2.transaction.topup not final after the drain (last outcome Unknown)' },
    ]);
    expect(report.conformance?.drain).toMatchObject({
      submitted: 3,
      unresolved: [{ correlationId: 'c0', caseId: 'ENV-0', operationId: 'v2.transaction.topup', outcome: 'Unknown' }],
    });
  });

  it('an unusable target: its own verdict (exit 2), the reason first, no cases', () => {
    const report = assembleReport({
      runId: 'r1',
      command: 'conformance',
      startedAt: 0,
      durationMs: 3,
      target: TARGET,
      error: { code: 'GH_ERR_TARGET', message: 'http://gw.test: cannot connect: ECONNREFUSED' },
    });
    expect([report.verdict, report.exitCode]).toEqual(['unusable', 2]);
    expect(report.verdictLine).toBe('UNUSABLE TARGET: GH_ERR_TARGET: http://gw.test: cannot connect: ECONNREFUSED');
    expect(report.conformance).toBeUndefined();
  });
});

describe('junit.xml from the run itself', () => {
  const junit = (r: RunResult, allowSkips = false): string => reportJunitXml(conformanceReport(r, allowSkips));

  it('one testcase per case id, the group as classname, the measured duration as time', () => {
    const r: RunResult = {
      startedAt: 1_700_000_000_000,
      durationMs: 2000,
      cases: [result('TRG-666666-V2', 'passed', 1517), result('ENV-1', 'passed', 3)],
    };
    const xml = junit(r);
    expect(xml).toContain('<testcase name="TRG-666666-V2 title of TRG-666666-V2" classname="conformance.TRG" time="1.517">');
    expect(xml).toContain('<testcase name="ENV-1 title of ENV-1" classname="conformance.ENV" time="0.003">');
    expect(xml.match(/<testcase /g)).toHaveLength(2);
  });

  it('a failure carries expected vs received and the redacted request; a skip its reason', () => {
    const xml = junit(run(['failed', 'skipped']));
    expect(xml).toMatch(
      /<failure message="expected responseCode &apos;510&apos; \(expected HTTP 200, responseCode &apos;510&apos;; received HTTP 200, responseCode &apos;500&apos;\)" type="response-code-510">[\s\S]*expected: HTTP 200, responseCode &apos;510&apos;[\s\S]*received: HTTP 200, responseCode &apos;500&apos;[\s\S]*Authorization: Basic \[REDACTED\]/,
    );
    expect(xml).toContain('<skipped message="the target cannot provide a Pin SKU"/>');
  });

  it('the verdict is in the suite properties and the skip count on the suite', () => {
    const xml = junit(run(['passed', 'skipped', 'skipped']), true);
    expect(xml).toContain('<property name="verdict" value="pass"/>');
    expect(xml).toMatch(/<testsuite name="conformance\.ENV"[^>]* skipped="2"/);
  });

  it('a transaction not final after the drain is an error testcase, or skipped when accepted', () => {
    expect(junit(run(['passed'], 1))).toMatch(
      /<testcase name="c0 reached a final state after the drain" classname="conformance\.DRAIN"[^>]*>\s*<error message="not final after the drain: v2\.transaction\.topup of ENV-0 \(correlationId c0\), last outcome Unknown"/,
    );
    expect(junit(run(['passed'], 1), true)).toMatch(/classname="conformance\.DRAIN"[^>]*>\s*<skipped /);
  });
});
