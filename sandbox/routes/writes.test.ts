// The other writes in-process: PIN, bill payment (+ bill detail), gift card ('852' then final, fetch by id),
// SIM activation, port-in (+ status by id), eSIM (+ status by ICCID) and estimated cost (never charged).
import { describe, expect, it } from 'vitest';
import { newCorrelationId, waitFor } from './testing.ts';
import type { TestClient } from './testing.ts';
import { clientsClosedAfterEach } from '../fixtures/test-clients.ts';

type Rec = Record<string, unknown>;
const client = clientsClosedAfterEach();

const JM = '18762345678';

async function statusOf(c: TestClient, correlationId: string, v = 'v2'): Promise<Rec> {
  return (await c.get(`/api/${v}/transaction/status/${correlationId}`)).body;
}

describe('PIN', () => {
  for (const v of ['v1', 'v2']) {
    it(`${v}: charges the denomination and returns the PIN`, async () => {
      const c = await client();
      const before = await c.funds();
      const correlationId = newCorrelationId();
      const res = await c.post(`/api/${v}/transaction/pin`, { skuId: c.app.data.samples.pinSkuId, correlationId, recipient: JM });
      expect(res.body.responseCode).toBe('000');
      const pins = (res.body.payLoad as Rec)['pins'] as Rec[];
      expect(pins).toHaveLength(1);
      expect(typeof pins[0]?.['pinNumber']).toBe('string');
      expect(await c.funds()).toBeLessThan(before);
      expect((await statusOf(c, correlationId)).responseCode).toBe('000');
    });
  }

  it('refuses a non-PIN SKU and a recipient outside the PIN product country', async () => {
    const c = await client();
    const before = await c.funds();
    expect((await c.post('/api/v2/transaction/pin', { skuId: 193, correlationId: newCorrelationId() })).body.responseCode).toBe('005');
    const wrongCountry = await c.post('/api/v2/transaction/pin', {
      skuId: c.app.data.samples.pinSkuId,
      correlationId: newCorrelationId(),
      recipient: '912345678901',
    });
    expect(wrongCountry.body.responseCode).toBe('501');
    expect(await c.funds()).toBe(before);
  });
});

describe('bill payment', () => {
  it('pays within the bounds, in the wallet or the face currency', async () => {
    const c = await client();
    const sku = c.app.data.index.skuById.get(c.app.data.samples.billPaySkuId);
    const base = { skuId: sku?.skuId, accountNumber: c.app.data.samples.billPayAccountNumber };
    const inWallet = await c.post('/api/v2/transaction/billpay', {
      ...base,
      amount: sku?.min.faceValueInWalletCurrency,
      correlationId: newCorrelationId(),
    });
    expect(inWallet.body.responseCode).toBe('000');
    expect((inWallet.body.payLoad as Rec)['billPaymentDetail']).toMatchObject({ accountNumber: base.accountNumber });
    const inFace = await c.post('/api/v1/transaction/billpay', {
      ...base,
      amount: sku?.min.faceValue,
      transactionCurrencyCode: sku?.min.faceValueCurrency,
      correlationId: newCorrelationId(),
    });
    expect(inFace.body.responseCode).toBe('000');
    const emptyCurrency = await c.post('/api/v2/transaction/billpay', {
      ...base,
      amount: sku?.min.faceValueInWalletCurrency,
      transactionCurrencyCode: '',
      correlationId: newCorrelationId(),
    });
    expect(emptyCurrency.body.responseCode).toBe('000');
  });

  it('refuses: currency of 4 characters (length rule), a currency the SKU does not take, an amount out of bounds', async () => {
    const c = await client();
    const sku = c.app.data.index.skuById.get(c.app.data.samples.billPaySkuId);
    const base = { skuId: sku?.skuId, accountNumber: '12345', amount: sku?.min.faceValueInWalletCurrency };
    const before = await c.funds();
    const four = await c.post('/api/v2/transaction/billpay', {
      ...base,
      transactionCurrencyCode: 'JMDX',
      correlationId: newCorrelationId(),
    });
    expect(four.body.responseCode).toBe('003');
    expect(four.body.responseMessage).toContain('transactionCurrencyCode');
    const other = await c.post('/api/v2/transaction/billpay', {
      ...base,
      transactionCurrencyCode: 'EUR',
      correlationId: newCorrelationId(),
    });
    expect(other.body.responseCode).toBe('032');
    const tooMuch = await c.post('/api/v2/transaction/billpay', {
      ...base,
      amount: (sku?.max.faceValueInWalletCurrency ?? 0) + 1,
      correlationId: newCorrelationId(),
    });
    expect(tooMuch.body.responseCode).toBe('001');
    expect(tooMuch.body.responseMessage).toMatch(/^The charge amount for Denomination .+ should be between [\d.]+ USD and [\d.]+ USD$/);
    expect(await c.funds()).toBe(before);
  });

  it('fetch-account-detail (v1 transaction/, v2 lookup/) returns the bill; missing parameters are a failure', async () => {
    const c = await client();
    const { billPaySkuId, billPayAccountNumber } = c.app.data.samples;
    for (const path of ['/api/v1/transaction/billpay/fetch-account-detail', '/api/v2/lookup/billpay/fetch-account-detail']) {
      const res = await c.get(`${path}?skuId=${billPaySkuId}&accountNumber=${billPayAccountNumber}`);
      expect(res.body.responseCode).toBe('000');
      expect((res.body.payLoad as Rec)['accountNumber']).toBe(billPayAccountNumber);
      expect((await c.get(path)).body.responseCode).not.toBe('000');
      expect((await c.get(`${path}?skuId=193&accountNumber=1`)).body.responseCode).not.toBe('000');
    }
  });
});

