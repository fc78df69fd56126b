// The recipe's second made-up operation: a charging write in v1 and v2 (a migration pair) with its own sandbox trigger
// row, added through the same files as any operation, since a trigger is catalog data (api/triggers.ts).
import { TOPUP_BODY_FIELDS, type MadeUp, type RecipeEdit } from './edits.ts';

/** The made-up trigger row: a number ending 444 is refused with '510', like the spec's top-up row for 510. */
export const DATA_TOPUP_TRIGGER = Object.freeze({ key: '444', code: '510' });

const SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://gateway-harness.dev/schemas/data-topup-request.schema.json',
  title: 'DataTopupRequest',
  description: 'Body of the made-up data top-up operation (charges the wallet; made up to prove the recipe).',
  type: 'object',
  required: ['skuId', 'amount', 'mobile', 'correlationId'],
  properties: {
    ...TOPUP_BODY_FIELDS,
    correlationId: {
      description: 'Spec: "string, 1..50 chars", required; "Unique id from the client system".',
      type: 'string',
      minLength: 1,
      maxLength: 50,
    },
    transactionCurrencyCode: {
      description: 'Spec: "string or null", optional; "One of the SKU\'s FaceValueCurrency".',
      type: ['string', 'null'],
    },
  },
};

const HANDLER = `
// Made-up data top-up (recipe proof): an RTR SKU, an amount its bounds accept, a number of its country, charged on
// success; the catalog's trigger rows of its purpose answer their code or hold the response.
type DataTopupBody = { skuId: number; amount: number; mobile: string; correlationId: string; transactionCurrencyCode?: string | null };
function decideDataTopup(ctx: RouteContext, body: DataTopupBody): Decision {
  const found = resolveSku(ctx, body.skuId, ofCategory('Rtr'), 'an RTR SKU');
  if (isRefusal(found)) return found;
  const { sku, meta } = found;
  const currency = body.transactionCurrencyCode;
  const cost = walletCost(sku, meta, body.amount, currency);
  const refused =
    numberRefusal(ctx, body.mobile, sku.countryCode, 'mobile') ?? currencyRefusal(ctx, meta, currency) ?? boundsRefusal(ctx, sku, meta, body.amount, currency);
  if (refused !== undefined) return refused;
  const bounds = boundsFor(sku, meta, currency);
  const trigger = matchTrigger(ctx.env, { purpose: ctx.op.purpose, mobile: body.mobile, skuId: sku.skuId, amount: body.amount, bounds });
  if (trigger !== undefined && 'respond' in trigger.effect) return { refuse: trigger.effect.respond, cost };
  const faceValue = faceAmount(meta, body.amount, currency);
  return {
    cost,
    holdMs: trigger !== undefined && 'delayMs' in trigger.effect ? trigger.effect.delayMs : undefined,
    build: (txn) => ({ payload: transactionPayload(ctx.env, txn, sku, { invoiceAmount: cost, faceValue }, {}) }),
  };
}
const dataTopup = (ctx: RouteContext): ReturnType<typeof runWrite> => runWrite<DataTopupBody>(ctx, { decide: decideDataTopup });
`;

const ENTRY =
  "    write(version, { name: 'data-topup', group: 'topup', body: 'data-topup', summary: 'Data top-up (made up)', " +
  "assumedPath: `${prefix}/transaction/data-topup`, charges: true, inputs: { sku: { category: 'Rtr' }, body: { skuId: 'sku.skuId', " +
  "amount: 'sku.amount', transactionCurrencyCode: 'sku.currency', mobile: 'mobile', correlationId: 'new.correlationId' } }, " +
  `triggers: [{ key: '${DATA_TOPUP_TRIGGER.key}', rule: 'Mobile number ends with ${DATA_TOPUP_TRIGGER.key} | responseCode ${DATA_TOPUP_TRIGGER.code} (made up)', ` +
  `match: { mobileSuffix: '${DATA_TOPUP_TRIGGER.key}' }, effect: { code: '${DATA_TOPUP_TRIGGER.code}' } }] }),`;

const EDITS: readonly RecipeEdit[] = [
  // First in the list of writes of each version: both versions get it, with the same purpose (a v1/v2 pair).
  { file: 'api/operations.ts', anchor: 'const ops = [', text: ENTRY },
  { file: 'schemas/data-topup-request.schema.json', text: `${JSON.stringify(SCHEMA, null, 2)}\n` },
  {
    file: 'sandbox/routes/topup.ts',
    anchor: "} from './transactions.ts';",
    text: `import { boundsRefusal } from './transactions.ts';\n${HANDLER}`,
  },
  {
    file: 'sandbox/routes/topup.ts',
    anchor: "'v2.transaction.topup': topup,",
    text: "  'v1.transaction.data-topup': dataTopup,\n  'v2.transaction.data-topup': dataTopup,",
  },
  {
    file: 'api/operations.test.ts',
    anchor: "['v1.transaction.esim', 'POST'",
    text: "  ['v1.transaction.data-topup', 'POST', '/api/v1/transaction/data-topup', 'object', []],",
  },
  {
    file: 'api/operations.test.ts',
    anchor: "['v2.transaction.esim', 'POST'",
    text: "  ['v2.transaction.data-topup', 'POST', '/api/v2/transaction/data-topup', 'object', []],",
  },
];

/** The charging write with a trigger row and a v1 twin. */
export const MADE_UP_CHARGING: MadeUp = Object.freeze({
  ids: ['v1.transaction.data-topup', 'v2.transaction.data-topup'],
  name: 'data-topup',
  group: 'topup',
  edits: EDITS,
});
