// Turns observations into baseline entries: the inferred schema of each operation's successful envelopes, the
// response headers seen, and the data-dependent sketches a later check needs to recognize renames.
import type { FieldMapping } from '../api/field-mapping.ts';
import { getOperation, OPERATIONS, type Operation } from '../api/operations.ts';
import type { Environment } from '../api/target-config.ts';
import {
  BASELINE_FORMAT,
  catalogOrder,
  entryFile,
  type BaselineEntry,
  type BaselineIndex,
  type IndexEntry,
  type ResponseHeaders,
} from './baseline-files.ts';
import { accumulate, sketchOf, toSchema, walkAccumulator, type Accumulator } from './infer-schema.ts';
import { lastKey } from '../api/json-path.ts';
import type { OperationObservation } from './observe.ts';

/** Positions whose values are a payload in themselves (the balance number): no sketch, it would fingerprint the value. */
const UNSKETCHED_PATHS = new Set(['$.payLoad']);

export function headersOf(headerSets: readonly (readonly string[])[]): ResponseHeaders {
  if (headerSets.length === 0) return { always: [], sometimes: [] };
  const all = new Set(headerSets.flat());
  const always = [...all].filter((h) => headerSets.every((set) => set.includes(h))).sort();
  const sometimes = [...all].filter((h) => !always.includes(h)).sort();
  return { always, sometimes };
}

/** Member names (last path segment, lower case) of the mapping's category fields: their values form a vocabulary. */
export function categoryNames(mapping: FieldMapping): Set<string> {
  const paths = [mapping.v2Sku.category, mapping.v1Sku.category, mapping.giftcardSku.category];
  return new Set(paths.map((p) => (p.split('.').pop() ?? p).toLowerCase()));
}

export function valueSketchesOf(acc: Accumulator): Record<string, string> {
  const out: Record<string, string> = {};
  walkAccumulator(acc, (path, node) => {
    if (node.digests.size === 0 || UNSKETCHED_PATHS.has(path) || lastKey(path) === undefined) return;
    out[path] = sketchOf(node.digests).join(' ');
  });
  return out;
}

export function vocabulariesOf(acc: Accumulator, categories: ReadonlySet<string>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  walkAccumulator(acc, (path, node) => {
    const key = lastKey(path);
    if (key === undefined || !categories.has(key.toLowerCase()) || node.valuesOverflow || node.values.size === 0) return;
    out[path] = [...node.values.keys()].sort();
  });
  return out;
}

export function entryFromObservation(op: Operation, obs: OperationObservation, mapping: FieldMapping): BaselineEntry {
  const acc = accumulate(obs.samples);
  return {
    operationId: op.id,
    method: op.method,
    path: op.path,
    pathAssumed: op.pathAssumed,
    ...(obs.via === undefined ? {} : { observedVia: obs.via }),
    responseHeaders: headersOf(obs.headerSets),
    schema: toSchema(acc),
    valueSketches: valueSketchesOf(acc),
    vocabularies: vocabulariesOf(acc, categoryNames(mapping)),
  };
}

export interface BuiltBaseline {
  readonly index: BaselineIndex;
  readonly entries: BaselineEntry[];
}

export function buildBaseline(
  observations: ReadonlyMap<string, OperationObservation>,
  context: { readonly target: string; readonly environment: Environment; readonly mapping: FieldMapping },
): BuiltBaseline {
  const entries: BaselineEntry[] = [];
  const operations: IndexEntry[] = [];
  for (const op of OPERATIONS) {
    const obs = observations.get(op.id);
    if (obs === undefined) continue;
    if (obs.state === 'observed') {
      entries.push(entryFromObservation(getOperation(op.id), obs, context.mapping));
      operations.push({ operationId: op.id, state: 'observed', file: entryFile(op.id) });
    } else {
      operations.push({ operationId: op.id, state: obs.state === 'failed' ? 'unavailable' : 'not-observed', reason: obs.reason ?? '' });
    }
  }
  operations.sort(catalogOrder);
  return {
    index: {
      format: BASELINE_FORMAT,
      generator: 'gateway-harness baseline record',
      target: context.target,
      environment: context.environment,
      operations,
    },
    entries,
  };
}
