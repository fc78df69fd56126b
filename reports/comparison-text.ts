// The comparison's statistics as text, one wording for junit.xml, summary.md and report.html: an estimate with its
// interval, a change with its p-value. Runtime-neutral.
import type { ComparedOperation, ComparedStat, ComparisonSection } from './model.ts';
import { formatMs } from './sections.ts';

export type StatKind = 'ms' | 'rate';

const VERDICT_MARK: Readonly<Record<ComparedOperation['verdict'], string>> = {
  regression: '❌ regression',
  incomplete: '⚠️ incomplete',
  improvement: '✅ improvement',
  'no-change': '✅ no change',
};

export function operationVerdictText(verdict: ComparedOperation['verdict']): string {
  return VERDICT_MARK[verdict];
}

function value(v: number, kind: StatKind): string {
  return kind === 'ms' ? formatMs(v) : `${(v * 100).toFixed(2)} %`;
}

/** "41.2 ms [38.0, 45.1]" (the interval at 1 − alpha; "?" where too few samples bound it). */
export function estimateText(e: ComparedStat['baseline'], kind: StatKind): string {
  if (e === null) return 'n/a';
  const bound = (b: number | null): string => (b === null ? '?' : kind === 'ms' ? formatMs(b).replace(/ ms$/, '') : (b * 100).toFixed(2));
  return `${value(e.value, kind)} [${bound(e.low)}, ${bound(e.high)}]`;
}

/** "+9.8 ms (+24 %), p = 0.0003" / "+1.90 points, p = 2.1e-5" / "n/a". */
export function changeText(stat: ComparedStat, kind: StatKind): string {
  if (stat.change === null) return 'n/a';
  const sign = stat.change >= 0 ? '+' : '−';
  const size =
    kind === 'ms'
      ? `${sign}${formatMs(Math.abs(stat.change))}${stat.relativeChange === null || stat.relativeChange === undefined ? '' : ` (${sign}${Math.abs(stat.relativeChange * 100).toFixed(0)} %)`}`
      : `${sign}${Math.abs(stat.change * 100).toFixed(2)} points`;
  const p = stat.adjustedPValue ?? stat.pValue;
  const pText =
    p === null || p === undefined
      ? ''
      : `, p${stat.adjustedPValue === undefined || stat.adjustedPValue === null ? '' : ' (Holm)'} = ${p < 0.0001 ? p.toExponential(1) : p.toFixed(4)}`;
  return `${size}${pText}`;
}

/** One line per statistic of an operation (junit's system-out, the HTML's detail). */
export function operationLines(o: ComparedOperation): string[] {
  const row = (label: string, s: ComparedStat, kind: StatKind): string =>
    `${label}: ${estimateText(s.baseline, kind)} → ${estimateText(s.candidate, kind)}; ${changeText(s, kind)}; ${s.status}${s.judged ? '' : ' (reported, not judged)'}`;
  return [
    row('latency p50', o.latency.p50, 'ms'),
    row('latency p95', o.latency.p95, 'ms'),
    row('latency p99', o.latency.p99, 'ms'),
    row('business failure rate', o.businessFailureRate, 'rate'),
    row('HTTP failure rate', o.httpFailureRate, 'rate'),
    row('schema violation rate', o.schemaViolationRate, 'rate'),
    ...(o.timeToFinal === undefined
      ? []
      : [row('time to final p50', o.timeToFinal.p50, 'ms'), row('time to final p95', o.timeToFinal.p95, 'ms')]),
    `throughput: ${o.throughput.baseline} → ${o.throughput.candidate} requests/s`,
  ];
}

/** "baseline: k6 v0.48.0, mixed/smoke, 12,034 requests in 61.2 s (dir)" */
export function comparedRunText(run: ComparisonSection['baseline']): string {
  const what = [run.scenario, run.profile].filter((x) => x !== undefined).join('/');
  return `${run.engine}${what === '' ? '' : `, ${what}`}, ${run.requests} requests in ${(run.durationMs / 1000).toFixed(1)} s (${run.dir})`;
}

/** The settings in one line: "α 0.01 (Holm over 18 operations), regression: p95 +10 % and +5 ms, failure rates +0.5 points". */
export function settingsText(section: ComparisonSection): string {
  const s = section.settings;
  return `α ${s.alpha} (Holm over the operations), a regression: p${Math.round(s.latencyQuantile * 100)} +${Math.round(s.latencyRelative * 100)} % and +${s.latencyAbsoluteMs} ms, failure rates +${s.failureRatePoints} points; at least ${s.minimumEffectiveSamples} effective samples a side`;
}
