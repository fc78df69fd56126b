// Child process of the sandbox bench: serves either the embedded sandbox or a bare node:http server with fixed bytes.
// Each target gets its own process so the load generator (the parent) never shares an event loop with the server it measures.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox } from '../server.ts';

/** Messages on the IPC channel: the parent sends `body` (bare only) and reads `ready`. */
export type TargetMessage =
  { type: 'ready'; url: string } | { type: 'body'; base64: string; contentType: string } | { type: 'failed'; message: string };

/** Large enough that no bench run, at any rate this machine reaches, runs out of funds (prepaid, wallet USD). */
export const BENCH_INITIAL_BALANCE = 1e12;

function send(message: TargetMessage): void {
  process.send?.(message);
}

async function serveSandbox(): Promise<void> {
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, funds: BENCH_INITIAL_BALANCE });
  send({ type: 'ready', url: sandbox.url });
}

function serveBare(): void {
  process.once('message', (message: TargetMessage) => {
    if (message.type !== 'body') return;
    const body = Buffer.from(message.base64, 'base64');
    const headers = { 'content-type': message.contentType, 'content-length': String(body.length) };
    const server = createServer((req, res) => {
      // Drain any request body, then answer with the same bytes the sandbox sent for the catalog GET.
      req.resume();
      req.on('end', () => {
        res.writeHead(200, headers);
        res.end(body);
      });
    });
    server.listen(0, '127.0.0.1', () => {
      send({ type: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    });
  });
}

// The parent owns this process: when its IPC channel goes away (normal end, crash or Ctrl-C), stop at once.
process.on('disconnect', () => process.exit(0));

const kind = process.argv[2];
if (kind === 'sandbox') {
  serveSandbox().catch((error: unknown) => {
    send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  });
} else if (kind === 'bare') {
  serveBare();
} else {
  send({ type: 'failed', message: `unknown bench target ${JSON.stringify(kind)}` });
  process.exit(1);
}
