// CATEGORY: each write takes SKUs of one category ("SKU whose category is RTR / PIN / billpay / Sim / eSIM", gift
// card: "SKU of a gift card product"). A body otherwise valid but with a SKU of every other category → refused, nothing charged.
import { CATEGORY_IDS, type CategoryName, type Operation } from '../../api/operations.ts';
import { NoBody, buildValidBody } from '../bodies.ts';
import type { Fixtures, SkuFixture } from '../../target/fixtures.ts';
import { categoryCaseId, categoryName, formatRow, writeOperations, type BodyFacts } from '../request-rules.ts';
import type { ConformanceCase } from '../types.ts';
import { ASSUMED, SECTION } from './common.ts';
import { expectAllRefused, type Attempt } from './len.ts';

const PER_OPERATION: Readonly<Record<string, string>> = {
  'transaction.topup': 'Top-up: the SKU must be of category RTR.',
};

function skusOfCategory(fx: Fixtures, name: CategoryName): readonly SkuFixture[] {
  return name === 'Gift Card' ? fx.giftcards : fx.skusOf(name);
}

function categoryCase(op: Operation, facts: BodyFacts): ConformanceCase {
  const own = facts.skuCategory as number;
  const ownName = categoryName(own) ?? String(own);
  const others = (Object.keys(CATEGORY_IDS) as CategoryName[]).filter((name) => CATEGORY_IDS[name] !== own);
  const row = facts.rows.skuId;
  return {
    kind: 'scenario',
    id: categoryCaseId(op),
    group: 'CATEGORY',
    title: `${op.method} ${op.path} with a SKU of another category than ${ownName} (each in turn) is refused, nothing charged`,
    specSection: `${SECTION.requests} (${facts.table}); ${SECTION.writes}`,
    rule: `${facts.table}: ${row === undefined ? (facts.skuRule ?? '') : formatRow(row)}${PER_OPERATION[op.purpose] === undefined ? '' : ` (${PER_OPERATION[op.purpose]})`}`,
    api: op.version,
    exclusive: true,
    assumed: [ASSUMED.skuFields, ...(op.pathAssumed ? [ASSUMED.writePath(op)] : [])],
    async scenario(ctx) {
      const fx = await ctx.fixtures();
      const attempts: Attempt[] = [];
      const missing: string[] = [];
      for (const name of others) {
        try {
          // Everything else valid for that SKU (its amount bounds, a number of its country): only the category is wrong.
          const { body, sku } = buildValidBody(ctx, fx, op, skusOfCategory(fx, name));
          attempts.push({ label: `${name} SKU ${sku.skuId}`, body });
        } catch (error) {
          if (!(error instanceof NoBody)) throw error;
          missing.push(name);
        }
      }
      if (missing.length > 0) ctx.note(`no usable SKU of ${missing.join(', ')} on this target`);
      if (attempts.length === 0) ctx.skip(`the catalog has no SKU of another category than ${ownName} that fits the ${facts.table}`);
      await expectAllRefused(ctx, op.version, op.id, attempts);
    },
  };
}

export const CATEGORY_CASES: readonly ConformanceCase[] = writeOperations()
  .filter(({ facts }) => facts.skuCategory !== undefined)
  .map(({ op, facts }) => categoryCase(op, facts));
