// Each latency threshold's own samples inside the generator's saturated windows, from the run's metric file (per-second
// aggregates or k6's NDJSON): a submetric's requests (`{scenario:browse}`, `{url:...}`) need not be spread like the run's.
import type { GeneratorReport } from './generator.ts';
import { lineStream } from './k6-series.ts';
import { AGGREGATE_TYPE } from './metric-aggregates.ts';

type Windows = GeneratorReport['windows'];

/** A threshold's metric as k6 reads it: `name{k:v,k2:v2}`, values trimmed and unquoted (k6 already accepted the name). */
export function submetricSelector(metric: string): { readonly base: string; readonly tags: ReadonlyArray<readonly [string, string]> } {
  const open = metric.indexOf('{');
  if (open < 0 || !metric.endsWith('}')) return { base: metric, tags: [] };
  const unquote = (text: string): string => text.trim().replace(/^["']+|["']+$/g, '');
  const tags = metric
    .slice(open + 1, -1)
    .split(',')
    .filter((part) => part.includes(':'))
    .map((part): [string, string] => [unquote(part.slice(0, part.indexOf(':'))), unquote(part.slice(part.indexOf(':') + 1))]);
  return { base: metric.slice(0, open), tags };
}

/** The part of [start, end) the windows cover, 0..1. */
function coveredShare(windows: Windows, start: number, end: number): number {
  const covered = windows.reduce((sum, w) => sum + Math.max(0, Math.min(end, w.endMs) - Math.max(start, w.startMs)), 0);
  return Math.min(1, covered / Math.max(1, end - start));
}

interface Tally {
  inside: number;
  total: number;
}

/** One line's samples, when it is a point or an aggregate: how many, and the span they were measured in. */
function samplesOf(line: string): { metric: string; tags: Record<string, unknown>; count: number; start: number; end: number } | undefined {
  let entry: { type?: unknown; metric?: unknown; data?: { time?: unknown; tags?: unknown; count?: unknown } | null };
  try {
    entry = JSON.parse(line) as typeof entry;
  } catch {
    return undefined;
  }
  const data = entry.data;
  if (typeof entry.metric !== 'string' || data === null || data === undefined || typeof data.time !== 'string') return undefined;
  const time = Date.parse(data.time);
  if (!Number.isFinite(time)) return undefined;
  const tags = (typeof data.tags === 'object' && data.tags !== null ? data.tags : {}) as Record<string, unknown>;
  // A point is one sample at its time; an aggregate holds its second's samples (reports/metric-aggregates.ts).
  if (entry.type === 'Point') return { metric: entry.metric, tags, count: 1, start: time, end: time + 1 };
  if (entry.type !== AGGREGATE_TYPE || typeof data.count !== 'number') return undefined;
  const second = Math.floor(time / 1000) * 1000;
  return { metric: entry.metric, tags, count: data.count, start: second, end: second + 1000 };
}

/**
 * For each of `metrics` (threshold metric names, submetrics included), the share of its samples measured inside the
 * windows; a metric with no sample in the file is left out (the caller falls back to the run's share).
 */
export async function submetricSharesInWindows(
  path: string | undefined,
  metrics: readonly string[],
  windows: Windows,
): Promise<Map<string, number>> {
  const shares = new Map<string, number>();
  if (path === undefined || metrics.length === 0 || windows.length === 0) return shares;
  const selectors = metrics.map((metric) => ({ metric, ...submetricSelector(metric), tally: { inside: 0, total: 0 } as Tally }));
  const marks = [...new Set(selectors.map((s) => `"metric":"${s.base}"`))];
  for await (const line of await lineStream(path)) {
    if (!marks.some((mark) => line.includes(mark))) continue;
    const samples = samplesOf(line);
    if (samples === undefined) continue;
    const share = coveredShare(windows, samples.start, samples.end);
    for (const s of selectors) {
      if (s.base !== samples.metric || !s.tags.every(([key, value]) => samples.tags[key] === value)) continue;
      s.tally.inside += samples.count * share;
      s.tally.total += samples.count;
    }
  }
  for (const s of selectors) if (s.tally.total > 0) shares.set(s.metric, s.tally.inside / s.tally.total);
  return shares;
}
