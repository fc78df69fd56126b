// The recording gate of a guarded k6 run (#32 finding 1): a loopback HTTP server the runner owns, through which the
// bundle sends each charging request with its ledger line. The line is written and fsynced before the request is
// forwarded to the target; when it cannot be, nothing is forwarded and k6 gets a refusal (no durable record, no charge).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GATE_LINE_HEADER, GATE_REFUSED_HEADER } from './bundle-host.ts';
import { whyNotWritten } from './disk-headroom.ts';
import { isLedgerLine } from './entry.ts';
import type { LedgerWriter } from './ledger-file.ts';

/** Headers that describe one hop, never forwarded (RFC 9110 7.6.1), plus what fetch decodes on its own. */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
  'content-length',
  GATE_LINE_HEADER,
]);
const DECODED_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

export interface RecordingGate {
  /** The gate's base URL (http://127.0.0.1:PORT). */
  readonly url: string;
  /** Charging requests forwarded to the target (each after its line was durable). */
  forwarded(): number;
  /** Charging requests refused (their line could not be written): none of them reached the target. */
  refused(): number;
  /** Why the first refusal was made ("disk full at <path>"). */
  refusedWhy(): string | undefined;
  /** Stops taking requests; resolves once every request already taken has been forwarded and answered. */
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
    // k6 killed while sending: the request never came whole, so it is neither recorded nor forwarded.
    req.on('close', () => {
      if (!req.complete) reject(new Error('the request was cut short'));
    });
  });
}

function refuse(res: ServerResponse, status: number, why: string): void {
  res.writeHead(status, { 'content-type': 'text/plain', [GATE_REFUSED_HEADER]: 'ledger-not-durable' });
  res.end(`not sent: ledger not durable: ${why}\n`);
}

/** The request forwarded as it came (its own method, path, headers and body), and the target's answer passed back. */
async function forward(req: IncomingMessage, res: ServerResponse, body: Buffer, origin: string, timeoutMs: number): Promise<void> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (!HOP_HEADERS.has(name) && typeof value === 'string') headers[name] = value;
  const method = req.method ?? 'POST';
  const answer = await fetch(`${origin}${req.url ?? '/'}`, {
    method,
    headers,
    ...(method === 'GET' || method === 'HEAD' ? {} : { body }),
    redirect: 'manual',
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = Buffer.from(await answer.arrayBuffer());
  const out: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!DECODED_HEADERS.has(name)) out[name] = value;
  });
  res.writeHead(answer.status, out);
  res.end(text);
}

/** The request line the bundle sent with its request (GATE_LINE_HEADER), as JSON text; undefined when there is none. */
function requestLineOf(req: IncomingMessage): string | undefined {
  const raw = req.headers[GATE_LINE_HEADER];
  if (typeof raw !== 'string') return undefined;
  try {
    const line: unknown = JSON.parse(raw);
    return isLedgerLine(line) && line.type === 'request' ? raw : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts the gate on 127.0.0.1. `origin`: the target's scheme://host[:port], the only place it forwards to.
 * `onRefused`: called once per refusal with the reason (the runner stops k6). `timeoutMs` bounds a forward (the
 * target silent): the gate then drops k6's connection, which k6 sees as a request without an answer (Unknown).
 */
export async function startRecordingGate(options: {
  readonly origin: string;
  readonly writer: LedgerWriter;
  readonly timeoutMs: number;
  readonly onRefused: (why: string) => void;
}): Promise<RecordingGate> {
  let forwarded = 0;
  let refused = 0;
  let refusedWhy: string | undefined;
  let closing: Promise<void> | undefined;
  const inFlight = new Set<Promise<void>>();
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    const raw = requestLineOf(req);
    if (raw === undefined) return refuse(res, 400, 'the request carries no ledger request line');
    try {
      options.writer.appendRaw([raw]);
    } catch (error) {
      refused += 1;
      const why = whyNotWritten(options.writer.path, error);
      refusedWhy ??= why;
      options.onRefused(why);
      return refuse(res, 507, why);
    }
    // Recorded: from here the request goes to the target whatever k6 does (killed or not), so every line is a request sent.
    forwarded += 1;
    try {
      await forward(req, res, body, options.origin, options.timeoutMs);
    } catch {
      res.destroy();
    }
  };
  const server = createServer((req, res) => {
    const done = handle(req, res).catch(() => void res.destroy());
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    forwarded: () => forwarded,
    refused: () => refused,
    refusedWhy: () => refusedWhy,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await Promise.all([...inFlight]);
        server.closeAllConnections();
        await closed;
      })();
      return closing;
    },
  };
}
