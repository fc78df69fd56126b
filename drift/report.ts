// The drift check's reports: drift.json (the `drift` section the gate's reports embed) and drift.md, plus the lines
// the command prints. The verdict comes first everywhere.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { VERDICT_WORD, type Verdict } from '../reports/verdict.ts';
import { countFindings, type DriftCheckResult, type NotChecked } from './check.ts';
import type { DriftFinding } from './compare.ts';

export const DRIFT_JSON = 'drift.json';
export const DRIFT_MD = 'drift.md';

/** The `drift` section: `{ baselineDir, findings }` plus the verdict and what was (not) checked. */
export interface DriftSection {
  readonly verdict: Verdict;
  readonly target: string;
  readonly baselineDir: string;
  readonly counts: { readonly breaking: number; readonly nonBreaking: number; readonly checked: number; readonly notChecked: number };
  readonly findings: readonly DriftFinding[];
  readonly notChecked: readonly NotChecked[];
}

export function driftSection(result: DriftCheckResult, verdict: Verdict, target: string, baselineDir: string): DriftSection {
  const { breaking, nonBreaking } = countFindings(result.findings);
  // Breaking first, then by operation and path: the order a reader needs.
  const findings = [...result.findings].sort(
    (a, b) => Number(a.kind !== 'breaking') - Number(b.kind !== 'breaking') || (a.operationId < b.operationId ? -1 : a.operationId > b.operationId ? 1 : 0) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
  return {
    verdict,
    target,
    baselineDir,
    counts: { breaking, nonBreaking, checked: result.checked.length, notChecked: result.notChecked.length },
    findings,
    notChecked: result.notChecked,
  };
}

export function verdictLine(section: DriftSection): string {
  const c = section.counts;
  const why =
    section.verdict === 'incomplete'
      ? c.checked === 0
        ? ', nothing could be checked'
        : `, ${section.notChecked.filter((n) => n.skipped).length} operations of the baseline not checked (--allow-skips accepts that)`
      : '';
  return `drift: ${VERDICT_WORD[section.verdict]}: ${c.breaking} breaking, ${c.nonBreaking} non-breaking finding${c.breaking + c.nonBreaking === 1 ? '' : 's'} in ${c.checked} operations checked${why} (baseline ${section.baselineDir}, target ${section.target})`;
}

export function findingLine(f: DriftFinding): string {
  return `${f.kind === 'breaking' ? 'BREAKING    ' : 'non-breaking'} ${f.operationId} ${f.path} ${f.change}: ${f.detail}`;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function driftMarkdown(section: DriftSection): string {
  const lines = [`# ${verdictLine(section)}`, ''];
  if (section.findings.length > 0) {
    lines.push('| Kind | Operation | Path | Change | Detail |', '|---|---|---|---|---|');
    for (const f of section.findings) lines.push(`| ${f.kind} | \`${f.operationId}\` | \`${cell(f.path)}\` | ${f.change} | ${cell(f.detail)} |`);
    lines.push('');
  } else {
    lines.push('No difference from the baseline.', '');
  }
  if (section.notChecked.length > 0) {
    lines.push(`## Not checked (${section.notChecked.length})`, '');
    for (const n of section.notChecked) lines.push(`- \`${n.operationId}\`${n.skipped ? ' (in the baseline: a skip)' : ''}: ${cell(n.reason)}`);
    lines.push('');
  }
  lines.push(
    'Classification follows the spec\'s Versioning section: removing or renaming response fields or headers is breaking (rule 4); new endpoints, new response fields or headers and data changes are non-breaking (rule 3). See drift/README.md.',
    '',
  );
  return lines.join('\n');
}

/** Writes drift.json (`{ drift: section }`) and drift.md; returns their paths. */
export function writeDriftReport(reportDir: string, section: DriftSection): string[] {
  const dir = resolve(reportDir);
  mkdirSync(dir, { recursive: true });
  const json = join(dir, DRIFT_JSON);
  const md = join(dir, DRIFT_MD);
  writeFileSync(json, `${JSON.stringify({ drift: section }, null, 2)}\n`);
  writeFileSync(md, driftMarkdown(section));
  return [json, md];
}
