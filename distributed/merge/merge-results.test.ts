// merge-results on generated instance streams: counts and rates exact, percentiles within the HdrHistogram's error of
// the exact ones, three files equal to their concatenation, thresholds once over the whole (99 / 0 / incomplete), and
// the inputs it must refuse or warn about.
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { HarnessError } from '../../api/errors.ts';
import { instanceLines } from '../bench/ndjson-generator.ts';
import { lineBatches } from './input.ts';
import { mergeResults, type MergeResultsOutcome } from './merge-results.ts';
import type { ThresholdPlan } from './threshold-source.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-merge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ITERATIONS = 1_500; // per instance: 4,500 durations in all, past the 1,000 exact samples a trend keeps

interface Raw {
  durations: number[];
  skusDurations: number[];
  failed: number;
  checks: { passes: number; fails: number };
}

/** Writes three instances (the second gzip-compressed) and their concatenation; keeps the raw samples. */
function generate(): { files: string[]; whole: string; raw: Raw } {
  const raw: Raw = { durations: [], skusDurations: [], failed: 0, checks: { passes: 0, fails: 0 } };
  const files: string[] = [];
  const all: string[] = [];
  for (let instance = 0; instance < 3; instance++) {
    const lines = [
      ...instanceLines({
        instance,
        iterations: ITERATIONS,
        // Instances start together, as k6-operator starts its paused pods; their samples interleave in time.
        startTime: Date.UTC(2026, 0, 1) + instance,
        stepMs: 3,
        failureRate: 0.02,
        onSample: (metric, value, tags) => {
          if (metric === 'http_req_duration') {
            raw.durations.push(value);
            if (tags.operation === 'v2.catalog.skus') raw.skusDurations.push(value);
          }
          if (metric === 'http_req_failed' && value === 1) raw.failed++;
          if (metric === 'checks' && value === 1) raw.checks.passes++;
          else if (metric === 'checks') raw.checks.fails++;
        },
      }),
    ];
    all.push(...lines);
    const text = `${lines.join('\n')}\n`;
    const file = join(dir, `instance-${instance}.ndjson${instance === 1 ? '.gz' : ''}`);
    writeFileSync(file, instance === 1 ? gzipSync(text) : text);
    files.push(file);
  }
  const whole = join(dir, 'whole.ndjson');
  writeFileSync(whole, `${all.join('\n')}\n`);
  return { files, whole, raw };
}

const { files, whole, raw } = generate();

function plan(thresholds: Record<string, unknown>): ThresholdPlan {
  return { source: 'test', thresholds, summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'count'] };
}

const HELD = {
  http_req_duration: ['p(95)<60000', 'p(99)<60000'],
  'http_req_duration{operation:v2.catalog.skus}': ['p(90)<60000'],
  http_req_failed: ['rate<0.5'],
  // The load rules judge a check by its own threshold (2 % of the generated responses fail it).
  'checks{check:http status is 200}': ['rate>0.9'],
  iterations: [`count==${3 * ITERATIONS}`],
};

async function merge(inputs: readonly string[], thresholds: Record<string, unknown> = HELD, label = 'run'): Promise<MergeResultsOutcome> {
  return mergeResults({ files: inputs, plan: plan(thresholds), reportDir: join(dir, label), runId: label });
}

/** k6's percentile of sorted samples (linear interpolation), and the neighbours it lies between. */
function exact(sorted: readonly number[], p: number): { lo: number; hi: number } {
  const r = (p / 100) * (sorted.length - 1);
  return { lo: sorted[Math.floor(r)] as number, hi: sorted[Math.ceil(r)] as number };
}

/** HdrHistogram with 3 significant digits: within 0.1 % of a neighbouring sample; values are kept in µs steps. */
function expectWithinHdrError(value: number | undefined, sorted: readonly number[], p: number): void {
  const { lo, hi } = exact(sorted, p);
  expect(value).toBeGreaterThanOrEqual(lo * 0.999 - 0.001);
  expect(value).toBeLessThanOrEqual(hi * 1.001 + 0.001);
}

