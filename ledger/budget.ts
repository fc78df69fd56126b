// The spend counter behind --max-spend: a charging request reserves its worst case before it is sent and is refused
// when the reservation would cross the cap; a Failed outcome gives it back, a Successful one is settled at what was
// charged. In cents. One thread: a plain counter; worker threads: one Int32 in a SharedArrayBuffer, updated with Atomics.

export interface SpendBudget {
  /** Cap in cents. */
  readonly capCents: number;
  /** True and counted when `cents` more stays within the cap; false (and counted as refused) otherwise. */
  reserve(cents: number): boolean;
  /** The transaction is final and Successful: replace its reservation by what it cost. */
  settle(reservedCents: number, actualCents: number): void;
  /** The transaction is final and Failed: nothing was charged. */
  release(reservedCents: number): void;
  /** Reserved plus settled, in cents. */
  committed(): number;
  /** Reservations refused so far. */
  refused(): number;
}

/** A counter for one thread of execution (a Node command; one k6 VU with its share of the cap). */
export function createLocalBudget(capCents: number): SpendBudget {
  let committed = 0;
  let refused = 0;
  return {
    capCents,
    reserve(cents) {
      if (committed + cents > capCents) {
        refused++;
        return false;
      }
      committed += cents;
      return true;
    },
    settle(reservedCents, actualCents) {
      committed += actualCents - reservedCents;
    },
    release(reservedCents) {
      committed -= reservedCents;
    },
    committed: () => committed,
    refused: () => refused,
  };
}

/** Slots of the shared counter. */
const COMMITTED = 0;
const REFUSED = 1;
/** Non-zero: no reservation succeeds any more (the harness saw the wallet lose more than the ledger holds). */
const HALTED = 2;
export const SHARED_BUDGET_BYTES = 3 * 4;

/** Stops every reservation of every thread sharing `cells` from now on (ledger/balance-watch.ts). */
export function haltSharedBudget(cells: SharedArrayBuffer): void {
  Atomics.store(new Int32Array(cells), HALTED, 1);
}

/**
 * The same counter over shared memory: every engine worker thread holds a view of one SharedArrayBuffer, and a
 * reservation is a compare-and-swap, so two threads can never both take the last cents under the cap.
 */
export function createSharedBudget(cells: Int32Array, capCents: number): SpendBudget {
  return {
    capCents,
    reserve(cents) {
      for (;;) {
        const current = Atomics.load(cells, COMMITTED);
        if (current + cents > capCents || Atomics.load(cells, HALTED) !== 0) {
          Atomics.add(cells, REFUSED, 1);
          return false;
        }
        if (Atomics.compareExchange(cells, COMMITTED, current, current + cents) === current) return true;
      }
    },
    settle(reservedCents, actualCents) {
      Atomics.add(cells, COMMITTED, actualCents - reservedCents);
    },
    release(reservedCents) {
      Atomics.sub(cells, COMMITTED, reservedCents);
    },
    committed: () => Atomics.load(cells, COMMITTED),
    refused: () => Atomics.load(cells, REFUSED),
  };
}
