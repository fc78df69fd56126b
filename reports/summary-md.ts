// summary.md: the short report for $GITHUB_STEP_SUMMARY and PR comments. Its FIRST line is the verdict line, so
// `head -1 summary.md` answers "did it pass?"; then what failed, with ids and spec rules. Runtime-neutral.
import { faultLine, type FaultCounts } from '../api/faults.ts';
import { printable } from '../api/printable.ts';
import { changeText, comparedRunText, estimateText, operationVerdictText, settingsText } from './comparison-text.ts';
import type { LoadSection, RunReport } from './model.ts';
import { interruptionText } from './interruption.ts';
import { curlLine } from './curl.ts';
import { genCoverageHeadline, genCoverageRows } from './gen-coverage.ts';
import { accuracyText, formatCharged, formatCount, formatMs, formatObserved, loadLabel, plural, remoteWriteLine } from './sections.ts';
import { VERDICT_WORD, type Verdict } from './verdict.ts';

export const VERDICT_EMOJI: Readonly<Record<Verdict, string>> = Object.freeze({
  pass: '✅',
  fail: '❌',
  incomplete: '⚠️',
  unusable: '⛔',
  thresholds: '🚨',
  interrupted: '⏹️',
});

/** PR comments are capped at 65,536 characters; stay well below with room for a note. */
export const MAX_MARKDOWN_CHARS = 60_000;
const MAX_FAILURES = 25;

const WORD_CHAR = /^[A-Za-z0-9]$/;

/** First contact's own requests before the run (discovery); its faults are in the faults line too. Shared with report.html. */
export function firstContactLine(counts: { readonly requests: number; readonly faults: FaultCounts & { readonly total: number } }): string {
  const faults = counts.faults.total === 0 ? 'no fault' : faultLine(counts.faults);
  return `First contact before the run (preflight and discovery of the target): ${counts.requests} request${counts.requests === 1 ? '' : 's'}, ${faults}${counts.faults.total === 0 ? '' : ' (counted in the faults seen)'}.`;
}

/**
 * Text safe inside a table cell or a list item, whatever a target put in it: one line, control bytes shown escaped, and
 * nothing GFM would make into markup (emphasis, code, links, images, raw HTML, entities, autolinked URLs and e-mails).
 */
