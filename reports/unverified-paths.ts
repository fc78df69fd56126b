// The load section's operations whose assumed path the target lacks, tallied from the NDJSON stream (the
// gateway_path_unverified counter both engines and real k6 feed), and the thresholds measuring them: unverified, not crossed.
import { assumedPathHint, linkedReadsOf } from '../api/assumed-path.ts';
import { findOperation } from '../api/operations.ts';
import type { LoadSection } from './model.ts';
import { lineStream } from './k6-series.ts';
import { AGGREGATE_TYPE } from './metric-aggregates.ts';
import { loadVerdict } from './sections.ts';

/** load/metric-names.ts METRICS.pathUnverified (reports/ reads only the stream, as reports/payload-checks.ts does). */
const PATH_UNVERIFIED = 'gateway_path_unverified';

type UnverifiedOperation = NonNullable<LoadSection['unverifiedOperations']>[number];

/** Answers per operation counted in gateway_path_unverified; empty without a stream. */
export async function pathUnverifiedCounts(ndjsonPath: string | undefined): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (ndjsonPath === undefined) return counts;
  for await (const line of await lineStream(ndjsonPath)) {
    if (!line.includes(PATH_UNVERIFIED)) continue;
    let point: { type?: unknown; metric?: unknown; data?: { value?: unknown; tags?: Record<string, unknown> } };
    try {
      point = JSON.parse(line) as typeof point;
    } catch {
      continue;
    }
    const operation = point.data?.tags?.operation;
    // A per-second aggregate of a counter carries its sum as `value` (reports/metric-aggregates.ts).
    if ((point.type !== 'Point' && point.type !== AGGREGATE_TYPE) || point.metric !== PATH_UNVERIFIED || typeof operation !== 'string')
      continue;
    counts.set(operation, (counts.get(operation) ?? 0) + (typeof point.data?.value === 'number' ? point.data.value : 0));
  }
  return counts;
}

/** The operation a threshold's metric selects (`http_req_duration{operation:v2.transaction.pin}`), if any. */
function thresholdOperation(metric: string): string | undefined {
  return /[{,]operation:([^,}]+)/.exec(metric)?.[1];
}

/**
 * The section with its unverified operations said (each with the key to set and the reads linked to it), and every
 * threshold that measures one of them marked `unverifiedBy` (never crossed: the harness's gap is not the gateway's).
 */
export function withUnverifiedPaths(section: LoadSection, counts: ReadonlyMap<string, number>, allowSkips = false): LoadSection {
  const unverified: UnverifiedOperation[] = [];
  const by = new Map<string, string>();
  for (const [id, count] of counts) {
    const op = findOperation(id);
    if (op === undefined || count <= 0) continue;
    const linked = linkedReadsOf(op).map((read) => read.id);
    unverified.push({ operation: id, count, reason: assumedPathHint(op), ...(linked.length === 0 ? {} : { linked }) });
    for (const each of [id, ...linked]) by.set(each, id);
  }
  if (unverified.length === 0) return section;
  const thresholds = section.thresholds.map((t) => {
    const cause = by.get(thresholdOperation(t.metric) ?? '');
    return cause === undefined ? t : { ...t, unverifiedBy: cause };
  });
  const marked = { ...section, thresholds, unverifiedOperations: unverified.sort((a, b) => (a.operation < b.operation ? -1 : 1)) };
  return { ...marked, verdict: loadVerdict(marked, { allowSkips }) };
}
