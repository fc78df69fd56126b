// What the request schemas say about each write body (required, int32, non-empty strings, SKU category, the spec's
// rows) and the valid bodies derived from them: the REQ and CATEGORY cases stand on these facts.
import { describe, expect, test } from 'vitest';
import { OPERATIONS, type RequestBodyName } from '../api/operations.ts';
import { validateRequestBody } from '../api/validation.ts';
import { buildApp } from '../sandbox/app.ts';
import { NoBody, buildValidBody } from './bodies.ts';
import { discoverFixtures, type Fixtures } from '../target/fixtures.ts';
import { DEFAULT_FIELD_MAPPING } from '../api/field-mapping.ts';
import { toGatewayResponse } from '../api/envelope.ts';
import { buildRequest } from '../api/request-builder.ts';
import {
  REQ_RULES,
  bodyFacts,
  categoryCaseIds,
  categoryName,
  categoryOfSkuRule,
  formatRow,
  reqCaseIds,
  reqFields,
  writeOperations,
} from './request-rules.ts';
import { DEFAULT_SETTINGS } from '../target/settings.ts';
import type { CaseContext } from './types.ts';

describe('body facts from the schemas', () => {
  test('the top-up request, as the spec tables it', () => {
    const facts = bodyFacts('topup');
    expect(facts.table).toBe('Top-up request');
    expect(facts.required).toEqual(['skuId', 'amount', 'mobile', 'correlationId']);
    expect(facts.int32).toEqual(['skuId', 'numberOfPlanMonths']);
    expect(facts.nonEmpty).toEqual(['mobile']);
    expect(facts.skuCategory).toBe(2);
    expect(formatRow(facts.rows.skuId!)).toBe('skuId | integer int32 | yes | SKU whose category is RTR');
  });

  test("each write's SKU category comes from the spec's words on skuId", () => {
    const categories = Object.fromEntries(writeOperations().map(({ op, facts }) => [op.requestBody, facts.skuCategory]));
    // The spec's request tables (a body added later brings its own words, checked by its input rule's test above).
    expect(categories).toMatchObject({ topup: 2, pin: 1, billpay: 4, giftcard: 6, 'sim-activation': 5, 'sim-portin': 5, esim: 7 });
    expect(categories['estimated-cost']).toBeUndefined();
    expect(categoryOfSkuRule('SKU whose category is eSIM (from the skus catalog)')).toBe(7);
    expect(categoryOfSkuRule('SKU id')).toBeUndefined();
  });

  test('non-empty strings exclude the length-limited correlationId (LEN covers it); SIM bodies carry zipCode as int32', () => {
    expect(bodyFacts('billpay').nonEmpty).toEqual(['accountNumber']);
    expect(bodyFacts('sim-portin').int32).toEqual(['skuId', 'zipCode', 'numberOfPlanMonths']);
    expect(bodyFacts('esim').nonEmpty).toEqual([]);
  });

  test("each write's input rule (api/operations.ts `inputs`) fills every field its schema requires, names only its fields, takes the SKU category its schema names", () => {
    const problems: string[] = [];
    for (const { op, facts } of writeOperations()) {
      const rule = op.inputs?.body ?? {};
      for (const field of facts.required) if (rule[field] === undefined) problems.push(`${op.id}: required '${field}' has no source`);
      for (const field of Object.keys(rule))
        if (!facts.properties.includes(field)) problems.push(`${op.id}: '${field}' is not a field of the ${facts.table}`);
      const category = op.inputs?.sku?.category;
      const expected = facts.skuCategory === undefined ? 'any' : categoryName(facts.skuCategory);
      if (category !== expected) problems.push(`${op.id}: the rule takes a ${String(category)} SKU, the schema says ${String(expected)}`);
    }
    expect(problems).toEqual([]);
  });

  test('REQ and CATEGORY ids: one per write and rule that has a field to break', () => {
    const writes = OPERATIONS.filter((op) => op.requestBody !== undefined);
    const ids = reqCaseIds();
    expect(new Set(ids).size).toBe(ids.length);
    for (const op of writes) {
      const facts = bodyFacts(op.requestBody as RequestBodyName);
      for (const rule of REQ_RULES)
        expect(ids.includes(`REQ-${rule}-${op.id}`), `REQ-${rule}-${op.id}`).toBe(reqFields(rule, facts).length > 0);
    }
    expect(ids).not.toContain('REQ-CORR-NUMBER-v2.transaction.estimated-cost');
    expect(categoryCaseIds()).toHaveLength(writes.filter((op) => op.requestBody !== 'estimated-cost').length);
  });
});

