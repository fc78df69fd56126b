// k6's stderr as a file (the spool) that the harness tails: k6 writes each console line with a write(2) to it, so a
// ledger line is in the kernel's page cache before the request leaves and survives a kill of k6 or of the harness;
// the harness reads new bytes every few ms, fsyncs the ledger lines into ledger.jsonl and forwards the rest.
// `recoverSpool` puts into the ledger any line the harness did not get to (after a kill): reconcile calls it first.
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createLedgerCapture, ledgerJsonOf, type LedgerCapture } from './k6-capture.ts';
import { openLedgerWriter, readLedger } from './ledger-file.ts';

/** The spool's name, beside ledger.jsonl in the report dir (what reconcile looks for). */
export const K6_SPOOL_FILE = 'k6-stderr.log';

/** How often the harness reads the spool (ms): the window in which a ledger line is only in the page cache. */
export const SPOOL_POLL_MS = 20;

export interface SpoolTail {
  readonly capture: LedgerCapture;
  /** Reads what is left, ends the capture and closes the file (call once k6 has exited). */
  stop(): void;
}

export function tailSpool(
  path: string,
  options: { readonly persist: (jsonLines: readonly string[]) => void; readonly forward: (text: string) => void },
): SpoolTail {
  const capture = createLedgerCapture(options);
  const fd = openSync(path, 'r');
  const buffer = Buffer.alloc(256 * 1024);
  let offset = 0;
  const drain = (): void => {
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, offset);
      if (n <= 0) return;
      offset += n;
      capture.onChunk(buffer.subarray(0, n).toString('utf8'));
    }
  };
  const timer = setInterval(drain, SPOOL_POLL_MS);
  return {
    capture,
    stop() {
      clearInterval(timer);
      drain();
      capture.end();
      closeSync(fd);
    },
  };
}

/** Identity of a ledger line across the spool and the ledger (the same JSON text, whitespace aside). */
function keyOf(json: string): string {
  return JSON.stringify(JSON.parse(json));
}

/**
 * Appends (and fsyncs) to the ledger the ledger lines of the k6 spool beside it that the ledger lacks: after a kill of
 * the harness, the lines k6 wrote that the harness had not read yet. Returns how many were recovered.
 */
export function recoverSpool(ledgerPath: string): number {
  const spool = join(dirname(ledgerPath), K6_SPOOL_FILE);
  if (!existsSync(spool)) return 0;
  const have = new Set(existsSync(ledgerPath) ? readLedger(ledgerPath).lines.map((l) => JSON.stringify(l)) : []);
  const missing: string[] = [];
  for (const line of readFileSync(spool, 'utf8').split('\n')) {
    const json = ledgerJsonOf(line);
    if (json === undefined) continue;
    const key = keyOf(json);
    if (have.has(key)) continue;
    have.add(key);
    missing.push(json);
  }
  if (missing.length > 0) {
    const writer = openLedgerWriter(ledgerPath);
    try {
      writer.appendRaw(missing);
    } finally {
      writer.close();
    }
  }
  return missing.length;
}
