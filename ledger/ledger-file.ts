// ledger.jsonl on disk: appends that are on the disk (fsync) when they return, from any thread or process (O_APPEND,
// one write per batch, so lines never interleave), and a reader that survives a line torn by `kill -9` mid-write.
import { closeSync, existsSync, fstatSync, fsyncSync, openSync, readFileSync, readSync, statSync, writeSync, type Stats } from 'node:fs';
import { makeDirectory } from '../reports/make-dir.ts';
import { dirname } from 'node:path';
import { EXIT, HarnessError } from '../api/errors.ts';
import { redactText, redactUrl } from '../api/redact.ts';
import { isLedgerLine, LEDGER_VERSION, type LedgerLine } from './entry.ts';

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

/** Appended by the next writer to a line torn by a crash mid-write (the reader then knows it for one). */
export const TORN_MARK = ' #torn-by-a-crash';

/** True when the file's last byte is not a newline (a line torn mid-write). */
function endsTorn(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] !== 0x0a;
}

/**
 * Nothing else may replace or cut the ledger while a run appends to it (a metric stream pointed at it through a link,
 * a second run): the path must still name the open file, and the file may only have grown. Else nothing more is sent.
 */
function assertStillTheLedger(path: string, fd: number, seenSize: number): void {
  const open = fstatSync(fd);
  let named: Stats | undefined;
  try {
    named = statSync(path);
  } catch {
    named = undefined;
  }
  if (named === undefined || named.dev !== open.dev || named.ino !== open.ino)
    throw new HarnessError('GH_ERR_LEDGER', `ledger ${path} was replaced or removed during the run`);
  if (open.size < seenSize)
    throw new HarnessError('GH_ERR_LEDGER', `ledger ${path} was cut during the run (${open.size} bytes, ${seenSize} written)`);
}

