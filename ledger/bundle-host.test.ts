// Where a load bundle keeps its ledger and spend counter on k6: each VU logs ledger lines only when the harness reads
// them, and spends an equal share of the cap; the engine's host, when installed, takes precedence.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleHost, engineHost, ENGINE_HOST_GLOBAL, maxVUsOf } from './bundle-host.ts';
import { CONSOLE_PREFIX, type LedgerOutcomeLine } from './entry.ts';
import { decodeBundleMoney, encodeBundleMoney, MONEY_ENV } from './money-settings.ts';

const line = {
  v: 1,
  type: 'outcome',
  entry: 'e',
  correlationId: 'c',
  operationId: 'op',
  outcome: 'Failed',
  final: true,
  rule: 'failure-code',
  source: 'response',
  at: 'é',
} as LedgerOutcomeLine;

afterEach(() => {
  vi.restoreAllMocks();
  delete (globalThis as Record<string, unknown>)[ENGINE_HOST_GLOBAL];
});

describe('consoleHost (k6)', () => {
  it('logs an ASCII-only ledger line with the prefix when the harness reads the output', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const host = consoleHost(
      { environment: 'production', allowCharges: true, cap: { amount: 10, currency: 'USD' }, ledger: true, capture: true },
      4,
    );
    void host.append?.(line);
    expect(log).toHaveBeenCalledWith(
      `${CONSOLE_PREFIX}{"v":1,"type":"outcome","entry":"e","correlationId":"c","operationId":"op","outcome":"Failed","final":true,"rule":"failure-code","source":"response","at":"\\u00e9"}`,
    );
  });

  it('refuses to keep a ledger no one reads (a bare k6 run): the guard then sends nothing', () => {
    const host = consoleHost({ environment: 'production', allowCharges: true, cap: { amount: 10, currency: 'USD' }, ledger: true }, 1);
    expect(() => host.append?.(line)).toThrow(/no harness reads this run's output/);
  });

  it('gives each VU an equal share of the cap', () => {
    const host = consoleHost(
      { environment: 'production', allowCharges: true, cap: { amount: 10, currency: 'USD' }, ledger: true, capture: true },
      3,
    );
    expect(host.budget?.capCents).toBe(333);
  });

  it('counts every VU the options can start', () => {
    expect(
      maxVUsOf({
        a: { executor: 'shared-iterations', vus: 2 },
        b: { executor: 'ramping-arrival-rate', preAllocatedVUs: 5, maxVUs: 20 },
        c: { executor: 'ramping-vus', startVUs: 1, stages: [{ target: 7 }, { target: 3 }] },
      }),
    ).toBe(29);
  });
});

describe('engineHost', () => {
  it('is the host an engine thread installed, when there is one', () => {
    expect(engineHost()).toBeUndefined();
    const host = { append: () => undefined };
    (globalThis as Record<string, unknown>)[ENGINE_HOST_GLOBAL] = host;
    expect(engineHost()).toBe(host);
  });
});

describe('GATEWAY_MONEY', () => {
  it('round-trips the harness settings; without it a bundle allows nothing and keeps a ledger on production', () => {
    const settings = {
      environment: 'production' as const,
      allowCharges: true,
      cap: { amount: 5, currency: 'USD' },
      ledger: true,
      pricesFile: '/r/prices.json',
      capture: true,
    };
    expect(decodeBundleMoney({ [MONEY_ENV]: encodeBundleMoney(settings) }, 'production')).toEqual(settings);
    expect(decodeBundleMoney({}, 'production')).toEqual({ environment: 'production', allowCharges: false, ledger: true });
    expect(() => decodeBundleMoney({ [MONEY_ENV]: '{"allowCharges":true}' }, 'production')).toThrow(/allowCharges needs a cap/);
  });
});
