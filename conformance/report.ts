// The run's verdict and its reports (summary.json, junit.xml), built from the runner's own results and measured times.
// One entry point, writeConformanceReports(dir, result, meta), so a unified gate report can replace the writers in one place.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { junitXml, type JUnitCase } from '../reports/junit-xml.ts';
import { combineVerdicts, verdictOfCases, VERDICT_WORD, type Verdict } from '../reports/verdict.ts';
import type { DrainReport } from './transactions.ts';
import { CASE_GROUPS, type CaseResult, type CaseStatus, type Failure, type RunResult } from './types.ts';

export const SUMMARY_FILE = 'summary.json';
export const JUNIT_FILE = 'junit.xml';

export interface SummaryMeta {
  readonly runId: string;
  /** Base URL without credentials, or "embedded sandbox (http://127.0.0.1:PORT, profile P)". */
  readonly target: string;
  readonly timeScale: number;
  readonly api: string;
  readonly grep?: string;
  /** Skips (and unresolved transactions) were accepted: they no longer make the run incomplete. */
  readonly allowSkips: boolean;
  readonly timeouts: { readonly requestMs: number; readonly pollIntervalMs: number; readonly pollDeadlineMs: number };
}

export interface Counts {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
}

/** What a conformance command produced: a run, or the one reason the target could not be used at all. */
export type ConformanceOutcome = { readonly kind: 'run'; readonly run: RunResult } | { readonly kind: 'unusable'; readonly reason: string; readonly startedAt: number; readonly durationMs: number };

export interface Summary {
  /** First, as on the command's first line. */
  readonly verdict: Verdict;
  readonly headline: string;
  readonly allowSkips: boolean;
  readonly runId: string;
  readonly target: string;
  readonly timeScale: number;
  readonly api: string;
  readonly grep?: string;
  readonly timeouts: SummaryMeta['timeouts'];
  readonly startedAt: string;
  readonly durationMs: number;
  /** Present when the target could not be used (verdict unusable): no case ran. */
  readonly unusable?: string;
  readonly counts: Counts;
  readonly groups: Readonly<Record<string, Counts>>;
  readonly drain?: DrainReport;
  readonly failures: ReadonlyArray<Failure & { readonly title: string; readonly specSection: string; readonly rule: string }>;
  readonly skipped: ReadonlyArray<{ readonly caseId: string; readonly reason: string }>;
  readonly cases: ReadonlyArray<{
    readonly id: string;
    readonly group: string;
    readonly status: CaseStatus;
    readonly startedAt: string;
    readonly durationMs: number;
    readonly requests: number;
    readonly assumed: readonly string[];
    readonly notes: readonly string[];
  }>;
}

function emptyCounts(): Counts {
  return { total: 0, passed: 0, failed: 0, skipped: 0 };
}

export function countCases(cases: readonly CaseResult[]): Counts {
  const counts = emptyCounts();
  for (const c of cases) {
    counts.total += 1;
    counts[c.status] += 1;
  }
  return counts;
}

function unresolvedOf(run: RunResult): number {
  return run.drain?.unresolved.length ?? 0;
}

/**
 * The verdict of a run: `verdictOfCases` (a failure fails; a skip leaves it incomplete unless accepted; nothing
 * passed is never a pass), and a transaction still not final after the drain leaves it incomplete like a skip.
 */
