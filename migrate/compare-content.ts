// Compares the payloads of a v1/v2 pair after the declared normalizations: which v1 fields have a v2 counterpart
// (same name in any letter case, or a declared rename), and where the corresponding values or records differ.
import { categoryIdOf, readField } from '../api/field-mapping.ts';
import { CATEGORY_IDS } from '../api/operations.ts';
import type { PairNormalization, PayloadView } from './normalizations.ts';

export type ContentChange = 'record-missing-in-v2' | 'record-only-in-v2' | 'value-differs' | 'payload-shape-differs';

/** One difference of content, aggregated over the records of a pair. */
export interface ContentDiff {
  /** `v1Field → v2Field` for values, `records` for record sets, `payload` for the shape. */
  readonly path: string;
  readonly change: ContentChange;
  /** How many records (or values) differ ... */
  readonly count: number;
  /** ... of how many compared. */
  readonly of: number;
  /** The first example, in words. */
  readonly detail: string;
}

export interface FieldCorrespondence {
  readonly v1Field: string;
  readonly v2Field: string | null;
}

export interface ContentComparison {
  readonly contentDiffs: ContentDiff[];
  readonly fieldCorrespondence: FieldCorrespondence[];
  /** Records compared (matched on the key, or position by position). */
  readonly matchedRecords: number;
}

type Flat = Map<string, unknown>;
const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The records a payload holds under a view; undefined when the payload does not have that shape. */
export function toRecords(payload: unknown, view: PayloadView): Record<string, unknown>[] | undefined {
  switch (view.kind) {
    case 'records':
      return Array.isArray(payload) ? payload.map((item) => (isRecord(item) ? item : { value: item })) : undefined;
    case 'object':
      return isRecord(payload) ? [payload] : undefined;
    case 'value':
      return payload !== null && typeof payload !== 'object' ? [{ value: payload }] : undefined;
    case 'pluck': {
      const inner = readField(payload, view.field);
      return Array.isArray(inner) ? inner.map((item) => (isRecord(item) ? item : { value: item })) : undefined;
    }
  }
}

const isVolatile = (path: string, volatile: readonly string[]): boolean => volatile.some((v) => path === v || path.startsWith(`${v}.`));

/** Leaf values by dotted path; nested objects are walked, arrays and scalars are leaves. */
export function flatten(record: Record<string, unknown>, volatile: readonly string[] = [], prefix = '', out: Flat = new Map()): Flat {
  for (const [key, value] of Object.entries(record)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (isVolatile(path, volatile)) continue;
    if (isRecord(value) && Object.keys(value).length > 0) flatten(value, volatile, path, out);
    else out.set(path, value);
  }
  return out;
}

