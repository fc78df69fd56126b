// Child process of `bench:wire`: the sandbox behind a measuring proxy, in a process of its own, so what the proxy says
// it served (request in to last byte out) is the truth the load generator's figures are held against.
import { createServer, request as forward, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { startSandbox } from '../../sandbox/server.ts';

export type ProxyMessage = { type: 'ready'; url: string } | { type: 'stats'; count: number; p50: number; p95: number; p99: number };

/** Never runs out during a bench (catalog-browse charges nothing; kept like sandbox/bench's target). */
const FUNDS = 1e12;

let served: number[] = [];

function quantile(sorted: readonly number[], q: number): number {
  return sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0);
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, funds: FUNDS });
  const upstream = new URL(sandbox.url);
  const agent = new Agent({ keepAlive: true, maxSockets: 1024 });
  const proxy = createServer((req, res) => {
    const t0 = performance.now();
    const out = forward({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
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
  process.send?.({ type: 'stats', count: sorted.length, p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), p99: quantile(sorted, 0.99) } satisfies ProxyMessage);
});
process.on('disconnect', () => process.exit(0));
void main();
