// What every bench prints beside its figures: the median of its runs or segments (other work on a shared machine shows
// up as outliers, which the median of a few runs leaves out; each run is printed too, so the spread shows), and the
// machine's load average, which says whether the box was idle while they were taken.
import { loadavg } from 'node:os';

/** The median of `numbers`; NaN for none. */
export function median(numbers: readonly number[]): number {
  const sorted = [...numbers].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** "2.1 3.0 3.4": the 1, 5 and 15 minute load averages. */
export function loadAverage(): string {
  return loadavg()
    .map((v) => v.toFixed(1))
    .join(' ');
}
