// The sandbox's in-memory state: wallet funds, transactions by correlationId and id, eSIMs, cleared loans.
// Everything is capped (oldest evicted) and every timer is tracked, so memory stays bounded and close() ends cleanly.
import { OPERATIONS } from '../api/operations.ts';
import { moneySub } from './data/money.ts';
import type { Envelope } from './envelope.ts';

/**
 * The kind of a stored transaction: the catalog `purpose` of the write that made it ('transaction.topup', ...), so a
 * new write operation needs no edit here (api/operations.ts is the one list).
 */
export type TransactionKind = string;

/** Purposes of the writes that store a transaction: every charging operation of the catalog (derived, not kept by hand). */
export const TRANSACTION_KINDS: readonly TransactionKind[] = Object.freeze([
  ...new Set(OPERATIONS.filter((op) => op.method === 'POST' && op.charges).map((op) => op.purpose)),
]);

export interface StoredTransaction {
  readonly correlationId: string;
  readonly transactionId: number;
  readonly kind: TransactionKind;
  readonly operationId: string;
  /** Store clock (ms) at submission. */
  readonly createdAt: number;
  /** Store clock (ms) at which the final result is due; equals createdAt for immediate results. */
  readonly dueAt: number;
  /** The final envelope; undefined while the transaction is in progress (status answers '852'). */
  result: Envelope | undefined;
  /** What fetch-by-id endpoints serve (gift card, port-in, eSIM details); set when the transaction succeeds. */
  details: Record<string, unknown> | undefined;
}

/** Computes the final envelope when a pending transaction is due (funds are checked and charged at that moment). */
export type Finisher = (txn: StoredTransaction) => Envelope;

interface Pending {
  readonly txn: StoredTransaction;
  readonly finish: Finisher;
  readonly done: Promise<Envelope>;
  readonly resolve: (envelope: Envelope) => void;
  timer: NodeJS.Timeout | undefined;
}

export interface StoreOptions {
  initialBalance: number;
  /** Transactions remembered; the oldest is evicted beyond this (an evicted pending one is finished first). */
  retentionMax: number;
  now: () => number;
}

const FIRST_TRANSACTION_ID = 100_000_001;
/** setTimeout fires at once beyond 2^31-1 ms; a huge time scale must not turn a long delay into none. */
const MAX_TIMER_MS = 2_147_483_647;

export class SandboxStore {
  readonly #options: StoreOptions;
  #funds: number;
  #nextTransactionId = FIRST_TRANSACTION_ID;
  readonly #byCorrelationId = new Map<string, StoredTransaction>();
  readonly #byTransactionId = new Map<number, StoredTransaction>();
  readonly #esims = new Map<string, number>();
  readonly #clearedLoans = new Set<string>();
  readonly #pending = new Map<StoredTransaction, Pending>();
  readonly #sleeps = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  #closed = false;

  constructor(options: StoreOptions) {
    this.#options = options;
    this.#funds = options.initialBalance;
  }

  now(): number {
    return this.#options.now();
  }

  /** Available funds in the wallet currency (positive); the balance endpoint serves it negated (prepaid terms). */
  get availableFunds(): number {
    return this.#funds;
  }

  /** Exact comparison: a cost equal to the funds left is covered, a cost one hundredth of a cent above is not. */
  hasFunds(amount: number): boolean {
    return amount <= this.#funds;
  }

  /** Takes the cost off the funds exactly (decimal arithmetic, never rounded to the cent). */
  charge(amount: number): void {
    this.#funds = moneySub(this.#funds, amount);
  }

  hasCorrelationId(correlationId: string): boolean {
    return this.#byCorrelationId.has(correlationId);
  }

  nextTransactionId(): number {
    return this.#nextTransactionId++;
  }

  get size(): number {
    return this.#byCorrelationId.size;
  }

  get pendingCount(): number {
    return this.#pending.size;
  }

  /** Stores a transaction whose result is already final. */
  recordFinal(input: {
    correlationId: string;
    transactionId: number;
    kind: TransactionKind;
    operationId: string;
    result: Envelope;
    details?: Record<string, unknown>;
  }): StoredTransaction {
    const now = this.now();
    const txn: StoredTransaction = { ...input, details: input.details, createdAt: now, dueAt: now };
    this.#insert(txn);
    return txn;
  }