describe('three instances merged', async () => {
  const merged = await merge(files, HELD, 'three');
  const values = (name: string): Record<string, number> => merged.data.metrics[name]?.values ?? {};

  it('counts and rates exactly', () => {
    expect(values('iterations').count).toBe(3 * ITERATIONS);
    expect(values('http_reqs').count).toBe(3 * ITERATIONS);
    expect(values('http_req_failed')).toMatchObject({
      passes: raw.failed,
      fails: 3 * ITERATIONS - raw.failed,
      rate: raw.failed / (3 * ITERATIONS),
    });
    expect(values('checks')).toMatchObject({ passes: raw.checks.passes, fails: raw.checks.fails });
    const check = merged.report.load?.checks.find((c) => c.name === 'http status is 200');
    expect(check).toMatchObject({ path: '::flow::http status is 200', passes: raw.checks.passes, fails: raw.checks.fails });
    // k6's counter rate: count over the run's duration (first to last sample of any instance).
    expect(values('http_reqs').rate).toBeCloseTo((3 * ITERATIONS) / (merged.report.durationMs / 1000), 9);
  });

  it('percentiles of all the raw samples, within the HdrHistogram error', () => {
    const sorted = [...raw.durations].sort((a, b) => a - b);
    expect(values('http_req_duration').count).toBe(sorted.length);
    for (const p of [50, 90, 95, 99]) expectWithinHdrError(values('http_req_duration')[p === 50 ? 'med' : `p(${p})`], sorted, p);
    expect(values('http_req_duration').min).toBe(sorted[0]);
    expect(values('http_req_duration').max).toBe(sorted[sorted.length - 1]);
    const skus = [...raw.skusDurations].sort((a, b) => a - b);
    expectWithinHdrError(values('http_req_duration{operation:v2.catalog.skus}')['p(90)'], skus, 90);
  });

  it("sums the instances' VUs at each moment", () => {
    // The generator's instances run 10, 11 and 12 VUs.
    expect(values('vus').max).toBe(33);
  });

  it('equals the merge of the same samples as one stream (the unsplit run), exactly', async () => {
    const one = await merge([whole], HELD, 'whole');
    for (const [name, metric] of Object.entries(merged.data.metrics)) {
      // VUs add up across instance files (a single file's are its own); everything else must match to the bit.
      if (name === 'vus' || name === 'vus_max') continue;
      const other = one.data.metrics[name]?.values ?? {};
      for (const [stat, value] of Object.entries(metric.values)) {
        if (stat === 'avg') expect(other[stat], `${name} ${stat}`).toBeCloseTo(value, 9);
        else expect(other[stat], `${name} ${stat}`).toBe(value);
      }
    }
  });

  it('passes when every threshold holds, and writes the four report files from one report', () => {
    expect(merged.report.verdict).toBe('pass');
    expect(merged.report.exitCode).toBe(0);
    expect(merged.report.command).toBe('merge-results');
    expect(merged.report.load?.thresholds).toHaveLength(6);
    const json = JSON.parse(readFileSync(merged.written.paths.summaryJson as string, 'utf8')) as {
      verdictLine: string;
      load: { engine: string; series?: { buckets: number } };
    };
    expect(json.verdictLine).toBe(merged.report.verdictLine);
    expect(json.load.engine).toBe('k6'); // nanosecond timestamps
    expect(json.load.series?.buckets).toBeGreaterThan(0);
    expect(readFileSync(merged.written.paths.junitXml as string, 'utf8')).toContain('threshold');
    expect(readFileSync(merged.written.paths.summaryMd as string, 'utf8').split('\n')[0]).toContain('PASS');
  });
});

