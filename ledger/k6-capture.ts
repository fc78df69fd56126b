// The harness half of the k6 ledger: k6 cannot write files, so the bundle logs each ledger line (CONSOLE_PREFIX) and k6
// writes it to stderr at once. This reads k6's stderr, writes and fsyncs every ledger line of a chunk, and only then
// forwards the rest of the chunk; ledger lines are not echoed. k6 logs as logfmt (`msg="..."`, Go-quoted), as JSON
// (--log-format json) or raw: all three are read.
import { CONSOLE_PREFIX, isLedgerLine } from './entry.ts';

export interface LedgerCapture {
  /** Feed k6's stderr as it arrives. */
  onChunk(chunk: string): void;
  /** The stream ended: a last line without a newline is handled too. */
  end(): void;
  /** Ledger lines persisted so far. */
  readonly captured: number;
}

const GO_ESCAPES: Readonly<Record<string, string>> = {
  a: '\u0007',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\u000b',
  '\\': '\\',
  '"': '"',
  "'": "'",
};

/** Undoes Go's %q quoting (what logrus applies to a message that needs quotes). */
export function goUnquote(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}|.)/g, (_m, esc: string) => {
    const head = esc[0] as string;
    if (head === 'x' || head === 'u' || head === 'U') return String.fromCodePoint(parseInt(esc.slice(1), 16));
    if (/^[0-7]{3}$/.test(esc)) return String.fromCharCode(parseInt(esc, 8));
    return GO_ESCAPES[esc] ?? esc;
  });
}

/** The ledger JSON a line of k6's stderr carries, or undefined when it carries none. */
export function ledgerJsonOf(line: string): string | undefined {
  if (!line.includes(CONSOLE_PREFIX.trim())) return undefined;
  let message: string | undefined;
  if (line.startsWith(CONSOLE_PREFIX)) {
    message = line;
  } else if (line.trimStart().startsWith('{')) {
    try {
      const record = JSON.parse(line) as { msg?: unknown };
      if (typeof record.msg === 'string') message = record.msg;
    } catch {
      return undefined;
    }
  } else {
    const quoted = /(?:^|\s)msg="((?:[^"\\]|\\.)*)"/.exec(line);
    if (quoted !== null) message = goUnquote(quoted[1] as string);
  }
  if (message === undefined || !message.startsWith(CONSOLE_PREFIX)) return undefined;
  const json = message.slice(CONSOLE_PREFIX.length).trim();
  try {
    return isLedgerLine(JSON.parse(json)) ? json : undefined;
  } catch {
    return undefined;
  }
}

export function createLedgerCapture(options: {
  readonly persist: (jsonLines: readonly string[]) => void;
  readonly forward: (text: string) => void;
}): LedgerCapture {
  let pending = '';
  let captured = 0;
  const handle = (lines: readonly string[]): void => {
    const ledger: string[] = [];
    const rest: string[] = [];
    for (const line of lines) {
      const json = ledgerJsonOf(line);
      if (json === undefined) rest.push(line);
      else ledger.push(json);
    }
    // Durable first (one write and one fsync for the whole chunk), then the rest of k6's output.
    if (ledger.length > 0) {
      options.persist(ledger);
      captured += ledger.length;
    }
    if (rest.length > 0) options.forward(rest.map((l) => `${l}\n`).join(''));
  };
  return {
    onChunk(chunk) {
      const text = pending + chunk;
      const cut = text.lastIndexOf('\n');
      if (cut < 0) {
        pending = text;
        return;
      }
      pending = text.slice(cut + 1);
      handle(text.slice(0, cut).split('\n'));
    },
    end() {
      if (pending !== '') handle([pending]);
      pending = '';
    },
    get captured() {
      return captured;
    },
  };
}
