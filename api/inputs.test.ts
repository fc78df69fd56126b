// The input table and its one builder: every catalog operation has a rule that covers its required inputs (a missing
// one fails naming the operation), and the builder fills each source from the catalog, the settings or an earlier result.
import { describe, expect, it } from 'vitest';
import { DEFAULT_FIELD_MAPPING } from './field-mapping.ts';
import {
  buildInput,
  buildInputs,
  CHARGING_PICKS,
  followUps,
  inputRuleOf,
  inputRuleProblems,
  isNoInput,
  linksOf,
  prerequisiteWrite,
  type InputSku,
  type InputWorld,
} from './inputs.ts';
import { CATEGORY_IDS, OPERATIONS, getOperation, type Operation } from './operations.ts';

const SKUS: InputSku[] = [
  { skuId: 10, categoryId: CATEGORY_IDS.Rtr, countryCode: 'US', productId: 1, amount: { amount: 5 }, range: true },
  { skuId: 11, categoryId: CATEGORY_IDS.Rtr, countryCode: 'JM', productId: 2, amount: { amount: 7 }, range: true },
  {
    skuId: 12,
    categoryId: CATEGORY_IDS.Rtr,
    countryCode: 'JM',
    productId: 3,
    amount: { amount: 10, transactionCurrencyCode: 'JMD' },
    requireFetchBundle: true,
  },
  { skuId: 20, categoryId: CATEGORY_IDS.Pin, countryCode: 'MX', productId: 4 },
  { skuId: 30, categoryId: CATEGORY_IDS['Bill Pay'], countryCode: 'US', productId: 5 },
];

function world(skus: InputSku[] = SKUS): InputWorld {
  let n = 0;
  return {
    skus: (category) => (category === 'any' ? skus : skus.filter((s) => s.categoryId === CATEGORY_IDS[category])),
    mobile: (country) => ({ JM: '18765550101', US: '12125550101', MX: '525555010101' })[country],
    setting: (name) => ({ billpayAccountNumber: '1234567890', simNumber: '8901', zipCode: 10001 })[name],
    correlationId: () => `c-${++n}`,
    mapping: DEFAULT_FIELD_MAPPING,
  };
}

describe('the input table', () => {
  it('gives every catalog operation a rule that covers its required parameters and body', () => {
    expect(inputRuleProblems()).toEqual([]);
  });

  it('fails naming an operation without a rule, a required parameter without a source, a link to no write', () => {
    const exchange = getOperation('v2.catalog.sku-exchange-rate');
    const { inputs: _dropped, ...bare } = exchange;
    const noRule: Operation = { ...bare, id: 'v2.catalog.made-up' };
    const noSource: Operation = { ...exchange, id: 'v2.catalog.made-up-2', inputs: { sku: { category: 'any' } } };
    const badLink: Operation = {
      ...exchange,
      id: 'v2.catalog.made-up-3',
      inputs: { params: { skuId: { from: 'transaction.nothing', field: 'transactionId' } } },
    };
    expect(inputRuleProblems([noRule, noSource, badLink])).toEqual([
      'v2.catalog.made-up: no input rule (add `inputs` to its catalog entry in api/operations.ts)',
      "v2.catalog.made-up-2: required parameter 'skuId' has no source",
      "v2.catalog.made-up-3: 'skuId' links to 'transaction.nothing', which no v2 write has as its purpose",
    ]);
    expect(() => buildInput(noRule, world())).toThrow(/v2.catalog.made-up has no input rule/);
  });

  it('links the reads that need a transaction to the write that makes it', () => {
    const linked = OPERATIONS.filter((op) => linksOf(op).length > 0).map((op) => `${op.id} ← ${prerequisiteWrite(op)?.id}`);
    expect(linked).toEqual([
      'v1.esim.status ← v1.transaction.esim',
      'v1.transaction.status ← v1.transaction.topup',
      'v1.transaction.giftcard-fetch ← v1.transaction.giftcard',
      'v1.transaction.sim-portin-status ← v1.transaction.sim-portin',
      'v2.esim.status ← v2.transaction.esim',
      'v2.transaction.status ← v2.transaction.topup',
      'v2.transaction.giftcard-fetch ← v2.transaction.giftcard',
      'v2.transaction.sim-portin-status ← v2.transaction.sim-portin',
    ]);
    expect(followUps(getOperation('v2.transaction.topup')).map((op) => op.id)).toEqual(['v2.transaction.status']);
    expect(inputRuleOf(getOperation('v2.account.balance'))).toEqual({});
  });
});

