// A user script's client guard: an undeclared operation and a second charge in one iteration are refused before they
// are sent (the money plan, the production guard and the ledger follow the declaration).
import { describe, expect, it } from 'vitest';
import type { OutgoingRequest } from '../api/client-core.ts';
import { getOperation } from '../api/operations.ts';
import { scriptScenario } from './script-scenario.ts';
import { scenarioOperations } from './scenarios.ts';
import { declaredOperationsGuard } from './script-guard.ts';

const outgoing = (id: string): OutgoingRequest => ({ operation: getOperation(id), input: {}, built: {} as OutgoingRequest['built'] });

describe('declaredOperationsGuard', () => {
  const meta = scriptScenario({ name: 'guarded', operations: ['account.balance', 'transaction.topup'] });
  const guard = declaredOperationsGuard(meta.name, scenarioOperations(meta, 'both'));

  it('lets declared operations through, the status poll a charging write brings included', () => {
    guard.startIteration();
    expect(() => guard.beforeSend?.(outgoing('v2.account.balance'))).not.toThrow();
    expect(() => guard.beforeSend?.(outgoing('v1.transaction.status'))).not.toThrow();
    expect(() => guard.beforeSend?.(outgoing('v2.transaction.topup'))).not.toThrow();
  });

  it('refuses an undeclared operation, charging or not, naming the purpose to add', () => {
    expect(() => guard.beforeSend?.(outgoing('v2.catalog.skus'))).toThrow(
      /v2\.catalog\.skus is not declared: add 'catalog\.skus' to defineScript's operations/,
    );
    expect(() => guard.beforeSend?.(outgoing('v2.transaction.giftcard'))).toThrow(/not declared.*not sent/);
  });

  it('refuses a second charge in one iteration, and allows one again in the next', () => {
    guard.startIteration();
    guard.beforeSend?.(outgoing('v2.transaction.topup'));
    expect(() => guard.beforeSend?.(outgoing('v1.transaction.topup'))).toThrow(/a second charging request in one iteration/);
    guard.startIteration();
    expect(() => guard.beforeSend?.(outgoing('v1.transaction.topup'))).not.toThrow();
  });
});

describe('scriptScenario', () => {
  it('a charging declaration follows transactions (time to final, unresolved) like the built-in flows', () => {
    expect(scriptScenario({ name: 'a', operations: ['transaction.topup'] })).toMatchObject({
      followsTransactions: true,
      purposes: { v2: ['transaction.topup', 'transaction.status'] },
    });
    expect(scriptScenario({ name: 'b', operations: ['catalog.skus'] })).toMatchObject({
      followsTransactions: false,
      purposes: { v2: ['catalog.skus'] },
    });
  });

  it('refuses a name k6 would refuse and a purpose the catalog does not have', () => {
    expect(() => scriptScenario({ name: 'has space', operations: [] })).toThrow(/must be 1-64 letters/);
    expect(() => scriptScenario({ name: 'x', operations: ['catalog.nope'] })).toThrow(/unknown operation purpose\(s\) catalog\.nope/);
  });
});
