// The cap's last line of defence during a run: the wallet balance is read every so often, and when it shows more
// spent than the ledger's request lines could account for (each at its worst case), charging stops at once.
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { isLedgerLine } from './entry.ts';

/** How often (real ms) a capped run reads the balance by default. */
export const BALANCE_WATCH_MS = 1_000;

/** The worst case of this run's request lines in a ledger file, read incrementally (only complete lines). */
export function ledgerWorstCase(path: string, runId: string): () => number {
  let offset = 0;
  let rest = '';
  let cents = 0;
  const buffer = Buffer.alloc(64 * 1024);
  return () => {
    if (!existsSync(path)) return cents / 100;
    const fd = openSync(path, 'r');
    try {
      for (let n = readSync(fd, buffer, 0, buffer.length, offset); n > 0; n = readSync(fd, buffer, 0, buffer.length, offset)) {
        offset += n;
        const lines = (rest + buffer.subarray(0, n).toString('utf8')).split('\n');
        rest = lines.pop() ?? '';
        for (const text of lines) cents += worstCentsOf(text, runId);
      }
    } finally {
      closeSync(fd);
    }
    return cents / 100;
  };
}

function worstCentsOf(text: string, runId: string): number {
  try {
    const line: unknown = JSON.parse(text);
    if (!isLedgerLine(line) || line.type !== 'request' || line.runId !== runId) return 0;
    return Math.ceil((line.estimate?.amount ?? line.amount ?? 0) * 100 - 1e-6);
  } catch {
    return 0;
  }
}

export interface BalanceWatch {
  /** Ends the watch (waits for a read in flight). */
  stop(): Promise<void>;
}

/**
 * Reads the balance every `intervalMs`; `moved` (after − before, the reports' sign: what the run took) above what the
 * ledger holds calls `trip` once. The balance is read before the ledger, so the ledger's view is never the older one.
 */
export function watchBalance(options: {
  readonly before: number;
  readonly read: () => Promise<number | undefined>;
  readonly ledgerHolds: () => number;
  readonly intervalMs: number;
  readonly trip: (why: string) => void;
}): BalanceWatch {
  let running = true;
  let wake: (() => void) | undefined;
  const pause = (): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, options.intervalMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const loop = async (): Promise<void> => {
    while (running) {
      await pause();
      if (!running) return;
      const after = await options.read().catch(() => undefined);
      if (after === undefined) continue;
      const moved = Math.round((after - options.before) * 100) / 100;
      const holds = options.ledgerHolds();
      if (moved > holds + 0.005) {
        options.trip(
          `the balance shows ${moved.toFixed(2)} spent, more than the ${holds.toFixed(2)} the ledger's charging requests can account for at their worst case`,
        );
        return;
      }
    }
  };
  const done = loop();
  return {
    async stop() {
      running = false;
      wake?.();
      await done;
    },
  };
}
