// Valid write bodies for conformance: built from the operation's input rule (its catalog entry's `inputs`, read by
// api/inputs.ts) against the discovered catalog, with a SKU of the rule's category. No table per operation here.
import { buildInput, isNoInput } from '../api/inputs.ts';
import { OPERATIONS, type Operation, type RequestBodyName } from '../api/operations.ts';
import { fixturesWorld, type Fixtures, type SkuFixture } from '../target/fixtures.ts';
import { categoryName, type BodyFacts } from './request-rules.ts';
import type { CaseContext } from './types.ts';

/** Why a body could not be built (the case skips with it). */
export class NoBody extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'NoBody';
  }
}

/** The SKUs a body of this operation may use: its category's (gift cards from the gift card list), any SKU otherwise. */
export function skusFor(fx: Fixtures, facts: BodyFacts): readonly SkuFixture[] {
  if (facts.skuCategory === undefined) return fx.skus;
  const name = categoryName(facts.skuCategory);
  if (name === 'Gift Card') return fx.giftcards;
  return name === undefined ? [] : fx.skusOf(name);
}

/** The write that takes this body (v1 and v2 share each body's input rule). */
function writeOf(name: RequestBodyName): Operation {
  const op = OPERATIONS.find((o) => o.requestBody === name);
  if (op === undefined) throw new NoBody(`no catalog write takes the ${name} body`);
  return op;
}

/** A valid body for this SKU (the rule's fields), or undefined when one of them cannot be filled from it. */
export function bodyForSku(ctx: CaseContext, fx: Fixtures, facts: BodyFacts, sku: SkuFixture): Record<string, unknown> | undefined {
  const world = fixturesWorld(fx, ctx.settings, ctx.mapping, () => ctx.correlationId());
  const built = buildInput(writeOf(facts.name), world, { skus: world.inputSkus([sku]) });
  return isNoInput(built) ? undefined : (built.input.body as Record<string, unknown>);
}

/** A valid body of the operation (api/inputs.ts) and the SKU it uses; `skus` replaces the rule's candidates. */
export function buildValidBody(
  ctx: CaseContext,
  fx: Fixtures,
  op: Operation,
  skus?: readonly SkuFixture[],
): { body: Record<string, unknown>; sku: SkuFixture } {
  const world = fixturesWorld(fx, ctx.settings, ctx.mapping, () => ctx.correlationId());
  const built = buildInput(op, world, skus === undefined ? {} : { skus: world.inputSkus(skus) });
  if (isNoInput(built)) throw new NoBody(built.unavailable);
  const sku = built.sku === undefined ? undefined : world.fixtureOf(built.sku);
  if (sku === undefined) throw new NoBody(`the input rule of ${op.id} names no SKU`);
  return { body: built.input.body as Record<string, unknown>, sku };
}
