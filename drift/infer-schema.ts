// Infers a JSON Schema (2020-12 subset) from sample values: types, required = present in every sample, array items
// merged, nullable where seen null, formats where obvious. Values stay out of the schema (see value-sketch.ts).
import { createHash } from 'node:crypto';
import { childPath, itemsPath } from '../api/json-path.ts';

export type JsonType = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';

/** Formats recognized when EVERY non-empty string sample matches; checked in this order (first match wins). */
const FORMATS: ReadonlyArray<readonly [string, RegExp]> = [
  ['date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/],
  ['date', /^\d{4}-\d{2}-\d{2}$/],
  ['uri', /^https?:\/\/[^\s/$.?#][^\s]*$/i],
  ['email', /^[^\s@]+@[^\s@]+\.[^\s@]+$/],
];

/** Distinct string values tracked per position before giving up (free text); vocabularies are small. */
const VALUE_TRACK_CAP = 64;
/** Size of the bottom-k digest sketch kept for rename matching. */
export const SKETCH_SIZE = 5;

/** The JSON Schema an inference produces: plain data, keys written in a stable order by `stableStringify`. */
export interface InferredSchema {
  type?: JsonType | JsonType[];
  format?: string;
  properties?: Record<string, InferredSchema>;
  required?: string[];
  items?: InferredSchema;
  [keyword: string]: unknown;
}

/** Running accumulator for one position of the sampled documents. */
export interface Accumulator {
  /** Values observed here (null included). */
  seen: number;
  types: Set<JsonType>;
  objects: number;
  props: Map<string, Accumulator>;
  items: Accumulator | undefined;
  strings: number;
  /** Formats every non-empty string so far matched; undefined before the first non-empty string. */
  formats: Set<string> | undefined;
  values: Map<string, number>;
  valuesOverflow: boolean;
  digests: Set<string>;
}

export function newAccumulator(): Accumulator {
  return {
    seen: 0,
    types: new Set(),
    objects: 0,
    props: new Map(),
    items: undefined,
    strings: 0,
    formats: undefined,
    values: new Map(),
    valuesOverflow: false,
    digests: new Set(),
  };
}

export function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'boolean':
      return 'boolean';
    case 'number':
      return Number.isInteger(value) ? 'integer' : 'number';
    case 'string':
      return 'string';
    case 'object':
      return 'object';
    default:
      // undefined, functions, bigint never come out of JSON.parse.
      return 'null';
  }
}

export function digestOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 12);
}

function formatsOf(text: string): Set<string> {
  return new Set(FORMATS.filter(([, re]) => re.test(text)).map(([name]) => name));
}

/** Adds one observed value at this position. */
export function observe(acc: Accumulator, value: unknown): void {
  acc.seen += 1;
  const type = jsonTypeOf(value);
  acc.types.add(type);
  if (type === 'object') {
    acc.objects += 1;
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      let childAcc = acc.props.get(key);
      if (childAcc === undefined) {
        childAcc = newAccumulator();
        acc.props.set(key, childAcc);
      }
      observe(childAcc, child);
    }
    return;
  }
  if (type === 'array') {
    for (const item of value as unknown[]) {
      acc.items ??= newAccumulator();
      observe(acc.items, item);
    }
    return;
  }
  if (type === 'null') return;
  acc.digests.add(digestOf(value));
  if (type === 'string') {
    const text = value as string;
    acc.strings += 1;
    if (text !== '') {
      const matching = formatsOf(text);
      acc.formats = acc.formats === undefined ? matching : new Set([...acc.formats].filter((f) => matching.has(f)));
    }
    if (!acc.valuesOverflow) {
      acc.values.set(text, (acc.values.get(text) ?? 0) + 1);
      if (acc.values.size > VALUE_TRACK_CAP) {
        acc.valuesOverflow = true;
        acc.values.clear();
      }
    }
  }
}

/** Accumulates every sample (each one a whole document, e.g. one envelope). */
export function accumulate(samples: Iterable<unknown>, acc: Accumulator = newAccumulator()): Accumulator {
  for (const sample of samples) observe(acc, sample);
  return acc;
}

