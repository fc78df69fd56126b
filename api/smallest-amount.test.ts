// A test run spends little (DESIGN.md "First contact"): every valid charging request the one builder makes from the
// embedded sandbox's catalog sends its SKU's smallest valid amount — the bound the catalog states, never more.
import { describe, expect, it } from 'vitest';
import { readCatalogSkus, type CatalogSku } from './catalog-facts.ts';
import { DEFAULT_FIELD_MAPPING } from './field-mapping.ts';
import { buildInputs, inputSkuOf, isNoInput, type InputSku, type InputWorld } from './inputs.ts';
import { CATEGORY_IDS, OPERATIONS } from './operations.ts';
import { generateSandboxData } from '../sandbox/data/index.ts';

const data = generateSandboxData(1);
const fixtures = new Map<InputSku, CatalogSku>();
const view = (skus: CatalogSku[]): InputSku[] =>
  skus.map((sku) => {
    const input = inputSkuOf(sku);
    fixtures.set(input, sku);
    return input;
  });
const skus = view(readCatalogSkus(data.skus, 'v2', DEFAULT_FIELD_MAPPING));
const giftcards = view(readCatalogSkus(data.giftcardSkus, 'giftcard', DEFAULT_FIELD_MAPPING));
const world: InputWorld = {
  skus: (category) =>
    category === 'any' ? skus : category === 'Gift Card' ? giftcards : skus.filter((s) => s.categoryId === CATEGORY_IDS[category]),
  mobile: (country) => data.samples.validMobiles[country],
  setting: (name) => ({ billpayAccountNumber: data.samples.billPayAccountNumber, simNumber: '8901260000000000009', zipCode: 10001 })[name],
  correlationId: () => 'c-1',
  mapping: DEFAULT_FIELD_MAPPING,
};

/** The smallest amount the SKU's catalog bounds accept, in the currency the body names (absent: the wallet's). */
function minimumOf(sku: CatalogSku, currency: unknown): number | undefined {
  return currency === undefined ? sku.minWalletAmount : sku.minFaceValue;
}

describe('valid charging requests', () => {
  const writes = OPERATIONS.filter((op) => op.charges && op.inputs?.body?.['amount'] === 'sku.amount');

  it.each(writes.map((op) => [op.id, op] as const))('%s sends the smallest valid amount of its SKU', (_id, op) => {
    const built = buildInputs(op, world, { max: 20 });
    if (isNoInput(built)) throw new Error(`${op.id}: ${built.unavailable}`);
    for (const { input, sku } of built) {
      const body = input.body as Record<string, unknown>;
      const fixture = fixtures.get(sku as InputSku) as CatalogSku;
      expect({ skuId: body['skuId'], amount: body['amount'] }).toEqual({
        skuId: fixture.skuId,
        amount: minimumOf(fixture, body['transactionCurrencyCode']),
      });
    }
  });

  it('covers the writes that carry an amount (top-up, bill payment, gift card), both versions', () => {
    expect(writes.map((op) => op.id).sort()).toEqual(
      [
        'v1.transaction.billpay',
        'v1.transaction.giftcard',
        'v1.transaction.topup',
        'v2.transaction.billpay',
        'v2.transaction.giftcard',
        'v2.transaction.topup',
      ].sort(),
    );
  });
});
