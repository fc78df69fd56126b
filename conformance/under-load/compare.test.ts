// The idle pass and the pass under load compared per case: a case failing only under load fails the section and the
// verdict line names it; skipped or not run in either pass is no difference; identical passes keep the idle verdict.
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

  it('a case failing under load only on the wallet (the load moves the balance) is not verified under load, never a difference', () => {
    const walletOnly: ReportCase = {
      ...kase('W', 'failed'),
      failures: [
        { check: 'no-charge', operation: 'v2.transaction.topup', severity: 'error', message: 'moved', expected: '1', received: '2' },
      ],
    };
    const idle = section([kase('W', 'passed')]);
    const merged = withUnderLoad(idle, compareUnderLoad(idle, section([walletOnly]), run));
    expect(merged.underLoad?.failsOnlyUnderLoad).toEqual([]);
    expect(merged.verdict).toBe('pass');
    expect(merged.underLoad?.notes.join(' ')).toMatch(/1 case\(s\) failed under load only on state the load.*\(W\)/);
  });

  it('a case skipped or missing in either pass is no difference; same results keep the idle verdict', () => {
    const idle = section([kase('A', 'passed'), kase('B', 'skipped'), kase('D', 'passed')]);
    const loaded = section([kase('A', 'skipped'), kase('B', 'failed')]);
    const merged = withUnderLoad(idle, compareUnderLoad(idle, loaded, run));
    expect(merged.underLoad?.failsOnlyUnderLoad).toEqual([]);
    expect(merged.underLoad?.compared).toBe(0);
    const same = withUnderLoad(
      section([kase('A', 'passed')]),
      compareUnderLoad(section([kase('A', 'passed')]), section([kase('A', 'passed')]), run),
    );
    expect(same.verdict).toBe('pass');
    expect(conformanceLine(same, false)).toContain('no case differs under load mixed/load (1 case compared)');
  });
});
