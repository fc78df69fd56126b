// The money rule, across every priced write: bounds are checked on the amount as sent (4.995 is below 5.00), and the
// wallet is charged exactly the price of the amount requested (12.345 is priced as 12.345), so the balance moves by
// exactly the reported invoiceAmount.
import { describe, expect, it } from 'vitest';
import { costOf, moneySub } from '../data/money.ts';
import type { Sku } from '../data/types.ts';
import { newCorrelationId } from './testing.ts';
import type { TestClient } from './testing.ts';
import { clientsClosedAfterEach } from '../fixtures/test-clients.ts';

type Rec = Record<string, unknown>;
const client = clientsClosedAfterEach();

const JM = '18762345678';
/** The spec's 001 trigger number: starts with 1876 and ends with 888. */
const JM_TRIGGER_001 = '18762345888';
const TOPUP = '/api/v2/transaction/topup';

function skuOf(c: TestClient, skuId: number): Sku {
  const sku = c.app.data.index.skuById.get(skuId);
  if (sku === undefined) throw new Error(`no SKU ${skuId}`);
  return sku;
}

/** Posts a write and returns its envelope with the funds before and after. */
async function charged(
  c: TestClient,
  url: string,
  body: Rec,
): Promise<{ code: string; payload: Rec | null; before: number; after: number }> {
  const before = await c.funds();
  const res = await c.post(url, { correlationId: newCorrelationId(), ...body });
  return { code: res.body.responseCode, payload: res.body.payLoad as Rec | null, before, after: await c.funds() };
}

describe('money: top-up on trigger SKU 193 (5.00-100.00 USD)', () => {
  it("4.995 with the spec's 001 trigger number -> '001', nothing charged", async () => {
    const c = await client();
    const r = await charged(c, TOPUP, { skuId: 193, amount: 4.995, mobile: JM_TRIGGER_001 });
    expect(r.code).toBe('001');
    expect(r.after).toBe(r.before);
  });

  it("4.995 with an ordinary number -> '001' (bounds on the amount as sent), nothing charged", async () => {
    const c = await client();
    const r = await charged(c, TOPUP, { skuId: 193, amount: 4.995, mobile: JM });
    expect(r.code).toBe('001');
    expect(r.after).toBe(r.before);
  });

  it("100.001 -> '001' (above the maximum as sent)", async () => {
    const c = await client();
    expect((await charged(c, TOPUP, { skuId: 193, amount: 100.001, mobile: JM })).code).toBe('001');
  });

  it('5.00 -> accepted, priced on 5.00, the balance moves by exactly invoiceAmount', async () => {
    const c = await client();
    const r = await charged(c, TOPUP, { skuId: 193, amount: 5, mobile: JM });
    expect(r.code).toBe('000');
    expect(r.payload?.['faceValue']).toBe(5);
    expect(r.payload?.['invoiceAmount']).toBe(costOf(skuOf(c, 193), 5));
    expect(moneySub(r.before, r.after)).toBe(r.payload?.['invoiceAmount']);
  });

  it('12.345 -> accepted and priced on 12.345 exactly (not 12.35), the balance moves by exactly invoiceAmount', async () => {
    const c = await client();
    const r = await charged(c, TOPUP, { skuId: 193, amount: 12.345, mobile: JM });
    expect(r.code).toBe('000');
    expect(r.payload?.['faceValue']).toBe(12.345);
    const expected = costOf(skuOf(c, 193), 12.345);
    expect(r.payload?.['invoiceAmount']).toBe(expected);
    expect(expected).not.toBe(costOf(skuOf(c, 193), 12.35));
    expect(moneySub(r.before, r.after)).toBe(expected);
  });

  it('a run of fractional charges leaves no binary rounding residue in the funds', async () => {
    const c = await client({ funds: 1 });
    for (let i = 0; i < 3; i += 1) c.app.store.charge(0.1);
    // In binary floating point 1 - 0.1 - 0.1 - 0.1 is 0.7000000000000001.
    expect(c.app.store.availableFunds).toBe(0.7);
    expect(await c.funds()).toBe(0.7);
  });
});

describe('money: bill pay, gift card, estimated cost use the same rule', () => {
  it("bill pay: the wallet minimum less 0.001 -> '001'; minimum + 0.005 -> charged exactly its price", async () => {
    const c = await client();
    const sku = skuOf(c, c.app.data.samples.billPaySkuId);
    const base = { skuId: sku.skuId, accountNumber: c.app.data.samples.billPayAccountNumber };
    const below = await charged(c, '/api/v2/transaction/billpay', { ...base, amount: moneySub(sku.min.faceValueInWalletCurrency, 0.001) });
    expect(below.code).toBe('001');
    expect(below.after).toBe(below.before);
    const amount = sku.min.faceValueInWalletCurrency + 0.005;
    const ok = await charged(c, '/api/v2/transaction/billpay', { ...base, amount });
    expect(ok.code).toBe('000');
    expect(ok.payload?.['invoiceAmount']).toBe(costOf(sku, amount));
    expect(moneySub(ok.before, ok.after)).toBe(ok.payload?.['invoiceAmount']);
  });

  it("gift card (fixed denomination): its wallet price + 0.001 -> '001'; the price itself -> charged exactly", async () => {
    const c = await client({ behaviour: { asyncOperations: [] } });
    const sku = skuOf(c, c.app.data.samples.giftcardSkuId);
    const url = '/api/v2/transaction/giftcard/order';
    const above = await charged(c, url, { skuId: sku.skuId, amount: sku.min.faceValueInWalletCurrency + 0.001 });
    expect(above.code).toBe('001');
    expect(above.after).toBe(above.before);
    const exact = await charged(c, url, { skuId: sku.skuId, amount: sku.min.faceValueInWalletCurrency });
    expect(exact.code).toBe('000');
    expect(moneySub(exact.before, exact.after)).toBe(costOf(sku, sku.min.faceValueInWalletCurrency));
  });

  it("estimated cost: 4.995 on SKU 193 -> '001'; 12.345 -> estimatedCost priced on 12.345", async () => {
    const c = await client();
    const url = '/api/v2/transaction/estimatecost';
    expect((await c.post(url, { skuId: 193, amount: 4.995 })).body.responseCode).toBe('001');
    const res = await c.post(url, { skuId: 193, amount: 12.345 });
    expect(res.body.responseCode).toBe('000');
    const payload = res.body.payLoad as Rec;
    expect(payload['faceValue']).toBe(12.345);
    expect(payload['estimatedCost']).toBe(costOf(skuOf(c, 193), 12.345));
  });

  it("insufficient funds: a cost one thousandth above the funds left -> '009'; exactly the funds left -> accepted", async () => {
    const sku193Cost = async (c: TestClient): Promise<number> => costOf(skuOf(c, 193), 10);
    const probe = await client();
    const cost = await sku193Cost(probe);
    const short = await client({ funds: moneySub(cost, 0.001) });
    expect((await charged(short, TOPUP, { skuId: 193, amount: 10, mobile: JM })).code).toBe('009');
    const exact = await client({ funds: cost });
    const r = await charged(exact, TOPUP, { skuId: 193, amount: 10, mobile: JM });
    expect(r.code).toBe('000');
    expect(r.after).toBe(0);
  });
});
