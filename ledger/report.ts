// The ledger in a run's reports: the LedgerSection of the report model (reports/sections.ts decides its verdict: an
// unresolved charge leaves the run incomplete; reports/ writes it into every file), its lines, the reconcile table.
import type { LedgerSection } from '../reports/model.ts';
import { formatCharged, ledgerLine, ledgerSection } from '../reports/sections.ts';
import { LEDGER_FILE } from './entry.ts';
import { lastOutcome, type LedgerTransaction } from './ledger-state.ts';
import { formatMoney, type SpendCap } from './money-settings.ts';
import type { ReconcileResult } from './reconcile.ts';

/** "12.50 USD, 3.00 JMD" (the reports' wording, for read-only totals). */
export function chargedText(charged: ReadonlyArray<{ readonly amount: number; readonly currency: string }>): string {
  return formatCharged(charged.map((c) => ({ amount: c.amount, currency: c.currency })));
}

export interface LedgerFacts {
  readonly result: ReconcileResult;
  readonly cap?: SpendCap;
  /** Worst case still counted against the cap (charged + unresolved estimates), when a cap applied. */
  readonly committed?: number;
  readonly refused?: number;
  readonly balance?: { readonly before: number; readonly after: number };
  /** Lines of the ledger that could not be read or cannot be true (ledger-file.ts ledgerDefects): each leaves the run incomplete. */
  readonly defects?: readonly string[];
}

export function buildLedgerSection(facts: LedgerFacts, options: { readonly allowSkips: boolean; readonly file?: string }): LedgerSection {
  const { totals } = facts.result;
  const base = ledgerSection(
    {
      file: options.file ?? LEDGER_FILE,
      entries: totals.entries,
      charged: totals.charged.map((c) => ({ amount: c.amount, currency: c.currency })),
      unresolved: [
        ...totals.unresolved.map((t) => ({
          correlationId: t.request.correlationId ?? `(no correlationId: entry ${t.request.entry})`,
          operationId: t.request.operationId,
          lastOutcome: lastOutcome(t),
        })),
        // A charge may hide in a line that cannot be read: listed as what cannot be verified, naming the line.
        ...(facts.defects ?? []).map((d) => ({
          correlationId: `(ledger ${d})`,
          operationId: LEDGER_FILE,
          lastOutcome: 'Unknown' as const,
        })),
      ],
    },
    { allowSkips: options.allowSkips },
  );
  const round = (n: number): number => Math.round(n * 1e6) / 1e6;
  return {
    ...base,
    ...(facts.cap === undefined ? {} : { spendCap: { amount: facts.cap.amount, currency: facts.cap.currency } }),
    ...(facts.cap === undefined || facts.committed === undefined
      ? {}
      : { committed: { amount: round(facts.committed), currency: facts.cap.currency } }),
    ...(facts.refused === undefined ? {} : { refused: facts.refused }),
    ...(facts.balance === undefined ? {} : { balance: { ...facts.balance, moved: round(facts.balance.after - facts.balance.before) } }),
  };
}

/** What a command prints about money at the end (stderr or stdout, the command decides). */
/**
 * What was charged, said so that it cannot read as "nothing" while charges are still open: with unresolved ones the
 * total is what is final so far, and they are not in it.
 */
function chargedPhrase(section: LedgerSection): string {
  const open = section.unresolved.length;
  if (open === 0) return `charged ${formatCharged(section.charged)}`;
  const final = section.charged.length === 0 ? 'nothing final yet' : `${formatCharged(section.charged)} in final transactions`;
  return `charged ${final}, the ${open} unresolved not counted (they may have charged)`;
}

/** When the wallet moved by more than the ledger counts as charged: said, with the difference (a gateway's mistake or a charge the ledger lacks). */
function balanceGap(section: LedgerSection): string | undefined {
  const moved = section.balance?.moved;
  if (moved === undefined) return undefined;
  const charged = section.charged.reduce((sum, c) => sum + c.amount, 0);
  const gap = Math.round((moved - charged) * 100) / 100;
  return gap >= 0.01
    ? `the balance moved ${gap.toFixed(2)} more than the ledger counts as charged: check the account statement`
    : undefined;
}

function refusedPhrase(refused: number): string {
  return `${refused} charging request${refused === 1 ? '' : 's'} not sent (cap, unbounded charge, or ledger line not durable)`;
}

export function ledgerLines(section: LedgerSection, path: string): string[] {
  const lines = [`${ledgerLine(section)}; ${chargedPhrase(section)}; ledger ${path}`];
  if (section.spendCap !== undefined) {
    const committed =
      section.committed === undefined ? '' : `, ${formatMoney(section.committed.amount, section.committed.currency)} committed`;
    lines.push(
      `spend cap ${formatMoney(section.spendCap.amount, section.spendCap.currency)}${committed}${section.refused ? `; ${refusedPhrase(section.refused)}` : ''}`,
    );
  } else if (section.refused) lines.push(refusedPhrase(section.refused));
  if (section.balance !== undefined) {
    lines.push(`balance before ${section.balance.before}, after ${section.balance.after}: the run took ${section.balance.moved}`);
    const gap = balanceGap(section);
    if (gap !== undefined) lines.push(gap);
  }
  for (const u of section.unresolved) lines.push(`  unresolved ${u.correlationId} ${u.operationId}: ${u.lastOutcome}`);
  return lines;
}

/** The reconcile command's table: one row per transaction, then the total charged. */
export function reconcileTable(transactions: readonly LedgerTransaction[]): string[] {
  const rows = transactions.map((t) => {
    const o = t.outcome;
    const outcome = o === undefined ? 'Unknown (no outcome recorded)' : `${o.outcome}${o.final ? '' : ' (not final)'}`;
    const charged = o?.charged === undefined ? '' : formatMoney(o.charged.amount, o.charged.currency);
    const how =
      o === undefined
        ? ''
        : `${o.source}${o.code === undefined ? '' : ` ${o.code}`}${o.rule === 'failure-code' || o.rule === 'success-000' ? '' : ` (${o.rule})`}`;
    return [t.request.correlationId ?? `(entry ${t.request.entry})`, t.request.operationId, outcome, charged, how];
  });
  const header = ['correlationId', 'operation', 'outcome', 'charged', 'decided by'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}
