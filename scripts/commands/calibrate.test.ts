// `gateway-harness calibrate` as a user runs it (a child process with real load steps through the measuring proxy):
// progress lines, a bounded search, the cache it writes; and `load` warning at start from a cache file. NOT_QUICK.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { capacityCachePath, capacityKey, writeCapacity } from '../../load/runner/capacity/cache.ts';
import { runCliProcess } from '../fixtures/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-calibrate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('gateway-harness calibrate', () => {
  it('searches within its budget with a progress line per step, and caches what it found (or says nothing was)', async () => {
    const cache = join(dir, 'cache');
    const run = await runCliProcess(['calibrate', '--budget', '20s', '--step-duration', '2s', '--start-vus', '2', '--max-vus', '4'], {
      env: { XDG_CACHE_HOME: cache },
      timeoutMs: 170_000,
    });
    expect(run.stderr, run.output).toMatch(/^calibrate: catalog-browse against embedded sandbox through a measuring proxy, up to 20 s$/m);
    expect(run.stderr).toMatch(
      /^calibrate: step 1: 2 VUs, [\d.]+ requests\/s: reported p95 [\d.]+ ms, served [\d.]+ ms: (within|outside) \+3 ms \+ 5 %/m,
    );
    const path = capacityCachePath({ XDG_CACHE_HOME: cache });
    // A shared, loaded box may not keep even 2 VUs within the goal: then nothing is cached, and the exit says so.
    if (run.code === 0) {
      expect(run.stdout).toMatch(
        /^capacity: [1-4] VUs, [\d.]+ requests\/s, [\d.]+ iterations\/s for catalog-browse against the embedded sandbox on this machine/m,
      );
      const cached = JSON.parse(readFileSync(path, 'utf8')) as Record<string, { vus: number; measuredAt: string }>;
      expect(Object.keys(cached)).toEqual([expect.stringMatching(/ \| catalog-browse \| embedded sandbox$/)]);
    } else {
      expect(run.code, run.output).toBe(1);
      expect(run.stdout).toMatch(
        /^calibrate: not even [12] VUs? kept the reported p95 within \+3 ms \+ 5 % of the served .*nothing cached/m,
      );
      expect(existsSync(path)).toBe(false);
    }
  }, 180_000);

  it('refuses a given target with a scenario that charges money, in one line (exit 2)', async () => {
    const run = await runCliProcess(['calibrate', '--scenario', 'topup-flow', '--target', 'https://gw.example.com'], {
      env: { XDG_CACHE_HOME: join(dir, 'none') },
    });
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toMatch(
      /^gateway-harness: GH_ERR_USAGE: --target: topup-flow charges money; calibrate a given target with a scenario that charges nothing/,
    );
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('gateway-harness load beside a calibration', () => {
  it('warns at start, in one line and not as an error, when the plan asks more VUs than the cached capacity', async () => {
    const cache = join(dir, 'small');
    writeCapacity(capacityCachePath({ XDG_CACHE_HOME: cache }), capacityKey('catalog-browse', 'embedded sandbox'), {
      vus: 1,
      requestRate: 50,
      iterationRate: 5,
      measuredAt: '2026-11-27T05:00:00.000Z',
    });
    const args = ['load', '--scenario', 'catalog-browse', '--engine', 'node', '--api', 'v2', '-i', '2', '--report-dir'];
    const over = await runCliProcess([...args, join(dir, 'over'), '-u', '2'], { env: { XDG_CACHE_HOME: cache }, timeoutMs: 170_000 });
    expect(over.code, over.output).toBe(0);
    expect(over.stderr.match(/warning: 2 VUs is more than this machine measures honestly on the Node engine \(1 VUs/g)).toHaveLength(1);
    const within = await runCliProcess([...args, join(dir, 'within'), '-u', '1'], { env: { XDG_CACHE_HOME: cache }, timeoutMs: 170_000 });
    expect(within.code, within.output).toBe(0);
    expect(within.stderr).not.toMatch(/measures honestly/);
  }, 360_000);
});