export function mdText(text: string): string {
  return (
    printable(text.replace(/\r?\n/g, ' '))
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/[\\`*[\]!|~@]/g, (char) => `\\${char}`)
      // An underscore inside a word (`gateway_failed`) is no emphasis in GFM: left readable; any other one is escaped.
      .replace(/_/g, (char, at: number, all: string) =>
        WORD_CHAR.test(all.charAt(at - 1)) && WORD_CHAR.test(all.charAt(at + 1)) ? char : '\\_',
      )
      .replace(/:\/\//g, '\\://')
      .replace(/\b(www)\./gi, '$1\\.')
  );
}

/**
 * Inline code that survives any backticks inside (its fence is longer than their longest run). `inTable`: a pipe is
 * escaped, as GFM splits table cells before it reads code spans.
 */
export function mdCode(text: string, inTable = false): string {
  const clean = printable(text.replace(/\r?\n/g, ' '));
  const longest = Math.max(0, ...(clean.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = longest > 0 || clean.startsWith(' ') || clean.endsWith(' ') ? ' ' : '';
  return `${fence}${pad}${inTable ? clean.replace(/\|/g, '\\|') : clean}${pad}${fence}`;
}

/** The load run's payload checks: counts per operation and JSON path, then the first samples of each. */
function payloadChecksMarkdown(checks: LoadSection['payloadChecks']): string[] {
  if (checks === undefined) return [];
  const basis = `${checks.baselineDir === undefined ? 'spec and observed payloads' : `spec, observed payloads and the baseline ${mdCode(checks.baselineDir)}`}${checks.promoteObserved === true ? ' (observed promoted to errors)' : ''}`;
  const out = [
    '',
    `Payload checks on every response (${basis}): ${formatCount(checks.violations)} violations, ${formatCount(checks.warnings)} warnings.`,
  ];
  if (checks.byPath.length === 0) return out;
  out.push('', '| Operation | JSON path | Rules | Severity | Count |', '|---|---|---|---|---|');
  for (const e of checks.byPath.slice(0, MAX_FAILURES))
    out.push(
      `| ${mdCode(e.operation, true)} | ${mdCode(e.path, true)} | ${e.layer} | ${e.severity === 'error' ? '❌ error' : '⚠️ warning'} | ${formatCount(e.count)} |`,
    );
  if (checks.byPath.length > MAX_FAILURES) out.push(`| … | ${checks.byPath.length - MAX_FAILURES} more paths (summary.json) | | | |`);
  for (const sample of checks.samples.slice(0, MAX_FAILURES)) {
    out.push(`- ${mdCode(sample.operation)} ${mdCode(sample.path)}: ${mdText(sample.message)}; received ${mdCode(sample.received)}`);
  }
  return out;
}

type LoadThreshold = NonNullable<RunReport['load']>['thresholds'][number];

/** Crossed thresholds first, then unverified ones, in a table of their own; the met ones folded away under a summary line. */
function thresholdsMarkdown(thresholds: readonly LoadThreshold[]): string[] {
  if (thresholds.length === 0) return [];
  const row = (th: LoadThreshold): string => {
    const result = !th.ok ? '🚨 crossed' : th.verified === false ? '⚪ unverified (no sample)' : '✅ met';
    return `| ${mdCode(`${th.metric} ${th.expression}`, true)} | ${result} | ${th.observed === undefined ? '' : formatObserved(th.observed, th.metric)} |`;
  };
  const head = ['| Threshold | Result | Observed |', '|---|---|---|'];
  const open = [...thresholds.filter((th) => !th.ok), ...thresholds.filter((th) => th.ok && th.verified === false)];
  const met = thresholds.filter((th) => th.ok && th.verified !== false);
  const out = open.length === 0 ? [] : ['', ...head, ...open.map(row)];
  if (met.length > 0)
    out.push(
      '',
      `<details><summary>${formatCount(met.length)} of ${plural(thresholds.length, 'threshold')} met</summary>`,
      '',
      ...head,
      ...met.map(row),
      '',
      '</details>',
    );
  return out;
}

/**
 * `gateway-harness conformance --grep '^<id> '` against the run's target: the command that runs one failed case alone,
 * as it ran (the embedded sandbox's behaviour profile, the time scale: without them a planted bug's case passes).
 */
export function rerunCommand(caseId: string, target: RunReport['target']): string {
  const where = target.embedded ? '' : ` --target '${target.url.replace(/'/g, `'\\''`)}'`;
  const profile =
    target.embedded && target.profile !== undefined && target.profile !== 'faithful'
      ? ` --sandbox-profile ${target.profile.replace(/[^A-Za-z0-9_-]/g, '')}`
      : '';
  const timeScale = target.timeScale === 1 ? '' : ` --time-scale ${target.timeScale}`;
  // The same catalog: the embedded sandbox's seed (--seed seeds GEN's inputs too; a GEN case has its own replay line).
  const seed = target.embedded && target.seed !== undefined ? ` --seed ${Math.trunc(target.seed)}` : '';
  return `gateway-harness conformance --grep '^${caseId.replace(/[^A-Za-z0-9-]/g, '')} '${where}${profile}${seed}${timeScale}${target.api === 'both' ? '' : ` --api ${target.api}`}`;
}

