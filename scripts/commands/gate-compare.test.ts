// `gate --compare-with DIR`: the gate's load part compared with an earlier gate's, inside the gate's one verdict. The
// smoke load sends each operation a few times, so the comparison is incomplete (exit 1), never "no regression";
// --allow-skips accepts it and the reports say so.
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { summaryErrors } from '../../reports/fixtures/schema-check.ts';
import type { RunReport } from '../../reports/model.ts';
import { runCli } from '../fixtures/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-gate-compare-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** `gate --api v2` with its load on the Node engine, reports in `name` under the test's directory. */
const v2Gate = (name: string): string[] => ['gate', '--api', 'v2', '--engine', 'node', '--report-dir', join(dir, name)];
const summaryOf = (d: string): RunReport => JSON.parse(readFileSync(join(d, 'summary.json'), 'utf8')) as RunReport;

describe('gate --compare-with', () => {
  it('puts the comparison in the verdict: incomplete on a smoke load, accepted with --allow-skips', async () => {
    const first = await runCli(v2Gate('first'));
    expect(first.code).toBe(0);
    const second = await runCli([...v2Gate('second'), '--compare-with', join(dir, 'first')]);
    const report = summaryOf(join(dir, 'second'));
    expect(report.parts.map((p) => p.section)).toEqual(['conformance', 'load', 'comparison']);
    expect(report.comparison?.verdict).toBe('incomplete');
    expect(second.code).toBe(1);
    expect(report.verdictLine).toMatch(/^INCOMPLETE: comparison: \d+ too few samples to conclude, not verified/);
    expect(summaryErrors(report, { closed: true })).toEqual([]);
    const accepted = await runCli([...v2Gate('third'), '--compare-with', join(dir, 'first'), '--allow-skips']);
    expect(accepted.code).toBe(0);
    expect(summaryOf(join(dir, 'third')).verdictLine).toMatch(/accepted with --allow-skips/);
  }, 300_000);

  it('refuses a --compare-with dir without a run before anything is sent (exit 2)', async () => {
    const r = await runCli(['gate', '--compare-with', join(dir, 'missing'), '--report-dir', join(dir, 'never')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not a report directory/);
  });
});
