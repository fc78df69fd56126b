// How judging commands end: which credentials are scrubbed (never the sandbox's public defaults, which would mangle
// "passed"), the details printed after the verdict, the verdict word coloured only on request, the report paths line.
import { describe, expect, it } from 'vitest';
import { assembleReport } from '../reports/assemble.ts';
import { conformanceSection } from '../conformance/section.ts';
import { FIXTURE_PASSWORD, FIXTURE_USER, sampleConformanceRun } from '../reports/fixtures/sample-runs.ts';
import { driftSection } from '../reports/sections.ts';
import { paintVerdictLine, reportDetails, reportSecrets, reportsLine } from './report-output.ts';

describe('reportSecrets', () => {
  it('scrubs the password, user:password and its base64 token of real credentials', () => {
    expect(reportSecrets({ user: FIXTURE_USER, password: FIXTURE_PASSWORD })).toEqual([
      FIXTURE_PASSWORD,
      `${FIXTURE_USER}:${FIXTURE_PASSWORD}`,
      Buffer.from(`${FIXTURE_USER}:${FIXTURE_PASSWORD}`).toString('base64'),
    ]);
  });

  it("leaves the embedded sandbox's public defaults (user/pass) alone", () => {
    expect(reportSecrets({ user: 'user', password: 'pass' })).toEqual([]);
    expect(reportSecrets({ user: 'someone', password: 'pass' })).toHaveLength(3);
  });
});

describe('reportDetails', () => {
  const report = assembleReport({
    runId: 'r',
    command: 'gate',
    startedAt: 0,
    durationMs: 1,
    target: { url: 'http://127.0.0.1:1' },
    conformance: conformanceSection(sampleConformanceRun()),
    drift: driftSection({
      baselineDir: 'b',
      compared: ['v2.catalog.skus'],
      findings: [{ operationId: 'v2.catalog.skus', path: '$.payLoad[*].skuId', kind: 'breaking', change: 'field-removed', detail: 'gone' }],
    }),
  });
  const text = reportDetails(report).join('\n');

  it('lists every failed case with its rule and expected vs received, the drift findings and what was not verified', () => {
    expect(text).toMatch(/Failed conformance cases \(2\):\n {2}TRG-510-V2: [^\n]*\n {4}rule \(.*\): Mobile number ends with 510/);
    expect(text).toContain('      expected: ');
    expect(text).toContain('Drift findings (1):\n  BREAKING     v2.catalog.skus $.payLoad[*].skuId field-removed: gone');
    expect(text).toContain('Not verified (1):\n  conformance LOAN-TWO-STEP: no number with dues is configured (settings.loanNumbers)');
  });

  it('says nothing more for a clean pass', () => {
    expect(
      reportDetails(
        assembleReport({
          runId: 'r',
          command: 'gate',
          startedAt: 0,
          durationMs: 1,
          target: { url: 'x' },
          drift: driftSection({ baselineDir: 'b', compared: ['a'], findings: [] }),
        }),
      ),
    ).toEqual([]);
  });
});

describe('the verdict line and the report paths', () => {
  it('colours the verdict word only when asked (a terminal), never the rest', () => {
    const line = { verdict: 'fail' as const, verdictLine: 'FAIL: conformance: 1 of 2 cases failed (X)' };
    expect(paintVerdictLine(line, false)).toBe(line.verdictLine);
    expect(paintVerdictLine(line, true)).toBe('\u001b[31mFAIL\u001b[0m: conformance: 1 of 2 cases failed (X)');
  });

  it('names report.html first', () => {
    const paths = { summaryJson: '/r/summary.json', junitXml: '/r/junit.xml', summaryMd: '/r/summary.md', reportHtml: '/r/report.html' };
    expect(reportsLine({ dir: '/r', paths, report: {} as never })).toBe(
      'reports: /r/report.html, /r/summary.md, /r/junit.xml, /r/summary.json',
    );
  });
});
