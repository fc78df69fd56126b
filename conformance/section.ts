// Turns the conformance runner's RunResult into the report's conformance section (and a whole report), with counts
// per status and group, every case and failure, and each failing request redacted once more on the way in. It lives with
// conformance, as drift/, migrate/ and ledger/ keep theirs: reports/ knows sections by the schema, never a runner.
import { redactHeaders, redactUrl, scrubDistinctiveSecrets } from '../api/redact.ts';
import { CASE_GROUPS, type CaseResult, type Failure, type RequestEcho, type RunResult } from './types.ts';
import { combineVerdicts, verdictOfCases } from '../reports/verdict.ts';
import { assembleReport, type ReportInput } from '../reports/assemble.ts';
import { redactBasicCredentials } from '../reports/redact-report.ts';
import type { CaseCountsReport, ConformanceSection, ReportCase, ReportFailure, ReportRequest, RunReport } from '../reports/model.ts';

export interface ConformanceSectionOptions {
  /** Skips accepted (--allow-skips): a skip then no longer makes the section incomplete (never a pass by itself). */
  readonly allowSkips?: boolean;
  /** Secrets to scrub from every text (password, user, Basic token); headers are redacted whatever this says. */
  readonly secrets?: readonly string[];
}

function emptyCounts(): CaseCountsReport {
  return { total: 0, passed: 0, failed: 0, skipped: 0 };
}

function count(counts: CaseCountsReport, status: CaseResult['status']): void {
  counts.total += 1;
  counts[status] += 1;
}

function requestOf(echo: RequestEcho, secrets: readonly string[]): ReportRequest {
  const body = echo.body;
  const clean = (text: string): string => scrubDistinctiveSecrets(redactBasicCredentials(text), secrets);
  return {
    operationId: echo.operationId,
    method: echo.method,
    url: clean(redactUrl(echo.url)),
    headers: Object.fromEntries(Object.entries(redactHeaders(echo.headers)).map(([k, v]) => [k, clean(v)])),
    ...(body === undefined
      ? {}
      : body !== null && typeof body === 'object' && !Array.isArray(body)
        ? { body: body as Record<string, unknown> }
        : { body: typeof body === 'string' ? clean(body) : JSON.stringify(body) }),
  };
}

function failureOf(failure: Failure, secrets: readonly string[]): ReportFailure {
  return {
    check: failure.check,
    operation: failure.operation,
    severity: failure.severity,
    message: failure.message,
    expected: failure.expected,
    received: failure.received,
    ...(failure.request === undefined ? {} : { request: requestOf(failure.request, secrets) }),
  };
}

function caseOf(result: CaseResult, secrets: readonly string[]): ReportCase {
  return {
    id: result.id,
    group: result.group,
    title: result.title,
    api: result.api,
    specSection: result.specSection,
    rule: result.rule,
    assumed: [...result.assumed],
    status: result.status,
    ...(result.skipReason === undefined ? {} : { skipReason: result.skipReason }),
    durationMs: Math.max(0, result.durationMs),
    requests: result.requests,
    ...(result.gen === undefined ? {} : { gen: { ...result.gen, space: [...result.gen.space], covered: [...result.gen.covered] } }),
    failures: result.failures.map((f) => failureOf(f, secrets)),
    notes: [...result.notes],
  };
}

function drainOf(run: RunResult): ConformanceSection['drain'] {
  const drain = run.drain;
  if (drain === undefined) return undefined;
  return {
    submitted: drain.submitted,
    pendingAtBoundary: drain.pendingAtBoundary,
    waitedMs: Math.max(0, drain.waitedMs),
    unresolved: drain.unresolved.map((u) => ({
      caseId: u.caseId,
      operationId: u.operationId,
      ...(u.correlationId === undefined ? {} : { correlationId: u.correlationId }),
      outcome: u.outcome,
    })),
  };
}

/**
 * The conformance section. Verdict: reports/verdict.ts `verdictOfCases` (a failure fails; skips never pass; nothing
 * passed is incomplete), and a transaction still not final after the drain leaves it incomplete like a skip.
 */
export function conformanceSection(run: RunResult, options: ConformanceSectionOptions = {}): ConformanceSection {
  const secrets = options.secrets ?? [];
  const counts = emptyCounts();
  const groups = new Map<string, CaseCountsReport>();
  // Groups in the suite's own order, then any group the catalog does not list (a newer suite), in order of appearance.
  for (const group of CASE_GROUPS) groups.set(group, emptyCounts());
  for (const c of run.cases) {
    count(counts, c.status);
    let g = groups.get(c.group);
    if (g === undefined) groups.set(c.group, (g = emptyCounts()));
    count(g, c.status);
  }
  const allowSkips = options.allowSkips ?? false;
  const drain = drainOf(run);
  const unresolved = (drain?.unresolved.length ?? 0) > 0 && !allowSkips ? 'incomplete' : 'pass';
  return {
    verdict: combineVerdicts([verdictOfCases(counts, { allowSkips }), unresolved]),
    durationMs: Math.max(0, run.durationMs),
    counts,
    groups: [...groups].filter(([, c]) => c.total > 0).map(([group, c]) => ({ group, counts: c })),
    cases: run.cases.map((c) => caseOf(c, secrets)),
    ...(drain === undefined ? {} : { drain }),
  };
}

export type ConformanceReportMeta = Omit<ReportInput, 'conformance' | 'startedAt' | 'durationMs' | 'command'> &
  Partial<Pick<ReportInput, 'startedAt' | 'durationMs' | 'command'>> & { readonly secrets?: readonly string[] };

/** A whole report of a conformance run (command `conformance` unless told). Times default to the run's own. */
export function fromConformanceRun(run: RunResult, meta: ConformanceReportMeta): RunReport {
  const { secrets, ...rest } = meta;
  return assembleReport({
    command: 'conformance',
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    ...rest,
    conformance: conformanceSection(run, { allowSkips: meta.allowSkips ?? false, ...(secrets === undefined ? {} : { secrets }) }),
  });
}
