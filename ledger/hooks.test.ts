// The money guard in the client core's hooks, with a scripted transport and a fake clock: nothing charging leaves
// without a durable ledger line, the cap refuses before the transport, outcomes settle the reservation, and a
// transaction followed through the status endpoint gets its final outcome line.
import { describe, expect, it } from 'vitest';
import { createClientCore } from '../api/client-core.ts';
import { toGatewayResponse, type GatewayResponse } from '../api/envelope.ts';
import { DEFAULT_FIELD_MAPPING } from '../api/field-mapping.ts';
import type { BuiltRequest } from '../api/request-builder.ts';
import { createLocalBudget } from './budget.ts';
import { createEntryIds, type LedgerLine } from './entry.ts';
import { createMoneyHooks, isMoneyRefusal, type MoneyHost } from './hooks.ts';
import { foldLedger, ledgerTotals } from './ledger-state.ts';
import type { MoneySettings } from './money-settings.ts';
import { buildPriceBook } from './price-book.ts';

const ALLOWED: MoneySettings = { environment: 'production', allowCharges: true, cap: { amount: 20, currency: 'USD' }, ledger: true };

interface Answer {
  code: string | 'timeout' | 'http500';
  charged?: number;
}

function harness(options: { settings?: MoneySettings; host?: Partial<MoneyHost>; topup?: Answer[]; status?: Answer[] } = {}) {
  let clock = 1_000_000;
  const events: string[] = [];
  const lines: LedgerLine[] = [];
  const sent: BuiltRequest[] = [];
  const budget = createLocalBudget(2000);
  const host: MoneyHost = {
    budget,
    append: (line) => {
      events.push(`ledger ${line.type}`);
      lines.push(line);
    },
    ...options.host,
  };
  const queues = { topup: options.topup ?? [{ code: '000', charged: 4.8 }], status: options.status ?? [{ code: '000' }] };
  const answer = (built: BuiltRequest, a: Answer): GatewayResponse => {
    const timings = { startedAt: clock, totalMs: 1 };
    if (a.code === 'timeout') return toGatewayResponse({ operationId: built.operationId, timedOut: true, timings });
    if (a.code === 'http500')
      return toGatewayResponse({ operationId: built.operationId, httpStatus: 500, bodyText: '', timedOut: false, timings });
    const ok = a.code === '000';
    const body = {
      responseCode: a.code,
      responseMessage: ok ? null : 'msg',
      payLoad: ok ? { transactionId: 9, ...(a.charged === undefined ? {} : { invoiceAmount: a.charged }) } : null,
    };
    return toGatewayResponse({ operationId: built.operationId, httpStatus: 200, bodyText: JSON.stringify(body), timedOut: false, timings });
  };
  const hooks = createMoneyHooks({
    settings: options.settings ?? ALLOWED,
    host,
    prices: buildPriceBook([[1, { w: 9 }]]),
    target: 'http://gw',
    runId: 'run-1',
    command: 'test',
    status: { serviceTimeoutMs: 120, notFoundCodes: ['027'] },
    mapping: DEFAULT_FIELD_MAPPING.transaction,
    now: () => clock,
    newEntryId: createEntryIds('t'),
  });
  const core = createClientCore({
    target: { baseUrl: 'http://gw', user: 'u', password: 'pw' },
    transport: {
      async send(built) {
        events.push(`send ${built.operationId}`);
        sent.push(built);
        const queue = built.url.includes('/status/') ? queues.status : queues.topup;
        return answer(built, (queue.length > 1 ? queue.shift() : queue[0]) as Answer);
      },
    },
    timings: { connectTimeoutMs: 1_000, responseTimeoutMs: 1_000, pollIntervalMs: 10, pollDeadlineMs: 1_000 },
    status: { serviceTimeoutMs: 120, notFoundCodes: ['027'] },
    now: () => clock,
    sleep: async (ms) => {
      clock += ms;
    },
    hooks,
  });
  return { core, hooks, events, lines, sent, budget };
}

const body = (id: string, amount = 5) => ({ body: { skuId: 1, amount, mobile: '18765550000', correlationId: id } });

