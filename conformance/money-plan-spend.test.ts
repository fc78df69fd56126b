// The conformance money plan against what a run really spends: the whole plan (GEN included) against the embedded
// sandbox, each case's charges read from the sandbox's own transactions, beside what the plan priced for that case.
import { AsyncLocalStorage } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FIELD_MAPPING } from '../api/field-mapping.ts';
import { getOperation } from '../api/operations.ts';
import { createGatewayClient } from '../client/gateway-client.ts';
import { readSkusOf } from '../ledger/funds-check.ts';
import { pricePlan } from '../ledger/funds.ts';
import { harnessClientConfig } from '../ledger/money-session.ts';
import { readPriceBook } from '../ledger/read-prices.ts';
import { startSandbox, type RunningSandbox } from '../sandbox/server.ts';
import { DEFAULT_SETTINGS, mergeSettings } from '../target/settings.ts';
import { rtrTarget, submitAndFinish, topupBody } from './cases/common.ts';
import { DEFAULT_GEN_BUDGET } from './gen/options.ts';
import { planWithGen } from './gen/plan.ts';
import { conformanceFundsLines } from './money-plan.ts';
import { runCases } from './runner.ts';
import { createNodeConformanceTarget, sandboxTargetConfig, timingFor } from './target.ts';
import type { ConformanceCase, RunResult, ScenarioCase } from './types.ts';

const TIME_SCALE = 0.01;

/** A charging case the money plan does not know: a top-up under an id no need names (the planted gap). */
const UNPRICED: ScenarioCase = {
  kind: 'scenario',
  id: 'PLANTED-UNPRICED-TOPUP',
  group: 'BAL',
  title: 'a top-up the money plan does not price',
  specSection: 'planted',
  rule: 'planted',
  api: 'v2',
  async scenario(ctx) {
    const { sku, mobile } = rtrTarget(ctx, await ctx.fixtures());
    await submitAndFinish(ctx, 'v2', 'v2.transaction.topup', topupBody(ctx, sku, mobile));
  },
};

/** Each case run as a scenario inside its own async context, so the transport can tell which case sent a request. */
function traced(cases: readonly ConformanceCase[], store: AsyncLocalStorage<string>): ConformanceCase[] {
  return cases.map((c): ConformanceCase => ({
    ...c,
    kind: 'scenario',
    scenario: (ctx) =>
      store.run(c.id, async () => {
        if (c.kind === 'scenario') return c.scenario(ctx);
        const exchange = await ctx.call(c.operationId, await c.input(await ctx.fixtures(), ctx), { credentials: c.credentials ?? 'valid' });
        for (const check of c.expect) ctx.check(check, exchange);
      }),
  }));
}

/** Cases whose charges exceed what the plan priced for them (a case the plan ignores is priced at nothing). */
function overspent(spent: ReadonlyMap<string, number>, priced: ReadonlyMap<string, number>): string[] {
  return [...spent]
    .filter(([id, amount]) => amount > (priced.get(id) ?? 0) + 1e-6)
    .map(([id, amount]) => `${id}: spent ${amount.toFixed(2)}, priced ${(priced.get(id) ?? 0).toFixed(2)}`);
}

