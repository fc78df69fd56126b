// `load --dashboard [PORT]`: a page on 127.0.0.1 that follows the run — the report's charts from the run's NDJSON
// stream as it is written (tailed, both engines write it), pushed over Server-Sent Events — and becomes the report.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { HarnessError } from '../../api/errors.ts';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
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

/** What the dashboard answers from: the page, the open event streams, the last series sent, the report once made. */
interface LiveState {
  readonly page: string;
  readonly clients: Set<ServerResponse>;
  last: string | undefined;
  finalHtml: string | undefined;
  /** The Host headers answered: the bound address and localhost, known once the server listens. */
  ownHosts: ReadonlySet<string>;
}

function sendEvent(res: ServerResponse, event: string, data: string): void {
  res.write(`event: ${event}\ndata: ${data}\n\n`);
}

/** Reads the stream's new lines into the series (and thresholds) and sends the series to every open page when it changed. */
function seriesUpdater(options: LiveDashboardOptions, state: LiveState): () => void {
  const accumulator = new SeriesAccumulator({ intervalMs: LIVE_INTERVAL_MS });
  const thresholds = options.thresholds === undefined ? undefined : new LiveThresholds(options.thresholds);
  const read = tailer(options.ndjsonPath);
  return () => {
    const lines = read();
    for (const line of lines) {
      accumulator.addLine(line);
      thresholds?.addLine(line);
    }
    if (lines.length === 0 && state.last !== undefined) return;
    const series = accumulator.snapshot();
    if (series.buckets === 0) return;
    const last = JSON.stringify({
      series,
      requests: series.requests.reduce((a, b) => a + b, 0),
      seconds: Math.round((series.buckets * series.intervalMs) / 1000),
      ...(thresholds === undefined ? {} : { thresholds: thresholds.states() }),
    });
    state.last = last;
    for (const res of state.clients) sendEvent(res, 'series', last);
  };
}

/** The page (`/`), its event stream (`/events`: the series as they come, then the report), 404 for anything else. */
function answer(state: LiveState, req: IncomingMessage, res: ServerResponse): void {
  // DNS rebinding: a page of attacker.example whose name now resolves to 127.0.0.1 sends its own Host; only the
  // address the dashboard is bound to (and localhost) is answered.
  if (!state.ownHosts.has((req.headers.host ?? '').toLowerCase())) {
    res.writeHead(421, { 'content-type': 'text/plain' }).end('misdirected request: this dashboard answers only its own address\n');
    return;
  }
  const path = (req.url ?? '/').split('?')[0];
  if (path === '/events') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    // Headers now, not with the first event: the page knows at once that it is connected.
    res.flushHeaders();
    if (state.finalHtml !== undefined) {
      sendEvent(res, 'report', JSON.stringify({ html: state.finalHtml }));
      res.end();
      return;
    }
    state.clients.add(res);
    req.on('close', () => state.clients.delete(res));
    if (state.last !== undefined) sendEvent(res, 'series', state.last);
    return;
  }
  if (path === '/' || path === '/index.html') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(state.finalHtml ?? state.page);
    return;
  }
  res.writeHead(404, { 'content-type': 'text/plain' });
  res.end('not found\n');
}

/** Listens on 127.0.0.1 and returns the port; a port in use or not allowed is a usage error naming the fix. */
async function listenOnLoopback(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE' || error.code === 'EACCES'
          ? new HarnessError(
              'GH_ERR_USAGE',
              `--dashboard ${port}: the port is ${error.code === 'EADDRINUSE' ? 'in use' : 'not allowed'} on 127.0.0.1; name another port, or give --dashboard alone for a free one`,
            )
          : error,
      ),
    );
    server.listen(port, '127.0.0.1', () => resolveListen());
  });
  return (server.address() as AddressInfo).port;
}

/** The last of the stream read, the report sent to every open page (it replaces the page), the server closed. */
async function finishDashboard(state: LiveState, server: Server, update: () => void, reportHtml: string | undefined): Promise<void> {
  update();
  state.finalHtml = reportHtml;
  for (const res of state.clients) {
    if (reportHtml !== undefined) sendEvent(res, 'report', JSON.stringify({ html: reportHtml }));
    res.end();
  }
  state.clients.clear();
  await new Promise<void>((resolveClose) => {
    server.close(() => resolveClose());
    server.closeAllConnections();
  });
}

export async function startLiveDashboard(options: LiveDashboardOptions): Promise<LiveDashboard> {
  const state: LiveState = {
    page: renderLivePage(options.meta, loadHtmlAssets()),
    clients: new Set<ServerResponse>(),
    last: undefined,
    finalHtml: undefined,
    ownHosts: new Set(),
  };
  const update = seriesUpdater(options, state);
  const server = createServer((req, res) => answer(state, req, res));
  const port = await listenOnLoopback(server, options.port);
  state.ownHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const timer = setInterval(update, TICK_MS);
  return {
    url: `http://127.0.0.1:${port}/`,
    async finish(reportHtml) {
      clearInterval(timer);
      await finishDashboard(state, server, update, reportHtml);
    },
  };
}
