// report.html in a real headless Chromium (Debian's chromium via playwright-core): loads offline with no console error
// and no request, every chart drew its data, the failing case is visible; a screenshot is kept as a test artifact.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ARTIFACT_DIR, CHROMIUM, chartPixels, useOpenedReport } from '../fixtures/browser.ts';
import { FIXTURE_SECRETS, fullReport } from '../fixtures/full-report.ts';
import { generatorReport, requestShareInWindows } from '../generator.ts';
import { writeReports } from '../write.ts';

const HAS_CHROMIUM = CHROMIUM !== undefined;

if (!HAS_CHROMIUM) {
  // Said once, plainly, so a skipped browser test is never mistaken for a pass.
  console.warn('report-browser.test.ts: SKIPPED: no chromium binary on PATH (apt-get install chromium, or set CHROMIUM_BIN)');
}

describe.skipIf(!HAS_CHROMIUM)(`report.html in headless Chromium (${CHROMIUM ?? 'none'})`, () => {
  const opened = useOpenedReport('gh-browser-', async (dir) => {
    const report = await fullReport(join(dir, 'metrics.ndjson'));
    return writeReports(report, join(dir, 'report'), { secrets: FIXTURE_SECRETS, files: ['reportHtml'] }).paths.reportHtml!;
  });
  const page = (): Page => opened().page;

  it('loads offline with no console error and requests nothing but itself', () => {
    expect(opened().consoleProblems).toEqual([]);
    expect(opened().requests).toEqual([opened().url]);
  });

  it('shows the verdict in the first screen', async () => {
    const banner = page().locator('header.banner');
    await expect(banner.locator('.word').textContent()).resolves.toContain('FAIL');
    const box = await banner.boundingBox();
    expect(box !== null && box.y + box.height <= 900).toBe(true);
  });

  it('every chart rendered its data: a canvas with coloured series pixels, not a blank frame', async () => {
    const charts = await chartPixels(page());
    expect(charts.map((c) => c.chart)).toEqual(['latency-overall', 'latency-operations', 'throughput', 'outcomes']);
    for (const c of charts) {
      expect(c.canvas, `${c.chart} has a canvas`).toBe(true);
      expect(c.points, `${c.chart} plotted points`).toBeGreaterThan(100);
      expect(c.coloured, `${c.chart} drew coloured pixels`).toBeGreaterThan(500);
    }
  });

  it("every chart's legend shows values (each series' last value while no cursor is on the chart), never only '–'", async () => {
    const legends = await page().evaluate(
      `[...document.querySelectorAll('.u-legend')].map((l) => [...l.querySelectorAll('.u-value')].map((v) => v.textContent))`,
    );
    const rows = legends as string[][];
    expect(rows.length).toBe(4);
    for (const values of rows) {
      expect(values.length).toBeGreaterThan(1);
      expect(values.filter((v) => v !== '–').length, values.join(' | ')).toBeGreaterThan(1);
    }
  });

  it('the failing case is visible with its rule, expected vs received and redacted request', async () => {
    const failing = page().locator('article.case[data-case="TRG-510-V2"]');
    await failing.scrollIntoViewIfNeeded();
    expect(await failing.isVisible()).toBe(true);
    expect(await failing.locator('.rule').textContent()).toContain('Mobile number ends with 510');
    expect(await failing.locator('.received pre').first().textContent()).toBe("responseCode '000' (HTTP 200)");
    expect(await failing.locator('pre.request').isVisible()).toBe(true);
    expect(await failing.locator('pre.request').textContent()).toContain('authorization: Basic [REDACTED]');
  });

  it('the migration table reads at 1400 px and at 800 px: each latency cell on one line, no wider than the window', async () => {
    const p = page();
    for (const width of [1400, 800]) {
      await p.setViewportSize({ width, height: 900 });
      const cells = await p.$$eval('section.migration td.num', (tds) =>
        tds.map((td) => {
          // Lines of the cell's own text (its box is as tall as the row): the distinct tops of the text's line boxes.
          const range = td.ownerDocument.createRange();
          range.selectNodeContents(td);
          const tops = new Set(Array.from(range.getClientRects()).map((r) => Math.round((r as { top: number }).top)));
          return { text: td.textContent ?? '', lines: tops.size };
        }),
      );
      expect(cells.length).toBeGreaterThan(0);
      for (const cell of cells) expect(cell.lines, `${width} px: "${cell.text}"`).toBeLessThanOrEqual(1);
      const overflow = Number(await p.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
      expect(overflow, `${width} px`).toBeLessThanOrEqual(0);
      await p.locator('section.migration').screenshot({ path: join(ARTIFACT_DIR, `migration-${width}.png`) });
    }
    await p.setViewportSize({ width: 1280, height: 900 });
  });

  it('saves a screenshot of the first screen and of the whole page as test artifacts', async () => {
    mkdirSync(ARTIFACT_DIR, { recursive: true });
    await page().evaluate('window.scrollTo(0, 0)');
    const first = join(ARTIFACT_DIR, 'report.png');
    const whole = join(ARTIFACT_DIR, 'report-full.png');
    await page().screenshot({ path: first });
    await page().screenshot({ path: whole, fullPage: true });
    expect(existsSync(first) && existsSync(whole)).toBe(true);
  });
});

describe.skipIf(!HAS_CHROMIUM)('the chart of requests measured while the generator was starved or preempted', () => {
  let expected = 0;
  const opened = useOpenedReport('gh-browser-preempted-', async (dir) => {
    const report = await fullReport(join(dir, 'metrics.ndjson'));
    const load = report.load;
    if (load?.series === undefined) throw new Error('the fixture report has no load series');
    // k6 starved for the series' first 4 s (CPU 95 % of its cores), free after; its preempted share each second.
    const start = load.series.startTime;
    const points = Array.from({ length: 12 }, (_, i) => ({
      t: start + (i + 1) * 1000,
      cpuShare: i < 4 ? 0.95 : 0.2,
      preemptedShare: i < 4 ? 0.6 : 0.1,
    }));
    const generator = generatorReport('k6', 2, points);
    expected = requestShareInWindows(generator.windows, load.series) ?? Number.NaN;
    const withGenerator = { ...report, load: { ...load, generator } };
    return writeReports(withGenerator, join(dir, 'report'), { secrets: FIXTURE_SECRETS, files: ['reportHtml'] }).paths.reportHtml!;
  });

  it("draws the three series; the run-so-far share ends at the report's requestShareInWindows", async () => {
    const page = opened().page;
    const chart = (await chartPixels(page)).find((c) => c.chart === 'generator-preempted');
    expect(chart?.coloured, 'generator-preempted drew coloured pixels').toBeGreaterThan(500);
    const legend = (await page.evaluate(
      `[...document.querySelectorAll('[data-chart="generator-preempted"] .u-series')].map((s) => [s.querySelector('.u-label')?.textContent, s.querySelector('.u-value')?.textContent])`,
    )) as Array<[string, string]>;
    const labels = legend.map(([label]) => label);
    expect(labels).toEqual(
      expect.arrayContaining(['requests in a saturated window %', 'of the run so far %', 'preempted share of switches % (k6)']),
    );
    expect(expected).toBeGreaterThan(0);
    expect(legend.find(([label]) => label === 'of the run so far %')?.[1]).toBe(`${Math.round(expected * 1000) / 10} %`);
  });
});
