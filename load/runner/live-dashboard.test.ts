// The live dashboard's server without a browser: the page (self-contained, CSP allowing only its own origin), the
// event stream following the NDJSON file as it grows (a file that does not exist yet is waited for), and the end: the
// report sent to every open page, then the server closed.
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { startLiveDashboard } from './live-dashboard.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-live-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const point = (metric: string, at: number, value: number, tags: Record<string, string> = {}): string =>
  `${JSON.stringify({ metric, type: 'Point', data: { time: new Date(at).toISOString(), value, tags } })}\n`;

/** An SSE reader over one response body: `next(until)` reads events until `until` says stop (bounded by the test). */
function eventReader(
  body: AsyncIterable<Buffer>,
): (until: (events: Array<{ event: string; data: string }>) => boolean) => Promise<Array<{ event: string; data: string }>> {
  const chunks = body[Symbol.asyncIterator]();
  let text = '';
  return async (until) => {
    const events: Array<{ event: string; data: string }> = [];
    while (!until(events)) {
      const { value, done } = await chunks.next();
      if (done === true) break;
      text += (value as Buffer).toString('utf8');
      let end;
      while ((end = text.indexOf('\n\n')) >= 0) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        events.push({ event: /^event: (.*)$/m.exec(block)?.[1] ?? 'message', data: /^data: (.*)$/m.exec(block)?.[1] ?? '' });
      }
    }
    return events;
  };
}

describe('live dashboard server', () => {
  it('serves the page, streams the growing series, then the report, and closes', async () => {
    const ndjson = join(dir, 'metrics.ndjson');
    const dashboard = await startLiveDashboard({ port: 0, ndjsonPath: ndjson, meta: { title: 'load lookup/smoke', runId: 'run-1' } });
    expect(dashboard.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await request(dashboard.url);
    const html = await page.body.text();
    expect(page.statusCode).toBe(200);
    expect(html).toContain("connect-src 'self'");
    expect(html).toContain('GatewayHarnessCharts');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);

    const stream = await request(`${dashboard.url}events`);
    expect(stream.headers['content-type']).toBe('text/event-stream');
    const readEvents = eventReader(stream.body);
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    appendFileSync(ndjson, point('http_reqs', t0, 1) + point('http_req_duration', t0, 12, { operation: 'v2.catalog.skus' }));
    const first = await readEvents((e) => e.some((x) => x.event === 'series'));
    const firstSeries = JSON.parse(first.find((x) => x.event === 'series')?.data ?? '{}') as {
      requests: number;
      series: { buckets: number };
    };
    expect(firstSeries.requests).toBe(1);
    // A partial line waits for its end.
    appendFileSync(ndjson, point('http_reqs', t0 + 2_000, 1) + point('http_reqs', t0 + 2_100, 1).slice(0, 20));
    const second = await readEvents((e) => e.some((x) => x.event === 'series'));
    expect(JSON.parse(second.find((x) => x.event === 'series')?.data ?? '{}')).toMatchObject({ requests: 2, series: { buckets: 3 } });

    const finished = dashboard.finish('<!DOCTYPE html><title>PASS · report</title>');
    const end = await readEvents((e) => e.some((x) => x.event === 'report'));
    expect(JSON.parse(end.find((x) => x.event === 'report')?.data ?? '{}')).toEqual({
      html: '<!DOCTYPE html><title>PASS · report</title>',
    });
    await finished;
    await expect(request(dashboard.url)).rejects.toThrow();
  }, 30_000);
});
