// The run's one id maker (every case, hand-written and GEN, draws from it) and the fresh-id check for short ids.
import { describe, expect, test } from 'vitest';
import { ID_CLASSES, IdsExhausted, RunCorrelationIds } from './correlation-ids.ts';
import { FRESH_CHECK_BELOW, freshCorrelationId } from './fresh-id.ts';
import type { CaseContext, Exchange } from './types.ts';

const PATTERN = {
  alnum: /^[A-Za-z0-9]+$/,
  digits: /^[0-9]+$/,
  upper: /^[A-Z]+$/,
  lower: /^[a-z]+$/,
  symbols: /^[A-Za-z0-9_-]*[-_][A-Za-z0-9_-]*$/,
};

describe('RunCorrelationIds', () => {
  test('an id of every class and length keeps its class and length', () => {
    const ids = new RunCorrelationIds();
    for (const chars of ID_CLASSES) {
      for (const length of [2, 9, 12, 36, 50]) {
        const id = ids.next(length, chars);
        expect(id).toHaveLength(length);
        expect(id).toMatch(PATTERN[chars]);
      }
    }
  });

  test('never hands out the same id twice across classes (a one-character upper id is also an alnum one)', () => {
    const ids = new RunCorrelationIds();
    const seen = new Set<string>();
    for (let i = 0; i < 26; i++) seen.add(ids.next(1, 'upper'));
    for (let i = 0; i < 36; i++) seen.add(ids.next(1, 'alnum'));
    expect(seen.size).toBe(62);
    expect(() => ids.next(1, 'alnum')).toThrow(IdsExhausted);
    expect(() => ids.next(1, 'digits')).toThrow(IdsExhausted);
  });
});

/** A context whose status endpoint knows `known` as successful transactions and nothing else. */
function contextKnowing(
  known: (id: string) => boolean,
  ids = new RunCorrelationIds(),
): { ctx: Pick<CaseContext, 'correlationId' | 'call'>; asked: string[] } {
  const asked: string[] = [];
  const ctx: Pick<CaseContext, 'correlationId' | 'call'> = {
    correlationId: (length = 36, chars) => ids.next(length, chars),
    call: async (_op, input) => {
      const id = String(input.path?.correlationId);
      asked.push(id);
      const outcome = known(id) ? 'Successful' : 'Failed';
      return { response: { classification: { outcome } } } as unknown as Exchange;
    },
  };
  return { ctx, asked };
}

describe('freshCorrelationId', () => {
  test('a short id the target already knows as a success is not used: another is drawn', async () => {
    const { ctx, asked } = contextKnowing((id) => id !== asked[2]);
    const id = await freshCorrelationId(ctx, 'v2', 3, 'lower');
    expect(asked).toHaveLength(3);
    expect(id).toBe(asked[2]);
  });

  test('gives up (IdsExhausted) when every id it draws is known', async () => {
    const { ctx } = contextKnowing(() => true);
    await expect(freshCorrelationId(ctx, 'v2', 4)).rejects.toBeInstanceOf(IdsExhausted);
  });

  test('long ids are not asked about', async () => {
    const { ctx, asked } = contextKnowing(() => true);
    expect(await freshCorrelationId(ctx, 'v2', FRESH_CHECK_BELOW)).toHaveLength(FRESH_CHECK_BELOW);
    expect(asked).toEqual([]);
  });
});
