// `load --dashboard [PORT]`: a page on 127.0.0.1 that follows the run — the report's charts from the run's NDJSON
// stream as it is written (tailed, both engines write it), pushed over Server-Sent Events — and becomes the report.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { HarnessError } from '../../api/errors.ts';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SeriesAccumulator } from '../../reports/k6-series.ts';
import { renderLivePage, type LivePageMeta } from '../../reports/html/live-page.ts';
import { loadHtmlAssets } from '../../reports/html/report-html.ts';
import { LiveThresholds } from '../run-node-engine.ts';

/** How often the stream is read and the page updated: k6 flushes its JSON output about every 200 ms. */
const TICK_MS = 500;
/** Live buckets are one second wide (the run's length is not known in advance; the report picks its own width). */
const LIVE_INTERVAL_MS = 1_000;

export interface LiveDashboard {
  readonly url: string;
  /** Reads what is left of the stream, sends the report to every open page (it replaces the page) and closes. */
  finish(reportHtml: string | undefined): Promise<void>;
}

export interface LiveDashboardOptions {
  /** 0: any free port. */
  readonly port: number;
  /** The plain NDJSON stream the run writes (it may not exist yet; it is created when the engine starts). */
  readonly ndjsonPath: string;
  readonly meta: LivePageMeta;
  /** The run's k6 thresholds (options.thresholds): the page shows each as it stands, red once crossed. */
  readonly thresholds?: Readonly<Record<string, unknown>>;
}

/** Reads the file's new complete lines since the last call (a restarted file is read from its start). */
function tailer(path: string): () => string[] {
  let offset = 0;
  let partial = '';
  return () => {
    let size: number;
    try {
      size = statSync(path).size;
    } catch {
      return []; // not created yet
    }
    if (size < offset) {
      offset = 0;
      partial = '';
    }
    if (size === offset) return [];
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.alloc(size - offset);
      const read = readSync(fd, buffer, 0, buffer.length, offset);
      offset += read;
      const lines = (partial + buffer.subarray(0, read).toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      return lines;
    } finally {
      closeSync(fd);
    }
  };
}

export async function startLiveDashboard(options: LiveDashboardOptions): Promise<LiveDashboard> {
  const page = renderLivePage(options.meta, loadHtmlAssets());
  const accumulator = new SeriesAccumulator({ intervalMs: LIVE_INTERVAL_MS });
  const thresholds = options.thresholds === undefined ? undefined : new LiveThresholds(options.thresholds);
  const read = tailer(options.ndjsonPath);
  const clients = new Set<ServerResponse>();
  let last: string | undefined;
  let finalHtml: string | undefined;

  const send = (res: ServerResponse, event: string, data: string): void => {
    res.write(`event: ${event}\ndata: ${data}\n\n`);
  };
  const update = (): void => {
    const lines = read();
    for (const line of lines) {
      accumulator.addLine(line);
      thresholds?.addLine(line);
    }
    if (lines.length === 0 && last !== undefined) return;
    const series = accumulator.snapshot();
    if (series.buckets === 0) return;
    last = JSON.stringify({
      series,
      requests: series.requests.reduce((a, b) => a + b, 0),
      seconds: Math.round((series.buckets * series.intervalMs) / 1000),
      ...(thresholds === undefined ? {} : { thresholds: thresholds.states() }),
    });
    for (const res of clients) send(res, 'series', last);
  };

  let ownHosts: ReadonlySet<string> = new Set();
  const server = createServer((req, res) => {
    // DNS rebinding: a page of attacker.example whose name now resolves to 127.0.0.1 sends its own Host; only the
    // address the dashboard is bound to (and localhost) is answered.
    if (!ownHosts.has((req.headers.host ?? '').toLowerCase())) {
      res.writeHead(421, { 'content-type': 'text/plain' }).end('misdirected request: this dashboard answers only its own address\n');
      return;
    }
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      // Headers now, not with the first event: the page knows at once that it is connected.
      res.flushHeaders();
      if (finalHtml !== undefined) {
        send(res, 'report', JSON.stringify({ html: finalHtml }));
        res.end();
        return;
      }
      clients.add(res);
      req.on('close', () => clients.delete(res));
      if (last !== undefined) send(res, 'series', last);
      return;
    }
    if (path === '/' || path === '/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(finalHtml ?? page);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found\n');
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE' || error.code === 'EACCES'
          ? new HarnessError(
              'GH_ERR_USAGE',
              `--dashboard ${options.port}: the port is ${error.code === 'EADDRINUSE' ? 'in use' : 'not allowed'} on 127.0.0.1; name another port, or give --dashboard alone for a free one`,
            )
          : error,
      ),
    );
    server.listen(options.port, '127.0.0.1', () => resolveListen());
  });
  const port = (server.address() as AddressInfo).port;
  ownHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const timer = setInterval(update, TICK_MS);
  const url = `http://127.0.0.1:${port}/`;

  return {
    url,
    async finish(reportHtml) {
      clearInterval(timer);
      update();
      finalHtml = reportHtml;
      for (const res of clients) {
        if (reportHtml !== undefined) send(res, 'report', JSON.stringify({ html: reportHtml }));
        res.end();
      }
      clients.clear();
      await new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      });
    },
  };
}
