// The load section's payload part: violations and warnings per operation and JSON path, tallied from the NDJSON stream
// (each counter point carries its operation, path and layer tags), plus the samples the run collected from its VUs.
import type { PayloadChecks } from '../schemas/generated/types.ts';
import { lineStream } from './k6-series.ts';
import { AGGREGATE_TYPE } from './metric-aggregates.ts';

export type { PayloadChecks };
type PathCount = PayloadChecks['byPath'][number];
type Sample = PayloadChecks['samples'][number];
type Layer = PathCount['layer'];

/** The two counters api/payload-checks.ts feeds (load/metric-names.ts spells them; reports/ reads only the stream). */
const VIOLATIONS = 'gateway_schema_violations';
const WARNINGS = 'gateway_payload_warnings';
const LAYERS: ReadonlySet<string> = new Set<Layer>(['envelope', 'spec', 'observed', 'baseline']);

export interface PayloadCheckInputs {
  readonly ndjsonPath?: string;
  readonly samples?: readonly Sample[];
  readonly baselineDir?: string;
  readonly promoteObserved?: boolean;
}

/** Adds one NDJSON line to the tally when it is a point of either counter (other lines are skipped unparsed). */
export function tallyLine(tally: Map<string, PathCount>, line: string): void {
  if (!line.includes(VIOLATIONS) && !line.includes(WARNINGS)) return;
  let point: { type?: unknown; metric?: unknown; data?: { value?: unknown; tags?: Record<string, unknown> } };
  try {
    point = JSON.parse(line) as typeof point;
  } catch {
    return;
  }
  // A per-second aggregate of a counter carries its sum as `value` (reports/metric-aggregates.ts).
  if ((point.type !== 'Point' && point.type !== AGGREGATE_TYPE) || (point.metric !== VIOLATIONS && point.metric !== WARNINGS)) return;
  const tags = point.data?.tags ?? {};
  const value = typeof point.data?.value === 'number' ? point.data.value : 0;
  const severity = point.metric === VIOLATIONS ? 'error' : 'warning';
  const operation = typeof tags.operation === 'string' ? tags.operation : '(untagged)';
  const path = typeof tags.path === 'string' ? tags.path : '$';
  const layer = (typeof tags.layer === 'string' && LAYERS.has(tags.layer) ? tags.layer : 'envelope') as Layer;
  const key = `${severity} ${operation} ${path} ${layer}`;
  const entry = tally.get(key);
  if (entry === undefined) tally.set(key, { operation, path, layer, severity, count: value });
  else tally.set(key, { ...entry, count: entry.count + value });
}

/** The payload part of a load section; undefined when the run kept no stream (nothing to tally from). */
export async function payloadChecksOf(inputs: PayloadCheckInputs): Promise<PayloadChecks | undefined> {
  if (inputs.ndjsonPath === undefined) return undefined;
  const tally = new Map<string, PathCount>();
  for await (const line of await lineStream(inputs.ndjsonPath)) tallyLine(tally, line);
  const byPath = [...tally.values()]
    .filter((entry) => entry.count > 0)
    .sort((a, b) =>
      a.severity === b.severity
        ? b.count - a.count || (a.operation + a.path < b.operation + b.path ? -1 : 1)
        : a.severity === 'error'
          ? -1
          : 1,
    );
  const sum = (severity: PathCount['severity']): number => byPath.filter((e) => e.severity === severity).reduce((n, e) => n + e.count, 0);
  return {
    violations: sum('error'),
    warnings: sum('warning'),
    ...(inputs.baselineDir === undefined ? {} : { baselineDir: inputs.baselineDir }),
    ...(inputs.promoteObserved === true ? { promoteObserved: true } : {}),
    byPath,
    samples: [...(inputs.samples ?? [])],
  };
}