export function verdictOfRun(run: RunResult, allowSkips: boolean): Verdict {
  const cases = verdictOfCases(countCases(run.cases), { allowSkips });
  const unresolved = unresolvedOf(run) > 0 && !allowSkips ? 'incomplete' : 'pass';
  return combineVerdicts([cases, unresolved]);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The verdict as one line: the command's first line of output and summary.json's `headline`. */
export function headline(outcome: ConformanceOutcome, meta: SummaryMeta): string {
  if (outcome.kind === 'unusable') return `conformance: ${VERDICT_WORD.unusable} — ${outcome.reason}`;
  const run = outcome.run;
  const verdict = verdictOfRun(run, meta.allowSkips);
  const c = countCases(run.cases);
  const unresolved = unresolvedOf(run);
  const parts: string[] = [];
  if (c.failed > 0) parts.push(`${c.failed} of ${plural(c.total, 'case')} failed`);
  if (c.passed === 0 && c.failed === 0) parts.push(`no case passed (0 of ${c.total}): nothing was verified`);
  else if (c.failed === 0 && c.skipped === 0) parts.push(`all ${plural(c.total, 'case')} passed`);
  else parts.push(`${c.passed} of ${c.total} passed`);
  if (c.skipped > 0) parts.push(`${c.skipped} skipped (not verified${meta.allowSkips ? '; accepted with --allow-skips' : ''})`);
  if (unresolved > 0) parts.push(`${plural(unresolved, 'transaction')} not final after the drain (not verified${meta.allowSkips ? '; accepted with --allow-skips' : ''})`);
  const tail = `${(run.durationMs / 1000).toFixed(1)} s against ${meta.target}, time scale ${meta.timeScale}, api ${meta.api}`;
  return `conformance: ${VERDICT_WORD[verdict]} — ${parts.join(', ')}; ${tail}`;
}

export function buildSummary(outcome: ConformanceOutcome, meta: SummaryMeta): Summary {
  const head = {
    verdict: outcome.kind === 'unusable' ? ('unusable' as const) : verdictOfRun(outcome.run, meta.allowSkips),
    headline: headline(outcome, meta),
    allowSkips: meta.allowSkips,
    runId: meta.runId,
    target: meta.target,
    timeScale: meta.timeScale,
    api: meta.api,
    ...(meta.grep === undefined ? {} : { grep: meta.grep }),
    timeouts: meta.timeouts,
  };
  if (outcome.kind === 'unusable') {
    return {
      ...head,
      startedAt: new Date(outcome.startedAt).toISOString(),
      durationMs: outcome.durationMs,
      unusable: outcome.reason,
      counts: emptyCounts(),
      groups: {},
      failures: [],
      skipped: [],
      cases: [],
    };
  }
  const run = outcome.run;
  const groups: Record<string, Counts> = {};
  for (const group of CASE_GROUPS) {
    const inGroup = run.cases.filter((c) => c.group === group);
    if (inGroup.length > 0) groups[group] = countCases(inGroup);
  }
  return {
    ...head,
    startedAt: new Date(run.startedAt).toISOString(),
    durationMs: run.durationMs,
    counts: countCases(run.cases),
    groups,
    ...(run.drain === undefined ? {} : { drain: run.drain }),
    failures: run.cases.flatMap((c) => c.failures.map((f) => ({ ...f, title: c.title, specSection: c.specSection, rule: c.rule }))),
    skipped: run.cases.filter((c) => c.status === 'skipped').map((c) => ({ caseId: c.id, reason: c.skipReason ?? '' })),
    cases: run.cases.map((c) => ({
      id: c.id,
      group: c.group,
      status: c.status,
      startedAt: new Date(c.startedAt).toISOString(),
      durationMs: c.durationMs,
      requests: c.requests,
      assumed: c.assumed,
      notes: c.notes,
    })),
  };
}

/** One failure as indented lines: the check, expected vs received, and the request (credentials redacted). */
export function formatFailure(failure: Failure, indent = '  '): string {
  const lines = [
    `${indent}[${failure.check}]${failure.severity === 'warning' ? ' (warning)' : ''} ${failure.operation === '' ? '' : `${failure.operation}: `}${failure.message}`,
    `${indent}  expected: ${failure.expected}`,
    `${indent}  received: ${failure.received}`,
  ];
  if (failure.request !== undefined) {
    const r = failure.request;
    lines.push(`${indent}  request:  ${r.method} ${r.url}`);
    const headers = Object.entries(r.headers).map(([k, v]) => `${k}: ${v}`).join('; ');
    if (headers !== '') lines.push(`${indent}            ${headers}`);
    if (r.body !== undefined) lines.push(`${indent}            ${JSON.stringify(r.body)}`);
  }
  return lines.join('\n');
}

/** A failed case's full explanation (the command's failure list and the JUnit failure text). */
export function formatCaseFailure(result: CaseResult): string {
  const errors = result.failures.filter((f) => f.severity === 'error');
  return [
    `${result.id}: ${result.title}`,
    `  rule (${result.specSection}): ${result.rule}`,
    ...(result.assumed.length > 0 ? [`  assumed: ${result.assumed.join('; ')}`] : []),
    ...errors.map((f) => formatFailure(f, '  ')),
  ].join('\n');
}

function junitCase(c: CaseResult): JUnitCase {
  const errors = c.failures.filter((f) => f.severity === 'error');
  const warnings = c.failures.filter((f) => f.severity === 'warning');
  const out = [...c.notes, ...warnings.map((f) => formatFailure(f, ''))].join('\n');
  const base = {
    name: `${c.id} ${c.title}`,
    classname: c.group,
    // Measured by the runner around the case itself: its real wall time, waits included.
    timeSec: c.durationMs / 1000,
    properties: { specSection: c.specSection, api: c.api, requests: String(c.requests), ...(c.assumed.length > 0 ? { assumed: c.assumed.join('; ') } : {}) },
    ...(out === '' ? {} : { systemOut: out }),
  };
  if (c.status === 'failed') {
    const first = errors[0];
    return { ...base, status: 'failed', message: first?.message ?? 'failed', type: first?.check ?? 'failed', details: formatCaseFailure(c) };
  }
  if (c.status === 'skipped') return { ...base, status: 'skipped', message: `not verified: ${c.skipReason ?? ''}` };
  return { ...base, status: 'passed' };
}

/** junit.xml: one suite, one testcase per case id (classname = group), real durations; the verdict in the properties. */
export function buildJunit(outcome: ConformanceOutcome, meta: SummaryMeta): string {
  const summary = buildSummary(outcome, meta);
  const startedAt = outcome.kind === 'run' ? outcome.run.startedAt : outcome.startedAt;
  const durationMs = outcome.kind === 'run' ? outcome.run.durationMs : outcome.durationMs;
  const cases: JUnitCase[] =
    outcome.kind === 'run'
      ? outcome.run.cases.map(junitCase)
      : [{ name: 'PREFLIGHT target usable', classname: 'PREFLIGHT', timeSec: durationMs / 1000, status: 'error', message: outcome.reason, type: 'GH_ERR_TARGET' }];
  return junitXml([
    {
      name: 'conformance',
      timestamp: new Date(startedAt).toISOString().replace(/\.\d+Z$/, ''),
      timeSec: durationMs / 1000,
      properties: {
        verdict: VERDICT_WORD[summary.verdict],
        headline: summary.headline,
        allowSkips: String(meta.allowSkips),
        skipped: String(summary.counts.skipped),
        target: meta.target,
        timeScale: String(meta.timeScale),
        api: meta.api,
        runId: meta.runId,
      },
      cases,
    },
  ]);
}

/**
 * Writes every report of a conformance run into `dir` and returns their paths. The one place report writing happens:
 * the unified gate report replaces the writers here.
 */
export function writeConformanceReports(dir: string, outcome: ConformanceOutcome, meta: SummaryMeta): { readonly summary: string; readonly junit: string } {
  mkdirSync(dir, { recursive: true });
  const summary = join(dir, SUMMARY_FILE);
  const junit = join(dir, JUNIT_FILE);
  writeFileSync(summary, `${JSON.stringify(buildSummary(outcome, meta), null, 2)}\n`);
  writeFileSync(junit, buildJunit(outcome, meta));
  return { summary, junit };
}
