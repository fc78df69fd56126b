// The comparison on real runs: two Node-engine loads of the same scenario against embedded sandboxes, the candidate's
// with fail-op (2 % of v2.catalog.skus answered '999'): that operation's business failures are a regression. (The
// 20-pair figures are `npm run bench:compare`; latency pairs on real runs measure a shared machine's load too much for a
// test, see compare/README.md.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRun, type ExperimentSize } from './bench/experiment.ts';
import { comparisonOf } from './compare-runs.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-compare-real-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SIZE: ExperimentSize = { scenario: 'catalog-browse', api: 'v2', vus: 8, duration: '10s', latencyMs: 0, jitterMs: 0 };

describe('compare two real runs (Node engine, embedded sandbox)', () => {
  it('0 → 2 % business failures on v2.catalog.skus (fail-op) is a regression of that operation, stated with both engines', async () => {
    const baseline = await loadRun(join(dir, 'a'), 'faithful', SIZE);
    const candidate = await loadRun(join(dir, 'b'), 'fail-op:v2.catalog.skus:2%', SIZE);
    const section = await comparisonOf({ baselineDir: baseline, candidateDir: candidate });
    const skus = section.operations.find((o) => o.operation === 'v2.catalog.skus');
    expect(skus?.businessFailureRate.baseline?.value).toBe(0);
    expect(skus?.businessFailureRate.candidate?.value).toBeCloseTo(0.02, 2);
    expect(skus?.businessFailureRate.status).toBe('regression');
    expect(skus?.verdict).toBe('regression');
    // No other operation failed more: the failures are exactly the one operation's.
    for (const o of section.operations.filter((x) => x.operation !== 'v2.catalog.skus'))
      expect(o.businessFailureRate.status).not.toBe('regression');
    expect([section.baseline.engine, section.candidate.engine]).toEqual(['node', 'node']);
    expect(section.verdict).toBe('fail');
  }, 180_000);
});
