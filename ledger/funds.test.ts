// The plan priced against the wallet (ledger/funds.ts): how a balance reads as available funds (the spec's sign rule,
// overridable), what a plan costs at the amounts it sends, and the one line that stops a run the wallet cannot cover.
import { describe, expect, it } from 'vitest';
import { readCatalogSkus } from '../api/catalog-facts.ts';
import { isHarnessError } from '../api/errors.ts';
import { DEFAULT_FIELD_MAPPING } from '../api/field-mapping.ts';
import { getOperation } from '../api/operations.ts';
import { assertFundsCover, fitPlan, fundsLine, pricePlan, readFunds, unitPrice, versionPlan, type FundsPlan } from './funds.ts';
import { buildPriceBook, priceOfV2Record } from './price-book.ts';

const rtr = (skuId: number, min: number, max: number, countryCode = 'JM') => ({
  skuId,
  countryCode,
  category: 'Rtr',
  min: { faceValue: min, faceValueCurrency: 'USD', faceValueInWalletCurrency: min, costCurrency: 'USD' },
  max: { faceValue: max, faceValueCurrency: 'USD', faceValueInWalletCurrency: max },
});
const RECORDS = [rtr(1, 5, 100), rtr(2, 20, 50, 'MX')];
const SKUS = readCatalogSkus(RECORDS, 'v2', DEFAULT_FIELD_MAPPING);
const PRICES = buildPriceBook(
  RECORDS.map((r) => priceOfV2Record(r, DEFAULT_FIELD_MAPPING.v2Sku)),
  'USD',
);
const V1 = getOperation('v1.transaction.topup');
const V2 = getOperation('v2.transaction.topup');

const plan = (count: number): FundsPlan => ({
  what: 'gate',
  lines: [
    { operations: [V1], count, amount: 'smallest', what: 'POLL-MIXED-V1' },
    { operations: [V2], count, amount: 'smallest', what: 'POLL-MIXED-V2' },
  ],
  unbounded: [],
  smaller: 'fewer GEN runs (--gen-budget 5)',
});

describe('the balance as available funds (spec Balance: prepaid funds with a negative sign, credit terms the amount owed)', () => {
  it('a negative balance is prepaid funds', () => {
    expect(readFunds(-1000)).toMatchObject({ available: 1000 });
  });

  it('0 or above is not judged by default (an empty prepaid wallet or an amount owed): said, with the setting that decides', () => {
    for (const balance of [0, 250]) {
      const reading = readFunds(balance);
      expect(reading.available).toBeUndefined();
      expect(reading.said).toMatch(/walletTerms "prepaid" or "credit"/);
    }
  });

  it('walletTerms overrides: prepaid reads 0 as an empty wallet, credit never prices against the amount owed', () => {
    expect(readFunds(0, 'prepaid')).toMatchObject({ available: 0 });
    expect(readFunds(-1000, 'credit').available).toBeUndefined();
    expect(readFunds(undefined).available).toBeUndefined();
  });
});

describe('the plan priced at the amounts it sends', () => {
  it("smallest: the builder's picks at their minimum; highest: their highest price", () => {
    // The builder prefers Jamaica (the spec's example): SKU 1 first, then SKU 2.
    expect(unitPrice(V2, 'smallest', SKUS, PRICES, 'USD')).toBe(20);
    expect(unitPrice(V2, 'highest', SKUS, PRICES, 'USD')).toBe(100);
    expect(unitPrice(V2, 'near-smallest', SKUS, PRICES, 'USD')).toBe(21);
    expect(unitPrice(V2, { picks: (skus) => skus.map((s) => ({ skuId: s.skuId, amount: 7 })) }, SKUS, PRICES, 'USD')).toBe(7);
  });

  it("first: the one request a case builds; without the countries with numbers known, each country's first is priced", () => {
    // SKU 1 (JM, 5) is the builder's first; were Jamaica without numbers, the case would send SKU 2 (MX, 20).
    expect(unitPrice(V2, 'first', SKUS, PRICES, 'USD')).toBe(20);
    expect(unitPrice(V2, 'first', SKUS, PRICES, 'USD', true)).toBe(5);
    const line = { operations: [V2], count: 2, amount: 'first' as const, what: 'ENV-v2.transaction.topup', numbered: true };
    const skusOf = () => SKUS;
    expect(pricePlan({ what: 'gate', lines: [line], unbounded: [] }, skusOf, PRICES, 'USD').worst).toBe(40);
    expect(pricePlan({ what: 'gate', lines: [line], unbounded: [], numbered: (c) => c === 'JM' }, skusOf, PRICES, 'USD').worst).toBe(10);
    // Numbers for Mexico only: the JM SKU is never sent, the MX one is.
    expect(pricePlan({ what: 'gate', lines: [line], unbounded: [], numbered: (c) => c === 'MX' }, skusOf, PRICES, 'USD').worst).toBe(40);
  });

  it('sums count × the most expensive request of each line; one version is priced apart', () => {
    const skusOf = () => SKUS;
    expect(pricePlan(plan(10), skusOf, PRICES, 'USD')).toEqual({ worst: 400, currency: 'USD', requests: 20, unpriced: [] });
    expect(pricePlan(versionPlan(plan(10), 'v2'), skusOf, PRICES, 'USD')).toMatchObject({ worst: 200, requests: 10 });
    expect(pricePlan(plan(10), () => [], PRICES, 'USD').unpriced).toEqual([
      'POLL-MIXED-V1: v1.transaction.topup',
      'POLL-MIXED-V2: v2.transaction.topup',
    ]);
  });
});

