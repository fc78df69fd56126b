// report.html in a real headless Chromium (Debian's chromium via playwright-core): loads offline with no console error
// and no request, every chart drew its data, the failing case is visible; a screenshot is kept as a test artifact.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_DIR } from '../../scripts/gen.ts';
import { FIXTURE_SECRETS, fullReport } from '../fixtures/full-report.ts';
import { writeReports } from '../write.ts';
import { findBinary } from '../fixtures/find-binary.ts';

/** Debian's package (`chromium` on PATH, /usr/bin/chromium); CHROMIUM_BIN overrides. `.ci/run` installs it when missing. */
const CHROMIUM = findBinary('CHROMIUM_BIN', 'chromium');
const HAS_CHROMIUM = CHROMIUM !== undefined;
export const ARTIFACT_DIR = join(ROOT_DIR, 'reports', 'out', 'artifacts');
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

if (!HAS_CHROMIUM) {
  // Said once, plainly, so a skipped browser test is never mistaken for a pass.
  console.warn('report-browser.test.ts: SKIPPED: no chromium binary on PATH (apt-get install chromium, or set CHROMIUM_BIN)');
}

describe.skipIf(!HAS_CHROMIUM)(`report.html in headless Chromium (${CHROMIUM ?? 'none'})`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'gh-browser-'));
  let context: BrowserContext;
  let page: Page;
  const consoleProblems: string[] = [];
  const requests: string[] = [];
  let htmlUrl = '';

  beforeAll(async () => {
    const report = await fullReport(join(dir, 'metrics.ndjson'));
    const written = writeReports(report, join(dir, 'report'), { secrets: FIXTURE_SECRETS, files: ['reportHtml'] });
    htmlUrl = pathToFileURL(written.paths.reportHtml!).href;
    // A fresh profile directory per run: nothing from an earlier run (cache, service workers) can help the page.
    context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: CHROMIUM as string,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 900 },
      offline: true,
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') consoleProblems.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => consoleProblems.push(`pageerror: ${error.message}`));
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(htmlUrl, { waitUntil: 'load' });
    // Wait for the state (every chart marked), bounded; never a fixed sleep.
    // (A string: this file is type-checked without the DOM library; the expression runs in the page.)
    await page.waitForFunction("[...document.querySelectorAll('[data-chart]')].every((el) => el.hasAttribute('data-rendered'))", undefined, { timeout: 15_000 });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads offline with no console error and requests nothing but itself', () => {
    expect(consoleProblems).toEqual([]);
    expect(requests).toEqual([htmlUrl]);
  });

  it('shows the verdict in the first screen', async () => {
    const banner = page.locator('header.banner');
    await expect(banner.locator('.word').textContent()).resolves.toContain('FAIL');
    const box = await banner.boundingBox();
    expect(box !== null && box.y + box.height <= 900).toBe(true);
  });

  it('every chart rendered its data: a canvas with coloured series pixels, not a blank frame', async () => {
    const charts = await page.$$eval('[data-chart]', (elements) =>
      elements.map((el) => {
        const canvas = el.querySelector('canvas');
        let coloured = 0;
        if (canvas !== null) {
          const ctx = canvas.getContext('2d');
          const data = ctx?.getImageData(0, 0, canvas.width, canvas.height).data ?? new Uint8ClampedArray();
          // Axes, grid and text are grey; series strokes are saturated colours.
          for (let i = 0; i < data.length; i += 4) {
            const [r, g, b, a] = [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0, data[i + 3] ?? 0];
            if (a > 128 && Math.max(r, g, b) - Math.min(r, g, b) > 80) coloured += 1;
          }
        }
        return { chart: el.getAttribute('data-chart'), points: Number(el.getAttribute('data-rendered')), canvas: canvas !== null, coloured };
      }),
    );
    expect(charts.map((c) => c.chart)).toEqual(['latency-overall', 'latency-operations', 'throughput', 'outcomes']);
    for (const c of charts) {
      expect(c.canvas, `${c.chart} has a canvas`).toBe(true);
      expect(c.points, `${c.chart} plotted points`).toBeGreaterThan(100);
      expect(c.coloured, `${c.chart} drew coloured pixels`).toBeGreaterThan(500);
    }
  });

  it('the failing case is visible with its rule, expected vs received and redacted request', async () => {
    const failing = page.locator('article.case[data-case="TRG-510-V2"]');
    await failing.scrollIntoViewIfNeeded();
    expect(await failing.isVisible()).toBe(true);
    expect(await failing.locator('.rule').textContent()).toContain('Mobile number ends with 510');
    expect(await failing.locator('.received pre').first().textContent()).toBe("responseCode '000' (HTTP 200)");
    expect(await failing.locator('pre.request').isVisible()).toBe(true);
    expect(await failing.locator('pre.request').textContent()).toContain('authorization: Basic [REDACTED]');
  });

  it('saves a screenshot of the first screen and of the whole page as test artifacts', async () => {
    mkdirSync(ARTIFACT_DIR, { recursive: true });
    await page.evaluate('window.scrollTo(0, 0)');
    const first = join(ARTIFACT_DIR, 'report.png');
    const whole = join(ARTIFACT_DIR, 'report-full.png');
    await page.screenshot({ path: first });
    await page.screenshot({ path: whole, fullPage: true });
    expect(existsSync(first) && existsSync(whole)).toBe(true);
  });
});