describe('thresholds evaluated once over the whole run', () => {
  it('a crossed threshold: exit 99', async () => {
    const r = await merge(files, { ...HELD, http_req_duration: ['p(95)<1'] }, 'crossed');
    expect([r.report.verdict, r.report.exitCode]).toEqual(['thresholds', 99]);
    expect(r.report.verdictLine).toMatch(/^THRESHOLDS.*http_req_duration p\(95\)<1/);
  });

  it('a threshold no single instance crosses but the whole run does (k6 judges each pod alone)', async () => {
    // Every instance ran exactly 1,500 iterations: `count>=2000` fails on each pod and holds for the run, and
    // `count<2000` the other way round — only the merged run can say which is true.
    const held = await merge(files, { ...HELD, iterations: ['count>=2000'] }, 'whole-holds');
    expect(held.report.exitCode).toBe(0);
    const alone = await merge([files[0] as string], { ...HELD, iterations: ['count>=2000'] }, 'one-pod');
    expect(alone.report.exitCode).toBe(99);
  });

  it('a threshold whose metric had no sample in any instance: incomplete, never passed', async () => {
    const r = await merge(files, { ...HELD, gateway_schema_check_duration: ['p(95)<100'] }, 'unverified');
    expect(r.unverified).toEqual(['gateway_schema_check_duration p(95)<100']);
    expect([r.report.verdict, r.report.exitCode]).toEqual(['incomplete', 1]);
    expect(r.report.verdictLine).toMatch(/1 threshold unverified, the metric got no sample \(gateway_schema_check_duration p\(95\)<100\)/);
  });

  it('a counter of events that never happened is verified once iterations ran (zero events)', async () => {
    const r = await merge(files, { ...HELD, gateway_unresolved: ['count==0'] }, 'zero-events');
    expect(r.unverified).toEqual([]);
    expect(r.report.exitCode).toBe(0);
  });
});

describe('inputs', () => {
  it("instances that disagree on a metric's type are not one test", async () => {
    const odd = join(dir, 'odd.ndjson');
    writeFileSync(
      odd,
      `${JSON.stringify({ type: 'Metric', data: { name: 'http_req_duration', type: 'counter', contains: 'default', thresholds: [], submetrics: null }, metric: 'http_req_duration' })}\n`,
    );
    await expect(merge([files[0] as string, odd], HELD, 'odd')).rejects.toThrow(HarnessError);
    await expect(merge([files[0] as string, odd], HELD, 'odd')).rejects.toThrow(/http_req_duration is a trend .* but a counter/);
  });

  it('counts lines that are not k6 output, and warns', async () => {
    const noisy = join(dir, 'noisy.ndjson');
    writeFileSync(
      noisy,
      `time="2026-01-01T00:00:00Z" level=warning msg="not json"\n${readFileSync(files[0] as string, 'utf8')}{"broken":\n`,
    );
    const r = await merge([noisy], HELD, 'noisy');
    expect(r.files[0]?.badLines).toBe(2);
    expect(r.warnings.join('\n')).toMatch(/noisy\.ndjson: 2 of \d+ lines are not k6 JSON output/);
  });

  it('warns when the instances ran thresholds the given ones do not have', async () => {
    const declared = join(dir, 'declared.ndjson');
    const metric = {
      type: 'Metric',
      data: {
        name: 'checks',
        type: 'rate',
        contains: 'default',
        thresholds: ['rate>0.99'],
        submetrics: [{ name: 'checks{check:x}', suffix: 'check:x', tags: { check: 'x' } }],
      },
      metric: 'checks',
    };
    writeFileSync(declared, `${JSON.stringify(metric)}\n${readFileSync(files[0] as string, 'utf8')}`);
    const r = await merge([declared], HELD, 'declared');
    expect(r.warnings.join('\n')).toMatch(/threshold\(s\) rate>0.99 on checks/);
    expect(r.warnings.join('\n')).toMatch(/sub-metric\(s\) .*checks\{check:x\}/);
  });

  it('no file at all is a usage error', async () => {
    await expect(merge([], HELD)).rejects.toThrow(/no NDJSON file given/);
  });

  it('reads gzip from a stream that delivers one byte at a time (a pipe, stdin)', async () => {
    const text = `${[...instanceLines({ instance: 0, iterations: 3 })].join('\n')}\n`;
    const bytes = gzipSync(text);
    const slow = Readable.from(
      (function* () {
        for (const b of bytes) yield Buffer.from([b]);
      })(),
    );
    const lines: string[] = [];
    for await (const batch of lineBatches(slow)) lines.push(...batch);
    expect(`${lines.join('\n')}\n`).toBe(text);
  });
});

