// REQ: the request tables of the spec, derived from the request schemas. For every write: each required field missing,
// each non-empty string empty, each int32 field as a string / a fraction / beyond int32, correlationId as a number →
// refused and nothing charged. Over-limit lengths are LEN's. A new write operation gets its cases from its schema.
import type { ApiVersion, Operation } from '../../api/operations.ts';
import { NoBody, buildValidBody } from '../bodies.ts';
import { REQ_RULES, formatRow, reqCaseId, reqFields, writeOperations, type BodyFacts, type ReqRule } from '../request-rules.ts';
import type { CaseContext, ConformanceCase } from '../types.ts';
import { ASSUMED, SECTION } from './common.ts';
import { expectAllRefused, type Attempt } from './len.ts';

const TWO_POW_32 = 4_294_967_296;

interface RuleSpec {
  readonly title: (fields: readonly string[]) => string;
  /** What the spec's table says that this rule breaks (the column quoted). */
  readonly column: string;
  /** The broken value of `field`, given the valid body. */
  readonly breakField: (ctx: CaseContext, body: Record<string, unknown>, field: string) => Record<string, unknown>;
  readonly label: (field: string, body: Record<string, unknown>) => string;
}

const validInt = (body: Record<string, unknown>, field: string): number => (typeof body[field] === 'number' ? (body[field] as number) : 1);

/** A numeric correlationId no run repeats (15 digits, below 2^53). */
function numericCorrelationId(): number {
  return Number(`${Date.now()}${Math.floor(10 + Math.random() * 90)}`);
}

const RULES: Readonly<Record<ReqRule, RuleSpec>> = {
  MISSING: {
    title: (f) => `without ${f.join(' / ')} (each in turn)`,
    column: 'Required: yes',
    breakField: (_ctx, body, field) => {
      const copy = { ...body };
      delete copy[field];
      return copy;
    },
    label: (field) => `${field} missing`,
  },
  EMPTY: {
    title: (f) => `with ${f.join(' / ')} empty (each in turn)`,
    column: 'Type: string, non-empty',
    breakField: (_ctx, body, field) => ({ ...body, [field]: '' }),
    label: (field) => `${field} ""`,
  },
  'INT32-STRING': {
    title: (f) => `with ${f.join(' / ')} as a string of digits (each in turn)`,
    column: 'Type: integer int32',
    breakField: (_ctx, body, field) => ({ ...body, [field]: String(validInt(body, field)) }),
    label: (field, body) => `${field} ${JSON.stringify(String(validInt(body, field)))}`,
  },
  'INT32-FRACTION': {
    title: (f) => `with ${f.join(' / ')} as a fraction (each in turn)`,
    column: 'Type: integer int32',
    breakField: (_ctx, body, field) => ({ ...body, [field]: validInt(body, field) + 0.5 }),
    label: (field, body) => `${field} ${validInt(body, field) + 0.5}`,
  },
  'INT32-RANGE': {
    // The valid value + 2^32: beyond int32, and the valid value again once cut to 32 bits (the classic overflow).
    title: (f) => `with ${f.join(' / ')} beyond int32 (each in turn)`,
    column: 'Type: integer int32',
    breakField: (_ctx, body, field) => ({ ...body, [field]: validInt(body, field) + TWO_POW_32 }),
    label: (field, body) => `${field} ${validInt(body, field) + TWO_POW_32}`,
  },
  'CORR-NUMBER': {
    title: () => 'with correlationId as a JSON number',
    column: 'Type: string',
    breakField: (_ctx, body, field) => ({ ...body, [field]: numericCorrelationId() }),
    label: (field) => `${field} as a number`,
  },
};

function ruleText(facts: BodyFacts, rule: ReqRule, fields: readonly string[]): string {
  const rows = fields.map((f) => facts.rows[f]).filter((r) => r !== undefined);
  return `${facts.table} (${RULES[rule].column}): ${rows.map(formatRow).join('; ')}`;
}

function reqCase(op: Operation, facts: BodyFacts, rule: ReqRule): ConformanceCase {
  const fields = reqFields(rule, facts);
  const spec = RULES[rule];
  const version: ApiVersion = op.version;
  return {
    kind: 'scenario',
    id: reqCaseId(rule, op),
    group: 'REQ',
    title: `${op.method} ${op.path} ${spec.title(fields)} is refused, nothing charged`,
    specSection: `${SECTION.requests} (${facts.table})`,
    rule: ruleText(facts, rule, fields),
    api: version,
    exclusive: true,
    assumed: [ASSUMED.skuFields, ...(op.pathAssumed ? [ASSUMED.writePath(op)] : [])],
    async scenario(ctx) {
      const fx = await ctx.fixtures();
      const attempts: Attempt[] = [];
      for (const field of fields) {
        let body: Record<string, unknown>;
        try {
          // A fresh valid body per attempt: its own correlationId, so no attempt is refused as a duplicate.
          body = buildValidBody(ctx, fx, op).body;
        } catch (error) {
          if (error instanceof NoBody) return ctx.skip(error.reason);
          throw error;
        }
        attempts.push({ label: spec.label(field, body), body: spec.breakField(ctx, body, field) });
      }
      await expectAllRefused(ctx, version, op.id, attempts);
    },
  };
}

export const REQ_CASES: readonly ConformanceCase[] = writeOperations().flatMap(({ op, facts }) =>
  REQ_RULES.filter((rule) => reqFields(rule, facts).length > 0).map((rule) => reqCase(op, facts, rule)),
);