describe('money hooks', () => {
  it('refuses a charging request on production without the allowance: the transport never sees it', async () => {
    const h = harness({ settings: { environment: 'production', allowCharges: false, ledger: true } });
    const error = await h.core.transact('v2.transaction.topup', body('c-1')).catch((e: unknown) => e);
    expect(isMoneyRefusal(error) || (error as { code?: string }).code === 'GH_ERR_CHARGES').toBe(true);
    expect(h.sent).toHaveLength(0);
    expect(h.lines).toHaveLength(0);
  });

  it('writes the request line before the request leaves and the outcome after', async () => {
    const h = harness();
    const result = await h.core.transact('v2.transaction.topup', body('c-1'));
    expect(result.outcome).toBe('Successful');
    expect(h.events).toEqual(['ledger request', 'send v2.transaction.topup', 'ledger outcome']);
    expect(h.lines[0]).toMatchObject({
      type: 'request',
      correlationId: 'c-1',
      operationId: 'v2.transaction.topup',
      skuId: 1,
      amount: 5,
      currency: null,
      estimate: { amount: 5, currency: 'USD' },
      target: 'http://gw',
    });
    expect(h.lines[1]).toMatchObject({
      type: 'outcome',
      entry: h.lines[0]?.entry,
      outcome: 'Successful',
      final: true,
      charged: { amount: 4.8, from: 'payload' },
      source: 'response',
    });
  });

  it('waits for an asynchronous ledger write to finish before sending', async () => {
    const sentWhenDurable: number[] = [];
    const h = harness({
      host: {
        append: async () => {
          await new Promise((r) => setTimeout(r, 20));
          sentWhenDurable.push(h.sent.length);
        },
      },
    });
    await h.core.call('v2.transaction.topup', body('c-1'));
    // The request line became durable with nothing sent yet; the outcome line after the one request.
    expect(sentWhenDurable).toEqual([0, 1]);
  });

  it('sends nothing when the ledger line cannot be written, and gives the reservation back', async () => {
    const h = harness({
      host: {
        append: () => {
          throw new Error('ENOSPC: no space left on device');
        },
      },
    });
    const error = await h.core.call('v2.transaction.topup', body('c-1')).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'GH_ERR_LEDGER', reason: 'ledger' });
    expect((error as Error).message).toMatch(/ENOSPC/);
    expect(h.sent).toHaveLength(0);
    expect(h.budget.committed()).toBe(0);
  });

  it('refuses the request whose worst case would cross the cap, before the transport', async () => {
    const h = harness({ topup: [{ code: '000' }] });
    await h.core.transact('v2.transaction.topup', body('c-1', 9));
    await h.core.transact('v2.transaction.topup', body('c-2', 9));
    const error = await h.core.transact('v2.transaction.topup', body('c-3', 9)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'GH_ERR_SPEND_CAP', reason: 'cap', operationId: 'v2.transaction.topup' });
    expect((error as Error).message).toMatch(/worst case 9\.00 USD would cross the spend cap 20\.00 USD \(18\.00 USD committed\)/);
    expect(h.sent.map((b) => b.body)).toHaveLength(2);
  });

  it('gives a Failed transaction its reservation back once the status endpoint confirms it, and settles a Successful one at the charged amount', async () => {
    const h = harness({ topup: [{ code: '510' }, { code: '000', charged: 7.25 }], status: [{ code: '510' }] });
    await h.core.transact('v2.transaction.topup', body('c-1', 9));
    // Production: the direct failure alone is the gateway's word; the worst case stays reserved until the status read.
    expect(h.budget.committed()).toBe(900);
    await h.core.call('v2.transaction.status', { path: { correlationId: 'c-1' } });
    expect(h.budget.committed()).toBe(0);
    await h.core.transact('v2.transaction.topup', body('c-2', 9));
    expect(h.budget.committed()).toBe(725);
  });

  it('sandbox ledger: a direct failure gives its reservation back at once', async () => {
    const h = harness({ settings: { ...ALLOWED, environment: 'sandbox' }, topup: [{ code: '510' }] });
    await h.core.transact('v2.transaction.topup', body('c-1', 9));
    expect(h.budget.committed()).toBe(0);
  });

  it('#32: settles a success whose charged amount is implausible (zero, negative) at its reservation, never at nothing', async () => {
    const h = harness({
      topup: [
        { code: '000', charged: 0 },
        { code: '000', charged: -3 },
      ],
    });
    await h.core.transact('v2.transaction.topup', body('c-1', 9));
    await h.core.transact('v2.transaction.topup', body('c-2', 9));
    expect(h.budget.committed()).toBe(1800);
    const outcomes = h.lines.filter((l) => l.type === 'outcome');
    expect(outcomes.map((l) => l.type === 'outcome' && l.charged)).toEqual([
      { amount: 9, currency: 'USD', from: 'estimate' },
      { amount: 9, currency: 'USD', from: 'estimate' },
    ]);
    // The cap holds: a third 9 USD top-up would cross 20 USD.
    await expect(h.core.transact('v2.transaction.topup', body('c-3', 9))).rejects.toMatchObject({ code: 'GH_ERR_SPEND_CAP' });
  });

  it('#32: a direct failure the status endpoint says was Successful is recorded Successful and settled as a charge', async () => {
    const h = harness({ topup: [{ code: '011' }], status: [{ code: '000', charged: 8.5 }] });
    const result = await h.core.transact('v2.transaction.topup', body('c-1', 9));
    expect(result).toMatchObject({ outcome: 'Failed', final: true });
    await h.core.call('v2.transaction.status', { path: { correlationId: 'c-1' } });
    expect(h.budget.committed()).toBe(850);
    const transactions = foldLedger(h.lines);
    expect(transactions[0]?.outcome).toMatchObject({ outcome: 'Successful', source: 'status', charged: { amount: 8.5, from: 'payload' } });
    expect(ledgerTotals(transactions)).toMatchObject({ successful: 1, failed: 0 });
  });

  it('refuses a charge it cannot bound (no amount, SKU without a price) under a cap', async () => {
    const h = harness();
    const error = await h.core.call('v2.transaction.pin', { body: { skuId: 2, correlationId: 'p-1' } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'GH_ERR_SPEND_CAP', reason: 'unbounded' });
    expect(h.sent).toHaveLength(0);
  });

  it('records the final outcome a status poll finds after a client timeout', async () => {
    const h = harness({ topup: [{ code: 'timeout' }], status: [{ code: '852' }, { code: '000', charged: 5 }] });
    const result = await h.core.transact('v1.transaction.topup', body('c-9'));
    expect(result).toMatchObject({ outcome: 'Successful', final: true });
    const outcomes = h.lines.filter((l) => l.type === 'outcome');
    expect(outcomes.map((l) => [l.type === 'outcome' && l.outcome, l.type === 'outcome' && l.source])).toEqual([
      ['Unknown', 'response'],
      ['Successful', 'status'],
    ]);
    expect(h.hooks.openEntries()).toBe(0);
  });

  it("sandbox ledger: keeps a '027' before the service-side timeout open, and records it Failed after", async () => {
    const h = harness({ settings: { ...ALLOWED, environment: 'sandbox' }, topup: [{ code: 'timeout' }], status: [{ code: '027' }] });
    const result = await h.core.transact('v2.transaction.topup', body('c-7'));
    expect(result).toMatchObject({ outcome: 'Failed', final: true });
    const final = h.lines.find((l) => l.type === 'outcome' && l.final);
    expect(final).toMatchObject({ outcome: 'Failed', code: '027', source: 'status' });
    // Polled more than once: the first '027' answers came before the service-side timeout (120 ms here).
    expect(h.sent.filter((b) => b.url.includes('/status/')).length).toBeGreaterThan(1);
  });

  it("production ledger: a '027' after the service-side timeout is no outcome of the money: nothing final recorded, the entry stays open", async () => {
    const h = harness({ topup: [{ code: 'timeout' }], status: [{ code: '027' }] });
    await h.core.transact('v2.transaction.topup', body('c-8'));
    expect(h.sent.filter((b) => b.url.includes('/status/')).length).toBeGreaterThan(1);
    expect(h.lines.filter((l) => l.type === 'outcome' && l.final)).toEqual([]);
    expect(h.hooks.openEntries()).toBe(1);
    // Its reservation stays counted: the account may have been charged.
    expect(h.budget.committed()).toBeGreaterThan(0);
  });

  it('an HTTP 500 on a submission is final Failed (spec: "Treated as failed by the client"); its reservation is held until the status endpoint has no record of it', async () => {
    const h = harness({ topup: [{ code: 'http500' }], status: [{ code: '027' }] });
    const result = await h.core.transact('v2.transaction.topup', body('c-5'));
    expect(result).toMatchObject({ outcome: 'Failed', final: true });
    expect(h.lines[1]).toMatchObject({ outcome: 'Failed', rule: 'http-not-200', httpStatus: 500 });
    expect(h.budget.committed()).toBe(500);
    await h.core.call('v2.transaction.status', { path: { correlationId: 'c-5' } });
    expect(h.budget.committed()).toBe(0);
  });

  it("refuses to arm with a cap in another currency than the wallet the price book names (a bundle's init): nothing can be sent", () => {
    const make = (cap: string) => () =>
      createMoneyHooks({
        settings: { ...ALLOWED, cap: { amount: 150, currency: cap } },
        host: {},
        prices: buildPriceBook([[1, { w: 9 }]], 'USD'),
        target: 'http://gw',
        runId: 'run-1',
        command: 'test',
        status: { serviceTimeoutMs: 120, notFoundCodes: ['027'] },
        mapping: DEFAULT_FIELD_MAPPING.transaction,
        now: () => 0,
        newEntryId: createEntryIds('t'),
      });
    expect(make('JPY')).toThrow(/--max-spend 150 JPY: the target's wallet is in USD/);
    expect(make('JPY')).toThrow(expect.objectContaining({ code: 'GH_ERR_USAGE' }));
    expect(make('USD')).not.toThrow();
  });

  it('leaves reads alone: no line, no reservation', async () => {
    const h = harness({ topup: [{ code: '000' }] });
    await h.core.call('v2.account.balance');
    expect(h.lines).toHaveLength(0);
    expect(h.budget.committed()).toBe(0);
  });
});
