// ledger.jsonl on disk: appends that are on the disk (fsync) when they return, from any thread or process (O_APPEND,
// one write per batch, so lines never interleave), and a reader that survives a line torn by `kill -9` mid-write.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { makeDirectory } from '../reports/make-dir.ts';
import { dirname } from 'node:path';
import { HarnessError } from '../api/errors.ts';
import { redactText, redactUrl } from '../api/redact.ts';
import { isLedgerLine, type LedgerLine } from './entry.ts';

export interface LedgerWriter {
  readonly path: string;
  /** Appends the lines and fsyncs before returning; throws when the disk refuses (the caller then sends nothing). */
  append(lines: LedgerLine | readonly LedgerLine[]): void;
  /** Appends raw JSON lines already checked by the caller (the k6 capture). */
  appendRaw(texts: readonly string[]): void;
  close(): void;
}

/**
 * A line as written: the secrets scrubbed once more (a target URL never carries credentials — the config refuses
 * userinfo — but a ledger is the one file people mail around after an incident).
 */
function serialize(line: LedgerLine, secrets: readonly string[]): string {
  return redactUrl(redactText(JSON.stringify(line), secrets));
}

export function openLedgerWriter(path: string, options: { readonly secrets?: readonly string[] } = {}): LedgerWriter {
  const secrets = options.secrets ?? [];
  try {
    makeDirectory(dirname(path));
  } catch (error) {
    throw new HarnessError('GH_ERR_CONFIG', `ledger: cannot create ${dirname(path)} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let fd: number | undefined = openSync(path, 'a', 0o600);
  const write = (texts: readonly string[]): void => {
    if (texts.length === 0) return;
    if (fd === undefined) throw new HarnessError('GH_ERR_LEDGER', `ledger ${path} is closed`);
    const data = Buffer.from(texts.map((t) => `${t}\n`).join(''), 'utf8');
    let offset = 0;
    while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset);
    fsyncSync(fd);
  };
  return {
    path,
    append(lines) {
      const list = Array.isArray(lines) ? (lines as readonly LedgerLine[]) : [lines as LedgerLine];
      write(list.map((l) => serialize(l, secrets)));
    },
    appendRaw(texts) {
      write(texts.map((t) => redactUrl(redactText(t, secrets))));
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

export interface LedgerRead {
  readonly lines: LedgerLine[];
  /** Lines that are not ledger lines (a torn last line after a crash; anything else is reported). */
  readonly badLines: number;
}

export function readLedger(path: string): LedgerRead {
  if (!existsSync(path)) throw new HarnessError('GH_ERR_USAGE', `ledger ${path} does not exist`);
  const lines: LedgerLine[] = [];
  let badLines = 0;
  for (const text of readFileSync(path, 'utf8').split('\n')) {
    if (text.trim() === '') continue;
    try {
      const value: unknown = JSON.parse(text);
      if (isLedgerLine(value)) lines.push(value);
      else badLines++;
    } catch {
      badLines++;
    }
  }
  return { lines, badLines };
}
