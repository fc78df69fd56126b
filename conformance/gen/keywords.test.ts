// The schema keyword model of GEN: every keyword of every request schema is judged (a stated rule, or why not), every
// generated break is refused by the schema for exactly its keyword, and the valid values GEN sends pass it.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { validateRequestBody } from '../../api/validation.ts';
import type { RequestBodyName } from '../../api/operations.ts';
import { writeOperations } from '../request-rules.ts';
import { fieldSchemas, type Break } from './arbitraries.ts';
import { bodyKeywords, patternValid } from './keywords.ts';

const NAMES = [...new Set(writeOperations().map(({ facts }) => facts.name))];
/** Keywords of a property that carry no rule of their own (documentation, or part of `type`). */
const NOT_RULES = new Set(['description', 'minimum', 'maximum']);

/** A schema-valid body: each required field at a plain value of its type. */
function validBody(name: RequestBodyName): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const schema = fieldSchemas(name);
  for (const [field, p] of Object.entries(schema)) {
    const type = typeof p.type === 'string' ? p.type : p.type?.[0];
    if (!['skuId', 'amount', 'correlationId', 'mobile', 'accountNumber', 'simNumber', 'zipCode'].includes(field)) continue;
    body[field] = type === 'string' ? 'abc' : 7;
  }
  return body;
}

function apply(body: Record<string, unknown>, broken: Break): Record<string, unknown> {
  const out = { ...body };
  if (broken.kind === 'missing') delete out[broken.field];
  else if (broken.kind === 'over-long' && broken.field === 'correlationId')
    out.correlationId = 'x'.repeat((broken.value as { length: number }).length);
  else out[broken.field] = broken.value;
  return out;
}

describe('GEN keyword model', () => {
  test.each(NAMES)('%s: every schema keyword is a generated rule or said to state nothing', (name) => {
    const { rules, unstated } = bodyKeywords(name);
    for (const [field, p] of Object.entries(fieldSchemas(name))) {
      for (const keyword of Object.keys(p).filter((k) => !NOT_RULES.has(k))) {
        const judged =
          rules.some(
            (r) =>
              r.field === field &&
              (r.keyword === keyword ||
                (keyword === 'type' && r.keyword === 'type') ||
                (keyword === 'minLength' && r.keyword === 'minLength')),
          ) || unstated.some((u) => u.field === field && (u.keyword === keyword || u.keyword.startsWith(`${keyword} `)));
        // An optional string's minLength is never 1 in these schemas; a required one's is REQUIRED's empty break.
        expect(
          judged || (keyword === 'minLength' && !rules.some((r) => r.field === field && r.keyword === 'required')),
          `${name}.${field} ${keyword}`,
        ).toBe(true);
      }
    }
  });

  test.each(NAMES)('%s: every generated break is refused by the schema', (name) => {
    const body = validBody(name);
    expect(validateRequestBody(name, body)).toEqual({ valid: true });
    for (const rule of bodyKeywords(name).rules) {
      for (const broken of fc.sample(rule.breaks(body[rule.field] ?? (rule.field === 'transactionCurrencyCode' ? 'USD' : undefined)), {
        numRuns: 40,
        seed: 7,
      })) {
        expect(validateRequestBody(name, apply(body, broken)).valid, `${name}: ${broken.label}`).toBe(false);
      }
    }
  });

  test('only what the spec states: billpay currency and port-in areaCode limits, no activation areaCode limit, lower case only for estimated cost', () => {
    const lengths = (name: RequestBodyName): string[] =>
      bodyKeywords(name)
        .rules.filter((r) => r.keyword === 'maxLength')
        .map((r) => r.field);
    expect(lengths('billpay')).toEqual(['correlationId', 'transactionCurrencyCode']);
    expect(lengths('sim-portin')).toEqual(['correlationId', 'areaCode']);
    expect(lengths('sim-activation')).toEqual(['correlationId']);
    expect(lengths('topup')).toEqual(['correlationId', 'operatorPin']);
    const upper = bodyKeywords('estimated-cost').rules.find((r) => r.keyword === 'pattern');
    const values = fc
      .sample(upper?.breaks('USD') ?? fc.constant(undefined), { numRuns: 50, seed: 3 })
      .map((b) => (b as Break).value as string);
    expect(values.every((v) => /[a-z]/.test(v) && /^[A-Za-z]{3}$/.test(v))).toBe(true);
    expect(bodyKeywords('estimated-cost').unstated.map((u) => u.keyword)).toEqual(['pattern ^[A-Z]*$']);
    expect(bodyKeywords('topup').unstated.map((u) => `${u.field} ${u.keyword}`)).toEqual(['additionalInfos items']);
  });

  test('the pattern values GEN sends as valid pass the schema', () => {
    const pin = patternValid('topup', 'operatorPin');
    for (const value of fc.sample(pin ?? fc.constant(undefined), { numRuns: 40, seed: 1 })) {
      expect(
        validateRequestBody('topup', { skuId: 1, amount: 1, mobile: '1', correlationId: 'a', operatorPin: value }).valid,
        String(value),
      ).toBe(true);
    }
  });
});