describe('gift card', () => {
  it("answers '852', stays '852' through status while processing, then final; fetch by the transaction id", async () => {
    const timeScale = 0.01;
    const c = await client({ timeScale });
    const sku = c.app.data.index.skuById.get(c.app.data.samples.giftcardSkuId);
    const before = await c.funds();
    const correlationId = newCorrelationId();
    const res = await c.post('/api/v2/transaction/giftcard/order', {
      skuId: sku?.skuId,
      amount: sku?.min.faceValueInWalletCurrency,
      correlationId,
    });
    expect(res.body.responseCode).toBe('852');
    expect(res.body.payLoad).toBeNull();
    expect((await statusOf(c, correlationId, 'v1')).responseCode).toBe('852');
    expect(await c.funds()).toBe(before);

    let final: Rec = {};
    await waitFor(async () => {
      final = await statusOf(c, correlationId);
      return final['responseCode'] !== '852';
    }, 'the gift card to be final');
    expect(final['responseCode']).toBe('000');
    expect(await c.funds()).toBeLessThan(before);
    const transactionId = (final['payLoad'] as Rec)['transactionId'] as number;
    for (const v of ['v1', 'v2']) {
      const fetched = await c.get(`/api/${v}/transaction/giftcard/fetch/${transactionId}`);
      expect(fetched.body.responseCode).toBe('000');
      expect(typeof (fetched.body.payLoad as Rec)['cardNumber']).toBe('string');
    }
    expect((await c.get('/api/v2/transaction/giftcard/fetch/1')).body.responseCode).toBe('027');
  });

  it('finishes at once when gift cards are not asynchronous (behaviour override)', async () => {
    const c = await client({ behaviour: { asyncOperations: [] } });
    const sku = c.app.data.index.skuById.get(c.app.data.samples.giftcardSkuId);
    const res = await c.post('/api/v1/transaction/giftcard/order', {
      skuId: sku?.skuId,
      amount: sku?.min.faceValueInWalletCurrency,
      correlationId: newCorrelationId(),
    });
    expect(res.body.responseCode).toBe('000');
  });

  it('refuses a SKU that is not a gift card, and an amount out of bounds', async () => {
    const c = await client();
    const sku = c.app.data.index.skuById.get(c.app.data.samples.giftcardSkuId);
    expect(
      (await c.post('/api/v2/transaction/giftcard/order', { skuId: 193, amount: 10, correlationId: newCorrelationId() })).body.responseCode,
    ).toBe('005');
    const res = await c.post('/api/v2/transaction/giftcard/order', {
      skuId: sku?.skuId,
      amount: 100_000,
      correlationId: newCorrelationId(),
    });
    expect(res.body.responseCode).toBe('001');
  });
});