  /**
   * Stores a transaction that stays in progress for `delayMs` (already scaled). `done` resolves with the final envelope
   * when it is due, when close()/reset() flushes it, or when it is evicted.
   */
  recordPending(
    input: { correlationId: string; transactionId: number; kind: TransactionKind; operationId: string },
    delayMs: number,
    finish: Finisher,
  ): { txn: StoredTransaction; done: Promise<Envelope> } {
    const now = this.now();
    const txn: StoredTransaction = { ...input, createdAt: now, dueAt: now + delayMs, result: undefined, details: undefined };
    let resolve!: (envelope: Envelope) => void;
    const done = new Promise<Envelope>((r) => {
      resolve = r;
    });
    const pending: Pending = { txn, finish, done, resolve, timer: undefined };
    this.#pending.set(txn, pending);
    this.#insert(txn);
    if (this.#closed) {
      this.#settle(pending);
    } else {
      pending.timer = setTimeout(() => this.#settle(pending), Math.min(MAX_TIMER_MS, Math.max(0, delayMs)));
    }
    return { txn, done };
  }

  /** The transaction with this correlationId; a pending one whose time has come is finished first. */
  byCorrelationId(correlationId: string): StoredTransaction | undefined {
    const txn = this.#byCorrelationId.get(correlationId);
    if (txn !== undefined) this.#settleIfDue(txn);
    return txn;
  }

  byTransactionId(transactionId: number): StoredTransaction | undefined {
    const txn = this.#byTransactionId.get(transactionId);
    if (txn !== undefined) this.#settleIfDue(txn);
    return txn;
  }

  registerEsim(iccid: string, transactionId: number): void {
    this.#esims.set(iccid, transactionId);
  }

  esimTransaction(iccid: string): StoredTransaction | undefined {
    const id = this.#esims.get(iccid);
    return id === undefined ? undefined : this.byTransactionId(id);
  }

  isLoanCleared(mobile: string): boolean {
    return this.#clearedLoans.has(mobile);
  }

  clearLoan(mobile: string): void {
    this.#clearedLoans.add(mobile);
    // Bounded like the transactions: the oldest cleared loan comes back (the sandbox "forgets" it).
    if (this.#clearedLoans.size > this.#options.retentionMax) {
      const oldest = this.#clearedLoans.values().next().value;
      if (oldest !== undefined) this.#clearedLoans.delete(oldest);
    }
  }

  /** Waits `ms` (already scaled) on a timer that close() releases at once. */
  sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(
          () => {
            this.#sleeps.delete(entry);
            resolve();
          },
          Math.min(MAX_TIMER_MS, ms),
        ),
        resolve,
      };
      this.#sleeps.add(entry);
    });
  }

  /** Finishes every pending transaction now (their waiting responses are sent) and releases every sleep. */
  flush(): void {
    for (const pending of [...this.#pending.values()]) this.#settle(pending);
    for (const entry of this.#sleeps) {
      clearTimeout(entry.timer);
      entry.resolve();
    }
    this.#sleeps.clear();
  }

  /** Back to the initial state: pending transactions are finished first so no timer outlives the reset. */
  reset(): void {
    this.flush();
    this.#funds = this.#options.initialBalance;
    this.#nextTransactionId = FIRST_TRANSACTION_ID;
    this.#byCorrelationId.clear();
    this.#byTransactionId.clear();
    this.#esims.clear();
    this.#clearedLoans.clear();
  }

  /** Finishes pending work and refuses to start timers afterwards. Idempotent. */
  close(): void {
    this.#closed = true;
    this.flush();
  }

  #insert(txn: StoredTransaction): void {
    this.#byCorrelationId.set(txn.correlationId, txn);
    this.#byTransactionId.set(txn.transactionId, txn);
    while (this.#byCorrelationId.size > this.#options.retentionMax) {
      const oldest = this.#byCorrelationId.values().next().value;
      if (oldest === undefined) break;
      const pending = this.#pending.get(oldest);
      if (pending !== undefined) this.#settle(pending);
      this.#byCorrelationId.delete(oldest.correlationId);
      this.#byTransactionId.delete(oldest.transactionId);
      const iccid = oldest.details?.['iccid'];
      if (typeof iccid === 'string') this.#esims.delete(iccid);
    }
  }

  #settleIfDue(txn: StoredTransaction): void {
    if (txn.result !== undefined) return;
    const pending = this.#pending.get(txn);
    if (pending !== undefined && this.now() >= txn.dueAt) this.#settle(pending);
  }

  #settle(pending: Pending): void {
    if (!this.#pending.delete(pending.txn)) return;
    if (pending.timer !== undefined) clearTimeout(pending.timer);
    let envelope: Envelope;
    try {
      envelope = pending.finish(pending.txn);
    } catch {
      // A finisher bug must not leave a response hanging or a status '852' forever.
      envelope = { responseCode: '999', responseMessage: 'Internal error', payLoad: null };
    }
    pending.txn.result = envelope;
    pending.resolve(envelope);
  }
}
