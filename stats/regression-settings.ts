// What a regression must be to count: the error rate over the operations and the practical thresholds a change must pass
// on top of being significant (DESIGN.md: "a regression is significant ... and larger than a practical threshold").

export interface CompareSettings {
  /** Family-wise error rate per statistic over the operations compared (Holm). */
  readonly alpha: number;
  /** The latency quantile that decides (0.95). */
  readonly latencyQuantile: number;
  /** A latency regression must exceed both: +10 % and +5 ms by default. */
  readonly latencyRelative: number;
  readonly latencyAbsoluteMs: number;
  /** A failure-rate regression must exceed this many percentage points (0.5). */
  readonly failureRatePoints: number;
}

export const DEFAULT_COMPARE_SETTINGS: CompareSettings = Object.freeze({
  alpha: 0.01,
  latencyQuantile: 0.95,
  latencyRelative: 0.1,
  latencyAbsoluteMs: 5,
  failureRatePoints: 0.5,
});
