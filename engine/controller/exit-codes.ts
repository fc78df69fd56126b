// k6's exit codes (errext/exitcodes) as the engine returns them, and the one way the controller words an error.
// Shared by every step of a run (loading, the schedule, the summary), so a code means the same wherever it is set.

/** k6's exit codes (errext/exitcodes). */
export const EXIT_CODES = {
  ok: 0,
  thresholdsFailed: 99,
  setupTimeout: 100,
  teardownTimeout: 101,
  invalidConfig: 104,
  externalAbort: 105,
  scriptException: 107,
  scriptAborted: 108,
  promiseRejected: 255,
} as const;

export function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** A run that ends before its threads start (bundle, options, thresholds): k6's code and the line logged. */
export interface EarlyFailure {
  readonly exitCode: number;
  readonly text: string;
}