describe('the builder', () => {
  it('fills a write body from a SKU of its category: amount in the currency it needs, a number of its country', () => {
    const built = buildInput(getOperation('v2.transaction.topup'), world());
    expect(built).toEqual({ input: { body: { skuId: 11, amount: 7, mobile: '18765550101', correlationId: 'c-1' } }, sku: SKUS[1] });
    // Several: open ranges before the fixed denomination, which brings its face value currency.
    const all = buildInputs(getOperation('v2.transaction.topup'), world(), { max: 5 });
    expect(isNoInput(all) ? all : all.map((b) => b.input.body)).toEqual([
      { skuId: 11, amount: 7, mobile: '18765550101', correlationId: 'c-1' },
      { skuId: 10, amount: 5, mobile: '12125550101', correlationId: 'c-2' },
      { skuId: 12, amount: 10, transactionCurrencyCode: 'JMD', mobile: '18765550101', correlationId: 'c-3' },
    ]);
  });

  it('places parameters where the catalog says (path, query) and prefers bundle products for bundles', () => {
    expect(buildInput(getOperation('v2.catalog.bundles'), world())).toMatchObject({
      input: { path: { productId: 3, mobileNumber: '18765550101' } },
    });
    expect(buildInput(getOperation('v2.lookup.billpay-fetch-account-detail'), world())).toMatchObject({
      input: { query: { skuId: 30, accountNumber: '1234567890' } },
    });
    expect(buildInput(getOperation('v1.catalog.lookup-mobile'), world())).toEqual({ input: { path: { mobile: '18765550101' } } });
  });

  it('says what the catalog lacks instead of inventing a value', () => {
    expect(buildInput(getOperation('v2.transaction.esim'), world())).toEqual({
      unavailable: "the target's catalog offers no eSim SKU for v2.transaction.esim",
    });
    expect(buildInput(getOperation('v2.transaction.topup'), world([]))).toEqual({
      unavailable:
        "the target's catalog offers no Rtr SKU with readable amount bounds and a number plan of the SKU's country for v2.transaction.topup",
    });
  });

  it("takes a linked read's value from an earlier result through the field mapping", () => {
    const fetch = getOperation('v2.transaction.giftcard-fetch');
    expect(buildInput(fetch, world())).toMatchObject({
      unavailable: expect.stringContaining('needs the transactionId of an earlier transaction.giftcard'),
    });
    const txn = { version: 'v2' as const, purpose: 'transaction.giftcard', correlationId: 'g-1', result: { transactionId: 4711 } };
    expect(buildInput(fetch, world(), { transactions: [txn] })).toEqual({ input: { path: { id: 4711 } } });
    const status = getOperation('v2.transaction.status');
    expect(buildInput(status, world(), { transactions: [txn] })).toEqual({ input: { path: { correlationId: 'g-1' } } });
    expect(isNoInput(buildInput(status, world(), { transactions: [{ ...txn, version: 'v1' }] }))).toBe(true);
  });

  it('with randomness: picks among the best candidates and adds filters only then', () => {
    const skus = getOperation('v2.catalog.skus');
    expect(buildInput(skus, world())).toEqual({ input: {} });
    const seen = new Set<string>();
    let r = 0;
    const random = (): number => (r = (r * 9301 + 49297) % 233280) / 233280;
    for (let i = 0; i < 50; i++) seen.add(JSON.stringify(buildInput(skus, world(), { random })));
    expect([...seen].some((s) => s.includes('"productId"'))).toBe(true);
    expect([...seen].some((s) => s.includes('"acceptLanguage":"ar"'))).toBe(true);
    const picks = new Set<number>();
    for (let i = 0; i < 50; i++) {
      const built = buildInput(getOperation('v2.transaction.topup'), world(), { random });
      if (!isNoInput(built)) picks.add(built.sku?.skuId as number);
    }
    // The fixed denomination (a possible bundle) is never picked while open ranges exist.
    expect([...picks].sort()).toEqual([10, 11]);
  });

  it('a charging write picks the cheapest SKU of its kind first, and a load among the first CHARGING_PICKS only; a read keeps skuId order', () => {
    const jm = (skuId: number, price: number): InputSku => ({
      skuId,
      categoryId: CATEGORY_IDS.Rtr,
      countryCode: 'JM',
      productId: skuId,
      amount: { amount: price },
      range: true,
      price,
    });
    const skus = [jm(40, 50), jm(41, 9), jm(42, 30), jm(43, 2), jm(44, 70)];
    const topup = getOperation('v2.transaction.topup');
    expect((buildInput(topup, world(skus)) as { sku?: InputSku }).sku?.skuId).toBe(43);
    let r = 0;
    const random = (): number => (r = (r * 9301 + 49297) % 233280) / 233280;
    const picks = new Set<number>();
    for (let i = 0; i < 60; i++) picks.add((buildInput(topup, world(skus), { random }) as { sku?: InputSku }).sku?.skuId as number);
    expect([...picks].sort()).toEqual([41, 42, 43].slice(0, CHARGING_PICKS).sort());
    // A read that takes a SKU (no money moves) keeps the stable skuId order.
    expect(buildInput(getOperation('v2.catalog.sku-exchange-rate'), world(skus))).toMatchObject({ sku: { skuId: 40 } });
  });
});
