// summary.json's schema and the model agree: every report the builders make validates (closed: no undocumented field),
// the schema rejects what it must, and its version constant matches the schema's pattern.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assembleReport } from './assemble.ts';
import { fromConformanceRun } from '../conformance/section.ts';
import { fullReport, realK6Summary } from './fixtures/full-report.ts';
import { passingConformanceRun, sampleConformanceRun, FIXTURE_TARGET } from './fixtures/sample-runs.ts';
import { summaryErrors, SUMMARY_SCHEMA } from './fixtures/schema-check.ts';
import { reportFromK6Summary } from './k6-summary.ts';
import { SCHEMA_VERSION } from './model.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-model-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const meta = { runId: 'r1', target: { url: FIXTURE_TARGET } };

describe('summary.json schema', () => {
  it('accepts a report with every section (closed: no field the schema does not document)', async () => {
    const report = await fullReport(join(dir, 'full.ndjson'));
    expect(summaryErrors(JSON.parse(JSON.stringify(report)))).toEqual([]);
  });

  it('accepts conformance-only, load-only and nothing-ran reports', () => {
    expect(summaryErrors(fromConformanceRun(sampleConformanceRun(), meta))).toEqual([]);
    expect(
      summaryErrors(
        reportFromK6Summary(realK6Summary('v2.2.0'), { ...meta, startedAt: 0, scenario: 'mixed', profile: 'smoke', engine: 'k6 v2.2.0' }),
      ),
    ).toEqual([]);
    expect(
      summaryErrors(
        assembleReport({
          ...meta,
          command: 'gate',
          startedAt: 0,
          durationMs: 0,
          error: { code: 'GH_ERR_TARGET', message: 'connection refused' },
        }),
      ),
    ).toEqual([]);
  });

  it('rejects a wrong verdict, a missing verdict line and an undocumented field', () => {
    const report = fromConformanceRun(passingConformanceRun(), meta) as unknown as Record<string, unknown>;
    expect(summaryErrors({ ...report, verdict: 'maybe' }).join('\n')).toMatch(/\/verdict must be equal to one of the allowed values/);
    const { verdictLine: _omitted, ...withoutLine } = report;
    expect(summaryErrors(withoutLine).join('\n')).toMatch(/must have required property 'verdictLine'/);
    expect(summaryErrors({ ...report, surprise: 1 }).join('\n')).toMatch(/must NOT have additional properties \(surprise\)/);
    // The published schema itself stays open, so a 1.x reader accepts a newer 1.y report with added fields.
    expect(summaryErrors({ ...report, surprise: 1 }, { closed: false })).toEqual([]);
  });

  it('rejects a credential-bearing exit code or time that does not fit', () => {
    const report = fromConformanceRun(passingConformanceRun(), meta) as unknown as Record<string, unknown>;
    expect(summaryErrors({ ...report, exitCode: 3 }).join('\n')).toMatch(/\/exitCode/);
    expect(summaryErrors({ ...report, startedAt: '22/11/2026' }).join('\n')).toMatch(/\/startedAt must match pattern/);
  });

  it('versions itself: SCHEMA_VERSION fits the schema and is what reports carry', () => {
    const pattern = (SUMMARY_SCHEMA.properties as Record<string, { pattern: string }>).schemaVersion?.pattern ?? '';
    expect(new RegExp(pattern).test(SCHEMA_VERSION)).toBe(true);
    expect(fromConformanceRun(passingConformanceRun(), meta).schemaVersion).toBe(SCHEMA_VERSION);
  });
});