/** Each failed case: its rule, its first error failures, and how to reproduce it (the rerun command and a curl line). */
function failedCasesMarkdown(report: RunReport): string[] {
  const failed = (report.conformance?.cases ?? []).filter((c) => c.status === 'failed');
  if (failed.length === 0) return [];
  const out = ['', `### Failed conformance cases (${failed.length})`, ''];
  for (const c of failed.slice(0, MAX_FAILURES)) {
    out.push(`- **${mdText(c.id)}** ${mdText(c.title)} — _${mdText(c.specSection)}_: “${mdText(c.rule)}”`);
    const errors = c.failures.filter((x) => x.severity === 'error').slice(0, 3);
    for (const f of errors) {
      const request = f.request === undefined ? '' : ` · ${mdCode(`${f.request.method} ${f.request.url}`)}`;
      out.push(`  - ${mdCode(f.check)} ${mdText(f.message)}: expected ${mdCode(f.expected)}, received ${mdCode(f.received)}${request}`);
    }
    out.push(`  - rerun: ${mdCode(rerunCommand(c.id, report.target))}`);
    const first = errors.find((f) => f.request !== undefined)?.request;
    if (first !== undefined) out.push(`  - curl: ${mdCode(curlLine(first))}`);
  }
  if (failed.length > MAX_FAILURES) out.push(`- … and ${failed.length - MAX_FAILURES} more (see junit.xml and report.html)`);
  return out;
}

/** GEN's reach, collapsed: per generated case its inputs, requests and the items of its space it covered or missed. */
function genCoverageMarkdown(report: RunReport): string[] {
  const rows = genCoverageRows(report.conformance?.cases ?? []);
  if (rows.length === 0) return [];
  const out = ['', `<details><summary>${mdText(genCoverageHeadline(rows))}</summary>`, ''];
  out.push('| GEN case | Inputs | Requests (charging) | Covered | Not reached this run |', '|---|---|---|---|---|');
  for (const r of rows)
    out.push(
      `| ${mdCode(r.id, true)} | ${r.inputs} | ${r.requests} (${r.charging}) | ${r.covered} of ${r.of} | ${mdText(r.missing.join('; '))} |`,
    );
  out.push('', '</details>');
  return out;
}

/** --under-load: the cases whose status differs between the idle pass and the pass under load (#33). */
function underLoadMarkdown(report: RunReport): string[] {
  const u = report.conformance?.underLoad;
  if (u === undefined) return [];
  const load = `${u.load.scenario}/${u.load.profile}`;
  const out = ['', `### Under load (${mdText(load)})`, ''];
  out.push(
    `- ${u.compared} cases compared between the idle pass and the pass under load; the load ran ${Math.round(u.load.durationMs / 1000)} s`,
  );
  for (const c of u.failsOnlyUnderLoad) {
    const first = c.failures.find((f) => f.severity === 'error');
    const why = first === undefined ? '' : `: ${mdCode(first.check)} ${mdText(first.message)}`;
    out.push(`- **${mdText(c.id)}** fails only under load — ${mdText(c.title)}${why}`);
  }
  for (const c of u.passesOnlyUnderLoad) out.push(`- **${mdText(c.id)}** passes only under load (failed idle) — ${mdText(c.title)}`);
  if (u.failsOnlyUnderLoad.length === 0 && u.passesOnlyUnderLoad.length === 0) out.push('- no case differs');
  for (const note of u.notes) out.push(`- ${mdText(note)}`);
  for (const c of u.notVerified ?? []) out.push(`- ${mdText(c.id)} not verified under load: ${mdText(c.reason)}`);
  return out;
}

/** The verdict line first (`head -1 summary.md`), then the run's identity, an interruption or error, and each part's verdict. */
function headerMarkdown(report: RunReport): string[] {
  const out: string[] = [];
  out.push(`## ${VERDICT_EMOJI[report.verdict]} ${mdText(report.verdictLine)}`);
  out.push('');
  const t = report.target;
  out.push(
    `**gateway-harness ${mdText(report.command)}** · run ${mdCode(report.runId)} · target ${mdCode(t.url)} (${t.embedded ? 'embedded ' : ''}${t.environment}${t.profile === undefined ? '' : `, profile ${mdText(t.profile)}`}, API ${t.api}, time scale ${t.timeScale}) · ${formatMs(report.durationMs)} · exit ${report.exitCode}`,
  );
  if (report.interruption !== undefined) {
    out.push(
      '',
      `> **Interrupted** ${mdText(interruptionText(report.interruption))}. Every figure below is partial: the run did not finish.`,
    );
  }
  if (report.error !== undefined) {
    out.push('', `> **${mdText(report.error.code)}**: ${mdText(report.error.message)}`);
  }
  if (report.parts.length > 0) {
    out.push('', '| Part | Verdict | Result |', '|---|---|---|');
    for (const part of report.parts)
      out.push(`| ${part.section} | ${VERDICT_EMOJI[part.verdict]} ${VERDICT_WORD[part.verdict]} | ${mdText(part.line)} |`);
  }
  return out;
}

