// The production guard: one decision from the catalog's `charges` flags, the same refusal line for every command.
import { describe, expect, it } from 'vitest';
import { getOperation, OPERATIONS } from '../api/operations.ts';
import { SCENARIO_NAMES, scenarioOperations } from '../load/scenarios.ts';
import { allowanceLine, assertChargesAllowed, chargingRefusal } from './guard.ts';
import type { MoneySettings } from './money-settings.ts';

const production: MoneySettings = { environment: 'production', allowCharges: false, ledger: true };
const allowed: MoneySettings = { environment: 'production', allowCharges: true, cap: { amount: 50, currency: 'USD' }, ledger: true };
const sandbox: MoneySettings = { environment: 'sandbox', allowCharges: false, ledger: false };
const topups = [getOperation('v1.transaction.topup'), getOperation('v2.transaction.topup')];

describe('chargingRefusal', () => {
  it('refuses charging operations on production without the allowance, naming them and the way out', () => {
    expect(chargingRefusal('load topup-flow', topups, production)).toBe(
      'load topup-flow sends charging operations (v1.transaction.topup, v2.transaction.topup) and the target is production (GATEWAY_ENV/--target-env/config): ' +
        'refused, nothing was sent; add --allow-charges --max-spend AMOUNT CURRENCY to allow them up to a cap, or --dry-run to see the plan',
    );
  });

  it('shows three operations and counts the rest', () => {
    expect(
      chargingRefusal(
        'migrate',
        OPERATIONS.filter((op) => op.charges),
        production,
      ),
    ).toMatch(/\(v1\.transaction\.topup, v1\.transaction\.pin, v1\.transaction\.billpay and 11 more\)/);
  });

  it('allows them with --allow-charges and a cap, and never without a cap', () => {
    expect(chargingRefusal('load topup-flow', topups, allowed)).toBeUndefined();
    expect(chargingRefusal('load topup-flow', topups, { ...allowed, cap: undefined } as unknown as MoneySettings)).toBeDefined();
  });

  it('lets read-only plans run on production and everything run on a sandbox', () => {
    for (const name of SCENARIO_NAMES) {
      const ops = scenarioOperations(name, 'both');
      const charging = ops.filter((op) => op.charges);
      expect(chargingRefusal(`load ${name}`, charging, production) === undefined).toBe(charging.length === 0);
      expect(chargingRefusal(`load ${name}`, charging, sandbox)).toBeUndefined();
    }
  });

  it('throws GH_ERR_CHARGES with exit code 2 from assertChargesAllowed', () => {
    expect(() => assertChargesAllowed('migrate', topups, production)).toThrow(
      expect.objectContaining({ code: 'GH_ERR_CHARGES', exitCode: 2 }),
    );
    expect(() => assertChargesAllowed('migrate', topups, allowed)).not.toThrow();
  });
});

describe('allowanceLine', () => {
  it('says what the guard allows on production and when a sandbox keeps a ledger', () => {
    expect(allowanceLine(allowed)).toMatch(/allowed up to 50\.00 USD/);
    expect(allowanceLine(production)).toMatch(/no charging request allowed/);
    expect(allowanceLine(sandbox)).toBeUndefined();
    expect(allowanceLine({ ...sandbox, ledger: true })).toMatch(/ledger kept/);
  });
});
