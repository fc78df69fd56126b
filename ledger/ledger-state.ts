// Folds ledger lines into transactions: each request line with its latest outcome (a final one wins over any later
// non-final one; a status answer's final outcome over a disagreeing direct answer). What reconcile polls, what the reports count. Pure and runtime-neutral.
import type { Outcome } from '../api/outcome.ts';
import type { LedgerLine, LedgerOutcomeLine, LedgerRequestLine } from './entry.ts';

const HALF_CENT = 0.005;

/**
 * A charged amount a wallet can show: finite, above zero and not below the least the SKU costs when the catalog states
 * it (`minimum`, wallet currency; half a cent of rounding allowed): less from a charge that succeeded is a gateway's mistake.
 */
export function plausibleCharge(paid: number | undefined, minimum?: number): paid is number {
  return paid !== undefined && Number.isFinite(paid) && paid > 0 && (minimum === undefined || paid >= minimum - HALF_CENT);
}

/**
 * What a Successful transaction cost, as the ledger counts it: the payload's amount when it is plausible, else the
 * reservation (the worst case: an implausible answer never lowers the count), else the request's own amount.
 */
export function chargedOf(
  paid: number | undefined,
  request: Pick<LedgerRequestLine, 'estimate' | 'amount' | 'currency'>,
  walletCurrency: string,
  minimum?: number,
): LedgerOutcomeLine['charged'] {
  if (plausibleCharge(paid, minimum)) return { amount: paid, currency: walletCurrency, from: 'payload' };
  if (request.estimate !== undefined) return { amount: request.estimate.amount, currency: request.estimate.currency, from: 'estimate' };
  if (request.amount !== null) return { amount: request.amount, currency: request.currency ?? walletCurrency, from: 'request' };
  return undefined;
}

/** A direct answer that a later status answer overrides: the status endpoint's final outcome is the authority. */
function overrides(current: LedgerOutcomeLine | undefined, line: LedgerOutcomeLine): boolean {
  if (current === undefined || !current.final) return true;
  return current.source === 'response' && line.final && line.source !== 'response' && line.outcome !== current.outcome;
}

export interface LedgerTransaction {
  readonly request: LedgerRequestLine;
  /** The deciding outcome line: the first final one (a status one over a direct answer), else the latest; undefined when none was recorded. */
  readonly outcome?: LedgerOutcomeLine;
}

export function isFinal(t: LedgerTransaction): boolean {
  return t.outcome?.final === true;
}

/** Outcome to show: Unknown when nothing was recorded (the request may have left: the account may be charged). */
export function lastOutcome(t: LedgerTransaction): Outcome {
  return t.outcome?.outcome ?? 'Unknown';
}

export function foldLedger(lines: readonly LedgerLine[]): LedgerTransaction[] {
  const order: string[] = [];
  const byEntry = new Map<string, { request?: LedgerRequestLine; outcome?: LedgerOutcomeLine }>();
  for (const line of lines) {
    let slot = byEntry.get(line.entry);
    if (slot === undefined) {
      slot = {};
      byEntry.set(line.entry, slot);
      order.push(line.entry);
    }
    if (line.type === 'request') {
      slot.request ??= line;
    } else if (overrides(slot.outcome, line)) {
      slot.outcome = line;
    }
  }
  const out: LedgerTransaction[] = [];
  for (const entry of order) {
    const slot = byEntry.get(entry);
    // An outcome without its request line cannot happen through the hooks (the request line is written first).
    if (slot?.request !== undefined) out.push({ request: slot.request, ...(slot.outcome === undefined ? {} : { outcome: slot.outcome }) });
  }
  return out;
}

export interface LedgerTotals {
  readonly entries: number;
  readonly final: number;
  readonly successful: number;
  readonly failed: number;
  readonly unresolved: readonly LedgerTransaction[];
  /** Charged per currency (Successful transactions only). */
  readonly charged: ReadonlyArray<{ readonly amount: number; readonly currency: string }>;
}

export function ledgerTotals(transactions: readonly LedgerTransaction[]): LedgerTotals {
  const charged = new Map<string, number>();
  let successful = 0;
  let failed = 0;
  for (const t of transactions) {
    if (!isFinal(t)) continue;
    if (t.outcome?.outcome === 'Failed') failed++;
    if (t.outcome?.outcome !== 'Successful') continue;
    successful++;
    const c = t.outcome.charged;
    if (c !== undefined) charged.set(c.currency, Math.round(((charged.get(c.currency) ?? 0) + c.amount) * 1e6) / 1e6);
  }
  return {
    entries: transactions.length,
    final: successful + failed,
    successful,
    failed,
    unresolved: transactions.filter((t) => !isFinal(t)),
    charged: [...charged].map(([currency, amount]) => ({ amount, currency })),
  };
}