/** The load run: its request figures, thresholds, remote write, setup, failing and never-run checks, payload checks. */
function loadMarkdown(load: LoadSection | undefined): string[] {
  if (load === undefined) return [];
  const out = ['', `### ${mdText(loadLabel(load))}`, ''];
  const p95 = load.metrics.http_req_duration?.values['p(95)'];
  out.push(
    `${formatCount(load.requests.count)} requests (${load.requests.rate.toFixed(1)}/s)` +
      `${load.requests.failedRate === undefined ? '' : `, ${(load.requests.failedRate * 100).toFixed(2)}% HTTP failures`}` +
      `${p95 === undefined ? '' : `, p95 ${formatMs(p95)}`}, ${formatMs(load.durationMs)}`,
  );
  const accuracy = load.generator?.accuracy;
  if (accuracy !== undefined) out.push('', `- ${accuracy.withinGoal ? '🎯' : '⚠️'} ${mdText(accuracyText(accuracy))}`);
  out.push(...thresholdsMarkdown(load.thresholds));
  if (load.remoteWrite !== undefined)
    out.push('', `- ${load.remoteWrite.failedPushes > 0 ? '⚠️' : '📡'} ${mdText(remoteWriteLine(load.remoteWrite))}`);
  if (load.setupCompleted === false)
    out.push('', '- ⛔ setup() did not complete: the target could not be used (its catalog could not be read)');
  const failing = load.checks.filter((c) => c.fails > 0);
  for (const c of failing)
    out.push(`- ❌ check ${mdCode(c.name)} failed ${formatCount(c.fails)} of ${formatCount(c.passes + c.fails)} times`);
  for (const c of load.checks.filter((x) => x.passes + x.fails === 0)) out.push(`- ⚪ check ${mdCode(c.name)} never ran (not verified)`);
  out.push(...payloadChecksMarkdown(load.payloadChecks));
  return out;
}

type Comparison = NonNullable<RunReport['comparison']>;

/** A table ready for a PR comment: regressions first (the section keeps them first), the p95 and failure rates. */
function comparisonMarkdown(comparison: Comparison | undefined): string[] {
  if (comparison === undefined) return [];
  const out = ['', '### Comparison with the baseline', ''];
  out.push(`- baseline: ${mdText(comparedRunText(comparison.baseline))}`, `- candidate: ${mdText(comparedRunText(comparison.candidate))}`);
  for (const note of comparison.notes) out.push(`- ${mdText(note)}`);
  out.push(
    '',
    '| Operation | Verdict | p95 baseline → candidate [CI] | p95 change | Business failures | HTTP failures |',
    '|---|---|---|---|---|---|',
  );
  for (const o of [...comparison.operations, comparison.overall]) out.push(comparisonRow(o));
  out.push('', `_${mdText(settingsText(comparison))}. ${mdText(comparison.settings.method)}._`);
  return out;
}

function comparisonRow(o: Comparison['overall']): string {
  const p95 = o.latency.p95;
  const rate = (s: typeof o.businessFailureRate): string =>
    `${estimateText(s.baseline, 'rate')} → ${estimateText(s.candidate, 'rate')}${s.status === 'regression' || s.status === 'improvement' ? ` (${changeText(s, 'rate')})` : ''}`;
  return `| ${mdCode(o.operation, true)} | ${operationVerdictText(o.verdict)} | ${mdText(`${estimateText(p95.baseline, 'ms')} → ${estimateText(p95.candidate, 'ms')}`)} | ${mdText(changeText(p95, 'ms'))} | ${mdText(rate(o.businessFailureRate))} | ${mdText(rate(o.httpFailureRate))} |`;
}

