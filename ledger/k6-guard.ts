// The harness's side of "no durable record, no charge" for k6, whose VUs log a ledger line and send without waiting:
// k6 is killed at once when a line cannot be written to ledger.jsonl or the report dir's free space falls under the
// floor (ledger/disk-headroom.ts), and lines that could not be written are kept, retried after k6 ends, else printed.
import { DEFAULT_DISK_HEADROOM, HEADROOM_POLL_MS, headroomLow, whyNotWritten, type DiskHeadroom } from './disk-headroom.ts';
import type { LedgerWriter } from './ledger-file.ts';

export interface K6LedgerGuard {
  /** Aborts when k6 must stop charging (runK6 `kill`). */
  readonly kill: AbortSignal;
  /** The spool tail's `persist`: writes, or keeps the lines and stops k6. */
  persist(lines: readonly string[]): void;
  /** Stops k6 now, saying why (the balance watch). */
  stop(why: string): void;
  /** After k6 ended: the kept lines written (or printed), and what the ledger section must show (ledger/report.ts defects). */
  finish(): string[];
}

export function guardK6Ledger(options: {
  readonly dir: string;
  readonly writer: LedgerWriter;
  readonly headroom?: DiskHeadroom;
  readonly say: (line: string) => void;
}): K6LedgerGuard {
  const { writer, say } = options;
  const headroom = options.headroom ?? DEFAULT_DISK_HEADROOM;
  const controller = new AbortController();
  const kept: string[] = [];
  const stop = (why: string): void => {
    if (controller.signal.aborted) return;
    say(
      `gateway-harness: GH_ERR_LEDGER: ${why}: k6 is stopped now (no charge may leave without its ledger line); what was in flight is reconciled below`,
    );
    controller.abort(new Error(why));
  };
  const timer = setInterval(() => {
    const low = headroomLow(options.dir, headroom);
    if (low !== undefined) stop(low);
  }, HEADROOM_POLL_MS);
  const write = (lines: readonly string[]): boolean => {
    try {
      writer.appendRaw(lines);
      return true;
    } catch (error) {
      stop(whyNotWritten(writer.path, error));
      return false;
    }
  };
  return {
    kill: controller.signal,
    stop,
    persist(lines) {
      // In order: what was kept first (a chunk's lines never overtake the lines before them).
      const all = [...kept.splice(0), ...lines];
      if (!write(all)) kept.push(...all);
    },
    finish() {
      clearInterval(timer);
      if (kept.length === 0) return [];
      const lines = kept.splice(0);
      if (write(lines)) return [];
      kept.push(...lines);
      // The disk still refuses: the lines go to the output, the only record left (no credentials: scrubbed by the bundle's hooks).
      say(
        `gateway-harness: ${kept.length} ledger line(s) could not be written to ${writer.path}; here they are, add them to it before you run reconcile:`,
      );
      for (const line of kept) say(line);
      return [`${kept.length} line(s) not written (disk full; printed in the run's output)`];
    },
  };
}
