// Top-up behaviour of the sandbox, in-process: RTR only, number format, currency, bounds ('001' message), triggers,
// delayed results through status ('852' then final), funds, duplicates, validation, production mode and the loan flow.
import { describe, expect, it } from 'vitest';
import { newCorrelationId, waitFor } from './testing.ts';
import type { TestClient } from './testing.ts';
import { clientsClosedAfterEach } from '../fixtures/test-clients.ts';

const client = clientsClosedAfterEach();

const JM = '18762345678';
const TOPUP = '/api/v2/transaction/topup';

function topup(skuId: number, amount: number, mobile: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { skuId, amount, mobile, correlationId: newCorrelationId(), ...extra };
}

describe('top-up: accepted', () => {
  it('charges the invoice amount on success and reports it with a transaction id (v1 and v2)', async () => {
    const c = await client();
    for (const path of ['/api/v1/transaction/topup', TOPUP]) {
      const before = await c.funds();
      const res = await c.post(path, topup(193, 10, JM));
      expect(res.status).toBe(200);
      expect(res.body.responseCode).toBe('000');
      const payload = res.body.payLoad as Record<string, unknown>;
      expect(typeof payload['transactionId']).toBe('number');
      expect(payload['invoiceAmount']).toBeGreaterThan(0);
      expect(before - (await c.funds())).toBeCloseTo(payload['invoiceAmount'] as number, 2);
    }
  });

  it('accepts the amount in the SKU FaceValueCurrency when transactionCurrencyCode names it', async () => {
    const c = await client();
    const skuId = c.app.data.samples.rtrFixedSkuId;
    const sku = c.app.data.index.skuById.get(skuId);
    const res = await c.post(TOPUP, topup(skuId, sku?.min.faceValue ?? 0, JM, { transactionCurrencyCode: sku?.min.faceValueCurrency }));
    expect(res.body.responseCode).toBe('000');
  });

  it('answers the final result again through v1 and v2 status', async () => {
    const c = await client();
    const body = topup(193, 7.5, JM);
    const res = await c.post(TOPUP, body);
    for (const v of ['v1', 'v2']) {
      const status = await c.get(`/api/${v}/transaction/status/${String(body['correlationId'])}`);
      expect(status.body).toEqual(res.body);
    }
  });
});

