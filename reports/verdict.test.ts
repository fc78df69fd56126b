// The verdict table: exit codes, combination precedence, and that skips and empty runs never read as a pass.
import { describe, expect, it } from 'vitest';
import { VERDICT_EXIT, combineVerdicts, interruptedExitCode, verdictOfCases, type Verdict } from './verdict.ts';

describe('verdicts', () => {
  it.each<[Verdict, number]>([
    ['pass', 0],
    ['fail', 1],
    ['incomplete', 1],
    ['unusable', 2],
    ['thresholds', 99],
    ['interrupted', 130],
  ])('%s exits %i', (verdict, code) => expect(VERDICT_EXIT[verdict]).toBe(code));

  it("an interrupted run exits 128 + its signal (k6's 105 when the engine was aborted from outside), never a code of another verdict", () => {
    expect(interruptedExitCode('SIGINT')).toBe(130);
    expect(interruptedExitCode('SIGTERM')).toBe(143);
    expect(interruptedExitCode(undefined)).toBe(105);
    const others = new Set(
      Object.entries(VERDICT_EXIT)
        .filter(([v]) => v !== 'interrupted')
        .map(([, code]) => code),
    );
    for (const signal of ['SIGINT', 'SIGTERM', undefined] as const) expect(others.has(interruptedExitCode(signal))).toBe(false);
  });

  it.each<[Verdict[], Verdict]>([
    [['pass', 'pass'], 'pass'],
    [['pass', 'incomplete'], 'incomplete'],
    [['incomplete', 'thresholds'], 'thresholds'],
    [['thresholds', 'fail'], 'fail'],
    [['fail', 'unusable'], 'unusable'],
    // An interrupted run did not finish: it outranks every verdict of its parts, a failure and an unusable target too.
    [['pass', 'interrupted'], 'interrupted'],
    [['interrupted', 'incomplete'], 'interrupted'],
    [['fail', 'interrupted', 'thresholds'], 'interrupted'],
    [['unusable', 'interrupted'], 'interrupted'],
    [[], 'incomplete'],
  ])('combine %j -> %s', (parts, expected) => expect(combineVerdicts(parts)).toBe(expected));

  it.each([
    [{ passed: 10, failed: 0, skipped: 0 }, false, 'pass'],
    [{ passed: 10, failed: 1, skipped: 0 }, false, 'fail'],
    [{ passed: 10, failed: 0, skipped: 2 }, false, 'incomplete'],
    [{ passed: 10, failed: 0, skipped: 2 }, true, 'pass'],
    [{ passed: 0, failed: 0, skipped: 5 }, true, 'incomplete'],
    [{ passed: 0, failed: 0, skipped: 0 }, true, 'incomplete'],
  ] as const)('cases %j (allowSkips %s) -> %s', (counts, allowSkips, expected) =>
    expect(verdictOfCases(counts, { allowSkips })).toBe(expected),
  );
});
