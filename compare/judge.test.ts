// The comparison end to end on k6 NDJSON streams (simulated runs with slow stretches, read by merge-results' reader):
// A/A passes, +25 % on one operation and 0 → 2 % business failures are regressions of that operation only, too few
// samples is incomplete (never "no regression"), the engines of both runs are stated, the section fits the schema.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assembleReport } from '../reports/assemble.ts';
import { summaryErrors } from '../reports/fixtures/schema-check.ts';
import { writeSyntheticK6 } from '../reports/fixtures/synthetic-k6.ts';
import { comparisonOf, compareReport } from './compare-runs.ts';
import { DEFAULT_COMPARE_SETTINGS } from '../stats/regression-settings.ts';
import type { ComparisonSection } from '../reports/model.ts';

const root = mkdtempSync(join(tmpdir(), 'gh-compare-judge-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const OP = 'v2.catalog.skus';

async function run(
  name: string,
  options: { seconds: number; rps: number; seed: number; slow?: number; fail?: number; engine?: string },
): Promise<string> {
  const dir = join(root, name);
  const { mkdirSync } = await import('node:fs');
  mkdirSync(dir, { recursive: true });
  await writeSyntheticK6(join(dir, 'metrics.ndjson'), {
    durationS: options.seconds,
    rps: options.rps,
    seed: options.seed,
    burstRate: 0.05,
    burstFactor: 1.5,
    waveAmplitude: 0,
    businessFailures: options.fail === undefined ? {} : { [OP]: options.fail },
    ...(options.slow === undefined ? {} : { latencyFactor: { [OP]: options.slow } }),
  });
  if (options.engine !== undefined) {
    writeFileSync(
      join(dir, 'summary.json'),
      JSON.stringify({
        runId: name,
        load: { engine: options.engine, scenario: 'mixed', profile: 'load' },
        artifacts: { metricsNdjson: 'metrics.ndjson' },
      }),
    );
  }
  return dir;
}

function verdicts(section: ComparisonSection): Record<string, string> {
  return Object.fromEntries(section.operations.map((o) => [o.operation, o.verdict]));
}

describe('compare two runs', () => {
  it('A/A: no regression, every operation concluded, and the report validates against the schema (closed)', async () => {
    const a = await run('aa-1', { seconds: 60, rps: 100, seed: 1 });
    const b = await run('aa-2', { seconds: 60, rps: 100, seed: 2 });
    const report = await compareReport({ baselineDir: a, candidateDir: b, runId: 'aa' });
    expect(report.verdict).toBe('pass');
    expect(Object.values(verdicts(report.comparison as ComparisonSection)).every((v) => v === 'no-change' || v === 'improvement')).toBe(
      true,
    );
    expect(summaryErrors(report, { closed: true })).toEqual([]);
  });

  it('0 → 2 % business failures on one operation: a regression of that operation only (exit 1)', async () => {
    const a = await run('fail-a', { seconds: 60, rps: 100, seed: 3, fail: 0 });
    const b = await run('fail-b', { seconds: 60, rps: 100, seed: 4, fail: 0.02 });
    const section = await comparisonOf({ baselineDir: a, candidateDir: b });
    const regressed = section.operations.filter((o) => o.verdict === 'regression');
    expect(regressed.map((o) => o.operation)).toEqual([OP]);
    expect(regressed[0]?.businessFailureRate.status).toBe('regression');
    expect(regressed[0]?.reasons.join(' ')).toMatch(/business failures 0\.00 % \[[^\]]+\] → (1\.9\d|2\.0\d) % \[/);
    expect(section.operations[0]?.operation).toBe(OP); // regressions first
    expect(section.verdict).toBe('fail');
    expect(
      assembleReport({ runId: 'f', command: 'compare', startedAt: 0, durationMs: 0, target: { url: 'x' }, comparison: section }).exitCode,
    ).toBe(1);
  });

  it('+25 % latency on one operation, in runs long enough for the slow stretches: that operation regresses, no other; not under a higher practical threshold', async () => {
    const a = await run('slow-a', { seconds: 600, rps: 30, seed: 5 });
    const b = await run('slow-b', { seconds: 600, rps: 30, seed: 6, slow: 1.25 });
    const section = await comparisonOf({ baselineDir: a, candidateDir: b });
    expect(section.operations.filter((o) => o.verdict === 'regression').map((o) => o.operation)).toEqual([OP]);
    const p95 = section.operations[0]?.latency.p95;
    expect(p95?.status).toBe('regression');
    expect(p95?.relativeChange).toBeGreaterThan(0.15);
    expect(p95?.baseline?.low).not.toBeNull();
    expect(p95?.candidate?.high).not.toBeNull();
    // The same change under a practical threshold above it: still significant, no longer a regression (both are needed).
    const strict = await comparisonOf({ baselineDir: a, candidateDir: b, settings: { ...DEFAULT_COMPARE_SETTINGS, latencyRelative: 0.5 } });
    const op = strict.operations.find((o) => o.operation === OP);
    expect(op?.latency.p95.significant).toBe(true);
    expect(op?.verdict).not.toBe('regression');
  }, 120_000); // two 600 s runs generated, compared twice: 6–11 s alone, past 30 s beside a busy box

  it('too few samples: incomplete (exit 1), never "no regression"; --allow-skips accepts it and says so', async () => {
    const a = await run('few-a', { seconds: 10, rps: 20, seed: 7 });
    const b = await run('few-b', { seconds: 10, rps: 20, seed: 8 });
    const section = await comparisonOf({ baselineDir: a, candidateDir: b });
    expect(new Set(Object.values(verdicts(section)))).toEqual(new Set(['incomplete']));
    expect(section.verdict).toBe('incomplete');
    expect(section.operations[0]?.reasons.join(' ')).toMatch(/too few samples to conclude .*need 104 each/);
    const accepted = await compareReport({ baselineDir: a, candidateDir: b, runId: 'few', allowSkips: true });
    expect(accepted.verdict).toBe('pass');
    expect(accepted.verdictLine).toMatch(/accepted with --allow-skips/);
    expect(accepted.skipped.length).toBe(section.operations.length);
  });

  it('states the engine of each run, and compares runs of different engines anyway', async () => {
    const a = await run('k6-run', { seconds: 60, rps: 100, seed: 9, engine: 'k6 v0.48.0' });
    const b = await run('node-run', { seconds: 60, rps: 100, seed: 10, engine: 'node' });
    const section = await comparisonOf({ baselineDir: a, candidateDir: b });
    expect(section.baseline.engine).toBe('k6 v0.48.0');
    expect(section.candidate.engine).toBe('node');
    expect(section.notes.join(' ')).toMatch(/different engines \(baseline k6 v0\.48\.0, candidate node\): compared anyway/);
    expect(section.operations.length).toBeGreaterThan(0);
    // Without summary.json the timestamps tell: the synthetic stream writes k6's nanoseconds.
    const bare = await comparisonOf({
      baselineDir: await run('bare-1', { seconds: 10, rps: 20, seed: 11 }),
      candidateDir: await run('bare-2', { seconds: 10, rps: 20, seed: 12 }),
    });
    expect(bare.baseline.engine).toMatch(/^k6 \(from the timestamps' precision\)/);
  });

  it('a directory without a run is a usage error', async () => {
    await expect(
      comparisonOf({ baselineDir: join(root, 'nothing-here'), candidateDir: join(root, 'nothing-either') }),
    ).rejects.toMatchObject({ code: 'GH_ERR_USAGE' });
  });
});
