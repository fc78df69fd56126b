// Every keyword of schemas/<body>-request.schema.json, judged against the spec text its description quotes: the ones that
// encode a stated rule get generated breaks of exactly that keyword; the rest (a stricter pattern class, item shapes) none.
import fc from 'fast-check';
import type { RequestBodyName } from '../../api/operations.ts';
import { INT32_MAX, INT32_MIN, bodyFacts, formatRow } from '../request-rules.ts';
import { ID_CLASSES } from '../correlation-ids.ts';
import { fieldSchemas, type Break, type FieldSchema, type IdShape } from './arbitraries.ts';

/** The GEN case a keyword's breaks belong to (one case per write operation and group). */
export type KeywordGroup = 'LENGTH' | 'REQUIRED' | 'TYPES' | 'PATTERN';
export const KEYWORD_GROUPS: readonly KeywordGroup[] = ['LENGTH', 'REQUIRED', 'TYPES', 'PATTERN'];

export type Keyword = 'maxLength' | 'minLength' | 'required' | 'type' | 'int32' | 'pattern';

/** One schema keyword of one field that encodes a rule the spec states. */
export interface KeywordRule {
  readonly field: string;
  readonly keyword: Keyword;
  readonly group: KeywordGroup;
  /** The spec's words for the rule (the request table row, a Limits line). */
  readonly quote: string;
  /** Breaks of exactly this keyword, given the field's value in the valid body (undefined when the body leaves it out). */
  breaks(valid: unknown): fc.Arbitrary<Break>;
}

/** A schema keyword that encodes no rule the spec states: nothing must be refused for it. */
export interface UnstatedKeyword {
  readonly field: string;
  readonly keyword: string;
  readonly why: string;
}

/** A schema pattern, what the spec states of it, and which characters the spec itself excludes (the only breaks made). */
interface PatternRule {
  readonly stated: string;
  /** Values the spec allows (GEN's valid space for the field). */
  readonly valid: fc.Arbitrary<string | null>;
  /** Breaks of the stated rule from the valid value; undefined when the valid value gives none (then the case skips the input). */
  readonly breaks: (valid: unknown) => fc.Arbitrary<{ value: string; label: string }>;
  /** What the pattern excludes beyond the spec (never generated as a must-refuse). */
  readonly beyondSpec?: string;
}

const digits = (min: number, max: number): fc.Arbitrary<string> => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
/** Characters that are not ASCII digits, by class: letters, symbols, space, digits of other scripts. */
const NON_DIGITS: ReadonlyArray<readonly [string, string]> = [
  ['a lower-case letter', 'abcxyz'],
  ['an upper-case letter', 'ABCXYZ'],
  ['a symbol', '-_.#*+/'],
  ['a space', ' '],
  ['an Arabic-Indic digit', '٠١٢٣٤٥٦٧٨٩'],
  ['a full-width digit', '０１２３４５６７８９'],
];

const PIN_BREAKS = fc.oneof(
  digits(1, 3).map((value) => ({ value, label: `operatorPin "${value}" (${value.length} digit(s), fewer than 4)` })),
  fc
    .record({ pin: digits(4, 6), at: fc.nat(), cls: fc.constantFrom(...NON_DIGITS), pick: fc.nat() })
    .map(({ pin, at, cls: [what, chars], pick }) => {
      const i = at % pin.length;
      const value = pin.slice(0, i) + (chars[pick % chars.length] as string) + pin.slice(i + 1);
      return { value, label: `operatorPin "${value}" (${what} among 4 to 6 characters)` };
    }),
);

/** A non-empty set of the valid code's letters turned lower case. */
function lowerCased(valid: unknown): fc.Arbitrary<{ value: string; label: string }> {
  const code = typeof valid === 'string' && /[A-Z]/.test(valid) ? valid : 'USD';
  const letters = [...code].map((c, i) => (/[A-Z]/.test(c) ? i : -1)).filter((i) => i >= 0);
  return fc.subarray(letters, { minLength: 1 }).map((lower) => {
    const value = [...code].map((c, i) => (lower.includes(i) ? c.toLowerCase() : c)).join('');
    return { value, label: `transactionCurrencyCode "${value}" (${lower.length} of its letters lower case)` };
  });
}

/** Every pattern of the request schemas; a new pattern without an entry breaks nothing (test: conformance/gen/keywords.test.ts). */
export const PATTERN_RULES: Readonly<Record<string, PatternRule>> = {
  '^(|[0-9]{4,6})$': {
    stated: 'operatorPin length 0 to 6 characters (4 to 6 digits when used)',
    valid: fc.oneof(fc.constant(''), fc.constant(null), digits(4, 6)),
    breaks: () => PIN_BREAKS,
  },
  '^[A-Z]*$': {
    stated: 'Destination currency; must be upper case',
    valid: fc.constant(null),
    breaks: lowerCased,
    beyondSpec: 'digits and other non-letters (the pattern excludes them, the spec states only "upper case")',
  },
};

