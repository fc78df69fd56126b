// The run's summary (summary.json) and the text shown for a failure: expected vs received plus the redacted request.
// The vitest suite writes the summary; the command prints from it, so both show the same ids and texts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
  readonly timeouts: { readonly requestMs: number; readonly pollIntervalMs: number; readonly pollDeadlineMs: number };
}

export interface Counts {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
}

export interface Summary extends SummaryMeta {
  readonly startedAt: string;
  readonly durationMs: number;
  readonly counts: Counts;
  readonly groups: Readonly<Record<string, Counts>>;
  readonly failures: ReadonlyArray<Failure & { readonly title: string; readonly specSection: string; readonly rule: string }>;
  readonly skipped: ReadonlyArray<{ readonly caseId: string; readonly reason: string }>;
  readonly cases: ReadonlyArray<{
    readonly id: string;
    readonly status: CaseStatus;
    readonly durationMs: number;
    readonly requests: number;
    readonly assumed: readonly string[];
    readonly notes: readonly string[];
  }>;
}

function emptyCounts(): Counts {
  return { total: 0, passed: 0, failed: 0, skipped: 0 };
}

function add(counts: Counts, status: CaseStatus): void {
  counts.total += 1;
  counts[status] += 1;
}

export function buildSummary(run: RunResult, meta: SummaryMeta): Summary {
  const counts = emptyCounts();
  const groups: Record<string, Counts> = {};
  for (const group of CASE_GROUPS) groups[group] = emptyCounts();
  for (const c of run.cases) {
    add(counts, c.status);
    add(groups[c.group] ?? (groups[c.group] = emptyCounts()), c.status);
  }
  for (const group of Object.keys(groups)) if (groups[group]?.total === 0) delete groups[group];
  return {
    ...meta,
    startedAt: new Date(run.startedAt).toISOString(),
    durationMs: run.durationMs,
    counts,
    groups,
    failures: run.cases.flatMap((c) => c.failures.map((f) => ({ ...f, title: c.title, specSection: c.specSection, rule: c.rule }))),
    skipped: run.cases.filter((c) => c.status === 'skipped').map((c) => ({ caseId: c.id, reason: c.skipReason ?? '' })),
    cases: run.cases.map((c) => ({ id: c.id, status: c.status, durationMs: c.durationMs, requests: c.requests, assumed: c.assumed, notes: c.notes })),
  };
}

export function writeSummary(dir: string, summary: Summary): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, SUMMARY_FILE);
  writeFileSync(path, `${JSON.stringify(summary, null, 2)}\n`);
  return path;
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

/** A failed case's full explanation (the vitest assertion message and the command's failure list). */
export function formatCaseFailure(result: CaseResult): string {
  const errors = result.failures.filter((f) => f.severity === 'error');
  return [
    `${result.id}: ${result.title}`,
    `  rule (${result.specSection}): ${result.rule}`,
    ...(result.assumed.length > 0 ? [`  assumed: ${result.assumed.join('; ')}`] : []),
    ...errors.map((f) => formatFailure(f, '  ')),
  ].join('\n');
}
