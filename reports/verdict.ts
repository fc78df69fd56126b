// The verdict model of every command that judges a gateway (DESIGN.md "Verdicts"): pass, fail, incomplete, unusable
// target or bad usage, thresholds crossed; their exit codes; and how the parts of a gate combine into one verdict.
// Runtime-neutral: the k6 bundles' handleSummary states the same verdict as the Node commands.

export type Verdict = 'pass' | 'fail' | 'incomplete' | 'unusable' | 'thresholds';

/** Exit codes of the interface contract: 0 pass, 1 fail or incomplete, 2 usage/unusable target, 99 thresholds (k6's). */
export const VERDICT_EXIT: Readonly<Record<Verdict, number>> = Object.freeze({
  pass: 0,
  fail: 1,
  incomplete: 1,
  unusable: 2,
  thresholds: 99,
});

/** Worst first: a target that cannot be used says nothing else; a failure outranks crossed thresholds and skips. */
const PRECEDENCE: readonly Verdict[] = ['unusable', 'fail', 'thresholds', 'incomplete', 'pass'];

/** The verdict of a run made of parts (conformance, load, drift, migration): the worst part decides. */
export function combineVerdicts(parts: readonly Verdict[]): Verdict {
  if (parts.length === 0) return 'incomplete'; // nothing ran: nothing was verified
  let worst: Verdict = 'pass';
  for (const part of parts) if (PRECEDENCE.indexOf(part) < PRECEDENCE.indexOf(worst)) worst = part;
  return worst;
}

export const VERDICT_WORD: Readonly<Record<Verdict, string>> = Object.freeze({
  pass: 'PASS',
  fail: 'FAIL',
  incomplete: 'INCOMPLETE',
  unusable: 'UNUSABLE TARGET',
  thresholds: 'THRESHOLDS CROSSED',
});

/** Counts behind a conformance-style verdict. */
export interface CaseCounts {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
}

/**
 * Cases to a verdict: any failure fails; any skip leaves the run incomplete unless skips were accepted; a run in
 * which nothing passed verified nothing (incomplete), never "pass".
 */
export function verdictOfCases(counts: CaseCounts, options: { allowSkips: boolean }): Verdict {
  if (counts.failed > 0) return 'fail';
  if (counts.passed === 0) return 'incomplete';
  if (counts.skipped > 0 && !options.allowSkips) return 'incomplete';
  return 'pass';
}
