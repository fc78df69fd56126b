// writeReports: one set of files per run from one redacted report; and the credential-leak test: a run whose
// requests carried a known password and Basic token leaves neither (nor user:password) in any written file.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromConformanceRun } from '../conformance/section.ts';
import { FIXTURE_SECRETS, fullReport } from './fixtures/full-report.ts';
import { FIXTURE_PASSWORD, FIXTURE_TOKEN, FIXTURE_USER, passingConformanceRun, sampleConformanceRun } from './fixtures/sample-runs.ts';
import { summaryErrors } from './fixtures/schema-check.ts';
import { writeReports } from './write.ts';
import type { RunReport } from './model.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-write-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const meta = { runId: 'r', target: { url: 'http://127.0.0.1:1' } };

/** Every file in the directory with each credential form it contains. */
function leaks(reportDir: string): string[] {
  const forms = [FIXTURE_PASSWORD, FIXTURE_TOKEN, `${FIXTURE_USER}:${FIXTURE_PASSWORD}`];
  return readdirSync(reportDir).flatMap((name) => {
    const text = readFileSync(join(reportDir, name), 'utf8');
    return forms
      .filter((form) => text.includes(form))
      .map(
        (form) =>
          `${name} contains ${form === FIXTURE_PASSWORD ? 'the password' : form === FIXTURE_TOKEN ? 'the Basic token' : 'user:password'}`,
      );
  });
}

describe('writeReports', () => {
  it('writes the four files with the same verdict, fills artifacts, leaves no temp file', () => {
    const out = join(dir, 'set');
    const written = writeReports(fromConformanceRun(sampleConformanceRun(), meta), out, { secrets: FIXTURE_SECRETS });
    expect(readdirSync(out).sort()).toEqual(['junit.xml', 'report.html', 'summary.json', 'summary.md']);
    const summary = JSON.parse(readFileSync(written.paths.summaryJson!, 'utf8')) as RunReport;
    expect(summaryErrors(summary)).toEqual([]);
    expect(summary.artifacts).toEqual({
      summaryJson: 'summary.json',
      junitXml: 'junit.xml',
      summaryMd: 'summary.md',
      reportHtml: 'report.html',
    });
    expect(readFileSync(written.paths.summaryMd!, 'utf8').split('\n')[0]).toBe(`## ❌ ${summary.verdictLine}`);
    expect(readFileSync(written.paths.junitXml!, 'utf8')).toContain(`<property name="verdictLine" value="${summary.verdictLine}"/>`);
    expect(readFileSync(written.paths.reportHtml!, 'utf8')).toContain('data-verdict="fail"');
  });

  it('writes only the files asked for', () => {
    const out = join(dir, 'some');
    writeReports(fromConformanceRun(passingConformanceRun(), meta), out, { files: ['summaryJson', 'junitXml'] });
    expect(readdirSync(out).sort()).toEqual(['junit.xml', 'summary.json']);
  });

  it('a report directory that cannot be made is one GH_ERR_CONFIG line', () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    expect(() => writeReports(fromConformanceRun(passingConformanceRun(), meta), join(file, 'reports'))).toThrow(
      expect.objectContaining({
        code: 'GH_ERR_CONFIG',
        message: expect.stringMatching(/^cannot create the report directory .*: ENOTDIR$/),
      }),
    );
  });
});

describe('credentials never reach a report', () => {
  it('no file holds the password, the Basic token or user:password', async () => {
    const out = join(dir, 'leak');
    const report = await fullReport(join(dir, 'leak.ndjson'));
    writeReports(report, out, { secrets: FIXTURE_SECRETS });
    expect(readdirSync(out)).toHaveLength(4);
    expect(leaks(out)).toEqual([]);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('Basic [REDACTED]');
  });

  it('the search finds a leak when there is one (free text the builder could not know was secret)', () => {
    const out = join(dir, 'no-secrets');
    // Without the run's secrets only headers and URL user info are redacted: the password quoted in a message stays.
    writeReports(fromConformanceRun(sampleConformanceRun(), meta), out);
    expect(leaks(out)).toContain('summary.json contains the password');
    expect(leaks(out).some((l) => l.includes('Basic token'))).toBe(false);
  });
});
