// Conformance progress on the harness's display (reports/progress.ts): plain timestamped lines without any ANSI code
// when not on a terminal; on a terminal a live task with groups done/total, cases and the status polls waited for,
// failures and skips kept as lines above it.
import { describe, expect, it } from 'vitest';
import { createProgress } from '../reports/progress.ts';
import { conformanceProgress } from './progress.ts';
import type { CaseResult, CaseStatus } from './types.ts';

// eslint-disable-next-line no-control-regex -- the point is to find escape codes
const ANSI = /\u001b\[/;

function result(id: string, group: CaseResult['group'], status: CaseStatus): CaseResult {
  return {
    id,
    group,
    title: id,
    api: 'v2',
    specSection: 's',
    rule: 'r',
    assumed: [],
    exclusive: false,
    status,
    ...(status === 'skipped' ? { skipReason: 'no Pin SKU' } : {}),
    failures: [],
    notes: [],
    requests: 1,
    startedAt: 0,
    durationMs: 12,
  };
}

function drive(tty: boolean): string {
  let text = '';
  let clock = Date.UTC(2026, 10, 22, 14, 0, 0);
  const display = createProgress({
    stream: { write: (chunk: string) => (text += chunk), isTTY: tty, columns: 200 },
    now: () => clock,
    redrawMs: 0,
  });
  const progress = conformanceProgress(display, {
    groups: new Map([
      ['AUTH', 1],
      ['TRG', 2],
    ]),
    now: () => clock,
    tickMs: 60_000,
  });
  progress.onEvent({ type: 'phase', phase: 'concurrent', cases: 3 });
  progress.onEvent({ type: 'case-end', result: result('AUTH-NONE-x', 'AUTH', 'passed') });
  clock += 1_000;
  progress.onEvent({ type: 'poll-start', caseId: 'TRG-666666-V2', correlationId: 'c1' });
  clock += 3_000;
  progress.onEvent({ type: 'case-end', result: result('TRG-510-V2', 'TRG', 'failed') });
  progress.onEvent({ type: 'poll-end', caseId: 'TRG-666666-V2', correlationId: 'c1' });
  progress.onEvent({ type: 'case-end', result: result('TRG-666666-V2', 'TRG', 'skipped') });
  progress.finish();
  display.done();
  return text;
}

describe('conformance progress', () => {
  it('not a terminal: timestamped lines (start, milestones, failures and skips, done), no ANSI at all', () => {
    const text = drive(false);
    expect(text).not.toMatch(ANSI);
    expect(text).not.toContain('\r');
    const lines = text.trimEnd().split('\n');
    for (const line of lines) expect(line).toMatch(/^\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\] /);
    expect(lines.map((l) => l.replace(/^\S+ /, ''))).toEqual([
      'conformance: started (2 groups)',
      'conformance: 1/2 groups — cases 1/3 · concurrent phase',
      'conformance: FAIL TRG-510-V2 (12 ms)',
      'conformance: SKIP TRG-666666-V2 (12 ms) — no Pin SKU',
      'conformance: 2/2 groups — cases 3/3 · 1 failed · 1 skipped · concurrent phase',
      'conformance: FAILED (2/2 groups) in 4.0 s — 3 cases, 1 failed, 1 skipped',
    ]);
  });

  it('a terminal: a live task with groups done/total and the longest status poll; failures stay above it', () => {
    const text = drive(true);
    expect(text).toContain(
      'conformance  ██████████░░░░░░░░░░ 1/2 groups  4.0 s  cases 2/3 · 1 failed · concurrent phase · 1 status poll waiting (longest: TRG-666666-V2, 3 s)',
    );
    expect(text).toContain('conformance: FAIL TRG-510-V2 (12 ms)\n');
    expect(text).not.toContain('PASS AUTH-NONE-x');
    expect(text).toContain('✗ conformance: FAILED (2/2 groups) in 4.0 s — 3 cases, 1 failed, 1 skipped\n');
  });
});