describe('a wallet that cannot cover the plan stops the command before the first charge', () => {
  const skusOf = () => SKUS;

  it('one line: the amount needed, what the wallet holds, and what to do (top up, --api v2, a smaller plan); exit 2', () => {
    const priced = pricePlan(plan(10), skusOf, PRICES, 'USD');
    const oneVersion = pricePlan(versionPlan(plan(10), 'v2'), skusOf, PRICES, 'USD');
    let thrown: unknown;
    try {
      assertFundsCover(plan(10), priced, readFunds(-150), oneVersion);
    } catch (error) {
      thrown = error;
    }
    expect(isHarnessError(thrown) && thrown.code).toBe('GH_ERR_FUNDS');
    expect(isHarnessError(thrown) && thrown.exitCode).toBe(2);
    const message = (thrown as Error).message;
    expect(message).toContain('gate: the wallet cannot cover this run: it needs up to 400.00 USD for 20 charging requests');
    expect(message).toContain('the wallet holds 150.00 USD');
    expect(message).toContain(
      'top up the wallet by 250.00 USD, run one version (--api v2 needs up to 200.00 USD), run a smaller plan (fewer GEN runs (--gen-budget 5))',
    );
    expect(message).toMatch(/stopped before the first charge$/);
    expect(message.split('\n')).toHaveLength(1);
  });

  it('funds that cover it, or that are not known, let the run go ahead and say so', () => {
    const priced = pricePlan(plan(10), skusOf, PRICES, 'USD');
    expect(() => assertFundsCover(plan(10), priced, readFunds(-400))).not.toThrow();
    expect(() => assertFundsCover(plan(10), priced, readFunds(5))).not.toThrow();
    expect(fundsLine(plan(10), priced, readFunds(-400))).toMatch(
      /^money: gate needs up to 400.00 USD for 20 charging requests: covered by the wallet/,
    );
    expect(fundsLine(plan(10), priced, readFunds(5))).toMatch(/not judged|not priced/);
  });
});

/** 1 hand-written top-up (fixed) and GEN's top-ups: 10 a run, 30 runs at full budget, at least 1 run. */
const ELASTIC_PLAN: FundsPlan = {
  what: 'gate',
  lines: [
    { operations: [V2], count: 1, amount: 'smallest', what: 'STATUS-TOPUP-000-V2' },
    {
      operations: [V2],
      count: 300,
      amount: 'smallest',
      what: 'GEN-TOPUP-VALID-V2',
      elastic: { part: 'GEN charging budget', count: (runs) => runs * 10 },
    },
  ],
  unbounded: [],
  elastic: [{ part: 'GEN charging budget', full: 30, min: 1, unit: 'runs per charging property' }],
};

