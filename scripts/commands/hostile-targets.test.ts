// Issue #23 finding 7: the gate says what a non-gateway target answered (HTML, empty, unreadable, cut short), never
// "the credentials are refused". Finding 8: one quick preflight for every command. A target that accepts connections and never answers, and
// a refused port, end `load`, `baseline record`, `migrate` and `reconcile` with one GH_ERR_TARGET line (exit 2) in
// seconds; the load report is "unusable" and shows no threshold met nor check passed on zero answers.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type RequestListener } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topupRequestLine } from '../../ledger/fixtures/ledger-lines.ts';
import type { RunReport } from '../../reports/model.ts';
import { runCli } from '../fixtures/run-cli.ts';
import { closedPort } from '../fixtures/closed-port.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-hostile-'));
let silent: Server;
const sockets = new Set<Socket>();
let silentUrl: string;

beforeAll(async () => {
  // Accepts every connection, reads the request, never answers.
  silent = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.resume();
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});

/**
 * A refused port, found right before its test: one found in beforeAll can be handed to another test's server minutes
 * later in the full suite (a `reconcile` then met a live target and ran past 30 s, once in six runs).
 */
async function refusedUrl(): Promise<string> {
  return `http://127.0.0.1:${await closedPort()}`;
}

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

/** A ledger with one top-up that is not final, sent to `target`. */
function ledgerFor(target: string): string {
  const path = join(dir, `ledger-${Math.random().toString(36).slice(2)}.jsonl`);
  const line = topupRequestLine('e1', 'gh-hostile-1', Date.now(), {
    body: { skuId: 1001, amount: 10 },
    estimate: { amount: 10, currency: 'USD' },
    target,
    environment: 'sandbox',
  });
  writeFileSync(path, `${JSON.stringify(line)}\n`);
  return path;
}

/** `load` of the read-only catalog-browse scenario on the Node engine against `target`. */
function nodeLoad(target: string, reportDir: string): string[] {
  return ['load', '--scenario', 'catalog-browse', '--engine', 'node', '--target', target, '--report-dir', reportDir];
}

const COMMANDS: ReadonlyArray<[string, (target: string) => string[]]> = [
  ['load', (target) => nodeLoad(target, join(dir, `load-${Math.random().toString(36).slice(2)}`))],
  ['baseline record', (target) => ['baseline', 'record', '--target', target, '--out-dir', join(dir, 'baseline'), '--reads-only']],
  ['migrate', (target) => ['migrate', '--target', target, '--report-dir', join(dir, 'migrate')]],
  ['reconcile', (target) => ['reconcile', ledgerFor(target), '--target', target]],
];

describe('every command: an unusable target is one GH_ERR_TARGET line within seconds (exit 2)', () => {
  for (const [name, args] of COMMANDS) {
    it(`${name}: a target that accepts connections and never answers`, async () => {
      const started = Date.now();
      const result = await runCli(args(silentUrl));
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/gateway-harness: GH_ERR_TARGET: .*no answer to GET \/api\/v2\/account\/balance within \d+ ms/);
    });

    it(`${name}: a refused port`, async () => {
      const started = Date.now();
      const result = await runCli(args(await refusedUrl()));
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/gateway-harness: GH_ERR_TARGET: .*cannot connect: .*ECONNREFUSED/);
    });
  }

  it('load: the report says unusable and shows nothing green built on no answer', async () => {
    const reportDir = join(dir, 'load-report');
    const result = await runCli(nodeLoad(silentUrl, reportDir));
    expect(result.code).toBe(2);
    const summary = JSON.parse(readFileSync(join(reportDir, 'summary.json'), 'utf8')) as RunReport;
    expect(summary.verdict).toBe('unusable');
    expect(summary.error?.code).toBe('GH_ERR_TARGET');
    expect(summary.load).toBeUndefined();
    const md = readFileSync(join(reportDir, 'summary.md'), 'utf8');
    expect(md).not.toMatch(/✅|\bmet\b|passed \d/);
    expect(md).not.toMatch(/conformance provokes/);
  });
});

/** An HTTP server on 127.0.0.1 port 0 answering every request with `handler`; closed (connections too) after the test. */
async function httpTarget(handler: RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A raw TCP target: the HTTP status line and headers promise 500 bytes, 20 come, then the connection closes. */
async function cutShortTarget(): Promise<{ url: string; close: () => Promise<void> }> {
  const open = new Set<Socket>();
  const server = createServer((socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.once('data', () => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 500\r\n\r\n{"responseCode":"00');
      setImmediate(() => socket.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('gate: a target that is no gateway is said as what it answered (#23 finding 7)', () => {
  const targets: ReadonlyArray<[string, () => Promise<{ url: string; close: () => Promise<void> }>, RegExp]> = [
    [
      'HTML',
      () => httpTarget((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>It works!</body></html>')),
      /answered HTTP 200 with an HTML page/,
    ],
    ['an empty 200', () => httpTarget((_req, res) => res.writeHead(200).end()), /answered HTTP 200 with an empty body/],
    [
      'gzip garbage',
      () =>
        httpTarget((_req, res) =>
          res
            .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
            .end(Buffer.from([0x1f, 0x8b, 0x08, 0, 0xde, 0xad, 0xbe, 0xef])),
        ),
      /answered HTTP 200 with an unreadable body \(content-encoding gzip/,
    ],
    ['a body closed mid-way', cutShortTarget, /answered HTTP 200 whose body broke off before its end/],
  ];
  it.each(targets)('%s: GH_ERR_TARGET naming what came, not the credentials (exit 2)', async (_name, start, reason) => {
    const target = await start();
    try {
      const result = await runCli([
        'gate',
        '--target',
        target.url,
        '--report-dir',
        join(dir, `gate-${Math.random().toString(36).slice(2)}`),
      ]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/gateway-harness: GH_ERR_TARGET: /);
      expect(result.stderr).toMatch(reason);
      expect(result.stderr).not.toMatch(/credentials/);
    } finally {
      await target.close();
    }
  });
});