/** Each v1 field with its v2 counterpart: a declared rename, the same path, or the same path in another letter case. */
export function correspondFields(
  v1Fields: Iterable<string>,
  v2Fields: Iterable<string>,
  renames: Readonly<Record<string, string>> = {},
): FieldCorrespondence[] {
  const v2 = [...new Set(v2Fields)];
  const v2Set = new Set(v2);
  const byLower = new Map(v2.map((f) => [f.toLowerCase(), f]));
  const out: FieldCorrespondence[] = [];
  for (const v1Field of [...new Set(v1Fields)].sort()) {
    const renamed = renames[v1Field];
    const v2Field =
      renamed !== undefined && v2Set.has(renamed) ? renamed : v2Set.has(v1Field) ? v1Field : (byLower.get(v1Field.toLowerCase()) ?? null);
    out.push({ v1Field, v2Field });
  }
  return out;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  return JSON.stringify(a) === JSON.stringify(b);
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function excluded(record: Record<string, unknown>, norm: PairNormalization): boolean {
  const rule = norm.v1Exclude;
  if (rule === undefined) return false;
  const id = categoryIdOf(readField(record, rule.categoryField));
  return id !== undefined && rule.categories.some((c) => CATEGORY_IDS[c] === id);
}

const keyOf = (record: Record<string, unknown>, path: string): string | undefined => {
  const value = readField(record, path);
  return value === undefined || value === null ? undefined : JSON.stringify(value);
};

type Rec = Record<string, unknown>;
type RecordPair = { label: string; v1: Rec; v2: Rec };

/** What reading the payloads input by input gives: the diffs found on the way and the records to compare. */
interface GatheredRecords {
  readonly diffs: ContentDiff[];
  /** Records paired by position (unkeyed pairs); keyed pairs are paired later, over all inputs. */
  readonly pairs: RecordPair[];
  /** Keyed pairs: the records of every input, pooled for matching on the key. */
  readonly v1Records: Rec[];
  readonly v2Records: Rec[];
  /** Every record of either version (fields are corresponded over all of them, matched or not). */
  readonly allV1: Rec[];
  readonly allV2: Rec[];
}

function shapeDiff(a: Rec[] | undefined, norm: PairNormalization): ContentDiff {
  const view = a === undefined ? norm.v1 : norm.v2;
  return {
    path: 'payload',
    change: 'payload-shape-differs',
    count: 1,
    of: 1,
    detail: `${a === undefined ? 'v1' : 'v2'} payload is not ${view.kind === 'records' ? 'an array' : `of the declared view '${view.kind}'`}`,
  };
}

/** Unkeyed pairs: record j of v1 against record j of v2 of the same input; a difference in count is a diff of its own. */
function pairByPosition(input: number, kept: Rec[], b: Rec[], into: GatheredRecords): void {
  for (let j = 0; j < Math.max(kept.length, b.length); j++) {
    const r1 = kept[j];
    const r2 = b[j];
    if (r1 !== undefined && r2 !== undefined)
      into.pairs.push({ label: `input ${input + 1}${kept.length > 1 ? ` record ${j + 1}` : ''}`, v1: r1, v2: r2 });
  }
  if (kept.length !== b.length)
    into.diffs.push({
      path: 'records',
      change: kept.length > b.length ? 'record-missing-in-v2' : 'record-only-in-v2',
      count: Math.abs(kept.length - b.length),
      of: kept.length,
      detail: `input ${input + 1}: v1 ${kept.length} records, v2 ${b.length}`,
    });
}

/** Input by input: the payloads' records under each version's view (v1's excluded categories left out). */
function gatherRecords(v1Payloads: readonly unknown[], v2Payloads: readonly unknown[], norm: PairNormalization): GatheredRecords {
  const out: GatheredRecords = { diffs: [], pairs: [], v1Records: [], v2Records: [], allV1: [], allV2: [] };
  for (let i = 0; i < Math.min(v1Payloads.length, v2Payloads.length); i++) {
    const a = toRecords(v1Payloads[i], norm.v1);
    const b = toRecords(v2Payloads[i], norm.v2);
    if (a === undefined || b === undefined) {
      out.diffs.push(shapeDiff(a, norm));
      continue;
    }
    const kept = a.filter((r) => !excluded(r, norm));
    out.allV1.push(...kept);
    out.allV2.push(...b);
    if (norm.key === undefined) pairByPosition(i, kept, b, out);
    else {
      out.v1Records.push(...kept);
      out.v2Records.push(...b);
    }
  }
  return out;
}

/** Keyed pairs: each v1 key's first record against v2's first record of the same key; keys on one side only are diffs. */
function pairOnKey(key: NonNullable<PairNormalization['key']>, into: GatheredRecords): void {
  const v2ByKey = new Map<string, Rec>();
  for (const r of into.v2Records) {
    const k = keyOf(r, key.v2);
    if (k !== undefined && !v2ByKey.has(k)) v2ByKey.set(k, r);
  }
  const v1Keys = new Set<string>();
  const missing: string[] = [];
  for (const r of into.v1Records) {
    const k = keyOf(r, key.v1);
    if (k === undefined || v1Keys.has(k)) continue;
    v1Keys.add(k);
    const match = v2ByKey.get(k);
    if (match === undefined) missing.push(k);
    else into.pairs.push({ label: `${key.v1}=${k}`, v1: r, v2: match });
  }
  if (missing.length > 0)
    into.diffs.push({
      path: 'records',
      change: 'record-missing-in-v2',
      count: missing.length,
      of: v1Keys.size,
      detail: `v1 records with no v2 record of the same ${key.v2}, e.g. ${key.v1}=${missing[0]}`,
    });
  const extra = [...v2ByKey.keys()].filter((k) => !v1Keys.has(k));
  if (extra.length > 0)
    into.diffs.push({
      path: 'records',
      change: 'record-only-in-v2',
      count: extra.length,
      of: v2ByKey.size,
      detail: `v2 records with no v1 record of the same ${key.v1}, e.g. ${key.v2}=${extra[0]}`,
    });
}

/** One diff per corresponding field whose values differ in some pair (counted over the pairs holding both fields). */
function valueDiffs(
  fieldCorrespondence: readonly FieldCorrespondence[],
  flatPairs: readonly { label: string; v1: Flat; v2: Flat }[],
): ContentDiff[] {
  const diffs: ContentDiff[] = [];
  for (const { v1Field, v2Field } of fieldCorrespondence) {
    if (v2Field === null) continue;
    let compared = 0;
    let differing = 0;
    let example = '';
    for (const p of flatPairs) {
      if (!p.v1.has(v1Field) || !p.v2.has(v2Field)) continue;
      compared += 1;
      const a = p.v1.get(v1Field);
      const b = p.v2.get(v2Field);
      if (!sameValue(a, b)) {
        differing += 1;
        if (example === '') example = `${p.label}: v1 ${show(a)}, v2 ${show(b)}`;
      }
    }
    if (differing > 0)
      diffs.push({
        path: v1Field === v2Field ? v1Field : `${v1Field} → ${v2Field}`,
        change: 'value-differs',
        count: differing,
        of: compared,
        detail: example,
      });
  }
  return diffs;
}

/**
 * Compares the successful payloads of a pair, input by input (`v1Payloads[i]` and `v2Payloads[i]` answered the same
 * input). Keyed pairs pool the records of every input and match them on the key; the others compare position by position.
 */
export function compareContent(v1Payloads: readonly unknown[], v2Payloads: readonly unknown[], norm: PairNormalization): ContentComparison {
  const volatile = norm.volatile ?? [];
  const gathered = gatherRecords(v1Payloads, v2Payloads, norm);
  if (norm.key !== undefined) pairOnKey(norm.key, gathered);
  const flatPairs = gathered.pairs.map((p) => ({ label: p.label, v1: flatten(p.v1, volatile), v2: flatten(p.v2, volatile) }));
  const fieldsOf = (records: readonly Rec[]): string[] => records.flatMap((r) => [...flatten(r, volatile).keys()]);
  const fieldCorrespondence = correspondFields(fieldsOf(gathered.allV1), fieldsOf(gathered.allV2), norm.renames);
  const diffs = [...gathered.diffs, ...valueDiffs(fieldCorrespondence, flatPairs)];
  return { contentDiffs: diffs, fieldCorrespondence, matchedRecords: flatPairs.length };
}
