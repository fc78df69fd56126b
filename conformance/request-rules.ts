// What the request schemas say about each write body — required fields, int32 fields, non-empty strings, the SKU
// category a write takes — read from schemas/<body>-request.schema.json, so REQ/CATEGORY cases need no hand-written table.
import { readFileSync } from 'node:fs';
import { categoryIdOf } from '../api/field-mapping.ts';
import { CATEGORY_IDS, OPERATIONS, type CategoryName, type Operation, type RequestBodyName } from '../api/operations.ts';

export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;

interface SchemaProperty {
  readonly type?: string | readonly string[];
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly description?: string;
}

interface RequestSchema {
  readonly description?: string;
  readonly required?: readonly string[];
  readonly properties?: Readonly<Record<string, SchemaProperty>>;
}

/** One row of the spec's request table, rebuilt from the schema's description (which quotes the spec's cells). */
export interface SpecRow {
  readonly field: string;
  /** The spec's Type cell, e.g. "integer int32", "string, non-empty". */
  readonly type: string;
  readonly required: boolean;
  /** The spec's Rules cell, e.g. "SKU whose category is RTR". */
  readonly rule: string;
}

export interface BodyFacts {
  readonly name: RequestBodyName;
  /** The spec's table name, e.g. "Top-up request". */
  readonly table: string;
  readonly required: readonly string[];
  /** Every integer field bounded to int32 (required or optional). */
  readonly int32: readonly string[];
  /** Required strings with a minimum length and no maximum (correlationId's bounds are LEN's). */
  readonly nonEmpty: readonly string[];
  readonly properties: readonly string[];
  /** Category id the write's SKU must have ("SKU whose category is RTR" → 2); undefined when any SKU is allowed. */
  readonly skuCategory?: number;
  /** The spec's words on the SKU ("SKU whose category is RTR"), when it names a category. */
  readonly skuRule?: string;
  readonly rows: Readonly<Record<string, SpecRow>>;
}

const SPEC_CELLS = /^Spec: "([^"]*)", (required|optional); "([^"]*)"/;

function schemaOf(name: RequestBodyName): RequestSchema {
  const url = new URL(`../schemas/${name}-request.schema.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as RequestSchema;
}

const types = (p: SchemaProperty): readonly string[] => (p.type === undefined ? [] : typeof p.type === 'string' ? [p.type] : p.type);

/** "SKU whose category is RTR" → Rtr (2); "SKU of a gift card product" → Gift Card (6); "SKU id" → undefined. */
export function categoryOfSkuRule(rule: string): number | undefined {
  const named = /category is ([A-Za-z ]+?)(?:\s*\(|$)/.exec(rule);
  if (named !== null) return categoryIdOf(named[1] as string);
  if (/gift card/i.test(rule)) return CATEGORY_IDS['Gift Card'];
  return undefined;
}

function deriveFacts(name: RequestBodyName): BodyFacts {
  const schema = schemaOf(name);
  const properties = schema.properties ?? {};
  const required = [...(schema.required ?? [])];
  const rows: Record<string, SpecRow> = {};
  for (const [field, prop] of Object.entries(properties)) {
    const cells = SPEC_CELLS.exec(prop.description ?? '');
    if (cells !== null) rows[field] = { field, type: cells[1] as string, required: cells[2] === 'required', rule: cells[3] as string };
  }
  const int32 = Object.entries(properties)
    .filter(([, p]) => types(p).includes('integer') && p.minimum === INT32_MIN && p.maximum === INT32_MAX)
    .map(([field]) => field);
  const nonEmpty = required.filter((field) => {
    const p = properties[field];
    return p !== undefined && types(p).length === 1 && types(p)[0] === 'string' && (p.minLength ?? 0) >= 1 && p.maxLength === undefined;
  });
  const skuRule = rows.skuId?.rule;
  const skuCategory = skuRule === undefined ? undefined : categoryOfSkuRule(skuRule);
  const table = /Request objects \/ (.+?)\)\./.exec(schema.description ?? '')?.[1] ?? `${name} request`;
  return {
    name,
    table,
    required,
    int32,
    nonEmpty,
    properties: Object.keys(properties),
    ...(skuCategory === undefined ? {} : { skuCategory, skuRule }),
    rows,
  };
}

const cache = new Map<RequestBodyName, BodyFacts>();

export function bodyFacts(name: RequestBodyName): BodyFacts {
  let facts = cache.get(name);
  if (facts === undefined) {
    facts = deriveFacts(name);
    cache.set(name, facts);
  }
  return facts;
}

/** The catalog's write operations with their body facts, in catalog order. */
export function writeOperations(): Array<{ op: Operation; facts: BodyFacts }> {
  return OPERATIONS.filter((op) => op.requestBody !== undefined).map((op) => ({ op, facts: bodyFacts(op.requestBody as RequestBodyName) }));
}

/** The spec row as the table prints it: `skuId | integer int32 | yes | SKU whose category is RTR`. */
export function formatRow(row: SpecRow): string {
  return `${row.field} | ${row.type} | ${row.required ? 'yes' : 'no'} | ${row.rule}`;
}

export function categoryName(id: number): CategoryName | undefined {
  return (Object.entries(CATEGORY_IDS) as [CategoryName, number][]).find(([, v]) => v === id)?.[0];
}

// ---------------------------------------------------------------------------------------------------------------
// The REQ rules: one case per (write operation, rule) that has at least one field to break.

export type ReqRule = 'MISSING' | 'EMPTY' | 'INT32-STRING' | 'INT32-FRACTION' | 'INT32-RANGE' | 'CORR-NUMBER';

export const REQ_RULES: readonly ReqRule[] = ['MISSING', 'EMPTY', 'INT32-STRING', 'INT32-FRACTION', 'INT32-RANGE', 'CORR-NUMBER'];

/** The fields a REQ rule breaks in one body (one request per field). */
export function reqFields(rule: ReqRule, facts: BodyFacts): readonly string[] {
  switch (rule) {
    case 'MISSING':
      return facts.required;
    case 'EMPTY':
      return facts.nonEmpty;
    case 'INT32-STRING':
    case 'INT32-FRACTION':
    case 'INT32-RANGE':
      return facts.int32;
    case 'CORR-NUMBER':
      return facts.properties.includes('correlationId') ? ['correlationId'] : [];
  }
}

export const reqCaseId = (rule: ReqRule, op: Operation): string => `REQ-${rule}-${op.id}`;

/** Every REQ case id of the plan (planted-bug profiles declare them through this, not by hand). */
export function reqCaseIds(filter: (rule: ReqRule, op: Operation) => boolean = () => true): string[] {
  return writeOperations().flatMap(({ op, facts }) =>
    REQ_RULES.filter((rule) => reqFields(rule, facts).length > 0 && filter(rule, op)).map((rule) => reqCaseId(rule, op)),
  );
}

export const categoryCaseId = (op: Operation): string => `CATEGORY-${op.id}`;

/** Every CATEGORY case id: the writes whose SKU must be of one category. */
export function categoryCaseIds(filter: (op: Operation) => boolean = () => true): string[] {
  return writeOperations()
    .filter(({ op, facts }) => facts.skuCategory !== undefined && filter(op))
    .map(({ op }) => categoryCaseId(op));
}