describe('valid bodies derived from the schemas', () => {
  let fixtures: Promise<Fixtures> | undefined;
  const fx = (): Promise<Fixtures> => {
    fixtures ??= (async () => {
      const app = await buildApp({});
      const connection = { baseUrl: 'http://sandbox', user: 'user', password: 'pass' };
      const read = async (operationId: string, input: Parameters<typeof buildRequest>[1]) => {
        const built = buildRequest(operationId, input, connection);
        const res = await app.fastify.inject({
          method: built.method,
          url: built.url.replace('http://sandbox', ''),
          headers: built.headers,
        });
        return toGatewayResponse({
          operationId,
          httpStatus: res.statusCode,
          bodyText: res.body,
          timedOut: false,
          timings: { startedAt: 0, totalMs: 0 },
        });
      };
      const discovered = await discoverFixtures({ read, mapping: DEFAULT_FIELD_MAPPING, settings: DEFAULT_SETTINGS });
      await app.close();
      return discovered;
    })();
    return fixtures;
  };
  let counter = 0;
  const ctx = {
    settings: DEFAULT_SETTINGS,
    correlationId: () => `rr-${(counter += 1)}`,
    skip: (reason: string) => {
      throw new Error(reason);
    },
  } as unknown as CaseContext;

  test("every write gets a body its schema accepts, with a SKU of the write's category", async () => {
    const discovered = await fx();
    for (const { op, facts } of writeOperations()) {
      const { body, sku } = buildValidBody(ctx, discovered, op);
      expect(validateRequestBody(op.requestBody as RequestBodyName, body), op.id).toEqual({ valid: true });
      if (facts.skuCategory !== undefined) expect(sku.categoryId, op.id).toBe(facts.skuCategory);
    }
  });

  test('every REQ variant of a valid body breaks its schema', async () => {
    const discovered = await fx();
    const breaks: Record<string, (body: Record<string, unknown>, field: string) => unknown> = {
      MISSING: (b, f) => Object.fromEntries(Object.entries(b).filter(([k]) => k !== f)),
      EMPTY: (b, f) => ({ ...b, [f]: '' }),
      'INT32-STRING': (b, f) => ({ ...b, [f]: String(b[f] ?? 1) }),
      'INT32-FRACTION': (b, f) => ({ ...b, [f]: Number(b[f] ?? 1) + 0.5 }),
      'INT32-RANGE': (b, f) => ({ ...b, [f]: Number(b[f] ?? 1) + 2 ** 32 }),
      'CORR-NUMBER': (b, f) => ({ ...b, [f]: 12345 }),
    };
    for (const { op, facts } of writeOperations()) {
      for (const rule of REQ_RULES) {
        for (const field of reqFields(rule, facts)) {
          const body = breaks[rule]!(buildValidBody(ctx, discovered, op).body, field);
          expect(validateRequestBody(op.requestBody as RequestBodyName, body).valid, `${rule} ${field} ${op.id}`).toBe(false);
        }
      }
    }
  });

  test('a catalog without a SKU of the category is a NoBody with the reason, never a made-up body', async () => {
    const discovered = await fx();
    const pin = OPERATIONS.find((op) => op.id === 'v2.transaction.pin')!;
    expect(() => buildValidBody(ctx, discovered, pin, [])).toThrow(NoBody);
  });
});