describe('a wallet too small for the whole plan: the elastic parts shrink to fit it (fitPlan)', () => {
  const skusOf = () => SKUS;
  it('covered: the whole plan at full values, nothing cut', () => {
    const fitted = fitPlan(ELASTIC_PLAN, skusOf, PRICES, 'USD', readFunds(-10_000));
    expect(fitted.values.get('GEN charging budget')).toBe(30);
    expect(fitted.priced.worst).toBe(6020);
    expect(fitted.cuts).toEqual([]);
  });

  it('not covered: the elastic part cut, as little as keeps the price within the funds less the margin, and said', () => {
    const fitted = fitPlan(ELASTIC_PLAN, skusOf, PRICES, 'USD', readFunds(-1000));
    // 900 USD (1000 less 10 %): 20 + 20 × 10 × runs ≤ 900 → 4 runs (820 USD).
    expect(fitted.values.get('GEN charging budget')).toBe(4);
    expect(fitted.priced.worst).toBe(820);
    expect(fitted.plan.lines.map((l) => l.count)).toEqual([1, 40]);
    expect(fitted.cuts).toEqual([
      'wallet 1000.00 USD < 6020.00 USD for the full plan: GEN charging budget 30 → 4 runs per charging property',
    ]);
    expect(fundsLine(fitted.plan, fitted.priced, readFunds(-1000), fitted.cuts)).toContain('cut to fit: wallet 1000.00 USD < 6020.00 USD');
  });

  it('even the smallest plan does not fit: GH_ERR_FUNDS naming the amount it needs, before the first charge', () => {
    expect(() => fitPlan(ELASTIC_PLAN, skusOf, PRICES, 'USD', readFunds(-100))).toThrow(
      /GH_ERR_FUNDS|gate \(even at its smallest: GEN charging budget 1 runs per charging property\): the wallet cannot cover this run: it needs up to 220.00 USD/,
    );
    let thrown: unknown;
    try {
      fitPlan(ELASTIC_PLAN, skusOf, PRICES, 'USD', readFunds(-100));
    } catch (error) {
      thrown = error;
    }
    expect(isHarnessError(thrown) && thrown.code).toBe('GH_ERR_FUNDS');
    expect((thrown as Error).message).toContain('it needs up to 220.00 USD for 11 charging requests');
  });

  it('a plan without elastic parts runs whole or stops (old behaviour kept)', () => {
    expect(() => fitPlan(plan(10), skusOf, PRICES, 'USD', readFunds(-150))).toThrow(
      /the wallet cannot cover this run: it needs up to 400.00 USD/,
    );
    expect(fitPlan(plan(10), skusOf, PRICES, 'USD', readFunds(-400)).cuts).toEqual([]);
  });
});

describe("a part that fills what the others leave (the gate's smoke load: the money left after conformance)", () => {
  const skusOf = () => SKUS;
  // ELASTIC_PLAN (a fixed top-up at 20; GEN: 10 top-ups a run at 20 each, 30 runs, at least 1) and a load that fills
  // (1 top-up an iteration at 20, 20 iterations, down to none).
  const withLoad: FundsPlan = {
    ...ELASTIC_PLAN,
    lines: [
      ...ELASTIC_PLAN.lines,
      { operations: [V2], count: 20, amount: 'smallest', what: 'load mixed (smoke)', elastic: { part: 'smoke load', count: (n) => n } },
    ],
    elastic: [...(ELASTIC_PLAN.elastic ?? []), { part: 'smoke load', full: 20, min: 0, unit: 'iterations', fill: true }],
  };

  it('cut with the others, then raised to take what they leave within the margin (before: cut by the same share only)', () => {
    const fitted = fitPlan(withLoad, skusOf, PRICES, 'USD', readFunds(-1000));
    // 900 USD of room: GEN at 4 runs (800) with the fixed top-up (20) leaves 80: 4 iterations (the same share gave 2).
    expect(fitted.values.get('GEN charging budget')).toBe(4);
    expect(fitted.values.get('smoke load')).toBe(4);
    expect(fitted.priced.worst).toBe(900);
    expect(fitted.cuts).toContain('wallet 1000.00 USD < 6420.00 USD for the full plan: smoke load 20 → 4 iterations');
  });

  it('nothing left for it: the part runs at none (its lines drop out of the plan), the rest goes ahead, never GH_ERR_FUNDS', () => {
    const fitted = fitPlan(withLoad, skusOf, PRICES, 'USD', readFunds(-250));
    expect(fitted.values.get('smoke load')).toBe(0);
    expect(fitted.values.get('GEN charging budget')).toBe(1);
    expect(fitted.plan.lines.map((l) => l.what)).toEqual(['STATUS-TOPUP-000-V2', 'GEN-TOPUP-VALID-V2']);
    expect(fitted.priced.worst).toBe(220);
    expect(fitted.cuts).toContain('wallet 250.00 USD < 6420.00 USD for the full plan: smoke load 20 → 0 iterations');
  });

  it('a wallet truly too small for the rest still stops with GH_ERR_FUNDS naming the amount', () => {
    expect(() => fitPlan(withLoad, skusOf, PRICES, 'USD', readFunds(-50))).toThrow(/it needs up to 220.00 USD for 11 charging requests/);
  });
});