export function openLedgerWriter(path: string, options: { readonly secrets?: readonly string[] } = {}): LedgerWriter {
  const secrets = options.secrets ?? [];
  try {
    makeDirectory(dirname(path));
  } catch (error) {
    throw new HarnessError('GH_ERR_CONFIG', `ledger: cannot create ${dirname(path)} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let fd: number | undefined = openSync(path, 'a+', 0o600);
  // A line torn by a crash ends the file without a newline: it is marked as such and ended, so the next line starts on
  // a line of its own and later reads know the torn line for what it is (no charge: its request never left).
  let lead = endsTorn(fd) ? `${TORN_MARK}\n` : '';
  let seenSize = fstatSync(fd).size;
  const write = (texts: readonly string[]): void => {
    if (texts.length === 0) return;
    if (fd === undefined) throw new HarnessError('GH_ERR_LEDGER', `ledger ${path} is closed`);
    assertStillTheLedger(path, fd, seenSize);
    const data = Buffer.from(lead + texts.map((t) => `${t}\n`).join(''), 'utf8');
    let offset = 0;
    while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset);
    fsyncSync(fd);
    lead = '';
    seenSize = fstatSync(fd).size;
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
  /**
   * What is wrong with the file, by line number (1-based): a line torn by a crash (the last one, or one a later writer
   * marked with TORN_MARK: expected), an unreadable line anywhere else (a charge may be missing), a line of an unknown
   * version, a line no ledger can hold.
   */
  readonly problems: readonly LedgerProblem[];
}

export interface LedgerProblem {
  readonly line: number;
  readonly kind: 'torn' | 'unreadable' | 'impossible';
  readonly reason: string;
}

const moneyOk = (m: unknown): boolean => {
  if (m === undefined) return true;
  const v = m as { amount?: unknown; currency?: unknown };
  return typeof v.amount === 'number' && Number.isFinite(v.amount) && v.amount >= 0 && typeof v.currency === 'string';
};

/** Why a ledger line cannot be true (hand-edited: a negative or infinite amount), or undefined. */
function impossibility(line: LedgerLine): string | undefined {
  if (line.type === 'request') {
    if (line.amount !== null && !(typeof line.amount === 'number' && Number.isFinite(line.amount) && line.amount >= 0))
      return `amount ${String(line.amount)}`;
    if (!moneyOk(line.estimate)) return `estimate ${JSON.stringify(line.estimate)}`;
    if (!(typeof line.sentAt === 'number' && Number.isFinite(line.sentAt))) return `sentAt ${String(line.sentAt)}`;
    return undefined;
  }
  return moneyOk(line.charged) ? undefined : `charged ${JSON.stringify(line.charged)}`;
}

function parseLine(text: string): LedgerLine | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (isLedgerLine(value)) return value;
  const v = value as { v?: unknown } | null;
  return v !== null && typeof v === 'object' && v.v !== undefined && v.v !== LEDGER_VERSION
    ? `ledger version ${JSON.stringify(v.v)} unknown (this harness reads ${LEDGER_VERSION})`
    : 'not a ledger line';
}

export function readLedger(path: string): LedgerRead {
  if (!existsSync(path)) throw new HarnessError('GH_ERR_USAGE', `ledger ${path} does not exist`);
  const lines: LedgerLine[] = [];
  const problems: LedgerProblem[] = [];
  const texts = readFileSync(path, 'utf8').split('\n');
  const lastText = texts.reduce((last, t, i) => (t.trim() === '' ? last : i), -1);
  const parsed = texts.map((text) => (text.trim() === '' ? undefined : parseLine(text)));
  const orphans: Array<{ line: number; entry: string }> = [];
  const requests = new Set(parsed.flatMap((p) => (typeof p === 'object' && p.type === 'request' ? [p.entry] : [])));
  parsed.forEach((line, i) => {
    if (line === undefined) return;
    if (typeof line === 'string') {
      const torn = line === 'not JSON' && (i === lastText || (texts[i] as string).endsWith(TORN_MARK));
      problems.push({ line: i + 1, kind: torn ? 'torn' : 'unreadable', reason: torn ? 'torn by a crash mid-write' : line });
      return;
    }
    const wrong = impossibility(line);
    if (wrong !== undefined) problems.push({ line: i + 1, kind: 'impossible', reason: wrong });
    else if (line.type === 'outcome' && !requests.has(line.entry)) orphans.push({ line: i + 1, entry: line.entry });
    else lines.push(line);
  });
  // An outcome without its request line: explained by an unreadable line (already a defect), else hand-made.
  const unreadable = problems.some((p) => p.kind === 'unreadable');
  for (const o of orphans)
    problems.push({
      line: o.line,
      kind: unreadable ? 'unreadable' : 'impossible',
      reason: `outcome of entry ${o.entry}, which has no readable request line`,
    });
  problems.sort((a, b) => a.line - b.line);
  return { lines, badLines: problems.filter((p) => p.kind !== 'impossible').length, problems };
}

/** The problems a verdict must show (all but a line torn by a crash mid-write), one phrase each. */
export function ledgerDefects(read: LedgerRead): string[] {
  return read.problems
    .filter((p) => p.kind !== 'torn')
    .map((p) => `line ${p.line} ${p.kind === 'impossible' ? 'impossible' : 'unreadable'} (${p.reason})`);
}

/** Refuses a ledger holding lines no ledger can hold (hand-edited): nothing is polled or appended (GH_ERR_LEDGER, exit 2). */
export function assertLedgerPossible(read: LedgerRead, path: string): void {
  const impossible = read.problems.filter((p) => p.kind === 'impossible');
  if (impossible.length === 0) return;
  throw new HarnessError(
    'GH_ERR_LEDGER',
    `ledger ${path}: ${impossible.map((p) => `line ${p.line}: ${p.reason}`).join('; ')} — not a ledger the harness wrote; refused, nothing was polled or written`,
    { exitCode: EXIT.usage },
  );
}