/**
 * JSON type list as written, sorted for stable files. Integers are written as number: whether every sampled value
 * happened to be whole (10 vs 10.5) is a property of the data, and a re-record on other data must not flip the line.
 */
export function typeList(types: ReadonlySet<JsonType>): JsonType[] {
  return [...new Set([...types].map((t) => (t === 'integer' ? 'number' : t)))].sort();
}

/** Bottom-k sketch: the k smallest digests. Two sketches estimate how much two value sets overlap (Broder 1997). */
export function sketchOf(digests: Iterable<string>): string[] {
  return [...digests].sort().slice(0, SKETCH_SIZE);
}

/** Estimated Jaccard similarity of two value sets from their bottom-k sketches (0 when either is empty). */
export function sketchSimilarity(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const union = sketchOf(new Set([...a, ...b]));
  const inA = new Set(a);
  const inB = new Set(b);
  const both = union.filter((d) => inA.has(d) && inB.has(d)).length;
  return both / union.length;
}

/** Visits every position of an accumulator tree with its JSON path (`$`, `$.payLoad[*].skuId`, ...). */
export function walkAccumulator(acc: Accumulator, visit: (path: string, acc: Accumulator) => void, path = '$'): void {
  visit(path, acc);
  for (const [key, child] of acc.props) walkAccumulator(child, visit, childPath(path, key));
  if (acc.items !== undefined) walkAccumulator(acc.items, visit, itemsPath(path));
}

/** `record[key] = value` as an own member whatever the key: `__proto__` (a gateway's field name too) stays a field. */
export function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The schema of an accumulated position. */
export function toSchema(acc: Accumulator): InferredSchema {
  const schema: InferredSchema = {};
  const types = typeList(acc.types);
  if (types.length > 0) schema.type = types.length === 1 ? (types[0] as JsonType) : types;
  if (acc.formats !== undefined && acc.formats.size > 0) {
    schema.format = FORMATS.map(([name]) => name).find((name) => acc.formats?.has(name));
  }
  if (acc.objects > 0) {
    const properties: Record<string, InferredSchema> = {};
    const required: string[] = [];
    for (const key of [...acc.props.keys()].sort()) {
      const child = acc.props.get(key) as Accumulator;
      setOwn(properties, key, toSchema(child));
      if (child.seen === acc.objects) required.push(key);
    }
    schema.properties = properties;
    schema.required = required;
  }
  if (acc.items !== undefined) schema.items = toSchema(acc.items);
  return schema;
}

/** Infers the schema of a set of samples in one call. */
export function inferSchema(samples: Iterable<unknown>): InferredSchema {
  return toSchema(accumulate(samples));
}

/** Key order in written files (schema keywords, then baseline keys); property names and other keys follow in code-unit order. */
const KEYWORD_ORDER = [
  '$schema',
  'title',
  'description',
  'type',
  'format',
  // Baseline files and their index (see baseline-files.ts), so the identifying keys come first.
  'generator',
  'target',
  'environment',
  'operationId',
  'method',
  'path',
  'pathAssumed',
  'observedVia',
  'state',
  'file',
  'reason',
  'responseHeaders',
  'always',
  'sometimes',
  'required',
  'properties',
  'items',
  'schema',
  'valueSketches',
  'vocabularies',
  'operations',
];

function keyRank(key: string): number {
  const i = KEYWORD_ORDER.indexOf(key);
  return i === -1 ? KEYWORD_ORDER.length : i;
}

/** Code-unit order: the same on every machine and locale (localeCompare is not). */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function ordered(value: unknown, inProperties: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => ordered(v, false));
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort((a, b) => (inProperties ? byCodeUnit(a, b) : keyRank(a) - keyRank(b) || byCodeUnit(a, b)));
  const out: Record<string, unknown> = {};
  for (const key of keys) setOwn(out, key, ordered(record[key], !inProperties && key === 'properties'));
  return out;
}

/** JSON with a stable key order (schema keywords first, then names alphabetically), two-space indent, final newline. */
export function stableStringify(value: unknown): string {
  return `${JSON.stringify(ordered(value, false), null, 2)}\n`;
}
