// The store on its own: funds, retention cap with eviction, pending transactions finished by timer, by a due status
// read, by reset() and by close(), and sleeps released on close — so no timer outlives a test.
import { describe, expect, it } from 'vitest';
import { SandboxStore } from './store.ts';
import type { Envelope } from './envelope.ts';

const OK: Envelope = { responseCode: '000', responseMessage: null, payLoad: {} };

function store(options: Partial<{ initialBalance: number; retentionMax: number; now: () => number }> = {}): SandboxStore {
  return new SandboxStore({ initialBalance: 100, retentionMax: 10, now: Date.now, ...options });
}

function input(s: SandboxStore, correlationId: string) {
  return { correlationId, transactionId: s.nextTransactionId(), kind: 'transaction.topup', operationId: 'v2.transaction.topup' };
}

describe('SandboxStore', () => {
  it('tracks funds and refuses what they do not cover', () => {
    const s = store();
    expect(s.hasFunds(100)).toBe(true);
    expect(s.hasFunds(100.01)).toBe(false);
    // Exact (money rule): never rounded to the cent.
    s.charge(12.345);
    expect(s.availableFunds).toBe(87.655);
  });

  it('evicts the oldest transaction beyond the cap, finishing a pending one first', () => {
    const s = store({ retentionMax: 2 });
    let finished = 0;
    s.recordPending(input(s, 'a'), 60_000, () => {
      finished += 1;
      return OK;
    });
    s.recordFinal({ ...input(s, 'b'), result: OK });
    s.recordFinal({ ...input(s, 'c'), result: OK });
    expect(finished).toBe(1);
    expect(s.pendingCount).toBe(0);
    expect(s.size).toBe(2);
    expect(s.byCorrelationId('a')).toBeUndefined();
    expect(s.byCorrelationId('c')?.result).toEqual(OK);
  });

  it('a pending transaction is in progress until due, then final (status read settles it)', () => {
    let clock = 1_000;
    const s = store({ now: () => clock });
    const { txn } = s.recordPending(input(s, 'p'), 500, () => OK);
    expect(s.byCorrelationId('p')?.result).toBeUndefined();
    clock = 1_499;
    expect(s.byCorrelationId('p')?.result).toBeUndefined();
    clock = 1_500;
    expect(s.byCorrelationId('p')?.result).toEqual(OK);
    expect(txn.result).toEqual(OK);
    s.close();
  });

  it('the timer finishes a pending transaction and resolves its waiter', async () => {
    const s = store();
    const { done } = s.recordPending(input(s, 'q'), 5, () => OK);
    await expect(done).resolves.toEqual(OK);
    expect(s.pendingCount).toBe(0);
  });

  it('a finisher that throws still ends the transaction (internal error), never an endless 852', async () => {
    const s = store();
    const { done } = s.recordPending(input(s, 'boom'), 1, () => {
      throw new Error('bug');
    });
    expect((await done).responseCode).toBe('999');
  });

  it('reset() finishes pending work, restores funds and forgets everything', async () => {
    const s = store();
    const { done } = s.recordPending(input(s, 'r'), 60_000, () => {
      s.charge(10);
      return OK;
    });
    s.clearLoan('18762345775');
    s.reset();
    await expect(done).resolves.toEqual(OK);
    expect(s.availableFunds).toBe(100);
    expect(s.size).toBe(0);
    expect(s.isLoanCleared('18762345775')).toBe(false);
    expect(s.nextTransactionId()).toBe(100_000_001);
  });

  it('close() releases sleeps and pending work at once, and later pending work finishes immediately', async () => {
    const s = store();
    const slept = s.sleep(60_000);
    const { done } = s.recordPending(input(s, 'c1'), 60_000, () => OK);
    s.close();
    await slept;
    await done;
    const late = s.recordPending(input(s, 'c2'), 60_000, () => OK);
    expect(late.txn.result).toEqual(OK);
  });
});