/** Breaking drift findings and migration regressions: what changed for a client of the gateway. */
function driftAndMigrationMarkdown(report: RunReport): string[] {
  const out: string[] = [];
  const breaking = (report.drift?.findings ?? []).filter((f) => f.kind === 'breaking');
  if (breaking.length > 0) {
    out.push('', `### Breaking drift (${breaking.length})`, '');
    for (const f of breaking.slice(0, MAX_FAILURES))
      out.push(`- ${mdCode(f.operationId)} ${mdCode(f.path)} ${mdText(f.change)}: ${mdText(f.detail)}`);
  }
  const regressions = (report.migration?.pairs ?? []).filter((p) => p.regression);
  if (regressions.length > 0) {
    out.push('', `### Migration regressions (${regressions.length})`, '');
    for (const p of regressions.slice(0, MAX_FAILURES)) {
      out.push(
        `- ${mdText(p.purpose)} (${mdCode(p.v1)} → ${mdCode(p.v2)}): v1 ${p.v1Outcome}, v2 ${p.v2Outcome}${p.regressionReason === undefined ? '' : ` — ${mdText(p.regressionReason)}`}`,
      );
    }
  }
  return out;
}

/** The run's money (ledger), the faults it saw, first contact, the parts that did not run and what was not verified. */
function runNotesMarkdown(report: RunReport): string[] {
  const out: string[] = [];
  if (report.ledger !== undefined) {
    const refused = report.ledger.refused ? `, ${formatCount(report.ledger.refused)} charging requests not sent` : '';
    const cap = report.ledger.spendCap === undefined ? refused : `; spend cap ${formatCharged([report.ledger.spendCap])}${refused}`;
    out.push('', `Ledger: ${formatCount(report.ledger.entries)} charging requests, charged ${formatCharged(report.ledger.charged)}${cap}.`);
  }
  if (report.faults !== undefined && report.faults.total > 0) {
    // Conformance provokes client timeouts on purpose; said only where a conformance section is there to have done so.
    const provoked = report.conformance === undefined ? '' : '; conformance provokes client timeouts on purpose';
    out.push(
      '',
      `Faults seen (responses that were no gateway answer, each judged by the section that saw it${provoked}): ${faultLine(report.faults)}.`,
    );
  }
  if (report.firstContact !== undefined) out.push('', firstContactLine(report.firstContact));
  for (const n of report.notRun ?? []) out.push('', `- ⏭️ ${mdText(n.part)} did not run: ${mdText(n.reason)}`);
  if (report.skipped.length > 0) {
    out.push('', `### Not verified (${report.skipped.length})${report.allowSkips ? ' — accepted with --allow-skips' : ''}`, '');
    for (const s of report.skipped.slice(0, MAX_FAILURES)) out.push(`- ${s.section} ${mdCode(s.id)}: ${mdText(s.reason)}`);
    if (report.skipped.length > MAX_FAILURES) out.push(`- … and ${report.skipped.length - MAX_FAILURES} more`);
  }
  return out;
}

/** Cut below the PR comment cap at a line's end, with a note saying where the rest is. */
function capped(text: string): string {
  if (text.length <= MAX_MARKDOWN_CHARS) return text;
  const note = '\n\n… (truncated: see report.html for everything)\n';
  return text.slice(0, MAX_MARKDOWN_CHARS - note.length).replace(/\n[^\n]*$/, '') + note;
}

export function renderSummaryMarkdown(report: RunReport, options: { readonly reportHtml?: string } = {}): string {
  const out = [
    ...headerMarkdown(report),
    ...failedCasesMarkdown(report),
    ...genCoverageMarkdown(report),
    ...underLoadMarkdown(report),
    ...loadMarkdown(report.load),
    ...comparisonMarkdown(report.comparison),
    ...driftAndMigrationMarkdown(report),
    ...runNotesMarkdown(report),
    '',
    `Full report: ${mdCode(options.reportHtml ?? 'report.html')} (open it from the report artifact; it works offline). Machine-readable: ${mdCode('summary.json')} (schema ${report.schemaVersion}), ${mdCode('junit.xml')}.`,
  ];
  return capped(`${out.join('\n')}\n`);
}
