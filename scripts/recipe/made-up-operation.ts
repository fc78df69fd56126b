// A made-up operation added through exactly the files of ARCHITECTURE.md's recipe (catalog entry with its input rule,
// request schema, sandbox handler, and the pin), as edits a test applies to a copy of the tree to prove the recipe true.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The made-up operation: a quote for a top-up (v2, never charged), with an RTR SKU, an amount and a number. */
export const MADE_UP = Object.freeze({
  id: 'v2.transaction.topup-quote',
  path: '/api/v2/transaction/topup-quote',
  body: 'topup-quote',
});

/**
 * One edit: a new file (no anchor, no replace), text put after the line that contains the anchor, or the one
 * occurrence of `replace` replaced by `text` (the pin's counts). Anchors and replaced text are short, single-line
 * fragments a formatter leaves whole (a name, a call), never a whole formatted line.
 */
export interface RecipeEdit {
  readonly file: string;
  readonly anchor?: string;
  readonly replace?: string;
  readonly text: string;
}

const SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://gateway-harness.dev/schemas/topup-quote-request.schema.json',
  title: 'TopupQuoteRequest',
  description: 'Body of the made-up top-up quote operation (spec: Resources and their fields / Request objects / Top-up quote request). Made up to prove the recipe.',
  type: 'object',
  required: ['skuId', 'amount', 'mobile'],
  properties: {
    skuId: { description: 'Spec: "integer int32", required; "SKU whose category is RTR".', type: 'integer', minimum: -2147483648, maximum: 2147483647 },
    amount: { description: 'Spec: "number double", required; "Wallet currency unless transactionCurrencyCode is given".', type: 'number' },
    mobile: { description: 'Spec: "string, non-empty", required; "Number of the SKU\'s country".', type: 'string', minLength: 1 },
    transactionCurrencyCode: { description: 'Spec: "string or null", optional; "One of the SKU\'s FaceValueCurrency".', type: ['string', 'null'], pattern: '^[A-Z]*$' },
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

/** The edits, file by file: the recipe's three files and the pin. */
export const RECIPE_EDITS: readonly RecipeEdit[] = [
  {
    file: 'api/operations.ts',
    anchor: "write(version, { name: 'estimated-cost'",
    text:
      "      write(version, { name: 'topup-quote', group: 'estimated-cost', body: 'topup-quote', summary: 'Top-up quote (made up)', " +
      "assumedPath: `${prefix}/transaction/topup-quote`, charges: false, inputs: { sku: { category: 'Rtr' }, " +
      "body: { skuId: 'sku.skuId', amount: 'sku.amount', transactionCurrencyCode: 'sku.currency', mobile: 'mobile' } } }),",
  },
  { file: `schemas/${MADE_UP.body}-request.schema.json`, text: `${JSON.stringify(SCHEMA, null, 2)}\n` },
  { file: 'sandbox/routes/estimated-cost.ts', anchor: "} from './transactions.ts';", text: `import { numberRefusal, ofCategory } from './transactions.ts';\n${HANDLER}` },
  { file: 'sandbox/routes/estimated-cost.ts', anchor: "'v2.transaction.estimated-cost': estimate,", text: `  '${MADE_UP.id}': quoteTopup,` },
  { file: 'api/operations.test.ts', anchor: "['v2.transaction.estimated-cost', 'POST'", text: `  ['${MADE_UP.id}', 'POST', '${MADE_UP.path}', 'object', []],` },
  // The counts the pin states change with it: one more operation, write, v2 write and assumed path; not charging; v2-only.
  pinCount('has exactly the 48 operations', 'has exactly the 49 operations'),
  pinCount('expect(SPEC).toHaveLength(48)', 'expect(SPEC).toHaveLength(49)'),
  pinCount('expect(writes).toHaveLength(15)', 'expect(writes).toHaveLength(16)'),
  pinCount('15 writes (7 v1 + 8 v2)', '16 writes (7 v1 + 9 v2)'),
  pinCount("op.method === 'POST')).toHaveLength(8)", "op.method === 'POST')).toHaveLength(9)"),
  pinCount('expect(assumed).toHaveLength(13)', 'expect(assumed).toHaveLength(14)'),
  pinCount("id !== 'v2.transaction.estimated-cost'", `id !== 'v2.transaction.estimated-cost' && id !== '${MADE_UP.id}'`),
  pinCount("'v2.transaction.estimated-cost',\n", `'v2.transaction.estimated-cost',\n'${MADE_UP.id}',\n`),
];

/** A count of the pin (api/operations.test.ts) the made-up operation changes. */
function pinCount(replace: string, text: string): RecipeEdit {
  return { file: 'api/operations.test.ts', replace, text };
}

/** The files the recipe touches (the test checks nothing else changes but what `npm run gen` derives). */
export const RECIPE_FILES: readonly string[] = [...new Set(RECIPE_EDITS.map((edit) => edit.file))];

/** Applies the edits under `root`; throws when an anchor or a replaced text is missing (the files changed shape). */
export function applyRecipe(root: string): void {
  for (const edit of RECIPE_EDITS) {
    const path = join(root, edit.file);
    if (edit.replace !== undefined) {
      writeFileSync(path, replaceOnce(edit.file, readFileSync(path, 'utf8'), edit.replace, edit.text));
      continue;
    }
    if (edit.anchor === undefined) {
      if (existsSync(path)) throw new Error(`${edit.file} exists already`);
      writeFileSync(path, edit.text);
      continue;
    }
    const lines = readFileSync(path, 'utf8').split('\n');
    const at = lines.findIndex((line) => line.includes(edit.anchor as string));
    if (at === -1) throw new Error(`${edit.file}: no line contains ${JSON.stringify(edit.anchor)}`);
    lines.splice(at + 1, 0, edit.text);
    writeFileSync(path, lines.join('\n'));
  }
}

/** `text` in place of the one occurrence of `replace`; throws naming the file when there is none or more than one. */
function replaceOnce(file: string, source: string, replace: string, text: string): string {
  const at = source.indexOf(replace);
  if (at === -1 || source.indexOf(replace, at + 1) !== -1) {
    throw new Error(`${file}: ${at === -1 ? 'no' : 'more than one'} occurrence of ${JSON.stringify(replace)}`);
  }
  return source.slice(0, at) + text + source.slice(at + replace.length);
}
