// The thresholds at the end of a run, on the merged metrics: each set's verdict for the summary and whether any crossed.
// (During the run, the scheduler evaluates abortOnFail ones on merged snapshots with the same helpers.)
import type { MetricStore } from '../metrics/store.ts';
import { evaluateThresholds, type MetricThresholds } from '../thresholds.ts';

/** The percentiles a set of thresholds asks for (p(95) → 95). */
export function percentilesOf(set: MetricThresholds): number[] {
  return set.thresholds.filter((t) => t.parsed.method === 'p').map((t) => t.parsed.percentile as number);
}

export interface FinalThresholds {
  readonly results: Map<string, Record<string, { ok: boolean }>>;
  readonly passed: boolean;
  /** The summary names of the sets that crossed. */
  readonly crossed: string[];
}

export function evaluateFinalThresholds(
  store: MetricStore,
  thresholds: readonly MetricThresholds[],
  testRunDurationMs: number,
): FinalThresholds {
  const results = new Map<string, Record<string, { ok: boolean }>>();
  let passed = true;
  for (const set of thresholds) {
    const sink = store.sinkOf(set.summaryName);
    if (sink === undefined) continue;
    const verdict = evaluateThresholds(set, sink.thresholdValues(testRunDurationMs, percentilesOf(set)), testRunDurationMs);
    results.set(set.summaryName, verdict.results);
    if (!verdict.passed) passed = false;
  }
  const crossed = passed
    ? []
    : thresholds.filter((t) => Object.values(results.get(t.summaryName) ?? {}).some((r) => !r.ok)).map((t) => t.summaryName);
  return { results, passed, crossed };
}
