// The migration reports: migration.json (the `migration` section the gate's reports embed) and migration.md, plus
// the lines the command prints. The verdict comes first everywhere; a regression names its pair.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { VERDICT_WORD, type Verdict } from '../reports/verdict.ts';
import { migrationCounts, type MigrationResult, type PairResult } from './run-migration.ts';
import type { LoadSettings } from './latency.ts';

export const MIGRATION_JSON = 'migration.json';
export const MIGRATION_MD = 'migration.md';

export interface MigrationSection {
  readonly verdict: Verdict;
  readonly target: string;
  readonly load: LoadSettings;
  readonly counts: { readonly pairs: number; readonly compared: number; readonly regressions: number; readonly notCompared: number };
  readonly pairs: readonly PairResult[];
}

export function migrationSection(result: MigrationResult, verdict: Verdict, load: LoadSettings): MigrationSection {
  return { verdict, target: result.target, load, counts: migrationCounts(result), pairs: result.pairs };
}

export function verdictLine(section: MigrationSection): string {
  const c = section.counts;
  const regressed = section.pairs.filter((p) => p.regression).map((p) => p.purpose);
  const why =
    regressed.length > 0
      ? `: v2 fails where v1 succeeds in ${regressed.join(', ')}`
      : section.verdict === 'incomplete'
        ? `: ${c.notCompared} of ${c.pairs} pairs not compared (--allow-skips accepts that)`
        : '';
  return `migrate: ${VERDICT_WORD[section.verdict]}${why} (${c.compared} of ${c.pairs} pairs compared, ${c.regressions} regression${c.regressions === 1 ? '' : 's'}; target ${section.target})`;
}

const ms = (n: number | undefined): string => (n === undefined ? '–' : `${n}`);

export function pairLine(p: PairResult): string {
  const lat = p.latency === null ? '' : `  p50/p95 v1 ${p.latency.v1.p50}/${p.latency.v1.p95} ms, v2 ${p.latency.v2.p50}/${p.latency.v2.p95} ms`;
  const unmatched = p.fieldCorrespondence.filter((f) => f.v2Field === null).length;
  const flag = p.regression ? 'REGRESSION ' : p.v1Outcome === 'NotRun' ? 'not run    ' : '           ';
  const extra = p.v1Outcome === 'NotRun' ? `: ${p.reason ?? ''}` : `; ${p.contentDiffs.length} content difference${p.contentDiffs.length === 1 ? '' : 's'}, ${unmatched} v1 field${unmatched === 1 ? '' : 's'} without a v2 counterpart`;
  return `${flag}${p.purpose}: v1 ${p.v1Outcome}, v2 ${p.v2Outcome}${extra}${lat}`;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function migrationMarkdown(section: MigrationSection): string {
  const lines = [`# ${verdictLine(section)}`, ''];
  lines.push(
    `Same inputs on both versions, taken from the target's own catalog; latency under the same small load (${section.load.requests} requests per version, ${section.load.concurrency} in flight, v1 and v2 interleaved).`,
    '',
    '| Pair | v1 | v2 | v1 outcome | v2 outcome | Regression | Content diffs | v1 fields without v2 | p50/p95 v1 (ms) | p50/p95 v2 (ms) |',
    '|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const p of section.pairs) {
    const unmatched = p.fieldCorrespondence.filter((f) => f.v2Field === null).length;
    lines.push(
      `| ${p.purpose} | \`${p.v1}\` | \`${p.v2}\` | ${p.v1Outcome} | ${p.v2Outcome} | ${p.regression ? '**yes**' : 'no'} | ${p.contentDiffs.length} | ${unmatched} | ${ms(p.latency?.v1.p50)} / ${ms(p.latency?.v1.p95)} | ${ms(p.latency?.v2.p50)} / ${ms(p.latency?.v2.p95)} |`,
    );
  }
  lines.push('');
  for (const p of section.pairs) {
    lines.push(`## ${p.purpose}${p.regression ? ' — REGRESSION' : ''}`, '');
    if (p.reason !== undefined) lines.push(`${p.regression ? 'Regression' : 'Not run'}: ${cell(p.reason)}`, '');
    lines.push(`Normalization: ${p.normalization}.`, '');
    if (p.calls.length > 0) {
      lines.push('| Input | v1 | v2 |', '|---|---|---|');
      for (const c of p.calls) lines.push(`| ${cell(c.input)} | ${c.v1.outcome}: ${cell(c.v1.detail)} | ${c.v2.outcome}: ${cell(c.v2.detail)} |`);
      lines.push('');
    }
    if (p.contentDiffs.length > 0) {
      lines.push('Content differences:', '');
      for (const d of p.contentDiffs) lines.push(`- ${d.change} \`${cell(d.path)}\`: ${d.count} of ${d.of} (${cell(d.detail)})`);
      lines.push('');
    }
    const unmatched = p.fieldCorrespondence.filter((f) => f.v2Field === null).map((f) => `\`${f.v1Field}\``);
    const renamed = p.fieldCorrespondence.filter((f) => f.v2Field !== null && f.v2Field !== f.v1Field).map((f) => `\`${f.v1Field}\` → \`${f.v2Field ?? ''}\``);
    if (p.fieldCorrespondence.length > 0) {
      lines.push(`Field correspondence: ${p.fieldCorrespondence.length - unmatched.length} of ${p.fieldCorrespondence.length} v1 fields have a v2 counterpart.`);
      if (renamed.length > 0) lines.push(`Renamed: ${renamed.join(', ')}.`);
      if (unmatched.length > 0) lines.push(`No v2 counterpart: ${unmatched.join(', ')}.`);
      lines.push('');
    }
  }
  return lines.join('\n');
}

/** Writes migration.json (`{ migration: section }`) and migration.md; returns their paths. */
export function writeMigrationReport(reportDir: string, section: MigrationSection): string[] {
  const dir = resolve(reportDir);
  mkdirSync(dir, { recursive: true });
  const json = join(dir, MIGRATION_JSON);
  const md = join(dir, MIGRATION_MD);
  writeFileSync(json, `${JSON.stringify({ migration: section }, null, 2)}\n`);
  writeFileSync(md, migrationMarkdown(section));
  return [json, md];
}
