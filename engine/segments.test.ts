// Execution segments on the engine: a test split in 3 (k6-operator's sequence 0,1/3,2/3,1) starts, on each instance,
// exactly the iterations real k6 starts there (same exec.scenario.iterationInTest numbers per executor), and the
// instances together start each iteration of the unsplit run once. k6 comparisons skip, saying so, without a k6 binary.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { k6ComparisonSlots } from '../load/runner/k6-binaries.ts';
import { runEngine } from './run.ts';

const FIXTURE = new URL('./fixtures/segments.js', import.meta.url).pathname;
const THIRDS = '0,1/3,2/3,1';
const SEGMENTS = ['0:1/3', '1/3:2/3', '2/3:1'];

const BINARIES = k6ComparisonSlots('engine/segments.test.ts');

/** Per scenario: the iterationInTest numbers started (sorted), and the VU idInTest and __VU values seen. */
interface Instance {
  iterations: Record<string, number[]>;
  vuIds: Set<number>;
  localVUs: Set<number>;
}

function read(ndjson: string): Instance {
  const out: Instance = { iterations: {}, vuIds: new Set(), localVUs: new Set() };
  for (const line of readFileSync(ndjson, 'utf8').split('\n')) {
    if (!line.includes('"segment_iterations"') || !line.includes('"Point"')) continue;
    const tags = (JSON.parse(line) as { data: { tags: Record<string, string> } }).data.tags;
    (out.iterations[tags.scenario as string] ??= []).push(Number(tags.it));
    out.vuIds.add(Number(tags.vu));
    out.localVUs.add(Number(tags.local));
  }
  for (const list of Object.values(out.iterations)) list.sort((a, b) => a - b);
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'gh-engine-segments-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function onEngine(tag: string, segment?: string, sequence?: string): Promise<Instance> {
  const ndjson = join(dir, `${tag}-engine.ndjson`);
  const overrides = {
    ...(segment === undefined ? {} : { executionSegment: segment }),
    ...(sequence === undefined ? {} : { executionSegmentSequence: sequence }),
  };
  const r = await runEngine({
    script: FIXTURE,
    outJson: ndjson,
    progress: 'none',
    workers: 2,
    overrides,
    stdout: new PassThrough().resume(),
    stderr: new PassThrough().resume(),
  });
  expect(r.exitCode).toBe(0);
  return read(ndjson);
}

function onK6(bin: string, tag: string, segment: string, sequence: string): Promise<Instance> {
  const ndjson = join(dir, `${tag}-k6.ndjson`);
  return new Promise((resolve, reject) => {
    const args = [
      'run',
      '-q',
      '--execution-segment',
      segment,
      '--execution-segment-sequence',
      sequence,
      '--out',
      `json=${ndjson}`,
      FIXTURE,
    ];
    execFile(bin, args, { timeout: 60_000, env: { ...process.env, K6_NO_USAGE_REPORT: 'true' } }, (error, _stdout, stderr) => {
      if (error !== null) return reject(new Error(`k6 failed: ${stderr.slice(-400)}`));
      resolve(read(ndjson));
    });
  });
}

let whole: Instance;
let parts: Instance[];

beforeAll(async () => {
  whole = await onEngine('whole');
  parts = [];
  // One after another: arrival-rate starts are timed, and three engines at once on a 2-core box could drop some.
  for (const [i, segment] of SEGMENTS.entries()) parts.push(await onEngine(`third-${i}`, segment, THIRDS));
}, 120_000);

describe('a test split in thirds on the engine', () => {
  it('starts as many iterations as the unsplit run, each iterationInTest number once across the instances', () => {
    expect(Object.keys(whole.iterations).sort()).toEqual(['car', 'pervu', 'rar', 'shared']);
    for (const [scenario, numbers] of Object.entries(whole.iterations)) {
      expect(numbers).toEqual([...numbers.keys()]); // 0..n-1, each once
      const union = parts.flatMap((p) => p.iterations[scenario] ?? []).sort((a, b) => a - b);
      expect(new Set(union).size, scenario).toBe(union.length);
      expect(union.length, scenario).toBe(numbers.length);
      // Shared pools and arrival slots are striped like the whole run's numbers; per-VU iterations are numbered by
      // each instance's stripe (k6 does the same: unique across the test, not dense: 0,3,...,15 on the first third).
      if (scenario !== 'pervu') expect(union, scenario).toEqual(numbers);
    }
  });

  it('keeps VU idInTest apart across instances while __VU numbers repeat (instance-local, as in k6)', () => {
    const all = parts.flatMap((p) => [...p.vuIds]);
    expect(new Set(all).size).toBe(all.length);
    const local = parts.flatMap((p) => [...p.localVUs]);
    expect(new Set(local).size).toBeLessThan(local.length);
  });

  it('refuses a segment that is not in the sequence (exit 104, like invalid options)', async () => {
    const r = await runEngine({
      script: FIXTURE,
      progress: 'none',
      overrides: { executionSegment: '0:1/2', executionSegmentSequence: THIRDS },
      stdout: new PassThrough().resume(),
      stderr: new PassThrough().resume(),
    });
    expect(r.exitCode).toBe(104);
  });
});

describe.each(BINARIES)('each third on the engine vs %s', (label, bin) => {
  it.skipIf(bin === undefined)(
    'starts the same iterationInTest numbers per scenario on every instance',
    async () => {
      const tag = label.split(' ')[1] ?? 'k6';
      const k6 = await Promise.all(SEGMENTS.map((segment, i) => onK6(bin as string, `${tag}-${i}`, segment, THIRDS)));
      k6.forEach((instance, i) => expect(parts[i]?.iterations, `segment ${SEGMENTS[i]}`).toEqual(instance.iterations));
      // k6 itself keeps VU numbers apart across instances: the property the engine copies.
      const vuIds = k6.flatMap((p) => [...p.vuIds]);
      expect(new Set(vuIds).size).toBe(vuIds.length);
    },
    120_000,
  );
});
