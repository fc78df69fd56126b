// settleMoney: an interrupted judging command (migrate, baseline check) polls its open charges for a bounded time and
// names the command that finishes what stays open; a run that ended by itself reconciles as before, with no command.
import { describe, expect, it } from 'vitest';
import { createFaultTally } from '../api/faults.ts';
import type { TargetSession } from '../target/session.ts';
import type { MoneySession } from '../ledger/money-session.ts';
import { INTERRUPT_RECONCILE_MS } from '../reports/interruption.ts';
import type { LedgerSection } from '../reports/model.ts';
import { settleMoney, type CommandMoney } from './money-run.ts';

/** A money session whose reconciliation leaves `open` transactions unresolved, recording the options it was given. */
function money(open: number): { cm: CommandMoney; asked: Array<{ readonly deadlineMs?: number }> } {
  const asked: Array<{ readonly deadlineMs?: number }> = [];
  const section = {
    verdict: open > 0 ? 'incomplete' : 'pass',
    entries: 3,
    charged: [],
    unresolved: Array.from({ length: open }, (_, i) => ({ correlationId: `c-${i}` })),
  } as unknown as LedgerSection;
  const session = {
    ledgerPath: '/r/ledger.jsonl',
    finish: (_client: unknown, options: { readonly deadlineMs?: number }) => {
      asked.push(options);
      return Promise.resolve({ section, lines: ['ledger: 3 charging requests'] });
    },
  } as unknown as MoneySession;
  return { asked, cm: { settings: {}, session, faults: createFaultTally(), hooks: {} } as unknown as CommandMoney };
}
const target = { client: {} } as unknown as TargetSession;
const COMMAND = 'gateway-harness reconcile /r/ledger.jsonl';

describe('settleMoney', () => {
  it('interrupted with charges still open: polls them for at most INTERRUPT_RECONCILE_MS, then names the reconcile command', async () => {
    const { cm, asked } = money(2);
    const out = await settleMoney(cm, target, { allowSkips: false, interrupted: true });
    expect(asked).toEqual([{ allowSkips: false, deadlineMs: INTERRUPT_RECONCILE_MS }]);
    expect(out.reconcile).toBe(COMMAND);
    expect(out.lines).toEqual(['ledger: 3 charging requests', `money: 2 charging requests still open; finish with: ${COMMAND}`]);
  });

  it('interrupted with every charge final: no command', async () => {
    const { cm } = money(0);
    const out = await settleMoney(cm, target, { allowSkips: false, interrupted: true });
    expect(out.reconcile).toBeUndefined();
    expect(out.lines).toEqual(['ledger: 3 charging requests']);
  });

  it('a run that ended by itself: the full reconciliation (no bound), no command', async () => {
    const { cm, asked } = money(1);
    const out = await settleMoney(cm, target, { allowSkips: true });
    expect(asked).toEqual([{ allowSkips: true }]);
    expect(out.reconcile).toBeUndefined();
    expect(out.lines).toEqual(['ledger: 3 charging requests']);
  });
});
