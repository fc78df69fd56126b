// A tiny scripted node:http server for the client tests: each path is one behaviour (delay, reset, non-JSON, ...).
// Real sockets on 127.0.0.1 port 0, so the tests exercise undici exactly as a remote gateway would.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface TestServer {
  readonly url: string;
  /** Every request seen, in order (method, url, headers, body). */
  readonly requests: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }>;
  /** TCP connections accepted so far (keep-alive tests). */
  connections(): number;
  close(): Promise<void>;
}

export async function startTestServer(handler: Handler): Promise<TestServer> {
  const requests: TestServer['requests'] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  server.on('connection', () => {
    connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export const envelope = (responseCode: string, payLoad: unknown = null, responseMessage: string | null = null) => ({
  responseCode,
  responseMessage,
  payLoad,
});
