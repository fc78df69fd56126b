// Time series from k6's NDJSON stream: exact buckets on a hand-written stream, agreement with k6's own summary on
// real captures (plain and gzip), late and bad lines accounted for, and a memory bound independent of sample count.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseIntervalMs, readK6Series, SeriesAccumulator } from './k6-series.ts';
import { FIXTURES_DIR, realK6Summary } from './fixtures/full-report.ts';
import { findK6 } from './fixtures/find-binary.ts';
import { SYNTHETIC_OPERATIONS, writeSyntheticK6 } from './fixtures/synthetic-k6.ts';
import type { K6SummaryData } from './k6-summary.ts';
import type { LoadSeries } from './model.ts';
import { startSandbox } from '../sandbox/server.ts';
import { fromK6Summary } from './from-k6.ts';
import { summaryErrors } from './fixtures/schema-check.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-series-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

describe('hand-written k6 stream (exact values)', () => {
  let series: LoadSeries;
  it('buckets requests, HTTP failures and VUs per second', async () => {
    series = await readK6Series(join(FIXTURES_DIR, 'k6-handwritten.ndjson'), { intervalMs: 1000, lateMs: 1000 });
    expect(series.startTime).toBe(Date.UTC(2026, 0, 1));
    expect(series.buckets).toBe(4);
    // The late 1000 ms sample of bucket 0 arrives after bucket 3 opened: counted, but not in the percentiles.
    expect(series.requests).toEqual([4, 2, 0, 1]);
    expect(series.failedRequests).toEqual([1, 0, 0, 0]);
    expect(series.vus).toEqual([2, 3, 1, null]);
  });

  it('percentiles per operation and overall, never above the largest sample; the late sample left out', () => {
    const balance = series.latency.operations.find((o) => o.operation === 'v2.account.balance');
    expect(balance?.count).toEqual([3, 1, 0, 0]);
    expect(balance?.p50[0]).toBeCloseTo(10, 0);
    expect(balance?.max).toEqual([20, 40, null, null]);
    expect(series.latency.overall.max).toEqual([30, 50, null, 100]);
    expect(series.latency.overall.p99[0]).toBeLessThanOrEqual(30);
    expect(series.latency.operations.map((o) => o.operation)).toEqual(['v2.account.balance', 'v2.transaction.topup', '(untagged)']);
  });

  it('counts outcome-tagged counter points per outcome, a time-zone offset included', () => {
    expect(series.outcomes).toEqual([
      { metric: 'gateway_outcomes', outcome: 'Failed', counts: [1, 0, 0, 0] },
      { metric: 'gateway_outcomes', outcome: 'InProgress', counts: [0, 1, 0, 0] },
      { metric: 'gateway_outcomes', outcome: 'Successful', counts: [2, 1, 0, 0] },
    ]);
  });

  it('accounts for what it could not use', () => {
    expect(series.source).toEqual({ lines: 39, points: 28, badLines: 2, latePoints: 1, droppedPoints: 0 });
  });
});

describe('points out of time order (several engine workers write in batches)', () => {
  const point = (acc: SeriesAccumulator, timeMs: number, op: string): void =>
    acc.addPoint('http_req_duration', timeMs, 10, { operation: op });
  const T = Date.UTC(2026, 0, 1);

  it('an older point within the late window moves the start back when the start came from the first point', () => {
    const acc = new SeriesAccumulator({ intervalMs: 1000, lateMs: 2000 });
    point(acc, T + 5_200, 'a');
    point(acc, T + 3_900, 'b');
    point(acc, T + 5_900, 'a');
    const series = acc.finish();
    expect(series.startTime).toBe(T + 3_000);
    expect(series.latency.overall.count).toEqual([1, 0, 2]);
    expect(series.source).toMatchObject({ points: 3, droppedPoints: 0, latePoints: 0 });
  });

  it('one older than the late window is dropped and counted, as is any point before a start that was given', () => {
    const acc = new SeriesAccumulator({ intervalMs: 1000, lateMs: 2000 });
    point(acc, T + 5_200, 'a');
    point(acc, T + 1_500, 'b');
    expect(acc.finish()).toMatchObject({ startTime: T + 5_000, buckets: 1, source: { droppedPoints: 1 } });
    const given = new SeriesAccumulator({ intervalMs: 1000, lateMs: 2000, startTime: T + 5_000 });
    point(given, T + 5_200, 'a');
    point(given, T + 4_500, 'b');
    expect(given.finish()).toMatchObject({ startTime: T + 5_000, buckets: 1, source: { droppedPoints: 1 } });
  });
});

