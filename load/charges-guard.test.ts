// The production refusal of charging scenarios, decided from the catalog's `charges` flags.
import { describe, expect, it } from 'vitest';
import { chargingRefusal } from './charges-guard.ts';
import { SCENARIO_NAMES, scenarioCharges } from './scenarios.ts';

describe('chargingRefusal', () => {
  it('refuses every charging scenario against production, naming the charging operations', () => {
    expect(chargingRefusal('topup-flow', 'v2', 'production')).toBe(
      'scenario topup-flow sends charging operations (v2.transaction.topup) and the target is production (GATEWAY_ENV/--env): refused, nothing was sent',
    );
    expect(chargingRefusal('mixed', 'both', 'production')).toMatch(/\(v1\.transaction\.topup, .* and \d+ more\)/);
  });

  it('lets read-only scenarios run against production', () => {
    for (const name of SCENARIO_NAMES.filter((n) => !scenarioCharges(n, 'both'))) expect(chargingRefusal(name, 'both', 'production')).toBeUndefined();
  });

  it('lets everything run against a sandbox', () => {
    for (const name of SCENARIO_NAMES) expect(chargingRefusal(name, 'both', 'sandbox')).toBeUndefined();
  });
});
