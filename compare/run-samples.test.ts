// Reading a run for a comparison does not depend on the order of its points: an engine with several worker threads
// writes each thread's points in batches, one after another, so a file's timestamps go back and forth.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeSyntheticK6 } from '../reports/fixtures/synthetic-k6.ts';
import { ALL_OPERATIONS, readRunSamples } from './run-samples.ts';

const root = mkdtempSync(join(tmpdir(), 'gh-run-samples-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The same lines with every two blocks of points swapped (the second thread's batch written before the first's). */
function outOfOrder(text: string, block: number): string {
  const lines = text.split('\n').filter((l) => l !== '');
  const metrics = lines.filter((l) => l.includes('"type":"Metric"'));
  const points = lines.filter((l) => !l.includes('"type":"Metric"'));
  const out: string[] = [];
  for (let i = 0; i < points.length; i += 2 * block) out.push(...points.slice(i + block, i + 2 * block), ...points.slice(i, i + block));
  return [...metrics, ...out].join('\n') + '\n';
}

describe('readRunSamples', () => {
  it('reads points out of time order into the same counts and a bounded number of time batches', async () => {
    const inOrder = join(root, 'in-order');
    const shuffled = join(root, 'shuffled');
    mkdirSync(inOrder);
    mkdirSync(shuffled);
    await writeSyntheticK6(join(inOrder, 'metrics.ndjson'), {
      durationS: 40,
      rps: 50,
      seed: 7,
      burstRate: 0,
      burstFactor: 1,
      waveAmplitude: 0,
      businessFailures: { 'v2.catalog.skus': 0.05 },
    });
    const text = readFileSync(join(inOrder, 'metrics.ndjson'), 'utf8');
    writeFileSync(join(shuffled, 'metrics.ndjson'), outOfOrder(text, 700));
    expect(readFileSync(join(shuffled, 'metrics.ndjson'), 'utf8').split('\n').length).toBe(text.split('\n').length);

    const a = await readRunSamples(inOrder);
    const b = await readRunSamples(shuffled);
    expect([...b.operations.keys()].sort()).toEqual([...a.operations.keys()].sort());
    for (const [operation, samples] of a.operations) {
      const other = b.operations.get(operation);
      expect(other?.requests, operation).toBe(samples.requests);
      expect(other?.latency.count, operation).toBe(samples.latency.count);
      const failures = (s: typeof samples): [number, number] => [
        s.business.reduce((n, c) => n + c.n, 0),
        s.business.reduce((n, c) => n + c.hits, 0),
      ];
      expect(failures(other as typeof samples), operation).toEqual(failures(samples));
      expect((other as typeof samples).latencyBatches.length).toBeLessThanOrEqual(64);
    }
    expect(b.durationMs).toBe(a.durationMs);
    expect(b.operations.get(ALL_OPERATIONS)?.latency.count).toBeGreaterThan(1_000);
  });
});