const typesOf = (p: FieldSchema): readonly string[] => (p.type === undefined ? [] : typeof p.type === 'string' ? [p.type] : p.type);
const isInt32 = (p: FieldSchema): boolean => typesOf(p).includes('integer') && p.minimum === INT32_MIN && p.maximum === INT32_MAX;

/** A JSON value of none of the types. */
function wrongTypes(types: readonly string[], valid: unknown): fc.Arbitrary<unknown> {
  const base = valid ?? 1;
  const all: Array<[string, fc.Arbitrary<unknown>]> = [
    ['string', fc.constant(String(base))],
    ['number', fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))],
    ['boolean', fc.boolean()],
    ['array', fc.constant([base])],
    ['object', fc.constant({ value: base })],
  ];
  // An integer field takes no number but a fraction (a whole number is an integer).
  const options = all.filter(([t]) => !types.includes(t) && !(t === 'number' && types.includes('integer'))).map(([, a]) => a);
  if (types.includes('integer')) options.push(fc.integer({ min: -1000, max: 1000 }).map((n) => n + 0.5));
  return fc.oneof(...options);
}

const kindOf = (value: unknown): string =>
  Array.isArray(value) ? 'array' : value === null ? 'null' : Number.isInteger(value) ? 'integer' : typeof value;

/** The string the valid value would be at `length` characters (its own characters repeated, else digits). */
function stretched(valid: unknown, length: number): string {
  const base = typeof valid === 'string' && valid.length > 0 ? valid : '1234567890';
  return base.repeat(Math.ceil(length / base.length) + 1).slice(0, length);
}

/** A stated length limit: the row's type cell ("1..50", "0..6", "max 3") or the Limits line the description quotes. */
const statesMaxLength = (description: string, max: number): boolean => new RegExp(`(\\.\\.|at most |max )${max}\\b`).test(description);

interface FieldFacts {
  readonly field: string;
  readonly schema: FieldSchema;
  readonly quote: string;
  readonly required: boolean;
}

function lengthRules(f: FieldFacts, unstated: UnstatedKeyword[]): KeywordRule[] {
  const { field, schema, quote } = f;
  const max = schema.maxLength;
  if (max === undefined) return [];
  if (!statesMaxLength(schema.description ?? '', max)) {
    unstated.push({ field, keyword: 'maxLength', why: `the spec states no length limit of ${field}` });
    return [];
  }
  const over = fc.integer({ min: 1, max: 200 });
  return [
    {
      field,
      keyword: 'maxLength',
      group: 'LENGTH',
      quote,
      breaks: (valid) =>
        field === 'correlationId'
          ? fc.record({ extra: over, chars: fc.constantFrom(...ID_CLASSES) }).map(({ extra, chars }) => ({
              kind: 'over-long' as const,
              field,
              value: { length: max + extra, chars } satisfies IdShape,
              label: `${field} of ${max + extra} characters (limit ${max})`,
            }))
          : over.map((extra) => ({
              kind: 'over-long' as const,
              field,
              value: stretched(valid, max + extra),
              label: `${field} of ${max + extra} characters (limit ${max})`,
            })),
    },
  ];
}

function requiredRules(f: FieldFacts): KeywordRule[] {
  const { field, schema, quote } = f;
  if (!f.required) return [];
  const types = typesOf(schema);
  const out: KeywordRule[] = [
    {
      field,
      keyword: 'required',
      group: 'REQUIRED',
      quote,
      breaks: () => fc.constant({ kind: 'missing' as const, field, label: `${field} missing` }),
    },
  ];
  if (!types.includes('null'))
    out.push({
      field,
      keyword: 'type',
      group: 'REQUIRED',
      quote,
      breaks: () => fc.constant({ kind: 'null' as const, field, value: null, label: `${field} null` }),
    });
  if (types.length === 1 && types[0] === 'string' && (schema.minLength ?? 0) >= 1) {
    out.push({
      field,
      keyword: 'minLength',
      group: 'REQUIRED',
      quote,
      breaks: () => fc.constant({ kind: 'empty' as const, field, value: '', label: `${field} empty` }),
    });
  }
  return out;
}

