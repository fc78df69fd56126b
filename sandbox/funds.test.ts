// Starting funds: the `funds` option sets the wallet (default 10 000, the generous LOAD_SANDBOX_FUNDS for load runs),
// reset() restores it, bad values are refused, and a drained wallet answers '009' (insufficient funds, assumed code).
import { describe, expect, it } from 'vitest';
import { isHarnessError } from '../api/errors.ts';
import { buildApp } from './app.ts';
import { DEFAULT_FUNDS, LOAD_SANDBOX_FUNDS } from './behaviour.ts';
import { newCorrelationId } from './routes/testing.ts';
import { clientsClosedAfterEach } from './fixtures/test-clients.ts';

const client = clientsClosedAfterEach();

const topup = (): Record<string, unknown> => ({ skuId: 193, amount: 10, mobile: '18762345678', correlationId: newCorrelationId() });

describe('funds', () => {
  it('defaults to DEFAULT_FUNDS (10 000), served negated by the balance endpoint', async () => {
    const c = await client();
    expect(DEFAULT_FUNDS).toBe(10_000);
    expect(c.app.options.funds).toBe(DEFAULT_FUNDS);
    expect((await c.get('/api/v1/account/balance')).body.payLoad).toBe(-DEFAULT_FUNDS);
  });

  it('the funds option sets the start, over the profile and behaviour; reset() restores it', async () => {
    const c = await client({ funds: 123.45, behaviour: { initialBalance: 5 } });
    expect(await c.funds()).toBe(123.45);
    expect((await c.post('/api/v2/transaction/topup', topup())).body.responseCode).toBe('000');
    expect(await c.funds()).toBeLessThan(123.45);
    c.app.store.reset();
    expect(await c.funds()).toBe(123.45);
  });

  it("a drained wallet answers '009' to every later charge, and charges nothing", async () => {
    const c = await client({ funds: 25 });
    const codes: string[] = [];
    for (let i = 0; i < 4; i += 1) codes.push((await c.post('/api/v2/transaction/topup', topup())).body.responseCode);
    expect(codes.slice(0, 2)).toEqual(['000', '000']);
    expect(codes.slice(2)).toEqual(['009', '009']);
    const left = await c.funds();
    expect(left).toBeGreaterThanOrEqual(0);
    expect((await c.post('/api/v2/transaction/topup', topup())).body.responseMessage).toMatch(/^Insufficient funds/);
    expect(await c.funds()).toBe(left);
  });

  it('LOAD_SANDBOX_FUNDS is generous: 10^9, ~10^8 top-ups of 10 USD', async () => {
    expect(LOAD_SANDBOX_FUNDS).toBe(1_000_000_000);
    const c = await client({ funds: LOAD_SANDBOX_FUNDS });
    for (let i = 0; i < 50; i += 1) expect((await c.post('/api/v2/transaction/topup', topup())).body.responseCode).toBe('000');
    expect(await c.funds()).toBeGreaterThan(LOAD_SANDBOX_FUNDS - 1_000);
  });

  it('refuses negative, infinite and NaN funds (GH_ERR_CONFIG)', async () => {
    for (const funds of [-1, Number.POSITIVE_INFINITY, Number.NaN]) {
      const error = await buildApp({ funds }).then(
        (app) => app.close().then(() => undefined),
        (e: unknown) => e,
      );
      expect(isHarnessError(error) && error.code === 'GH_ERR_CONFIG', String(funds)).toBe(true);
    }
  });
});
