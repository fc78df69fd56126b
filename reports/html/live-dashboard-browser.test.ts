// `gateway-harness load --dashboard` in a real headless Chromium (Debian's chromium via playwright-core): the page on
// 127.0.0.1 shows the report's charts growing while the run goes, then becomes the run's report with its verdict; it
// asks nothing of the network but its own origin. The CLI runs as a child process, killed at the end whatever happens.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS } from '../fixtures/browser.ts';
import { ROOT_DIR } from '../../scripts/gen.ts';
import { AGGREGATES_FILE } from '../metric-aggregates.ts';

if (CHROMIUM === undefined)
  console.warn(
    'reports/html/live-dashboard-browser.test.ts: SKIPPED: no chromium binary on PATH (apt-get install chromium, or set CHROMIUM_BIN)',
  );

const dir = mkdtempSync(join(tmpdir(), 'gh-dashboard-'));
/** Screenshots of the live page for a person to look at (GATEWAY_SHOTS_DIR keeps them; else they go with the temp dir). */
const SHOTS = process.env.GATEWAY_SHOTS_DIR ?? dir;
let child: ChildProcess | undefined;
let context: BrowserContext | undefined;
afterAll(async () => {
  await context?.close();
  if (child !== undefined && child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** The page's document as these functions use it (they run in the page; the project's TS has no DOM library). */
interface PageDocument {
  title: string;
  body: { getAttribute(name: string): string | null };
  querySelector(selector: string): { getAttribute(name: string): string | null } | null;
  querySelectorAll(selector: string): ArrayLike<{ hasAttribute(name: string): boolean }>;
}
// Functions, not strings: the page's CSP forbids eval. Each reads the document itself (they are serialised into the page).
/** Points the throughput chart says it drew (0 before it drew). */
const throughputPoints = (): number =>
  Number(
    (globalThis as unknown as { document: PageDocument }).document
      .querySelector('[data-chart="throughput"]')
      ?.getAttribute('data-rendered') ?? 0,
  );
const liveWith = (min: number): boolean => {
  const doc = (globalThis as unknown as { document: PageDocument }).document;
  return doc.title.startsWith('LIVE') && Number(doc.querySelector('[data-chart="throughput"]')?.getAttribute('data-rendered') ?? 0) > min;
};
const isReport = (): boolean =>
  (globalThis as unknown as { document: PageDocument }).document.title.startsWith('PASS · gateway-harness load');
const allDrawn = (): boolean =>
  Array.from((globalThis as unknown as { document: PageDocument }).document.querySelectorAll('[data-chart]')).every((el) =>
    el.hasAttribute('data-rendered'),
  );
/** The headline tiles' big values and the progress bar's fill, while the page is the live one. */
const liveNow = (): { tiles: Record<string, string>; fill: string; overflow: number } => {
  const doc = (globalThis as unknown as { document: PageDocument & { documentElement: { scrollWidth: number; clientWidth: number } } })
    .document;
  const tiles: Record<string, string> = {};
  for (const id of ['requests', 'rate', 'failures', 'p95', 'vus']) {
    tiles[id] = (doc.querySelector(`[data-tile="${id}"] .big`) as unknown as { textContent: string } | null)?.textContent ?? '';
  }
  const fill = (doc.querySelector('.live-progress .fill') as unknown as { style: { width: string } } | null)?.style.width ?? '';
  return { tiles, fill, overflow: doc.documentElement.scrollWidth - doc.documentElement.clientWidth };
};
/** Every tile filled, the VUs one included (the engine's vus points reach the stream during the run, #34). */
const tilesFilled = (): boolean => {
  const doc = (globalThis as unknown as { document: PageDocument }).document;
  return ['requests', 'rate', 'failures', 'p95', 'vus'].every((id) => {
    const text = (doc.querySelector(`[data-tile="${id}"] .big`) as unknown as { textContent: string } | null)?.textContent ?? '–';
    return text !== '–' && text !== '';
  });
};
/** Rows of the live thresholds table by state (crossed, held, waiting). */
const thresholdRows = (): Record<string, number> => {
  const rows = Array.from(
    (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ className: string }> } }).document.querySelectorAll(
      '#live-thresholds tr',
    ),
  );
  const out: Record<string, number> = { crossed: 0, held: 0, waiting: 0 };
  for (const row of rows) out[row.className] = (out[row.className] ?? 0) + 1;
  return out;
};
const liveUpdates = (): number =>
  Number((globalThis as unknown as { document: PageDocument }).document.body.getAttribute('data-live-updates'));

