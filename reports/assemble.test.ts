// One verdict from the parts that ran: the worst part decides, its reason comes first in the verdict line, skips and
// unresolved transactions are listed, an early stop is unusable, and a run in which nothing ran is never a pass.
import { describe, expect, it } from 'vitest';
import { assembleReport, composeVerdictLine, TOOL_VERSION } from './assemble.ts';
import { conformanceSection } from '../conformance/section.ts';
import { buildLoadSection } from './k6-summary.ts';
import { realK6Summary } from './fixtures/full-report.ts';
import { passingConformanceRun, sampleConformanceRun, SAMPLE_DRIFT_FINDINGS } from './fixtures/sample-runs.ts';
import { driftSection, ledgerSection } from './sections.ts';
import packageJson from '../package.json' with { type: 'json' };

const base = { runId: 'r', command: 'gate', startedAt: Date.UTC(2026, 0, 1), durationMs: 1_000, target: { url: 'http://127.0.0.1:1' } };
const load = buildLoadSection(realK6Summary(), { scenario: 'mixed', profile: 'smoke', engine: 'k6 v0.48.0' });

describe('assembleReport', () => {
  it('a part the harness could not run (not verified): listed among the skipped, incomplete unless --allow-skips, never a failure', () => {
    const notVerified = [{ section: 'load' as const, id: 'mixed/smoke', reason: 'mixed/smoke not run: the wallet left nothing for it' }];
    const report = assembleReport({ ...base, conformance: conformanceSection(passingConformanceRun()), notVerified });
    expect([report.verdict, report.exitCode]).toEqual(['incomplete', 1]);
    expect(report.skipped).toContainEqual(notVerified[0]);
    expect(report.verdictLine).toContain('; load not verified: mixed/smoke not run: the wallet left nothing for it');
    const allowed = assembleReport({ ...base, allowSkips: true, conformance: conformanceSection(passingConformanceRun()), notVerified });
    expect([allowed.verdict, allowed.exitCode]).toEqual(['pass', 0]);
  });

  it('passes only when every part passed, with exit code 0 and a PASS line naming each part', () => {
    const report = assembleReport({ ...base, conformance: conformanceSection(passingConformanceRun()), load });
    expect([report.verdict, report.exitCode]).toEqual(['pass', 0]);
    expect(report.verdictLine).toMatch(/^PASS: conformance: all 20 cases passed; load mixed\/smoke \(k6 v0\.48\.0\): 48 requests/);
    expect(report.tool).toEqual({ name: 'gateway-harness', version: packageJson.version });
    expect(TOOL_VERSION).toBe(packageJson.version);
  });

  it('fails on a failed case, and the failing part leads the verdict line even when it ran later', () => {
    const report = assembleReport({
      ...base,
      conformance: conformanceSection(passingConformanceRun()),
      drift: driftSection({ baselineDir: 'b', findings: SAMPLE_DRIFT_FINDINGS }),
    });
    expect([report.verdict, report.exitCode]).toEqual(['fail', 1]);
    expect(report.verdictLine).toMatch(
      /^FAIL: drift: 1 breaking change \(v2\.catalog\.skus payLoad\[\]\.skuId retyped\); conformance: all 20 cases passed$/,
    );
  });

  it('crossed thresholds alone give exit 99; a failure outranks them (exit 1)', () => {
    const crossed = { ...load, verdict: 'thresholds' as const, thresholds: load.thresholds.map((t) => ({ ...t, ok: false })) };
    expect(assembleReport({ ...base, load: crossed }).exitCode).toBe(99);
    const both = assembleReport({ ...base, load: crossed, conformance: conformanceSection(sampleConformanceRun()) });
    expect([both.verdict, both.exitCode]).toEqual(['fail', 1]);
  });

  it('lists skipped cases and unresolved ledger entries; unaccepted skips make the run incomplete', () => {
    const run = {
      ...passingConformanceRun(),
      cases: [...passingConformanceRun().cases, ...sampleConformanceRun().cases.filter((c) => c.status === 'skipped')],
    };
    const ledger = ledgerSection(
      { entries: 2, charged: [], unresolved: [{ correlationId: 'c-1', operationId: 'v2.transaction.topup', lastOutcome: 'Unknown' }] },
      { allowSkips: false },
    );
    const report = assembleReport({ ...base, conformance: conformanceSection(run), ledger });
    expect(report.verdict).toBe('incomplete');
    expect(report.exitCode).toBe(1);
    expect(report.skipped).toEqual([
      { section: 'conformance', id: 'LOAN-TWO-STEP', reason: 'no number with dues is configured (settings.loanNumbers)' },
      { section: 'ledger', id: 'c-1', reason: 'v2.transaction.topup: not final at the end of the run (last outcome Unknown)' },
    ]);
  });

  it('accepted skips (--allow-skips) pass but stay listed', () => {
    const run = {
      ...passingConformanceRun(),
      cases: [...passingConformanceRun().cases, ...sampleConformanceRun().cases.filter((c) => c.status === 'skipped')],
    };
    const report = assembleReport({ ...base, allowSkips: true, conformance: conformanceSection(run, { allowSkips: true }) });
    expect(report.verdict).toBe('pass');
    expect(report.skipped.map((s) => s.id)).toEqual(['LOAN-TWO-STEP']);
    expect(report.verdictLine).toContain('1 skipped (accepted with --allow-skips)');
  });

  it('an early stop is an unusable target (exit 2) whose reason comes first', () => {
    const report = assembleReport({ ...base, error: { code: 'GH_ERR_TARGET', message: 'connect ECONNREFUSED 127.0.0.1:1' } });
    expect([report.verdict, report.exitCode]).toEqual(['unusable', 2]);
    expect(report.verdictLine).toBe('UNUSABLE TARGET: GH_ERR_TARGET: connect ECONNREFUSED 127.0.0.1:1');
    expect(report.error).toEqual({ code: 'GH_ERR_TARGET', message: 'connect ECONNREFUSED 127.0.0.1:1' });
  });

  it('nothing ran: incomplete, never pass', () => {
    const report = assembleReport(base);
    expect(report.verdict).toBe('incomplete');
    expect(report.verdictLine).toBe('INCOMPLETE: nothing ran, nothing was verified');
  });

  it('fills target defaults and refuses a start time that is not a time', () => {
    expect(assembleReport(base).target).toEqual({
      url: 'http://127.0.0.1:1',
      environment: 'sandbox',
      timeScale: 1,
      api: 'both',
      embedded: false,
    });
    expect(() => assembleReport({ ...base, startedAt: 'yesterday' })).toThrow(RangeError);
  });

  it('names the embedded sandbox on the verdict line, and a given target not (#31 item 5)', () => {
    const embedded = assembleReport({
      ...base,
      command: 'conformance',
      target: { url: 'http://127.0.0.1:1', embedded: true, profile: 'faithful' },
    });
    expect(embedded.verdictLine).toBe(
      'INCOMPLETE: nothing ran, nothing was verified [target: the embedded sandbox, profile faithful, not a gateway]',
    );
    const given = assembleReport({ ...base, command: 'conformance', target: { url: 'https://gw.example' } });
    expect(given.verdictLine).toBe('INCOMPLETE: nothing ran, nothing was verified');
  });

  it('composeVerdictLine puts the deciding parts first', () => {
    const line = composeVerdictLine('thresholds', [
      { section: 'conformance', verdict: 'pass', line: 'conformance: ok' },
      { section: 'load', verdict: 'thresholds', line: 'load: crossed' },
    ]);
    expect(line).toBe('THRESHOLDS CROSSED: load: crossed; conformance: ok');
  });
});
