// What the money plan counts for the cases whose charges were priced above what they send (#31): LOAN at its spend
// limit instead of a SKU's highest price, GEN's money sequences at the valid writes their quota really lets through.
import { describe, expect, it } from 'vitest';
import { DEFAULT_GEN_BUDGET } from './gen/options.ts';
import { planWithGen } from './gen/plan.ts';
import { conformanceFundsLines } from './money-plan.ts';
import { DEFAULT_SETTINGS, mergeSettings } from '../target/settings.ts';

const gen = { seed: 31, budget: DEFAULT_GEN_BUDGET };
const cases = planWithGen({ api: 'both' }, gen);
const linesOf = (id: string, runs?: number) =>
  conformanceFundsLines(
    cases.filter((c) => c.id === id),
    DEFAULT_SETTINGS,
    runs === undefined ? gen : { ...gen, chargingRuns: runs },
  );

describe('LOAN-TWO-STEP in the plan', () => {
  it('one top-up priced at settings.loanSpendLimit, the most the case sends (before: the highest price of a SKU)', () => {
    expect(linesOf('LOAN-TWO-STEP')).toMatchObject([{ count: 1, amount: { body: { amount: DEFAULT_SETTINGS.loanSpendLimit } } }]);
    const raised = conformanceFundsLines(
      cases.filter((c) => c.id === 'LOAN-TWO-STEP'),
      mergeSettings(DEFAULT_SETTINGS, { loanSpendLimit: 60 }),
      gen,
    );
    expect(raised).toMatchObject([{ amount: { body: { amount: 60 } } }]);
  });
});

describe('GEN-MONEY-SEQUENCE in the plan', () => {
  const counts = (runs?: number): Record<string, number> =>
    Object.fromEntries(linesOf('GEN-MONEY-SEQUENCE-V2', runs).map((line) => [line.operations[0]?.purpose, line.count]));

  it('at the full budget, each kind by its share of the runs', () => {
    expect(counts()).toEqual({
      'transaction.topup': 45,
      'transaction.pin': 21,
      'transaction.billpay': 21,
      'transaction.giftcard': 21,
      'transaction.esim': 6,
      'transaction.sim-activation': 3,
      'transaction.sim-portin': 3,
    });
  });

  it('cut to one run (a small wallet): only the kinds whose share reaches one write, no dear SIM (before: one of each kind)', () => {
    expect(counts(1)).toEqual({ 'transaction.topup': 1 });
    const lines = linesOf('GEN-MONEY-SEQUENCE-V2');
    const at = (runs: number): Record<string, number> =>
      Object.fromEntries(lines.map((line) => [line.operations[0]?.purpose, line.elastic?.count(runs) ?? line.count]));
    expect(at(1)).toMatchObject({ 'transaction.topup': 1, 'transaction.sim-activation': 0, 'transaction.sim-portin': 0 });
    expect(at(10)).toMatchObject({ 'transaction.topup': 15, 'transaction.pin': 7, 'transaction.esim': 2, 'transaction.sim-activation': 1 });
  });
});