describe('top-up: refused, nothing charged', () => {
  const cases: Array<{ name: string; body: (c: TestClient) => Record<string, unknown>; code: string; message?: RegExp }> = [
    { name: 'unknown SKU', body: () => topup(99_999_999, 10, JM), code: '004' },
    { name: 'SKU not of category RTR', body: (c) => topup(c.app.data.samples.pinSkuId, 1.99, JM), code: '005' },
    { name: 'Jamaica number one digit short', body: () => topup(193, 10, '1876234567'), code: '501' },
    { name: 'Jamaica number one digit long', body: () => topup(193, 10, '187623456789'), code: '501' },
    { name: 'number of another country than the SKU', body: () => topup(193, 10, '912345678901'), code: '501' },
    { name: 'number with letters', body: () => topup(193, 10, '1876abc5678'), code: '501' },
    {
      name: 'transactionCurrencyCode outside FaceValueCurrency',
      body: () => topup(193, 10, JM, { transactionCurrencyCode: 'EUR' }),
      code: '032',
    },
    {
      name: 'amount above the maximum',
      body: () => topup(193, 100.01, JM),
      code: '001',
      message: /^The charge amount for Denomination .+ should be between 5\.00 USD and 100\.00 USD$/,
    },
    {
      name: 'amount below the minimum on any number',
      body: () => topup(193, 4.99, JM),
      code: '001',
      message: /^The charge amount for Denomination .+ should be between 5\.00 USD and 100\.00 USD$/,
    },
    {
      name: 'fixed denomination with another amount, in its face currency',
      body: (c) => {
        const sku = c.app.data.index.skuById.get(c.app.data.samples.rtrFixedSkuId);
        return topup(sku?.skuId ?? 0, (sku?.min.faceValue ?? 0) + 1, JM, { transactionCurrencyCode: sku?.min.faceValueCurrency });
      },
      code: '001',
      message: /^The charge amount for Denomination .+ should be between [\d.]+ JMD and [\d.]+ JMD$/,
    },
  ];

  for (const testCase of cases) {
    it(`${testCase.name} -> ${testCase.code}`, async () => {
      const c = await client();
      const before = await c.funds();
      const body = testCase.body(c);
      const res = await c.post(TOPUP, body);
      expect(res.status).toBe(200);
      expect(res.body.responseCode).toBe(testCase.code);
      if (testCase.message) expect(res.body.responseMessage).toMatch(testCase.message);
      expect(await c.funds()).toBe(before);
      const status = await c.get(`/api/v2/transaction/status/${String(body['correlationId'])}`);
      expect(status.body.responseCode).toBe(testCase.code);
    });
  }

  it("prints the 001 message exactly as the spec's shape, with the SKU's name", async () => {
    const c = await client();
    const name = c.app.data.index.skuById.get(193)?.skuName;
    const res = await c.post(TOPUP, topup(193, 150, JM));
    expect(res.body.responseMessage).toBe(`The charge amount for Denomination ${name} should be between 5.00 USD and 100.00 USD`);
  });

  it('refuses when funds do not suffice, and charges nothing', async () => {
    const c = await client({ behaviour: { initialBalance: 3 } });
    const res = await c.post(TOPUP, topup(193, 50, JM));
    expect(res.body.responseCode).toBe('009');
    expect(await c.funds()).toBe(3);
  });

  it('refuses a reused correlationId and keeps the original result readable', async () => {
    const c = await client();
    const body = topup(193, 10, JM);
    const first = await c.post(TOPUP, body);
    const before = await c.funds();
    const again = await c.post(TOPUP, { ...body, amount: 20 });
    expect(again.body.responseCode).toBe('015');
    expect(await c.funds()).toBe(before);
    expect((await c.get(`/api/v2/transaction/status/${String(body['correlationId'])}`)).body).toEqual(first.body);
  });

  const invalid: Array<{ name: string; body: Record<string, unknown>; field: string }> = [
    {
      name: 'correlationId of 51 characters',
      body: { skuId: 193, amount: 10, mobile: JM, correlationId: 'x'.repeat(51) },
      field: 'correlationId',
    },
    { name: 'empty correlationId', body: { skuId: 193, amount: 10, mobile: JM, correlationId: '' }, field: 'correlationId' },
    { name: 'missing mobile', body: { skuId: 193, amount: 10, correlationId: 'no-mobile' }, field: 'mobile' },
    {
      name: 'operatorPin of 7 characters',
      body: { skuId: 193, amount: 10, mobile: JM, correlationId: 'pin-7', operatorPin: '1234567' },
      field: 'operatorPin',
    },
    { name: 'skuId beyond int32', body: { skuId: 2_147_483_648, amount: 10, mobile: JM, correlationId: 'big-sku' }, field: 'skuId' },
    { name: 'amount as text', body: { skuId: 193, amount: '10', mobile: JM, correlationId: 'text-amount' }, field: 'amount' },
  ];
  for (const testCase of invalid) {
    it(`${testCase.name} -> validation failure naming ${testCase.field}, nothing stored`, async () => {
      const c = await client();
      const before = await c.funds();
      const res = await c.post(TOPUP, testCase.body);
      expect(res.status).toBe(200);
      expect(res.body.responseCode).toBe('003');
      expect(res.body.responseMessage).toContain(testCase.field);
      expect(await c.funds()).toBe(before);
      const id = String(testCase.body['correlationId']);
      if (id.length > 0 && id.length <= 50) {
        expect((await c.get(`/api/v2/transaction/status/${id}`)).body.responseCode).toBe('027');
      }
    });
  }

  it('accepts a correlationId of exactly 50 characters', async () => {
    const c = await client();
    const res = await c.post(TOPUP, { skuId: 193, amount: 10, mobile: JM, correlationId: 'y'.repeat(50) });
    expect(res.body.responseCode).toBe('000');
  });

  it('charges failures only under the chargeFailures planted-bug toggle', async () => {
    const c = await client({ behaviour: { chargeFailures: true } });
    const before = await c.funds();
    const res = await c.post(TOPUP, topup(193, 10, '18762345510'));
    expect(res.body.responseCode).toBe('510');
    expect(await c.funds()).toBeLessThan(before);
  });
});