describe('what a distributed run can leave behind', () => {
  const { iterations: _count, ...lenient } = HELD;
  const cutFile = (name: string, fraction: number): string => {
    const gz = readFileSync(files[1] as string);
    const cut = join(dir, name);
    writeFileSync(cut, gz.subarray(0, Math.floor(gz.length * fraction)));
    return cut;
  };

  it('a gzip cut short (a pod killed while writing): the file named, what it holds merged, the run incomplete', async () => {
    const cut = cutFile('pod-killed.ndjson.gz', 0.6);
    const whole = await merge([files[0] as string, files[1] as string], lenient, 'not-cut');
    const r = await merge([files[0] as string, cut], lenient, 'cut');
    const cutStats = r.files[1];
    expect(cutStats?.readError).toMatch(/unexpected end of file/);
    // Merged up to where the stream broke: more than nothing, less than the whole file.
    expect(cutStats?.points).toBeGreaterThan(0.3 * (whole.files[1]?.points ?? 0));
    expect(cutStats?.points).toBeLessThan(whole.files[1]?.points ?? 0);
    expect(r.warnings.join('\n')).toMatch(
      /pod-killed\.ndjson\.gz: cut short after \d+ lines \(unexpected end of file\); its \d+ points before that are merged, the run is incomplete/,
    );
    // Every threshold holds on what was read, the same run uncut passes: the cut alone makes it incomplete.
    expect(whole.report.verdict).toBe('pass');
    expect(r.report.verdict).toBe('incomplete');
    expect(r.report.exitCode).toBe(1);
    expect(r.report.verdictLine).toMatch(/^INCOMPLETE: .*1 of 2 input\(s\) could not be read to the end.*pod-killed\.ndjson\.gz/);
    expect(JSON.parse(readFileSync(r.written.paths.summaryJson as string, 'utf8'))).toMatchObject({ verdict: 'incomplete' });
  });

  it('a threshold the part read crosses still decides (99), and the cut is named beside it', async () => {
    const r = await merge([files[0] as string, cutFile('pod-killed-early.ndjson.gz', 0.5)], HELD, 'cut-held');
    expect(r.report.verdict).toBe('thresholds');
    expect(r.report.verdictLine).toMatch(/iterations count==4500/);
    expect(r.report.verdictLine).toMatch(/pod-killed-early\.ndjson\.gz/);
  });

  it('the same file given twice, or under another spelling or a symlink: refused before reading, naming it', async () => {
    const first = files[0] as string;
    await expect(merge([first, files[1] as string, first], HELD, 'twice')).rejects.toThrow(
      /instance-0\.ndjson is given twice: each instance's file once/,
    );
    const link = join(dir, 'link-to-instance-0.ndjson');
    symlinkSync(first, link);
    const spelt = join(dir, '.', 'instance-0.ndjson').replace(dir, `${dir}/../${dir.split('/').pop() as string}`);
    await expect(merge([first, spelt], HELD, 'spelt')).rejects.toMatchObject({ code: 'GH_ERR_USAGE' });
    await expect(merge([link, first], HELD, 'link')).rejects.toThrow(
      /instance-0\.ndjson is given twice \(also as .*link-to-instance-0\.ndjson\)/,
    );
  });

  it("the same instance's samples under another name (a gunzipped copy): refused, naming both files", async () => {
    const copy = join(dir, 'copy-of-instance-1.ndjson');
    writeFileSync(copy, gunzipSync(readFileSync(files[1] as string)));
    const attempt = merge([files[0] as string, files[1] as string, copy], HELD, 'copy');
    await expect(attempt).rejects.toMatchObject({ code: 'GH_ERR_USAGE' });
    await expect(attempt).rejects.toThrow(
      /copy-of-instance-1\.ndjson holds the same \d+ points as .*instance-1\.ndjson\.gz \(identical content/,
    );
  });
});