describe('the money plan is a bound of what the run spends, case by case', () => {
  let sandbox: RunningSandbox;
  let result: RunResult;
  const spent = new Map<string, number>();
  const priced = new Map<string, number>();
  let delta = 0;

  beforeAll(async () => {
    sandbox = await startSandbox({ host: '127.0.0.1', port: 0, timeScale: TIME_SCALE, profile: 'faithful' });
    const config = sandboxTargetConfig(sandbox.url, TIME_SCALE);
    const settings = mergeSettings(DEFAULT_SETTINGS, {
      loanNumbers: [...sandbox.app.data.samples.loanNumbers],
      minRequestTimeoutMs: 30_000,
    });
    const gen = { seed: 31, budget: DEFAULT_GEN_BUDGET };
    const cases = [...planWithGen({ api: 'both' }, gen), UNPRICED];
    const store = new AsyncLocalStorage<string>();
    const base = createNodeConformanceTarget(config);
    const sentBy = new Map<string, string>();
    const target = {
      ...base,
      transport: {
        send: (built: Parameters<typeof base.transport.send>[0], options: Parameters<typeof base.transport.send>[1]) => {
          const correlationId =
            getOperation(built.operationId).charges && built.body !== undefined
              ? (JSON.parse(built.body) as { correlationId?: unknown }).correlationId
              : undefined;
          if (typeof correlationId === 'string') sentBy.set(correlationId, store.getStore() ?? '?');
          return base.transport.send(built, options);
        },
      },
    };
    const before = sandbox.app.store.availableFunds;
    try {
      result = await runCases(traced(cases, store), {
        target,
        settings,
        timing: timingFor(config, settings),
        mapping: DEFAULT_FIELD_MAPPING,
      });
    } finally {
      await target.close();
    }
    delta = before - sandbox.app.store.availableFunds;
    // What each case really spent: the charged amount of its succeeded transactions, as the sandbox stored them.
    for (const [correlationId, caseId] of sentBy) {
      const final = sandbox.app.store.byCorrelationId(correlationId)?.result as
        { responseCode?: string; payLoad?: { invoiceAmount?: number } } | undefined;
      if (final?.responseCode === '000') spent.set(caseId, (spent.get(caseId) ?? 0) + Number(final.payLoad?.invoiceAmount));
    }
    // What the plan priced for each case, from the same catalog reads as every command's funds check.
    const client = createGatewayClient(harnessClientConfig(config));
    try {
      const prices = (await readPriceBook(client, DEFAULT_FIELD_MAPPING)).book;
      const skusOf = await readSkusOf(client, DEFAULT_FIELD_MAPPING);
      // The embedded sandbox's countries all show a number plan: the cases have numbers for each (run-suite.ts
      // prices with the countries its catalog discovery found).
      const numbered = (): boolean => true;
      for (const line of conformanceFundsLines(cases, settings, gen)) {
        priced.set(
          line.what,
          (priced.get(line.what) ?? 0) +
            pricePlan({ what: line.what, lines: [line], unbounded: [], numbered }, skusOf, prices, 'USD').worst,
        );
      }
    } finally {
      await client.close();
    }
  }, 300_000);
  afterAll(async () => {
    await sandbox?.close();
  });

  it('the sandbox charged what the transactions say (the measure itself holds)', () => {
    const sum = [...spent.values()].reduce((a, b) => a + b, 0);
    expect(sum).toBeGreaterThan(0);
    expect(Math.abs(sum - delta)).toBeLessThan(0.05);
  });

  it('no case spends more than the plan priced for it; the planted charging case the plan ignores is caught', () => {
    const over = overspent(spent, priced);
    expect(over.map((line) => line.split(':')[0])).toEqual(['PLANTED-UNPRICED-TOPUP']);
  });

  it('a case that charges a bound takes the SKU whose bound is smallest: AT-MAX spends its cheapest maximum', () => {
    const atMax = [...spent].filter(([id]) => /^AMOUNT-.*-AT-MAX-/.test(id));
    expect(atMax).toHaveLength(4);
    // The seed-1 catalog's smallest maxima of the lookup countries: 50 USD (wallet), 6300 INR ≈ 75 USD (face);
    // before, the first SKU of Jamaica at its 100 USD maximum.
    for (const [, amount] of atMax) expect(amount).toBeLessThan(80);
  });

  it('the whole plan is priced at or above the wallet movement, and how close is said', () => {
    const plannedCases = [...priced.values()].reduce((a, b) => a + b, 0);
    const planted = spent.get('PLANTED-UNPRICED-TOPUP') ?? 0;
    const real = delta - planted;
    expect(plannedCases).toBeGreaterThanOrEqual(real);
    const parts = (prefix: RegExp): string => {
      const s = [...spent].filter(([id]) => prefix.test(id)).reduce((a, [, v]) => a + v, 0);
      const p = [...priced].filter(([id]) => prefix.test(id)).reduce((a, [, v]) => a + v, 0);
      return `${p.toFixed(0)}/${s.toFixed(0)} = ${(p / Math.max(s, 0.01)).toFixed(2)}`;
    };
    // The hand-written cases are priced at the SKU and amount each takes (#31): close to what they spend (before: 1.95×,
    // each SKU priced as the dearest of the builder's picks, every AT-MAX at the builder's first SKU's maximum).
    const handWritten = (m: ReadonlyMap<string, number>): number =>
      [...m].filter(([id]) => /^(?!GEN-|POLL-|PLANTED-)/.test(id)).reduce((a, [, v]) => a + v, 0);
    expect(handWritten(priced)).toBeLessThan(1.5 * handWritten(spent));
    // Reported, not asserted beyond the bound: the ratio is the plan's slack, GEN's random picks most of it.
    process.stderr.write(
      `money plan vs spend (faithful sandbox, GEN seed 31): priced ${plannedCases.toFixed(2)} USD, spent ${real.toFixed(2)} USD, ratio ${(plannedCases / real).toFixed(2)}; ` +
        `priced/spent: hand-written ${parts(/^(?!GEN-|POLL-|PLANTED-)/)}, GEN ${parts(/^GEN-/)}, POLL ${parts(/^POLL-/)}; ` +
        `${result.cases.filter((c) => c.status === 'failed').length} case(s) failed\n`,
    );
  });
});
