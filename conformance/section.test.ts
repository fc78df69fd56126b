// The conformance section: counts per status and per group in suite order, every case kept with its rule and
// failures, and each failing request redacted on the way in (Authorization, URL user info, known secrets).
import { describe, expect, it } from 'vitest';
import { conformanceSection, fromConformanceRun } from './section.ts';
import { FIXTURE_PASSWORD, FIXTURE_TOKEN, FIXTURE_USER, sampleConformanceRun } from '../reports/fixtures/sample-runs.ts';
import { credentialSecrets } from '../reports/redact-report.ts';

const secrets = credentialSecrets(FIXTURE_USER, FIXTURE_PASSWORD);

describe('conformanceSection', () => {
  const section = conformanceSection(sampleConformanceRun(), { secrets });

  it('counts per status and per group, groups in the suite order', () => {
    expect(section.counts).toEqual({ total: 23, passed: 20, failed: 2, skipped: 1 });
    expect(section.groups.map((g) => g.group)).toEqual([
      'AUTH',
      'ENV',
      'TRG',
      'PAGE',
      'LEN',
      'CUR',
      'CAT',
      'LOOKUP',
      'FMT',
      'LOC',
      'GIFT',
      'BAL',
      'LOAN',
    ]);
    expect(section.groups.find((g) => g.group === 'TRG')?.counts).toEqual({ total: 4, passed: 3, failed: 1, skipped: 0 });
    expect(section.verdict).toBe('fail');
  });

  it('keeps each case whole: rule, section, assumptions, notes, skip reason, warnings beside errors', () => {
    const trg = section.cases.find((c) => c.id === 'TRG-510-V2');
    expect(trg?.rule).toBe('Mobile number ends with 510 | responseCode 510 (The SKU is out of stock)');
    expect(trg?.assumed).toEqual(['write path /api/v2/transaction/topup']);
    expect(trg?.failures.map((f) => [f.check, f.severity])).toEqual([
      ['responseCodeIs', 'error'],
      ['statusAgrees', 'warning'],
    ]);
    expect(section.cases.find((c) => c.id === 'LOAN-TWO-STEP')?.skipReason).toBe(
      'no number with dues is configured (settings.loanNumbers)',
    );
  });

  it('redacts the raw Basic header, URL user info and any header carrying a secret', () => {
    const request = section.cases.find((c) => c.id === 'TRG-510-V2')?.failures[0]?.request;
    expect(request?.headers.authorization).toBe('Basic [REDACTED]');
    expect(request?.headers['x-debug-echo']).toBe('[REDACTED]');
    expect(request?.body).toEqual({ skuId: 1001, amount: 10, mobileNumber: '18765550510', correlationId: 'gh-TRG-510-V2-k3J9' });
    const len = section.cases.find((c) => c.id === 'LEN-CORR-51-V1')?.failures[0]?.request;
    expect(len?.url).toBe('http://[REDACTED]@127.0.0.1:40123/api/v1/transaction/topup');
    const text = JSON.stringify(section);
    expect(text).not.toContain(FIXTURE_TOKEN);
    expect(text).not.toContain(`${FIXTURE_USER}:${FIXTURE_PASSWORD}`);
  });

  it('a run in which nothing passed is incomplete, never a pass; accepted skips pass', () => {
    const run = sampleConformanceRun();
    expect(conformanceSection({ ...run, cases: run.cases.filter((c) => c.status === 'skipped') }).verdict).toBe('incomplete');
    expect(conformanceSection({ ...run, cases: [] }).verdict).toBe('incomplete');
    const noFailures = { ...run, cases: run.cases.filter((c) => c.status !== 'failed') };
    expect(conformanceSection(noFailures).verdict).toBe('incomplete');
    expect(conformanceSection(noFailures, { allowSkips: true }).verdict).toBe('pass');
  });
});

describe('fromConformanceRun', () => {
  it('takes the run its own times and names the command conformance', () => {
    const run = sampleConformanceRun();
    const report = fromConformanceRun(run, { runId: 'x', target: { url: 'http://127.0.0.1:1' } });
    expect([report.command, report.startedAt, report.durationMs]).toEqual([
      'conformance',
      new Date(run.startedAt).toISOString(),
      run.durationMs,
    ]);
    expect(report.verdictLine).toBe('FAIL: conformance: 2 of 23 cases failed (TRG-510-V2, LEN-CORR-51-V1)');
  });
});
