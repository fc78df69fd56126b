// Reconciliation: every ledger transaction that is not final is polled through the status endpoint (the core's
// pollStatus, with the request's sentAt so "not found" before the service-side timeout stays Unknown) until final or
// the deadline; each final outcome is appended to the ledger. On a production ledger "not found" is never final: it is
// appended as such (not final) and the transaction stays unresolved. Used at the end of every run and by `reconcile`.
import type { ClientCore } from '../api/client-core.ts';
import { readNumber, type FieldMapping } from '../api/field-mapping.ts';
import type { LedgerOutcomeLine } from './entry.ts';
import { chargedOf, isFinal, ledgerTotals, type LedgerTotals, type LedgerTransaction } from './ledger-state.ts';

export interface ReconcileOptions {
  readonly client: Pick<ClientCore, 'pollStatus'>;
  readonly mapping: FieldMapping['transaction'];
  /** Currency of charged amounts read from status payloads: the wallet's (ledger/wallet-currency.ts). */
  readonly walletCurrency: string;
  /** Which of the open transactions to poll (default all): `reconcile` polls only those sent to the target it asks. */
  readonly select?: (t: LedgerTransaction) => boolean;
  /** Persists the outcome lines found (before the next poll starts). */
  readonly append?: (line: LedgerOutcomeLine) => void;
  /** Polling deadline per transaction (real ms); default the client's. */
  readonly deadlineMs?: number;
  readonly intervalMs?: number;
  /** Polls in flight at once. */
  readonly concurrency?: number;
  readonly now: () => number;
  readonly progress?: (done: number, total: number) => void;
}

export interface ReconcileResult {
  /** Every transaction of the ledger after reconciliation, in ledger order. */
  readonly transactions: readonly LedgerTransaction[];
  /** How many were polled, and how many of those became final. */
  readonly polled: number;
  readonly resolved: number;
  readonly totals: LedgerTotals;
}

/** Whether a "not found" status answer may end a transaction as Failed: never for real money (api/poll.ts). */
export function notFoundFinalFor(t: LedgerTransaction): boolean {
  return t.request.environment !== 'production';
}

/** Why a transaction cannot be polled: nothing identifies it at the status endpoint. */
export function unpollable(t: LedgerTransaction): boolean {
  return t.request.correlationId === null;
}

export async function reconcileTransactions(
  transactions: readonly LedgerTransaction[],
  options: ReconcileOptions,
): Promise<ReconcileResult> {
  const result = [...transactions];
  const todo = result.map((t, i) => ({ t, i })).filter(({ t }) => !isFinal(t) && !unpollable(t) && (options.select?.(t) ?? true));
  let next = 0;
  let done = 0;
  let resolved = 0;
  const worker = async (): Promise<void> => {
    while (next < todo.length) {
      const { t, i } = todo[next++] as { t: LedgerTransaction; i: number };
      const poll = await options.client.pollStatus(t.request.version, t.request.correlationId as string, {
        submittedAt: t.request.sentAt,
        notFoundFinal: notFoundFinalFor(t),
        ...(options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }),
        ...(options.intervalMs === undefined ? {} : { intervalMs: options.intervalMs }),
      });
      done++;
      options.progress?.(done, todo.length);
      const response = poll.last.exchange.response;
      const code = response.envelope?.responseCode;
      const learnt = poll.final || poll.last.rule === 'not-found-at-target';
      if (!learnt) continue;
      const paid = poll.outcome === 'Successful' ? readNumber(response.envelope?.payLoad, options.mapping.chargedAmount) : undefined;
      const charged = poll.outcome === 'Successful' ? chargedOf(paid, t.request, options.walletCurrency) : undefined;
      const line: LedgerOutcomeLine = {
        v: 1,
        type: 'outcome',
        entry: t.request.entry,
        correlationId: t.request.correlationId,
        operationId: t.request.operationId,
        outcome: poll.outcome,
        final: poll.final,
        rule: poll.last.rule,
        ...(typeof code === 'string' ? { code } : {}),
        ...(response.httpStatus === undefined ? {} : { httpStatus: response.httpStatus }),
        ...(charged === undefined ? {} : { charged }),
        source: 'reconcile',
        at: new Date(options.now()).toISOString(),
      };
      options.append?.(line);
      result[i] = { request: t.request, outcome: line };
      if (poll.final) resolved++;
    }
  };
  const width = Math.max(1, Math.min(options.concurrency ?? 8, todo.length));
  await Promise.all(Array.from({ length: width }, worker));
  return { transactions: result, polled: todo.length, resolved, totals: ledgerTotals(result) };
}