function typeRules(f: FieldFacts): KeywordRule[] {
  const { field, schema, quote } = f;
  const types = typesOf(schema);
  if (types.length === 0) return [];
  const out: KeywordRule[] = [
    {
      field,
      keyword: 'type',
      group: 'TYPES',
      quote,
      breaks: (valid) =>
        wrongTypes(types, valid).map((value) => ({
          kind: 'wrong-type' as const,
          field,
          value,
          label: `${field} as ${JSON.stringify(value)} (${kindOf(value)}, not ${types.join('/')})`,
        })),
    },
  ];
  if (isInt32(schema)) {
    out.push({
      field,
      keyword: 'int32',
      group: 'TYPES',
      quote,
      breaks: () =>
        fc
          .oneof(
            fc.integer({ min: 1, max: 2 ** 40 }).map((d) => INT32_MAX + d),
            fc.integer({ min: 1, max: 2 ** 40 }).map((d) => INT32_MIN - d),
          )
          .map((value) => ({ kind: 'int32-overflow' as const, field, value, label: `${field} ${value} (outside int32)` })),
    });
  }
  return out;
}

function patternRules(f: FieldFacts, unstated: UnstatedKeyword[]): KeywordRule[] {
  const { field, schema } = f;
  if (schema.pattern === undefined) return [];
  const rule = PATTERN_RULES[schema.pattern];
  if (rule === undefined) {
    unstated.push({
      field,
      keyword: `pattern ${schema.pattern}`,
      why: 'no stated rule is known for this pattern: nothing is generated from it',
    });
    return [];
  }
  if (rule.beyondSpec !== undefined)
    unstated.push({ field, keyword: `pattern ${schema.pattern}`, why: `only what the spec states is broken; not ${rule.beyondSpec}` });
  return [
    {
      field,
      keyword: 'pattern',
      group: 'PATTERN',
      quote: `${f.quote} (${rule.stated})`,
      breaks: (valid) => rule.breaks(valid).map(({ value, label }) => ({ kind: 'pattern' as const, field, value, label })),
    },
  ];
}

/** The valid values a pattern allows for a field (GEN's valid space), when the field has a stated pattern. */
export function patternValid(name: RequestBodyName, field: string): fc.Arbitrary<string | null> | undefined {
  const pattern = fieldSchemas(name)[field]?.pattern;
  return pattern === undefined ? undefined : PATTERN_RULES[pattern]?.valid;
}

/**
 * The row of a field whose description paraphrases the spec: additionalInfos (`Spec: "array or null", optional; …`) and
 * the port-in fields ("plus these optional string-or-null fields": `Spec: optional string-or-null port-in field; …`).
 */
function paraphrasedRow(field: string, description: string): string | undefined {
  const cells = /^Spec: "([^"]*)", (required|optional)/.exec(description);
  if (cells !== null) return `${field} | ${cells[1] ?? ''} | ${cells[2] === 'required' ? 'yes' : 'no'}`;
  const portin = /^Spec: optional string-or-null port-in field; "([^"]*)"/.exec(description);
  return portin === null ? undefined : `SIM port-in request: … plus these optional string-or-null fields: ${field} | ${portin[1] ?? ''}`;
}

export interface BodyKeywords {
  readonly rules: readonly KeywordRule[];
  readonly unstated: readonly UnstatedKeyword[];
}

const cache = new Map<RequestBodyName, BodyKeywords>();

/** The keyword rules of one request body, in schema order; and the keywords that state nothing. */
export function bodyKeywords(name: RequestBodyName): BodyKeywords {
  const hit = cache.get(name);
  if (hit !== undefined) return hit;
  const facts = bodyFacts(name);
  const rules: KeywordRule[] = [];
  const unstated: UnstatedKeyword[] = [];
  for (const [field, schema] of Object.entries(fieldSchemas(name))) {
    const row = facts.rows[field];
    // A row whose Rules cell the description paraphrases (additionalInfos) still quotes its Type cell.
    const quote = row === undefined ? paraphrasedRow(field, schema.description ?? '') : formatRow(row);
    if (quote === undefined) {
      unstated.push({ field, keyword: 'all', why: 'the schema description quotes no spec row' });
      continue;
    }
    const f: FieldFacts = { field, schema, quote, required: facts.required.includes(field) };
    rules.push(...lengthRules(f, unstated), ...requiredRules(f), ...typeRules(f), ...patternRules(f, unstated));
    if (schema.items !== undefined)
      unstated.push({ field, keyword: 'items', why: 'AdditionalInfo: "Member names of the element: not shown"' });
  }
  const out = { rules, unstated };
  cache.set(name, out);
  return out;
}

/** The rules of one group (empty: the body has no keyword of that group). */
export const rulesOf = (name: RequestBodyName, group: KeywordGroup): KeywordRule[] =>
  bodyKeywords(name).rules.filter((r) => r.group === group);