describe('top-up: sandbox triggers (spec table)', () => {
  const codeTriggers = [
    { mobile: '18762345510', amount: 10, code: '510' },
    { mobile: '18762345500', amount: 10, code: '500' },
    { mobile: '18762345888', amount: 4.5, code: '001' },
  ];
  for (const trigger of codeTriggers) {
    it(`number ${trigger.mobile} -> ${trigger.code}, final through status, nothing charged`, async () => {
      const c = await client();
      const before = await c.funds();
      const body = topup(193, trigger.amount, trigger.mobile);
      const res = await c.post(TOPUP, body);
      expect(res.body.responseCode).toBe(trigger.code);
      expect(await c.funds()).toBe(before);
      expect((await c.get(`/api/v1/transaction/status/${String(body['correlationId'])}`)).body.responseCode).toBe(trigger.code);
    });
  }

  it('the 001 trigger prints the denomination bounds in the spec message shape', async () => {
    const c = await client();
    const res = await c.post(TOPUP, topup(193, 1, '18762345888'));
    expect(res.body.responseMessage).toMatch(/^The charge amount for Denomination .+ should be between 5\.00 USD and 100\.00 USD$/);
  });

  const delays = [
    { suffix: '666666', mobile: '18761666666', realMs: 120_000 },
    { suffix: '555555', mobile: '18761555555', realMs: 90_000 },
  ];
  for (const delay of delays) {
    it(`number ending ${delay.suffix}: response held ${delay.realMs} ms x time scale, status '852' meanwhile, then final`, async () => {
      // 0.01: the response is held 1.2 s / 0.9 s, ample room to read status while it is held, even on a busy CPU.
      const timeScale = 0.01;
      const c = await client({ timeScale });
      const before = await c.funds();
      const body = topup(193, 10, delay.mobile);
      const started = Date.now();
      const pending = c.post(TOPUP, body);
      // Wait for the state (the sandbox holds the transaction), not for a fixed time.
      await waitFor(() => c.app.store.pendingCount === 1, 'the held top-up to be stored');
      const during = await c.get(`/api/v2/transaction/status/${String(body['correlationId'])}`);
      expect(during.body.responseCode).toBe('852');
      expect(during.body.payLoad).toBeNull();
      expect(await c.funds()).toBe(before);
      const res = await pending;
      expect(Date.now() - started).toBeGreaterThanOrEqual(delay.realMs * timeScale - 5);
      expect(res.body.responseCode).toBe('000');
      const after = await c.get(`/api/v2/transaction/status/${String(body['correlationId'])}`);
      expect(after.body).toEqual(res.body);
      expect(await c.funds()).toBeLessThan(before);
    });
  }

  it('production mode has no triggers', async () => {
    const c = await client({ mode: 'production' });
    for (const mobile of ['18762345510', '18762345500', '18761666666']) {
      expect((await c.post(TOPUP, topup(193, 10, mobile))).body.responseCode).toBe('000');
    }
  });
});

describe('top-up: two-step bundle purchase with a loan', () => {
  it('refuses the face value alone, accepts face value + loan, and the loan is gone afterwards', async () => {
    const c = await client();
    const { bundleProductId, loanNumbers } = c.app.data.samples;
    const mobile = loanNumbers.find((n) => n.startsWith('1876')) as string;
    const step1 = await c.get(`/api/v2/catalog/bundles/${bundleProductId}/${mobile}`);
    expect(step1.body.responseCode).toBe('000');
    const bundle = (step1.body.payLoad as Array<Record<string, unknown>>)[0] as Record<string, unknown>;
    const loan = bundle['loanAmountInWalletCurrency'] as number;
    expect(loan).toBeGreaterThan(0);
    const face = (bundle['min'] as Record<string, number>)['faceValueInWalletCurrency'] as number;

    const before = await c.funds();
    const faceOnly = await c.post(TOPUP, topup(bundle['skuId'] as number, face, mobile));
    expect(faceOnly.body.responseCode).not.toBe('000');
    expect(await c.funds()).toBe(before);

    const withLoan = await c.post(TOPUP, topup(bundle['skuId'] as number, Math.round((face + loan) * 100) / 100, mobile));
    expect(withLoan.body.responseCode).toBe('000');

    const after = await c.get(`/api/v2/catalog/bundles/${bundleProductId}/${mobile}`);
    expect((after.body.payLoad as Array<Record<string, unknown>>)[0]?.['loanAmountInWalletCurrency']).toBe(0);
    expect((await c.post(TOPUP, topup(bundle['skuId'] as number, face, mobile))).body.responseCode).toBe('000');
  });

  it('a number without dues buys the bundle at face value', async () => {
    const c = await client();
    const { bundleProductId } = c.app.data.samples;
    const step1 = await c.get(`/api/v2/catalog/bundles/${bundleProductId}/${JM}`);
    const bundle = (step1.body.payLoad as Array<Record<string, unknown>>)[0] as Record<string, unknown>;
    expect(bundle['loanAmountInWalletCurrency']).toBe(0);
    const face = (bundle['min'] as Record<string, number>)['faceValueInWalletCurrency'] as number;
    expect((await c.post(TOPUP, topup(bundle['skuId'] as number, face, JM))).body.responseCode).toBe('000');
  });
});
