// Compares one operation's baseline entry with fresh observations and classifies each difference by the spec's
// Versioning rules: breaking (removed, renamed, retyped, no longer always present, header removed) or non-breaking.
import { categoryIdOf } from '../api/field-mapping.ts';
import type { BaselineEntry } from './baseline-files.ts';
import { sketchOf, sketchSimilarity, typeList, type Accumulator, type InferredSchema, type JsonType } from './infer-schema.ts';
import { childPath, headerPath, itemsPath } from '../api/json-path.ts';

export type FindingKind = 'breaking' | 'non-breaking';

export type ChangeKind =
  | 'operation-gone'
  | 'operation-failing'
  | 'field-removed'
  | 'field-renamed'
  | 'type-changed'
  | 'no-longer-always-present'
  | 'header-removed'
  | 'operation-added'
  | 'field-added'
  | 'header-added'
  | 'new-value'
  | 'format-changed'
  | 'optional-field-not-seen';

export interface DriftFinding {
  readonly operationId: string;
  /** JSON path in the envelope (`$.payLoad[*].countryName`), `headers['name']` for a header, `$` for the operation. */
  readonly path: string;
  readonly kind: FindingKind;
  readonly change: ChangeKind;
  readonly detail: string;
}

const RULE_3 =
  'Non-breaking changes need no new version and are made without prior notice. They are: new endpoints, new optional request fields or headers, new response fields or headers, and data changes (new countries, operators, products, services; changed names, prices, rates, status and error descriptions). Clients must tolerate them.';
const RULE_4 =
  'Breaking changes are: removing or renaming endpoints, adding required request fields or headers, removing or renaming request fields or headers, removing or renaming response fields or headers. They appear only under a new version; testing in the sandbox before moving to a new version is advised.';

/** Every change the check can report, its class, and why (the spec's Versioning rule it follows, or the reasoning). */
export const CHANGES: Readonly<Record<ChangeKind, { readonly kind: FindingKind; readonly why: string }>> = Object.freeze({
  'operation-gone': { kind: 'breaking', why: `Versioning 4: ${RULE_4}` },
  'operation-failing': {
    kind: 'breaking',
    why: 'An operation that answered successfully no longer does for the same kind of input: a client that worked stops working.',
  },
  'field-removed': { kind: 'breaking', why: `Versioning 4: ${RULE_4}` },
  'field-renamed': { kind: 'breaking', why: `Versioning 4: ${RULE_4}` },
  'type-changed': {
    kind: 'breaking',
    why: 'A response field whose JSON type changes breaks every client that reads it: the old field is in effect removed and a new one added under its name (Versioning 4).',
  },
  'no-longer-always-present': {
    kind: 'breaking',
    why: 'A field present in every sample of the baseline is now missing from some answers: clients that read it break where it is missing (Versioning 4, removing response fields).',
  },
  'header-removed': { kind: 'breaking', why: `Versioning 4: ${RULE_4}` },
  'operation-added': { kind: 'non-breaking', why: `Versioning 3: ${RULE_3}` },
  'field-added': { kind: 'non-breaking', why: `Versioning 3: ${RULE_3}` },
  'header-added': { kind: 'non-breaking', why: `Versioning 3: ${RULE_3}` },
  'new-value': {
    kind: 'non-breaking',
    why: `Versioning 3 (data changes: new services): ${RULE_3} Reported because the value is none of the spec's category names, so the harness's field mapping cannot map it to a categoryId.`,
  },
  'format-changed': {
    kind: 'non-breaking',
    why: 'The values of a field no longer all match the format seen in the baseline (date-time, date, uri, email); the JSON type is unchanged, so this is a change of values (Versioning 3, data changes).',
  },
  'optional-field-not-seen': {
    kind: 'non-breaking',
    why: 'A field present in only some baseline samples was not seen now: with sampled data a removal cannot be told from a data change, so it is reported without failing the check.',
  },
});

function finding(operationId: string, path: string, change: ChangeKind, detail: string): DriftFinding {
  return { operationId, path, kind: CHANGES[change].kind, change, detail };
}

/** Non-null JSON kinds of a position; integer counts as number (10 vs 10.5 is a value, not a type). */
export function kindsOf(types: Iterable<JsonType>): Set<JsonType> {
  const out = new Set<JsonType>();
  for (const t of types) {
    if (t === 'null') continue;
    out.add(t === 'integer' ? 'number' : t);
  }
  return out;
}

