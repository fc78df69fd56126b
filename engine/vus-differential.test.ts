// `vus` means what k6 means by it on both engines: for an arrival-rate executor, the VUs running an iteration now,
// not the pool allocated for it (vus_max). The same profile on the engine and on each real k6 found (skipped, saying
// so, when absent); bounds, not equal samples: both sample the gauge once a second at their own phase.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { k6ComparisonSlots } from '../load/runner/k6-binaries.ts';
import { runEngine } from './run.ts';

const SCRIPT = new URL('./fixtures/busy-vus.js', import.meta.url).pathname;
const POOL = 16;
const BINARIES = k6ComparisonSlots('vus differential');
const dir = mkdtempSync(join(tmpdir(), 'gh-vus-diff-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The values of a gauge's points in an NDJSON stream, in order. */
function gauge(ndjson: string, metric: string): number[] {
  return readFileSync(ndjson, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"type":"Point"') && line.includes(`"metric":"${metric}"`))
    .map((line) => (JSON.parse(line) as { data: { value: number } }).data.value);
}

async function onEngine(): Promise<string> {
  const ndjson = join(dir, 'engine.ndjson');
  await runEngine({
    script: SCRIPT,
    env: {},
    outJson: ndjson,
    progress: 'none',
    workers: 1,
    stdout: new PassThrough().resume(),
    stderr: new PassThrough().resume(),
  });
  return ndjson;
}

function onK6(bin: string, tag: string): Promise<string> {
  const ndjson = join(dir, `${tag}.ndjson`);
  return new Promise((resolve, reject) => {
    execFile(bin, ['run', '-q', '--out', `json=${ndjson}`, SCRIPT], { timeout: 60_000 }, (error, _stdout, stderr) =>
      error === null ? resolve(ndjson) : reject(new Error(`k6 failed: ${stderr.slice(-400)}`)),
    );
  });
}

/**
 * About 6 VUs are busy at any time (4/s × 1.5 s): at least one sample shows a few, none shows the pool. Loose on
 * purpose: a loaded box stretches the 1.5 s sleeps (more busy) or starts late (fewer), never up to the pool.
 */
function expectBusyVus(ndjson: string): void {
  const vus = gauge(ndjson, 'vus');
  expect(vus.length, `vus samples: ${vus.join(',')}`).toBeGreaterThanOrEqual(3);
  expect(Math.max(...vus), `vus samples: ${vus.join(',')}`).toBeGreaterThanOrEqual(2);
  expect(Math.max(...vus), `vus samples: ${vus.join(',')}`).toBeLessThanOrEqual(11);
  expect(Math.max(...gauge(ndjson, 'vus_max'))).toBe(POOL);
}

describe('vus of an arrival-rate executor: the VUs running an iteration, on both engines', () => {
  it('on the engine', async () => {
    expectBusyVus(await onEngine());
  }, 60_000);

  it.each(BINARIES)(
    'on %s',
    async (label, bin) => {
      if (bin === undefined) return; // said by k6ComparisonSlots
      expectBusyVus(await onK6(bin, label.split(' ')[1] ?? 'k6'));
    },
    60_000,
  );
});
