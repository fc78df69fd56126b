// Valid write bodies derived from the request schemas: the required fields of the operation's body, each filled from
// the target's catalog or the settings by field name, with a SKU of the category the schema names. No table per operation.
import type { Operation, RequestBodyName } from '../api/operations.ts';
import { SANDBOX_LOOKUP_COUNTRIES, isRange, validAmount } from '../api/catalog-facts.ts';
import type { Fixtures, SkuFixture } from './fixtures.ts';
import { bodyFacts, categoryName, type BodyFacts } from './request-rules.ts';
import type { CaseContext } from './types.ts';

/** Why a body could not be built (the case skips with it). */
export class NoBody extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'NoBody';
  }
}

interface FieldContext {
  readonly ctx: CaseContext;
  readonly fx: Fixtures;
  readonly sku: SkuFixture;
  readonly facts: BodyFacts;
}

/**
 * Where the value of a required field comes from, by field name (the schemas share names across bodies). A new body
 * whose required fields are all named here needs nothing else; a new name is one line here.
 */
const FIELD_VALUES: Readonly<Record<string, (f: FieldContext) => Record<string, unknown> | undefined>> = {
  skuId: ({ sku }) => ({ skuId: sku.skuId }),
  // The amount comes with the currency it is expressed in, when that is the SKU's face value currency.
  amount: ({ sku, facts }) => {
    const amount = validAmount(sku);
    if (amount === undefined) return undefined;
    const withCurrency = amount.transactionCurrencyCode !== undefined && facts.properties.includes('transactionCurrencyCode');
    if (amount.transactionCurrencyCode !== undefined && !withCurrency) return undefined;
    return withCurrency ? { amount: amount.amount, transactionCurrencyCode: amount.transactionCurrencyCode } : { amount: amount.amount };
  },
  mobile: ({ fx, sku }) => {
    const mobile = sku.countryCode === undefined ? undefined : fx.mobile(sku.countryCode);
    return mobile === undefined ? undefined : { mobile };
  },
  correlationId: ({ ctx }) => ({ correlationId: ctx.correlationId() }),
  accountNumber: ({ ctx }) => ({ accountNumber: ctx.settings.billpayAccountNumber }),
  simNumber: ({ ctx }) => ({ simNumber: ctx.settings.simNumber }),
  zipCode: ({ ctx }) => ({ zipCode: ctx.settings.zipCode }),
};

/** The SKUs a body of this operation may use: its category's (gift cards from the gift card list), any SKU otherwise. */
export function skusFor(fx: Fixtures, facts: BodyFacts): readonly SkuFixture[] {
  if (facts.skuCategory === undefined) return fx.skus;
  const name = categoryName(facts.skuCategory);
  if (name === 'Gift Card') return fx.giftcards;
  return name === undefined ? [] : fx.skusOf(name);
}

/**
 * Candidates in a stable order: numbers of the four lookup countries first (Jamaica first: the spec's own example),
 * open-range denominations first, then by skuId; SKUs whose amount bounds are readable before the others.
 */
function ordered(skus: readonly SkuFixture[]): SkuFixture[] {
  const countryRank = (s: SkuFixture): number => {
    const i = (SANDBOX_LOOKUP_COUNTRIES as readonly string[]).indexOf(s.countryCode ?? '');
    return i === -1 ? SANDBOX_LOOKUP_COUNTRIES.length : i;
  };
  return [...skus].sort(
    (a, b) =>
      Number(validAmount(b) !== undefined) - Number(validAmount(a) !== undefined) ||
      countryRank(a) - countryRank(b) ||
      Number(isRange(b)) - Number(isRange(a)) ||
      a.skuId - b.skuId,
  );
}

/** The body's required fields for this SKU, or undefined when one of them cannot be filled. */
export function bodyForSku(ctx: CaseContext, fx: Fixtures, facts: BodyFacts, sku: SkuFixture): Record<string, unknown> | undefined {
  const body: Record<string, unknown> = {};
  for (const field of facts.required) {
    const source = FIELD_VALUES[field];
    if (source === undefined) throw new NoBody(`no value source for the required field '${field}' of the ${facts.table} (conformance/bodies.ts)`);
    const values = source({ ctx, fx, sku, facts });
    if (values === undefined) return undefined;
    Object.assign(body, values);
  }
  return body;
}

/** A valid body of the operation (required fields only) and the SKU it uses. */
export function buildValidBody(
  ctx: CaseContext,
  fx: Fixtures,
  op: Operation,
  skus?: readonly SkuFixture[],
): { body: Record<string, unknown>; sku: SkuFixture } {
  const facts = bodyFacts(op.requestBody as RequestBodyName);
  const candidates = ordered(skus ?? skusFor(fx, facts));
  for (const sku of candidates) {
    const body = bodyForSku(ctx, fx, facts, sku);
    if (body !== undefined) return { body, sku };
  }
  const what = facts.skuCategory === undefined ? 'SKU' : `${categoryName(facts.skuCategory) ?? facts.skuCategory} SKU`;
  throw new NoBody(`the catalog has no ${what} for which every required field of the ${facts.table} can be filled (${facts.required.join(', ')})`);
}
