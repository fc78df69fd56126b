// The scenario table and the mixed scenario's weighted schedule, checked against the operation catalog: every purpose
// exists, the mix touches every operation, the schedule covers every action in one cycle.
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../api/operations.ts';
import { MIX_ACTIONS, MIX_WEIGHTS, deriveMixActions, mixEntries, mixOperations, mixSchedule } from './mix.ts';
import { SCENARIOS, SCENARIO_NAMES, scenarioCharges, scenarioOperations } from './scenarios.ts';

describe('scenarios', () => {
  it('names only purposes the catalog has, each in at least one listed version', () => {
    for (const name of SCENARIO_NAMES) {
      for (const version of ['v1', 'v2'] as const) {
        for (const purpose of SCENARIOS[name].purposes[version]) {
          expect(
            OPERATIONS.some((op) => op.purpose === purpose),
            `${name}: ${purpose}`,
          ).toBe(true);
        }
      }
    }
  });

  it('sends only the versions selected', () => {
    for (const name of SCENARIO_NAMES) {
      expect(scenarioOperations(name, 'v1').every((op) => op.version === 'v1')).toBe(true);
      expect(scenarioOperations(name, 'v2').every((op) => op.version === 'v2')).toBe(true);
    }
  });

  it('gives the gift card flow one source of gift card SKUs, the v2 gift card list (v1 has none; #31 item 6)', () => {
    expect(scenarioOperations('giftcard-flow', 'both').map((op) => op.id)).toEqual([
      'v1.transaction.status',
      'v1.transaction.giftcard-fetch',
      'v1.transaction.giftcard',
      'v2.catalog.skus-giftcards',
      'v2.transaction.status',
      'v2.transaction.giftcard-fetch',
      'v2.transaction.giftcard',
    ]);
  });

  it('marks as charging exactly the scenarios that send a charging operation (catalog `charges`)', () => {
    const charging = SCENARIO_NAMES.filter((name) => scenarioCharges(name, 'both'));
    expect(charging).toEqual(['topup-flow', 'giftcard-flow', 'mixed']);
  });
});

describe('mixed', () => {
  it('touches every operation of the catalog', () => {
    const covered = new Set(mixOperations(['v1', 'v2']));
    const missing = OPERATIONS.filter((op) => !covered.has(op.id)).map((op) => op.id);
    expect(missing).toEqual([]);
    expect(scenarioOperations('mixed', 'both')).toHaveLength(OPERATIONS.length);
  });

  it('derives one action per purpose from the catalog; a linked read follows the write it links to', () => {
    const purposes = new Set(OPERATIONS.map((op) => op.purpose));
    const started = MIX_ACTIONS.map((a) => a.action);
    expect(new Set(started).size).toBe(started.length);
    expect(started).not.toContain('transaction.status');
    expect(MIX_ACTIONS.find((a) => a.action === 'transaction.topup')?.purposes).toEqual(['transaction.topup', 'transaction.status']);
    expect(MIX_ACTIONS.find((a) => a.action === 'transaction.giftcard')?.purposes).toEqual(['transaction.giftcard', 'giftcard.fetch']);
    expect(new Set(MIX_ACTIONS.flatMap((a) => a.purposes))).toEqual(purposes);
  });

  it('overrides weights only of purposes the catalog has; every other action weighs 1', () => {
    for (const purpose of Object.keys(MIX_WEIGHTS))
      expect(
        OPERATIONS.some((op) => op.purpose === purpose),
        purpose,
      ).toBe(true);
    expect(deriveMixActions(OPERATIONS, {}).every((a) => a.weight === 1)).toBe(true);
  });

  it('a new operation joins the mix by itself', () => {
    const balance = OPERATIONS.find((op) => op.id === 'v2.account.balance')!;
    const madeUp = { ...balance, id: 'v2.account.made-up', purpose: 'account.made-up' };
    expect(deriveMixActions([...OPERATIONS, madeUp]).map((a) => a.action)).toContain('account.made-up');
  });

  it('runs every entry `weight` times in one cycle of the schedule', () => {
    const entries = mixEntries(['v1', 'v2']);
    const cycle = mixSchedule(entries);
    expect(cycle).toHaveLength(entries.reduce((sum, e) => sum + e.weight, 0));
    for (const entry of entries) expect(cycle.filter((e) => e === entry)).toHaveLength(entry.weight);
    expect(SCENARIOS.mixed.smokeIterations).toBe(cycle.length);
  });

  it('spreads heavy actions out instead of running them back to back', () => {
    const cycle = mixSchedule(mixEntries(['v2']));
    const topups = cycle.map((e, i) => (e.action === 'transaction.topup' ? i : -1)).filter((i) => i >= 0);
    expect(topups).toHaveLength(4);
    for (let i = 1; i < topups.length; i++) expect((topups[i] as number) - (topups[i - 1] as number)).toBeGreaterThan(1);
  });
});
