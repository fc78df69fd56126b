// Every page the harness writes, in headless Chromium at 800 px and at 1,400 px (opened at each width, then the window
// resized to the other): the page never scrolls sideways (wide tables scroll in their own box), nothing is clipped out of
// reach, every chart fits its box and its legend shows values, and no console error. Shown failing on planted overflows.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACT_DIR, CHROMIUM, CHROMIUM_ARGS } from '../fixtures/browser.ts';
import { startFilledLiveDashboard, writeEveryReportPage, type HarnessPage } from '../fixtures/every-page.ts';
import { layoutProblems } from '../fixtures/page-layout.ts';

if (CHROMIUM === undefined)
  console.warn('page-widths-browser.test.ts: SKIPPED: no chromium binary on PATH (apt-get install chromium, or set CHROMIUM_BIN)');

const WIDTHS = [800, 1400] as const;
const dir = mkdtempSync(join(tmpdir(), 'gh-page-widths-'));
let browser: Browser | undefined;
let pages: HarnessPage[] = [];
let finishLive: (() => Promise<void>) | undefined;

/** In the page (strings, as Playwright evaluates them): every chart drew; on the live page every tile and the thresholds table filled too. */
const DRAWN = "[...document.querySelectorAll('[data-chart]')].every((el) => el.hasAttribute('data-rendered'))";
const LIVE_FILLED = `${DRAWN} && [...document.querySelectorAll('[data-tile] .big')].every((el) => el.textContent !== '–') && document.querySelectorAll('#live-thresholds tr').length > 0`;
/** Every chart's canvas fits its box (after a resize the charts follow on the next frame). */
const CHARTS_FIT =
  "[...document.querySelectorAll('[data-chart]')].every((c) => (c.querySelector('canvas')?.clientWidth ?? 0) <= c.clientWidth + 1)";

beforeAll(async () => {
  if (CHROMIUM === undefined) return;
  const live = await startFilledLiveDashboard(dir);
  finishLive = () => live.finish(undefined);
  pages = [...(await writeEveryReportPage(dir)), live.page];
  browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await finishLive?.();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Polls `expression` in the page until it is true, at most `timeoutMs`. Not waitForFunction: its string predicates are
 * compiled in the page, which the report's CSP (no 'unsafe-eval') answers with a console error the test would count.
 */
async function waitInPage(page: Page, expression: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await page.evaluate(expression)) !== true) {
    if (Date.now() > deadline) throw new Error(`not true in the page within ${timeoutMs} ms: ${expression}`);
    await page.waitForTimeout(50); // a poll interval, not a sleep standing for a state: the state is the expression
  }
}

/** Opens the page in a fresh context at `width`, waits (bounded) until it has drawn, and collects console problems. */
async function open(target: HarnessPage, width: number): Promise<{ page: Page; problems: string[]; close: () => Promise<void> }> {
  if (browser === undefined) throw new Error('no browser');
  const context = await browser.newContext({ viewport: { width, height: 900 }, offline: !target.live });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(target.url, { waitUntil: 'load' });
  await waitInPage(page, target.live ? LIVE_FILLED : DRAWN, 30_000);
  return { page, problems, close: () => context.close() };
}

/** After a resize the charts follow on the next frame: wait until every canvas fits its box again (bounded). */
async function resizeTo(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  await waitInPage(page, CHARTS_FIT, 5_000).catch(() => undefined); // the check below says what does not fit
}

describe.skipIf(CHROMIUM === undefined)('every page at 800 px and at 1,400 px (headless Chromium)', () => {
  it('writes every page the harness writes: gate, load, conformance, migrate, baseline check, compare, unusable, interrupted, live', () => {
    expect(pages.map((p) => p.name)).toEqual([
      'gate',
      'load',
      'conformance',
      'migrate',
      'baseline-check',
      'compare',
      'unusable',
      'interrupted',
      'live',
    ]);
  });

  for (const width of WIDTHS) {
    const other = width === 800 ? 1400 : 800;
    it(`opened at ${width} px, then resized to ${other} px: no sideways scroll, nothing clipped, legends with values, no console error`, async () => {
      mkdirSync(ARTIFACT_DIR, { recursive: true });
      // Every page's problems first, then one assertion: a failure shows the whole picture, not the first page's.
      const found: Record<string, string[]> = {};
      for (const target of pages) {
        const { page, problems, close } = await open(target, width);
        try {
          found[`${target.name} at ${width} px`] = await layoutProblems(page);
          await page.screenshot({ path: join(ARTIFACT_DIR, `page-${target.name}-${width}.png`), fullPage: true });
          await resizeTo(page, other);
          found[`${target.name} opened at ${width} px, resized to ${other} px`] = await layoutProblems(page);
          found[`${target.name}: console`] = problems;
        } finally {
          await close();
        }
      }
      expect(Object.fromEntries(Object.entries(found).filter(([, problems]) => problems.length > 0))).toEqual({});
    }, 240_000);
  }

  it('the check fails on planted faults: a wide line, a clipped box, a chart wider than its box, a legend of dashes', async () => {
    const gate = pages.find((p) => p.name === 'gate');
    if (gate === undefined) throw new Error('no gate page');
    const { page, close } = await open(gate, 800);
    try {
      expect(await layoutProblems(page)).toEqual([]);
      await page.evaluate(`(() => {
        const wide = document.createElement('p');
        wide.id = 'planted-wide';
        wide.style.whiteSpace = 'nowrap';
        wide.textContent = 'v2.transaction.topup '.repeat(80);
        document.querySelector('section.load').append(wide);
        const clipped = document.createElement('div');
        clipped.id = 'planted-clip';
        clipped.style.cssText = 'overflow:hidden;width:200px;white-space:nowrap';
        clipped.textContent = 'a reason cut off at the edge of its box '.repeat(4);
        document.querySelector('section.conformance').append(clipped);
        document.querySelector('[data-chart="throughput"] canvas').style.width = '2000px';
        for (const v of document.querySelectorAll('[data-chart="outcomes"] .u-value')) v.textContent = '–';
      })()`);
      const problems = (await layoutProblems(page)).join('\n');
      expect(problems).toMatch(/the page scrolls sideways: \d+ px wide in a 800 px window/);
      expect(problems).toMatch(
        /text "v2\.transaction\.topup v2\.transaction\.topu" of p#planted-wide in section\.load reaches \d+ px, outside the 800 px window/,
      );
      expect(problems).toMatch(/div#planted-clip in section\.conformance clips its content/);
      expect(problems).toMatch(/chart throughput is 2000 px wide in a \d+ px box/);
      expect(problems).toMatch(/legend of chart outcomes shows no values/);
    } finally {
      await close();
    }
  }, 120_000);
});
