// Made-up operations added through exactly the files of ARCHITECTURE.md's recipe (catalog entry with its input rule,
// request schema, sandbox handler, and the pin), as edits a test applies to a copy of the tree to prove the recipe true.
import { applyEdits, TOPUP_BODY_FIELDS, type MadeUp, type RecipeEdit } from './edits.ts';
import { MADE_UP_CHARGING } from './made-up-charging-write.ts';

/** The made-up operation: a quote for a top-up (v2, never charged), with an RTR SKU, an amount and a number. */
export const MADE_UP = Object.freeze({
  id: 'v2.transaction.topup-quote',
  path: '/api/v2/transaction/topup-quote',
  body: 'topup-quote',
});

const SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://gateway-harness.dev/schemas/topup-quote-request.schema.json',
  title: 'TopupQuoteRequest',
  description:
    'Body of the made-up top-up quote operation (spec: Resources and their fields / Request objects / Top-up quote request). Made up to prove the recipe.',
  type: 'object',
  required: ['skuId', 'amount', 'mobile'],
  properties: {
    ...TOPUP_BODY_FIELDS,
    transactionCurrencyCode: {
      description: 'Spec: "string or null", optional; "One of the SKU\'s FaceValueCurrency".',
      type: ['string', 'null'],
      pattern: '^[A-Z]*$',
    },
  },
};

const HANDLER = `
// Made-up top-up quote (recipe proof): an RTR SKU, an amount its bounds accept, a number of its country; never charged.
function quoteTopup(ctx: RouteContext): RouteReply {
  const valid = validBody<{ skuId: number; amount: number; mobile: string; transactionCurrencyCode?: string | null }>(ctx);
  if (isReply(valid)) return valid;
  const body = valid.body;
  const found = resolveSku(ctx, body.skuId, ofCategory('Rtr'), 'an RTR SKU');
  if (isRefusal(found)) return refusalReply(ctx.env, found);
  const currency = body.transactionCurrencyCode ?? undefined;
  const refusal =
    currencyRefusal(ctx, found.meta, currency) ??
    boundsRefusal(ctx, found.sku, found.meta, body.amount, currency) ??
    numberRefusal(ctx, body.mobile, found.sku.countryCode, 'mobile');
  if (refusal !== undefined) return refusalReply(ctx.env, refusal);
  const walletAmount = toWalletAmount(found.meta, body.amount, currency);
  return ok(ctx.env, { skuId: found.sku.skuId, mobile: body.mobile, amount: body.amount, quote: costOf(found.sku, walletAmount) });
}
`;

/** The quote's edits, file by file: the recipe's three files and its pin row. */
const QUOTE_EDITS: readonly RecipeEdit[] = [
  // First among the v2-only writes.
  {
    file: 'api/operations.ts',
    anchor: 'ops.push(',
    text:
      "      write(version, { name: 'topup-quote', group: 'estimated-cost', body: 'topup-quote', summary: 'Top-up quote (made up)', " +
      "assumedPath: `${prefix}/transaction/topup-quote`, charges: false, inputs: { sku: { category: 'Rtr' }, " +
      "body: { skuId: 'sku.skuId', amount: 'sku.amount', transactionCurrencyCode: 'sku.currency', mobile: 'mobile' } } }),",
  },
  { file: `schemas/${MADE_UP.body}-request.schema.json`, text: `${JSON.stringify(SCHEMA, null, 2)}\n` },
  {
    file: 'sandbox/routes/estimated-cost.ts',
    anchor: "} from './transactions.ts';",
    text: `import { numberRefusal, ofCategory } from './transactions.ts';\n${HANDLER}`,
  },
  {
    file: 'sandbox/routes/estimated-cost.ts',
    anchor: "'v2.transaction.estimated-cost': estimate,",
    text: `  '${MADE_UP.id}': quoteTopup,`,
  },
  {
    file: 'api/operations.test.ts',
    anchor: "['v2.transaction.estimated-cost', 'POST'",
    text: `  ['${MADE_UP.id}', 'POST', '${MADE_UP.path}', 'object', []],`,
  },
];

/** The quote: a v2-only write that never charges. */
export const MADE_UP_QUOTE: MadeUp = Object.freeze({ ids: [MADE_UP.id], name: MADE_UP.body, group: 'estimated-cost', edits: QUOTE_EDITS });

/** A count of the pin (api/operations.test.ts) the made-up operations change. */
function pinCount(replace: string, text: string): RecipeEdit {
  return { file: 'api/operations.test.ts', replace, text };
}

/**
 * The pin's counts, written by hand like the pin itself: three more operations (the quote, v2 only and not charging;
 * the data top-up in v1 and v2, charging, a pair), all writes with an assumed path.
 */
const PIN_COUNTS: readonly RecipeEdit[] = [
  pinCount('has exactly the 48 operations', 'has exactly the 51 operations'),
  pinCount('expect(SPEC).toHaveLength(48)', 'expect(SPEC).toHaveLength(51)'),
  pinCount('15 writes (7 v1 + 8 v2)', '18 writes (8 v1 + 10 v2)'),
  pinCount('expect(writes).toHaveLength(15)', 'expect(writes).toHaveLength(18)'),
  // v2 first: v1's new count is v2's old one.
  pinCount("op.method === 'POST')).toHaveLength(8)", "op.method === 'POST')).toHaveLength(10)"),
  pinCount("op.method === 'POST')).toHaveLength(7)", "op.method === 'POST')).toHaveLength(8)"),
  pinCount('expect(assumed).toHaveLength(13)', 'expect(assumed).toHaveLength(16)'),
  pinCount("id !== 'v2.transaction.estimated-cost'", `id !== 'v2.transaction.estimated-cost' && id !== '${MADE_UP.id}'`),
  pinCount('the 14 charging writes', 'the 16 charging writes'),
  pinCount('expect(charging).toHaveLength(14)', 'expect(charging).toHaveLength(16)'),
  pinCount('expect(pairs).toHaveLength(20)', 'expect(pairs).toHaveLength(21)'),
  pinCount("'v2.transaction.estimated-cost',\n", `'v2.transaction.estimated-cost',\n'${MADE_UP.id}',\n`),
];

/** The made-up operations, each with the edits of its recipe files. */
export const MADE_UPS: readonly MadeUp[] = [MADE_UP_QUOTE, MADE_UP_CHARGING];

/** Every edit: each operation's, then the pin's counts. */
export const RECIPE_EDITS: readonly RecipeEdit[] = [...MADE_UPS.flatMap((made) => made.edits), ...PIN_COUNTS];

/** The files the recipe touches (the test checks nothing else changes but what `npm run gen` derives). */
export const RECIPE_FILES: readonly string[] = [...new Set(RECIPE_EDITS.map((edit) => edit.file))];

/** Applies every edit under `root`; throws when an anchor or a replaced text is missing (the files changed shape). */
export function applyRecipe(root: string): void {
  applyEdits(root, RECIPE_EDITS);
}
