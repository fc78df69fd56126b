// Child process of the measuring proxy (proxy.ts): forwards every request to the target (or to an embedded sandbox it
// starts) and records what it served, request in to last byte out: the truth a load generator's figures are held against.
import { createServer, request as forwardHttp, Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { request as forwardHttps, Agent as HttpsAgent } from 'node:https';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { startSandbox } from '../../../sandbox/server.ts';

export type ProxyMessage = { type: 'ready'; url: string } | { type: 'stats'; count: number; p50: number; p95: number; p99: number };

/** The target the proxy forwards to (argv[2]); none: an embedded sandbox with funds that never run out. */
const FUNDS = 1e12;

let served: number[] = [];

function quantile(sorted: readonly number[], q: number): number {
  return sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0);
}

async function upstreamUrl(): Promise<URL> {
  const given = process.argv[2];
  if (given !== undefined && given !== '') return new URL(given);
  return new URL((await startSandbox({ host: '127.0.0.1', port: 0, funds: FUNDS })).url);
}

async function main(): Promise<void> {
  const upstream = await upstreamUrl();
  const https = upstream.protocol === 'https:';
  const forward = https ? forwardHttps : forwardHttp;
  const agent = https ? new HttpsAgent({ keepAlive: true, maxSockets: 1024 }) : new HttpAgent({ keepAlive: true, maxSockets: 1024 });
  const prefix = upstream.pathname.replace(/\/$/, '');
  const proxy = createServer((req, res) => {
    const t0 = performance.now();
    const headers = { ...req.headers, host: upstream.host };
    const out = forward(
      {
        protocol: upstream.protocol,
        host: upstream.hostname,
        port: upstream.port,
        path: `${prefix}${req.url ?? ''}`,
        method: req.method,
        headers,
        agent,
      },
      (answer: IncomingMessage) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    res.on('finish', () => served.push(performance.now() - t0));
    req.pipe(out);
  });
  proxy.keepAliveTimeout = 60_000;
  await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
  process.send?.({ type: 'ready', url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` } satisfies ProxyMessage);
}

process.on('message', (message: { type: string }) => {
  if (message.type !== 'stats') return;
  const sorted = served.sort((a, b) => a - b);
  served = [];
  process.send?.({
    type: 'stats',
    count: sorted.length,
    p50: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    p99: quantile(sorted, 0.99),
  } satisfies ProxyMessage);
});
process.on('disconnect', () => process.exit(0));
void main();
