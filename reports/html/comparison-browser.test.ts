// The comparison's report.html in headless Chromium: offline, no console error, one chart per operation overlaying
// both latency CDFs with each p95's interval (coloured pixels, not a blank frame), the regression first in the table.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { compareReport } from '../../compare/compare-runs.ts';
import { ARTIFACT_DIR, CHROMIUM, chartPixels, useOpenedReport } from '../fixtures/browser.ts';
import { SYNTHETIC_OPERATIONS, writeSyntheticK6 } from '../fixtures/synthetic-k6.ts';
import { writeReports } from '../write.ts';

if (CHROMIUM === undefined)
  console.warn('comparison-browser.test.ts: SKIPPED: no chromium binary on PATH (apt-get install chromium, or set CHROMIUM_BIN)');

describe.skipIf(CHROMIUM === undefined)('the comparison in report.html (headless Chromium)', () => {
  const opened = useOpenedReport('gh-compare-browser-', async (dir) => {
    const runs = [
      ['baseline', 1, 1],
      ['candidate', 2, 1.4],
    ] as const;
    for (const [name, seed, factor] of runs) {
      mkdirSync(join(dir, name));
      await writeSyntheticK6(join(dir, name, 'metrics.ndjson'), {
        durationS: 60,
        rps: 100,
        seed,
        waveAmplitude: 0,
        businessFailures: {},
        latencyFactor: { 'v2.transaction.topup': factor },
      });
    }
    const report = await compareReport({ baselineDir: join(dir, 'baseline'), candidateDir: join(dir, 'candidate'), runId: 'browser' });
    return writeReports(report, join(dir, 'report'), { files: ['reportHtml'] }).paths.reportHtml!;
  });
  const page = (): Page => opened().page;

  it('loads offline with no console error and requests nothing but itself', () => {
    expect(opened().consoleProblems).toEqual([]);
    expect(opened().requests).toEqual([opened().url]);
  });

  it('draws both CDFs and the p95 intervals of every operation and of all requests together', async () => {
    const charts = (await chartPixels(page())).filter((c) => c.chart?.startsWith('compare:') === true);
    expect(charts.map((c) => c.chart).sort()).toEqual([...SYNTHETIC_OPERATIONS.map(([op]) => `compare:${op}`), 'compare:(all)'].sort());
    for (const c of charts) {
      expect(c.canvas, `${c.chart} has a canvas`).toBe(true);
      // Two CDFs of up to 120 points each plus the interval segments, over a shared x axis.
      expect(c.points, `${c.chart} plotted points`).toBeGreaterThan(100);
      expect(c.coloured, `${c.chart} drew coloured pixels`).toBeGreaterThan(500);
    }
  });

  it('puts the regression first, with its interval and reason', async () => {
    const first = page().locator('section.comparison tbody tr').first();
    expect(await first.getAttribute('data-operation')).toBe('v2.transaction.topup');
    expect(await first.textContent()).toMatch(/regression.*ms \[[\d.]+, [\d.]+\]/);
    mkdirSync(ARTIFACT_DIR, { recursive: true });
    await page()
      .locator('section.comparison')
      .screenshot({ path: join(ARTIFACT_DIR, 'comparison.png') });
  });
});
