// The idle pass and the pass under load compared per case: a case failing only under load fails the section and the
// verdict line names it; one the loaded pass did not judge beside the load is not verified under load (with why), never
// a difference; identical passes keep the idle verdict.
import { describe, expect, it } from 'vitest';
import { conformanceLine } from '../../reports/sections.ts';
import type { ConformanceSection, ReportCase } from '../../reports/model.ts';
import { compareUnderLoad, withUnderLoad } from './compare.ts';

const kase = (id: string, status: ReportCase['status']): ReportCase => ({
  id,
  group: 'LEN',
  title: `case ${id}`,
  api: 'v2',
  specSection: 'Limits',
  rule: 'rule',
  assumed: [],
  status,
  durationMs: 1,
  requests: 1,
  failures:
    status === 'failed'
      ? [
          {
            check: 'not-successful',
            operation: 'v2.transaction.topup',
            severity: 'error',
            message: 'accepted',
            expected: 'refused',
            received: '000',
          },
        ]
      : [],
  notes: [],
});

const section = (cases: ReportCase[]): ConformanceSection => ({
  verdict: cases.some((c) => c.status === 'failed') ? 'fail' : 'pass',
  durationMs: 1,
  counts: {
    total: cases.length,
    passed: cases.filter((c) => c.status === 'passed').length,
    failed: cases.filter((c) => c.status === 'failed').length,
    skipped: cases.filter((c) => c.status === 'skipped').length,
  },
  groups: [],
  cases,
});

const run = { load: { scenario: 'mixed', profile: 'load', durationMs: 1000, stoppedAtPassEnd: true }, passMs: 900, notes: [] };

describe('compareUnderLoad', () => {
  it('names a case that passed idle and fails under load, and fails the section (the line says "fail only under load")', () => {
    const idle = section([kase('A', 'passed'), kase('B', 'passed'), kase('C', 'failed')]);
    const loaded = section([kase('A', 'failed'), kase('B', 'passed'), kase('C', 'passed')]);
    const merged = withUnderLoad(idle, compareUnderLoad(idle, loaded, run));
    expect(merged.underLoad?.failsOnlyUnderLoad.map((c) => c.id)).toEqual(['A']);
    expect(merged.underLoad?.passesOnlyUnderLoad.map((c) => c.id)).toEqual(['C']);
    expect(merged.underLoad?.compared).toBe(3);
    expect(merged.verdict).toBe('fail');
    expect(conformanceLine(merged, false)).toContain('1 case fail only under load mixed/load (A)');
  });

  it('a case failing under load only on the wallet or on a client timeout is not verified under load, with why, never a difference', () => {
    const walletOnly: ReportCase = {
      ...kase('W', 'failed'),
      failures: [
        { check: 'no-charge', operation: 'v2.transaction.topup', severity: 'error', message: 'moved', expected: '1', received: '2' },
      ],
    };
    const slow: ReportCase = {
      ...kase('T', 'failed'),
      failures: [
        {
          check: 'successful',
          operation: 'v2.promotion.upcoming',
          severity: 'error',
          message: 'expected a success',
          expected: "HTTP 200, responseCode '000'",
          received: 'no response: client timed out after 5022 ms',
        },
      ],
    };
    const idle = section([kase('W', 'passed'), kase('T', 'passed')]);
    const merged = withUnderLoad(idle, compareUnderLoad(idle, section([walletOnly, slow]), run));
    expect(merged.underLoad?.failsOnlyUnderLoad).toEqual([]);
    expect(merged.verdict).toBe('pass');
    expect(merged.underLoad?.notVerified?.map((c) => [c.id, c.reason])).toEqual([
      ['W', expect.stringMatching(/failed only on state the load's own requests change \(no-charge/)],
      ['T', expect.stringMatching(/client timed out under load \(the spec states no latency\)/)],
    ]);
    expect(merged.underLoad?.notes.join(' ')).toMatch(/2 case\(s\) not verified under load \(W, T\)/);
  });

  it('a case that sent a request without the load in flight beside it is not verified under load, whatever its status', () => {
    const idle = section([kase('A', 'passed'), kase('B', 'passed')]);
    const unwitnessed = new Map([['A', 'no request of the load was in flight at the target when the case sent one (waited 10 s)']]);
    const compared = compareUnderLoad(idle, section([kase('A', 'failed'), kase('B', 'failed')]), { ...run, unwitnessed });
    expect(compared.failsOnlyUnderLoad.map((c) => c.id)).toEqual(['B']);
    expect(compared.notVerified).toEqual([{ id: 'A', title: 'case A', reason: unwitnessed.get('A') }]);
    expect(compared.compared).toBe(1);
  });

  it('a case skipped or missing in either pass is no difference; same results keep the idle verdict', () => {
    const idle = section([kase('A', 'passed'), kase('B', 'skipped'), kase('D', 'passed')]);
    const loaded = section([kase('A', 'skipped'), kase('B', 'failed')]);
    const merged = withUnderLoad(idle, compareUnderLoad(idle, loaded, run));
    expect(merged.underLoad?.failsOnlyUnderLoad).toEqual([]);
    expect(merged.underLoad?.compared).toBe(0);
    // Judged idle, not judged under load: not verified there, with why (B, skipped idle, is in no list).
    expect(merged.underLoad?.notVerified?.map((c) => [c.id, c.reason])).toEqual([
      ['A', 'skipped under load: skipped'],
      ['D', 'not run under load'],
    ]);
    const same = withUnderLoad(
      section([kase('A', 'passed')]),
      compareUnderLoad(section([kase('A', 'passed')]), section([kase('A', 'passed')]), run),
    );
    expect(same.verdict).toBe('pass');
    expect(conformanceLine(same, false)).toContain('no case differs under load mixed/load (1 case compared)');
  });
});
