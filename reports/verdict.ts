// The verdict model of every command that judges a gateway (DESIGN.md "Verdicts"): pass, fail, incomplete, unusable
// target or bad usage, thresholds crossed, interrupted; their exit codes; and how the parts of a run combine into one.
// Runtime-neutral: the k6 bundles' handleSummary states the same verdict as the Node commands.

export type Verdict = 'pass' | 'fail' | 'incomplete' | 'unusable' | 'thresholds' | 'interrupted';

/**
 * Exit codes of the interface contract: 0 pass, 1 fail or incomplete, 2 usage/unusable target, 99 thresholds (k6's),
 * interrupted 130 (SIGINT; the signal decides: see interruptedExitCode).
 */
export const VERDICT_EXIT: Readonly<Record<Verdict, number>> = Object.freeze({
  pass: 0,
  fail: 1,
  incomplete: 1,
  unusable: 2,
  thresholds: 99,
  interrupted: 130,
});

/** The signals a run ends on gracefully (SIGINT: Ctrl-C; SIGTERM: a CI runner cancelling the job) and their numbers. */
export const INTERRUPT_SIGNALS = Object.freeze({ SIGINT: 2, SIGTERM: 15 } as const);
export type InterruptSignal = keyof typeof INTERRUPT_SIGNALS;

/** k6's exit code for a run aborted by a signal sent to k6 itself (errext ExternalAbort); the engine uses it too. */
export const ENGINE_EXTERNAL_ABORT = 105;

/**
 * The exit code of an interrupted run: 128 + the signal's number (130 SIGINT, 143 SIGTERM), what shells and CI runners
 * expect of a process a signal stopped; k6's 105 when the engine was aborted by a signal the harness never received.
 * Never 0, 1, 2 or 99: a cancelled run cannot be read as passed, failed, unusable or over its thresholds.
 */
export function interruptedExitCode(signal: InterruptSignal | undefined): number {
  return signal === undefined ? ENGINE_EXTERNAL_ABORT : 128 + INTERRUPT_SIGNALS[signal];
}

/**
 * Worst first. An interrupted run did not finish, so no part's verdict can be the run's (a part that had failed before
 * the signal still says so in its own line); a target that cannot be used says nothing else; a failure outranks
 * crossed thresholds and skips.
 */
const PRECEDENCE: readonly Verdict[] = ['interrupted', 'unusable', 'fail', 'thresholds', 'incomplete', 'pass'];

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
  interrupted: 'INTERRUPTED',
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