describe.skipIf(CHROMIUM === undefined)('load --dashboard in headless Chromium', () => {
  it('the charts grow while the run goes, and at the end the page is the report with its verdict', async () => {
    const reportDir = join(dir, 'report');
    // The Node engine (no k6 needed): 1 VU for 6 s against the embedded sandbox, a few hundred requests.
    child = spawn(
      process.execPath,
      [
        join(ROOT_DIR, 'bin', 'gateway-harness.mjs'),
        'load',
        '--scenario',
        'catalog-browse',
        '--engine',
        'node',
        '--vus',
        '1',
        '--duration',
        '6s',
        '--dashboard',
        '--report-dir',
        reportDir,
      ],
      {
        cwd: dir,
        env: { ...process.env, K6_BIN: '/nonexistent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (c: string) => (output += c));
    child.stderr?.setEncoding('utf8').on('data', (c: string) => (output += c));
    const exited = new Promise<number | null>((r) => child?.once('exit', (code) => r(code)));
    const url = await new Promise<string>((resolveUrl, reject) => {
      const timer = setTimeout(() => reject(new Error(`no dashboard URL within 60 s:\n${output}`)), 60_000);
      const look = (): void => {
        const m = /live dashboard on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
        if (m !== null) {
          clearTimeout(timer);
          resolveUrl(m[1] as string);
        }
      };
      child?.stderr?.on('data', look);
      child?.stdout?.on('data', look);
      void exited.then(() => reject(new Error(`the command ended before serving a dashboard:\n${output}`)));
    });

    context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: CHROMIUM as string,
      args: [...CHROMIUM_ARGS],
      viewport: { width: 1400, height: 900 },
    });
    const page: Page = context.pages()[0] ?? (await context.newPage());
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    await page.goto(url, { waitUntil: 'load' });
    expect(await page.title()).toMatch(/^LIVE · load catalog-browse\/smoke/);

    // Live: a first drawing, then a later one with more points, while the page is still the live one.
    await page.waitForFunction(liveWith, 0, { timeout: 60_000 });
    const first = await page.evaluate(throughputPoints);
    await page.waitForFunction(liveWith, first, { timeout: 30_000 });
    const updates = await page.evaluate(liveUpdates);
    expect(updates).toBeGreaterThanOrEqual(2);

    // The headline tiles (requests, rate, failures, p95 and VUs now) and the progress bar against the planned 6 s,
    // at 1400 px and at 800 px with nothing wider than the window.
    await page.waitForFunction(tilesFilled, undefined, { timeout: 30_000 });
    const wide = await page.evaluate(liveNow);
    expect(wide.tiles.vus).toBe('1');
    expect(wide.tiles.failures).toBe('0');
    expect(Number(wide.tiles.requests)).toBeGreaterThan(0);
    expect(wide.fill).toMatch(/^[1-9]\d*(\.\d)?%$/);
    expect(wide.overflow).toBeLessThanOrEqual(0);
    // The run's thresholds as they stand (a passing smoke run: none crossed; the crossing itself: engine/live-thresholds.test.ts).
    const rows = await page.evaluate(thresholdRows);
    expect(rows.held).toBeGreaterThan(5);
    expect(rows.crossed).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'live-1400.png'), fullPage: true });
    await page.setViewportSize({ width: 800, height: 900 });
    const narrow = await page.evaluate(liveNow);
    expect(narrow.overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SHOTS, 'live-800.png'), fullPage: true });
    await page.setViewportSize({ width: 1400, height: 900 });

    // The end: the page is the report (its verdict banner, its charts drawn from the whole stream).
    await page.waitForFunction(isReport, undefined, { timeout: 120_000 });
    expect(await page.getAttribute('[data-verdict]', 'data-verdict')).toBe('pass');
    await page.waitForFunction(allDrawn, undefined, { timeout: 15_000 });
    expect(await page.evaluate(throughputPoints)).toBeGreaterThan(first);
    expect(await exited, output).toBe(0);
    // The page became exactly the report written to disk.
    const written = readFileSync(join(reportDir, 'report.html'), 'utf8');
    expect(await page.title()).toBe(/<title>([^<]*)<\/title>/.exec(written)?.[1]?.replace(/&amp;/g, '&'));
    // The report reads the per-second aggregates; the raw stream the page tailed lived outside the report dir.
    expect(existsSync(join(reportDir, AGGREGATES_FILE))).toBe(true);
    expect(existsSync(join(reportDir, 'metrics.ndjson'))).toBe(false);

    // Nothing from the network: the page and its event stream, from its own origin.
    expect(requests.filter((r) => !r.startsWith(url))).toEqual([]);
    expect(new Set(requests)).toEqual(new Set([url, `${url}events`]));
    expect(problems).toEqual([]);
  }, 240_000);
});
