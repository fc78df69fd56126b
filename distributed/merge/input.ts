// Reads one instance's k6 NDJSON (a file, '-' for stdin, or a named pipe; gzip detected by its magic bytes, not its
// name) as batches of lines, pulled on demand: one chunk of input in memory at a time, whatever the stream's size.
import { createReadStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { HarnessError } from '../../api/errors.ts';

/** '-' reads standard input (e.g. `kubectl exec ... cat | gateway-harness merge-results -`). */
export const STDIN = '-';

/** The input as a byte stream, with the bytes read so far (compressed bytes for gzip: progress against its size). */
export interface OpenedInput {
  readonly stream: Readable;
  /** File size in bytes for regular files; undefined for stdin and pipes. */
  readonly size: number | undefined;
  /** True for a regular file (it can be read twice: the series need a first pass for the time range). */
  readonly rereadable: boolean;
}

/** Size and kind of an input without opening it (opening a named pipe would block, and closing it break the writer). */
export function describeInput(path: string): Omit<OpenedInput, 'stream'> {
  if (path === STDIN) return { size: undefined, rereadable: false };
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) throw new HarnessError('GH_ERR_CONFIG', `${path} is a directory, not a k6 NDJSON file`);
    return stat.isFile() ? { size: stat.size, rereadable: true } : { size: undefined, rereadable: false };
  } catch (error) {
    if (error instanceof HarnessError) throw error;
    throw new HarnessError('GH_ERR_CONFIG', `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, {
      cause: error,
    });
  }
}

export function openInput(path: string): OpenedInput {
  const info = describeInput(path);
  if (path === STDIN) return { stream: process.stdin, ...info };
  return { stream: createReadStream(path, { highWaterMark: 256 * 1024 }), ...info };
}

const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * The longest line read (characters): k6 writes one short line per sample (under 1 KB with every tag), so a line
 * past this is no k6 NDJSON (a gzip bomb of one 1 GB line would otherwise grow a string until V8 gives up).
 */
export const MAX_LINE_CHARS = 1 << 20;

/**
 * Lines of an NDJSON byte stream in batches (one batch per decoded chunk), gunzipped when it starts with gzip's magic
 * bytes. `onBytes` reports raw bytes as they are read; `onDecoded` sees the decoded bytes (merge-results hashes them to
 * tell the same instance's file given twice, gzipped or not). Backpressure holds: the next chunk is read when the
 * consumer asks for the next batch, so memory stays at a chunk plus one partial line. A stream that fails part way (a
 * gzip cut short) throws after the batches it could decode.
 */
export async function* lineBatches(
  source: Readable,
  onBytes: (n: number) => void = () => undefined,
  onDecoded: (chunk: Buffer) => void = () => undefined,
  maxLineChars = MAX_LINE_CHARS,
): AsyncGenerator<string[]> {
  const raw = source[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  const asBuffer = (v: Buffer | string): Buffer => (Buffer.isBuffer(v) ? v : Buffer.from(v));
  // Enough bytes to see gzip's two magic bytes (a pipe may deliver a single byte first).
  const start: Buffer[] = [];
  let started = 0;
  while (started < GZIP_MAGIC.length) {
    const next = await raw.next();
    if (next.done === true) break;
    const chunk = asBuffer(next.value);
    onBytes(chunk.length);
    start.push(chunk);
    started += chunk.length;
  }
  if (started === 0) return;
  const head = Buffer.concat(start);
  const rest = Readable.from(
    (async function* () {
      yield head;
      for (let next = await raw.next(); next.done !== true; next = await raw.next()) {
        const chunk = asBuffer(next.value);
        onBytes(chunk.length);
        yield chunk;
      }
    })(),
    { objectMode: false },
  );
  let decoded: Readable = rest;
  if (head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1]) {
    const gunzip = createGunzip();
    decoded = pipeline(rest, gunzip, () => undefined);
  }
  const decoder = new StringDecoder('utf8');
  let partial = '';
  for await (const chunk of decoded as AsyncIterable<Buffer>) {
    onDecoded(chunk);
    const text = partial + decoder.write(chunk);
    const lines = text.split('\n');
    partial = lines.pop() ?? '';
    if (partial.length > maxLineChars)
      throw new Error(`a line longer than ${maxLineChars} characters: not k6 NDJSON (k6 writes one short line per sample)`);
    if (lines.length > 0) yield lines;
  }
  const tail = partial + decoder.end();
  if (tail !== '') yield [tail];
}