describe('SIM activation and port-in', () => {
  it('activates a Sim SKU; refuses another category', async () => {
    const c = await client();
    const skuId = c.app.data.samples.simSkuId;
    const res = await c.post('/api/v2/transaction/sim/activate', {
      skuId,
      simNumber: '8901260000000000001',
      zipCode: 10001,
      correlationId: newCorrelationId(),
    });
    expect(res.body.responseCode).toBe('000');
    expect((res.body.payLoad as Rec)['simInfo']).toMatchObject({ simNumber: '8901260000000000001', zipCode: 10001 });
    expect(
      (await c.post('/api/v1/transaction/sim/activate', { skuId: 193, simNumber: '1', zipCode: 1, correlationId: newCorrelationId() })).body
        .responseCode,
    ).toBe('005');
  });

  it('port-in returns a transaction id whose status goes Pending -> Completed (scaled)', async () => {
    const timeScale = 0.01;
    const c = await client({ timeScale });
    const skuId = c.app.data.samples.simSkuId;
    for (const [write, read] of [
      ['/api/v2/sim/port-in', '/api/v2/transaction/sim/portin/status'],
      ['/api/v1/transaction/sim/portin', '/api/v1/transaction/sim/portin/status'],
    ] as const) {
      const res = await c.post(write, {
        skuId,
        simNumber: '8901260000000000002',
        zipCode: 10001,
        areaCode: '212',
        correlationId: newCorrelationId(),
      });
      expect(res.body.responseCode).toBe('000');
      const id = (res.body.payLoad as Rec)['transactionId'] as number;
      expect(((await c.get(`${read}/${id}`)).body.payLoad as Rec)['status']).toBe('Pending');
      await waitFor(async () => ((await c.get(`${read}/${id}`)).body.payLoad as Rec)['status'] !== 'Pending', 'the port-in to complete');
      expect(((await c.get(`${read}/${id}`)).body.payLoad as Rec)['status']).toBe('Completed');
      expect((await c.get(`${read}/12345`)).body.responseCode).toBe('027');
    }
  });

  it('port-in areaCode of 4 characters is refused (port-in only: activation accepts it)', async () => {
    const c = await client();
    const skuId = c.app.data.samples.simSkuId;
    const body = { skuId, simNumber: '8901', zipCode: 10001, areaCode: '2121' };
    expect((await c.post('/api/v2/sim/port-in', { ...body, correlationId: newCorrelationId() })).body.responseCode).toBe('003');
    expect((await c.post('/api/v2/transaction/sim/activate', { ...body, correlationId: newCorrelationId() })).body.responseCode).toBe(
      '000',
    );
  });
});

describe('eSIM', () => {
  it('orders an eSIM whose status by ICCID shows the remaining data', async () => {
    const c = await client();
    for (const v of ['v1', 'v2']) {
      const res = await c.post(`/api/${v}/esim/order`, { skuId: c.app.data.samples.esimSkuId, correlationId: newCorrelationId() });
      expect(res.body.responseCode).toBe('000');
      const iccid = ((res.body.payLoad as Rec)['esimDetail'] as Rec)['iccid'] as string;
      const status = await c.get(`/api/${v}/esim/status/${iccid}`);
      expect(status.body.responseCode).toBe('000');
      const [entry] = status.body.payLoad as Rec[];
      expect(entry?.['iccid']).toBe(iccid);
      expect(entry?.['remainingDataMb']).toBeGreaterThan(0);
      expect((await c.get(`/api/${v}/esim/status/8900000000000000000`)).body.responseCode).toBe('027');
    }
  });
});

describe('estimated cost (v2)', () => {
  const URL = '/api/v2/transaction/estimatecost';
  it('estimates without charging or storing', async () => {
    const c = await client();
    const before = await c.funds();
    const res = await c.post(URL, { skuId: 193, amount: 10 });
    expect(res.body.responseCode).toBe('000');
    expect((res.body.payLoad as Rec)['estimatedCost']).toBeGreaterThan(0);
    const withCurrency = await c.post(URL, { skuId: 193, amount: 10, transactionCurrencyCode: 'USD' });
    expect(withCurrency.body.responseCode).toBe('000');
    expect(await c.funds()).toBe(before);
    expect(c.app.store.size).toBe(0);
  });

  it('refuses a lower-case currency, a currency the SKU does not take, and an amount out of bounds', async () => {
    const c = await client();
    const lower = await c.post(URL, { skuId: 193, amount: 10, transactionCurrencyCode: 'usd' });
    expect(lower.body.responseCode).toBe('003');
    expect(lower.body.responseMessage).toContain('upper case');
    expect((await c.post(URL, { skuId: 193, amount: 10, transactionCurrencyCode: 'EUR' })).body.responseCode).toBe('032');
    expect((await c.post(URL, { skuId: 193, amount: 1000 })).body.responseCode).toBe('001');
  });
});