function schemaTypes(schema: InferredSchema): JsonType[] {
  if (schema.type === undefined) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

const show = (types: Iterable<JsonType>): string => {
  const list = [...types].sort();
  return list.length === 0 ? 'null only' : list.join(' | ');
};

interface WalkContext {
  readonly entry: BaselineEntry;
  readonly out: DriftFinding[];
}

/** How well a fresh member matches a removed baseline member: 0 = not a rename candidate. */
function renameScore(
  ctx: WalkContext,
  oldName: string,
  oldPath: string,
  oldSchema: InferredSchema,
  newName: string,
  fresh: Accumulator,
): number {
  const oldKinds = kindsOf(schemaTypes(oldSchema));
  const newKinds = kindsOf(fresh.types);
  if (show(oldKinds) !== show(newKinds)) return 0;
  if (oldName.toLowerCase() === newName.toLowerCase()) return 3;
  if (oldKinds.has('object') && oldSchema.properties !== undefined) {
    const a = new Set(Object.keys(oldSchema.properties));
    const b = new Set(fresh.props.keys());
    const common = [...a].filter((k) => b.has(k)).length;
    const union = new Set([...a, ...b]).size;
    return union > 0 && common / union >= 0.5 ? 1 + common / union : 0;
  }
  const sketch = ctx.entry.valueSketches[oldPath];
  if (sketch === undefined || fresh.digests.size === 0) return 0;
  const similarity = sketchSimilarity(
    sketch.split(' ').filter((d) => d !== ''),
    sketchOf(fresh.digests),
  );
  return similarity >= 0.5 ? 1 + similarity : 0;
}

/** One object position: the baseline's members and the fresh ones, with the members only one side has. */
interface Members {
  readonly baseProps: Readonly<Record<string, InferredSchema>>;
  /** Present in every baseline sample. */
  readonly required: ReadonlySet<string>;
  readonly fresh: Accumulator;
  readonly path: string;
  /** Only in the baseline. */
  readonly removed: readonly string[];
  /** Only in the fresh answers, sorted. */
  readonly added: readonly string[];
}

type RenameCandidate = { oldKey: string; newKey: string; score: number };

/** The members both sides have: one that was always present must still be, then each is compared in depth. */
function compareKeptMembers(ctx: WalkContext, m: Members): void {
  const { fresh } = m;
  for (const [key, schema] of Object.entries(m.baseProps)) {
    const child = fresh.props.get(key);
    if (child === undefined) continue;
    const childPath_ = childPath(m.path, key);
    if (m.required.has(key) && child.seen < fresh.objects) {
      ctx.out.push(
        finding(
          ctx.entry.operationId,
          childPath_,
          'no-longer-always-present',
          `present in every baseline sample; now missing from ${fresh.objects - child.seen} of ${fresh.objects} objects`,
        ),
      );
    }
    compareNode(ctx, schema, child, childPath_);
  }
}

/** Every (removed, added) pair that could be a rename, best first (ties by the removed member's name). */
function renameCandidates(ctx: WalkContext, m: Members): RenameCandidate[] {
  const candidates: RenameCandidate[] = [];
  for (const oldKey of m.removed) {
    for (const newKey of m.added) {
      const score = renameScore(
        ctx,
        oldKey,
        childPath(m.path, oldKey),
        m.baseProps[oldKey] as InferredSchema,
        newKey,
        m.fresh.props.get(newKey) as Accumulator,
      );
      if (score > 0) candidates.push({ oldKey, newKey, score });
    }
  }
  return candidates.sort((a, b) => b.score - a.score || (a.oldKey < b.oldKey ? -1 : 1));
}

/**
 * A rename is one finding: pairs each removed member with its best-matching added one (same type, similar values),
 * each member in one pair at most, and compares the pair in depth. Returns the members it paired.
 */
function reportRenames(ctx: WalkContext, m: Members): { renamedFrom: Set<string>; renamedTo: Set<string> } {
  const { path } = m;
  const renamedFrom = new Set<string>();
  const renamedTo = new Set<string>();
  for (const c of renameCandidates(ctx, m)) {
    if (renamedFrom.has(c.oldKey) || renamedTo.has(c.newKey)) continue;
    renamedFrom.add(c.oldKey);
    renamedTo.add(c.newKey);
    const oldSchema = m.baseProps[c.oldKey] as InferredSchema;
    ctx.out.push(
      finding(
        ctx.entry.operationId,
        childPath(path, c.oldKey),
        'field-renamed',
        `renamed to '${c.newKey}' (${childPath(path, c.newKey)}): same type ${show(kindsOf(schemaTypes(oldSchema)))}, matching values`,
      ),
    );
    compareNode(ctx, oldSchema, m.fresh.props.get(c.newKey) as Accumulator, childPath(path, c.newKey));
  }
  return { renamedFrom, renamedTo };
}

/** A removed member always present in the baseline is breaking; one seen only sometimes may be a data change. */
function reportRemoved(ctx: WalkContext, m: Members, removed: readonly string[]): void {
  const { fresh } = m;
  for (const key of removed) {
    const p = childPath(m.path, key);
    if (m.required.has(key))
      ctx.out.push(
        finding(
          ctx.entry.operationId,
          p,
          'field-removed',
          `present in every baseline sample; absent from all ${fresh.objects} objects now`,
        ),
      );
    else
      ctx.out.push(
        finding(
          ctx.entry.operationId,
          p,
          'optional-field-not-seen',
          `present in some baseline samples; absent from all ${fresh.objects} objects now`,
        ),
      );
  }
}

function reportAdded(ctx: WalkContext, m: Members, added: readonly string[]): void {
  const { fresh } = m;
  for (const key of added) {
    const child = fresh.props.get(key) as Accumulator;
    const always = child.seen === fresh.objects ? 'in every object' : `in ${child.seen} of ${fresh.objects} objects`;
    ctx.out.push(
      finding(ctx.entry.operationId, childPath(m.path, key), 'field-added', `new field of type ${show(typeList(child.types))}, ${always}`),
    );
  }
}

/** An object's members: kept ones compared in depth, then renames, removals and additions, each a finding. */
function compareMembers(ctx: WalkContext, base: InferredSchema, fresh: Accumulator, path: string): void {
  const baseProps = base.properties ?? {};
  const m: Members = {
    baseProps,
    required: new Set(base.required ?? []),
    fresh,
    path,
    removed: Object.keys(baseProps).filter((k) => !fresh.props.has(k)),
    added: [...fresh.props.keys()].filter((k) => !Object.prototype.hasOwnProperty.call(baseProps, k)).sort(),
  };
  compareKeptMembers(ctx, m);
  const { renamedFrom, renamedTo } = reportRenames(ctx, m);
  reportRemoved(
    ctx,
    m,
    m.removed.filter((key) => !renamedFrom.has(key)),
  );
  reportAdded(
    ctx,
    m,
    m.added.filter((key) => !renamedTo.has(key)),
  );
}

function compareNode(ctx: WalkContext, base: InferredSchema, fresh: Accumulator, path: string): void {
  const { entry, out } = ctx;
  const baseKinds = kindsOf(schemaTypes(base));
  const freshKinds = kindsOf(fresh.types);
  // Only-null on either side tells nothing about the type (nullable where seen null; null is a value).
  if (baseKinds.size > 0 && freshKinds.size > 0) {
    const newKinds = [...freshKinds].filter((k) => !baseKinds.has(k));
    if (newKinds.length > 0) {
      out.push(finding(entry.operationId, path, 'type-changed', `${show(baseKinds)} in the baseline, now ${show(freshKinds)}`));
      return;
    }
  }
  if (base.format !== undefined && fresh.formats !== undefined && !fresh.formats.has(base.format)) {
    out.push(finding(entry.operationId, path, 'format-changed', `every baseline value was ${base.format}; some values now are not`));
  }
  const vocabulary = entry.vocabularies[path];
  if (vocabulary !== undefined && !fresh.valuesOverflow) {
    const known = new Set(vocabulary);
    const unmapped = [...fresh.values.keys()].filter((v) => !known.has(v) && categoryIdOf(v) === undefined).sort();
    if (unmapped.length > 0) {
      out.push(
        finding(
          entry.operationId,
          path,
          'new-value',
          `new value${unmapped.length > 1 ? 's' : ''} ${unmapped
            .slice(0, 5)
            .map((v) => JSON.stringify(v))
            .join(', ')}, none of the spec's category names`,
        ),
      );
    }
  }
  if (baseKinds.has('object') && base.properties !== undefined && fresh.objects > 0) compareMembers(ctx, base, fresh, path);
  if (baseKinds.has('array') && base.items !== undefined && fresh.items !== undefined)
    compareNode(ctx, base.items, fresh.items, itemsPath(path));
}

/** Differences of the successful envelopes' shapes. */
export function compareSchema(entry: BaselineEntry, fresh: Accumulator): DriftFinding[] {
  const out: DriftFinding[] = [];
  compareNode({ entry, out }, entry.schema, fresh, '$');
  return out;
}

/** Differences of the response header names. */
export function compareHeaders(entry: BaselineEntry, headerSets: readonly (readonly string[])[]): DriftFinding[] {
  if (headerSets.length === 0) return [];
  const out: DriftFinding[] = [];
  const seen = new Set(headerSets.flat());
  for (const name of entry.responseHeaders.always) {
    const missing = headerSets.filter((set) => !set.includes(name)).length;
    if (missing === 0) continue;
    const detail = seen.has(name)
      ? `sent on every baseline response; missing from ${missing} of ${headerSets.length} responses now`
      : 'sent on every baseline response; not sent any more';
    out.push(finding(entry.operationId, headerPath(name), 'header-removed', detail));
  }
  const known = new Set([...entry.responseHeaders.always, ...entry.responseHeaders.sometimes]);
  for (const name of [...seen].sort()) {
    if (!known.has(name)) out.push(finding(entry.operationId, headerPath(name), 'header-added', 'new response header'));
  }
  return out;
}
