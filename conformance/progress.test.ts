// Progress output: plain timestamped lines without any ANSI code when not on a terminal; on a terminal a live line
// with groups done/total, cases and the status polls being waited for, and failures kept above it.
import { describe, expect, it } from 'vitest';
import { createProgress } from './progress.ts';
import type { CaseResult, CaseStatus } from './types.ts';

// eslint-disable-next-line no-control-regex -- the point is to find escape codes
const ANSI = /\u001b\[/;
// eslint-disable-next-line no-control-regex -- a colour (SGR) sequence
const SGR = /\u001b\[\d+m/;

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

function drive(interactive: boolean, colour: boolean): string {
  let text = '';
  let clock = 1_700_000_000_000;
  const progress = createProgress({
    stream: { write: (chunk: string) => (text += chunk) },
    interactive,
    colour,
    groups: new Map([
      ['AUTH', 1],
      ['TRG', 2],
    ]),
    now: () => clock,
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
  return text;
}

describe('progress', () => {
  it('not a terminal: one timestamped line per case and phase, no ANSI at all', () => {
    const text = drive(false, true);
    expect(text).not.toMatch(ANSI);
    expect(text).not.toContain('\r');
    const lines = text.trimEnd().split('\n');
    for (const line of lines) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z /);
    expect(lines.map((l) => l.replace(/^\S+ /, ''))).toEqual([
      'conformance: concurrent phase, 3 cases',
      'PASS AUTH-NONE-x (12 ms)',
      'FAIL TRG-510-V2 (12 ms)',
      'SKIP TRG-666666-V2 (12 ms) — no Pin SKU',
    ]);
  });

  it('a terminal: a live line with groups done/total and the longest status poll; failures stay above it', () => {
    const text = drive(true, false);
    expect(text).toContain('conformance: groups 1/2 · cases 2/3 · 1 failed · concurrent phase · 1 status poll waiting (longest: TRG-666666-V2 3 s)');
    expect(text).toContain('FAIL TRG-510-V2 (12 ms)\n');
    expect(text).not.toContain('PASS AUTH-NONE-x');
    expect(text).toContain('conformance: groups 2/2 · cases 3/3');
    // Without colour, only the line-redraw codes: no SGR colour sequences.
    expect(text).not.toMatch(SGR);
    expect(text.endsWith('\r\u001b[2K')).toBe(true);
  });

  it('a terminal with colour: the failure in red', () => {
    expect(drive(true, true)).toContain('\u001b[31mFAIL\u001b[0m TRG-510-V2');
  });
});