describe.each(['v0.48.0', 'v2.2.0'] as const)('real k6 %s capture (gzip)', (version) => {
  it('agrees with k6’s own summary: requests, per-operation latency samples, outcomes', async () => {
    const summary = realK6Summary(version);
    const series = await readK6Series(join(FIXTURES_DIR, `k6-${version}-metrics.ndjson.gz`));
    expect(sum(series.requests)).toBe(summary.metrics.http_reqs?.values.count);
    expect(sum(series.latency.overall.count)).toBe(summary.metrics.http_reqs?.values.count);
    expect(series.latency.operations.map((o) => o.operation).sort()).toEqual([
      'v1.catalog.errors',
      'v2.account.balance',
      'v2.catalog.countries',
    ]);
    expect(sum(series.outcomes.flatMap((o) => o.counts))).toBe(summary.metrics.gateway_outcomes?.values.count);
    expect(Math.max(...series.latency.overall.max.filter((v): v is number => v !== null))).toBeCloseTo(
      summary.metrics.http_req_duration?.values.max ?? -1,
      1,
    );
    expect(series.source.badLines).toBe(0);
    expect(series.buckets).toBeGreaterThan(1);
  });
});

describe('bucket width and memory', () => {
  it.each([
    [0, 100],
    [3_000, 100],
    [60_000, 500],
    [600_000, 5_000],
    [3_600_000, 30_000],
    [86_400_000, 600_000],
  ])('a %s ms run gets %s ms buckets', (duration, interval) => expect(chooseIntervalMs(duration)).toBe(interval));

  it('the number of histograms does not grow with the number of samples', async () => {
    const count = async (durationS: number): Promise<{ allocated: number; requests: number }> => {
      const path = join(dir, `mem-${durationS}.ndjson`);
      const { requests } = await writeSyntheticK6(path, { durationS, rps: 60 });
      const acc = new SeriesAccumulator({ intervalMs: 1000 });
      for (const line of readFileSync(path, 'utf8').split('\n')) acc.addLine(line);
      const series = acc.finish();
      expect(sum(series.requests)).toBe(requests);
      return { allocated: acc.histogramsAllocated, requests };
    };
    const short = await count(30);
    const long = await count(300);
    expect(long.requests).toBeGreaterThan(short.requests * 9);
    // Open buckets (late window 2 s at 1 s buckets = 3) × (operations + overall), reused from a pool after that.
    const bound = 4 * (SYNTHETIC_OPERATIONS.length + 1);
    expect(short.allocated).toBeLessThanOrEqual(bound);
    expect(long.allocated).toBeLessThanOrEqual(bound);
  });

  it('reads gzip and plain alike', async () => {
    const plain = join(dir, 'same.ndjson');
    const gz = join(dir, 'same.ndjson.gz');
    await writeSyntheticK6(plain, { durationS: 20, rps: 30, seed: 7 });
    await writeSyntheticK6(gz, { durationS: 20, rps: 30, seed: 7, gzip: true });
    expect(await readK6Series(gz)).toEqual(await readK6Series(plain));
  });

  it('caps per-operation series and lumps the rest into (other)', () => {
    const acc = new SeriesAccumulator({ intervalMs: 1000, maxOperations: 2 });
    for (const op of ['a', 'b', 'c', 'd']) acc.addPoint('http_req_duration', 1_000, 5, { operation: op });
    expect(acc.finish().latency.operations.map((o) => [o.operation, o.count[0]])).toEqual([
      ['(other)', 2],
      ['a', 1],
      ['b', 1],
    ]);
  });

  it('a missing file is a config error, a broken gzip a parse error', async () => {
    await expect(readK6Series(join(dir, 'nope.ndjson'))).rejects.toMatchObject({ code: 'GH_ERR_CONFIG' });
    const broken = join(dir, 'broken.gz');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(broken, Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02]));
    await expect(readK6Series(broken)).rejects.toMatchObject({ code: 'GH_ERR_PARSE' });
  });
});

const k6 = findK6();
describe.skipIf(k6 === undefined)(`a live k6 run (${k6 ?? 'no k6 binary: set K6_BIN or put k6 on PATH'})`, () => {
  it('summary and NDJSON of the same run agree, and the report built from them is schema-valid', async () => {
    const password = 'Live-k6-Pa55!';
    const sandbox = await startSandbox({ port: 0, timeScale: 0.01, user: 'k6-user', password });
    try {
      const summaryPath = join(dir, 'live-summary.json');
      const ndjson = join(dir, 'live.ndjson');
      await promisify(execFile)(
        k6 as string,
        ['run', '--quiet', '--no-color', `--out`, `json=${ndjson}`, join(FIXTURES_DIR, 'k6-capture.js')],
        {
          env: {
            ...process.env,
            GATEWAY_BASE_URL: sandbox.url,
            GATEWAY_USER: 'k6-user',
            GATEWAY_PASSWORD: password,
            SUMMARY_OUT: summaryPath,
            ITERATIONS: '3',
          },
          timeout: 60_000,
        },
      );
      const data = JSON.parse(readFileSync(summaryPath, 'utf8')) as K6SummaryData;
      const report = await fromK6Summary(data, {
        runId: 'live',
        startedAt: Date.now(),
        target: { url: sandbox.url },
        scenario: 'mixed',
        profile: 'smoke',
        engine: 'k6',
        ndjsonPath: ndjson,
      });
      expect(report.load?.requests.count).toBe(18);
      expect(sum(report.load?.series?.requests ?? [])).toBe(18);
      expect(report.verdict).toBe('pass');
      expect(summaryErrors(report)).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });
});
