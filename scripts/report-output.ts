// How every command that judges a gateway ends: its report set written through reports/ (summary.json, junit.xml,
// summary.md, report.html), the verdict line first on stdout, what needs reading, then where the reports are.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EXIT, HarnessError, isHarnessError } from '../api/errors.ts';
import { printable } from '../api/printable.ts';
import { CONFIG_DEFAULTS } from '../api/target-config.ts';
import { caseFailureText } from '../reports/junit-report.ts';
import { LEDGER_FILE } from '../ledger/entry.ts';
import { assembleReport, type ReportInput } from '../reports/assemble.ts';
import { watchInterrupts, type RunInterrupt } from '../reports/interrupt-watch.ts';
import { reconcileCommand } from '../reports/interruption.ts';
import { REPORT_FILES, type RunReport } from '../reports/model.ts';
import { makeDirectory } from '../reports/make-dir.ts';
import { createProgress, type Progress } from '../reports/progress.ts';
import { credentialSecrets, redactReport } from '../reports/redact-report.ts';
import { formatCount, formatObserved, loadProblems } from '../reports/sections.ts';
import { VERDICT_WORD } from '../reports/verdict.ts';
import { writeReports, type WrittenReports } from '../reports/write.ts';

/**
 * The secrets to scrub from every report and line: the password, `user:password` and its Basic token (each scrubbed as
 * a substring only where distinctive: api/redact.ts). The embedded sandbox's public defaults (user/pass) are no secrets.
 */
export function reportSecrets(config: { readonly user: string; readonly password: string }): string[] {
  if (config.user === CONFIG_DEFAULTS.user && config.password === CONFIG_DEFAULTS.password) return [];
  return credentialSecrets(config.user, config.password);
}

/** The run's report directory (default reports/out/<run-id>/), created now so a bad --report-dir stops before any work. */
export function prepareReportDir(option: string | undefined, runId: string, cwd = process.cwd()): string {
  const dir = option === undefined ? join(cwd, 'reports', 'out', runId) : resolve(cwd, option);
  try {
    makeDirectory(dir);
  } catch (error) {
    throw new HarnessError('GH_ERR_USAGE', `--report-dir: cannot create ${dir} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return dir;
}

/** Progress on stderr (stdout stays for results): live on a terminal, timestamped lines otherwise. */
export function commandProgress(): Progress {
  return createProgress({ stream: process.stderr });
}

function colourful(): boolean {
  return process.stdout.isTTY === true && process.env.NO_COLOR === undefined && process.env.TERM !== 'dumb';
}

/** The verdict line with its word coloured on a terminal (never in a pipe or a CI log). */
export function paintVerdictLine(report: Pick<RunReport, 'verdict' | 'verdictLine'>, colour = colourful()): string {
  if (!colour) return report.verdictLine;
  const word = VERDICT_WORD[report.verdict];
  const sgr =
    report.verdict === 'pass' ? '\u001b[32m' : report.verdict === 'fail' || report.verdict === 'unusable' ? '\u001b[31m' : '\u001b[33m';
  return report.verdictLine.replace(word, `${sgr}${word}\u001b[0m`);
}

/** "reports: /dir/report.html, /dir/summary.md, ..." (the page people open first). */
export function reportsLine(written: WrittenReports): string {
  const order = ['reportHtml', 'summaryMd', 'junitXml', 'summaryJson'] as const;
  return `reports: ${order
    .map((kind) => written.paths[kind])
    .filter((p): p is string => p !== undefined)
    .join(', ')}`;
}

const indent = (text: string, prefix = '    '): string =>
  text
    .split('\n')
    .map((line) => (line === '' ? line : prefix + line))
    .join('\n');

/**
 * What needs reading after the verdict, from the (redacted) report: every failed conformance case with its spec rule,
 * expected vs received and the request; crossed load thresholds and failed checks; drift findings; migration
 * regressions; and everything that was not verified.
 */
export function reportDetails(report: RunReport): string[] {
  const out: string[] = [];
  const block = (title: string, lines: readonly string[]): void => {
    if (lines.length > 0) out.push('', title, ...lines);
  };
  const failed = (report.conformance?.cases ?? []).filter((c) => c.status === 'failed');
  block(
    `Failed conformance cases (${failed.length}):`,
    failed.map((c) => `  ${c.id}: ${c.title}\n${indent(caseFailureText(c))}`),
  );
  if (report.load !== undefined) {
    const p = loadProblems(report.load);
    // A setup that could not use the target explains everything else of the run: said alone.
    block(
      `Load ${report.load.scenario}/${report.load.profile}:`,
      p.unusable
        ? ['  setup() did not complete: the target could not be used (its catalog could not be read)']
        : [
            ...p.crossed.map(
              (t) =>
                `  threshold crossed: ${t.metric} ${t.expression}${t.observed === undefined ? '' : ` (observed ${formatObserved(t.observed, t.metric)})`}`,
            ),
            ...p.failedChecks.map((c) => `  check failed: ${c.name} (${formatCount(c.fails)} of ${formatCount(c.passes + c.fails)})`),
            ...p.unverified.map((t) => `  threshold unverified (no sample): ${t.metric} ${t.expression}`),
            ...p.neverRan.map((c) => `  check never ran: ${c.name}`),
          ],
    );
  }
  const compared = (report.comparison?.operations ?? []).filter((o) => o.verdict === 'regression');
  block(
    `Comparison regressions (${compared.length}):`,
    compared.map((o) => `  ${o.operation}: ${o.reasons.filter((r) => r.startsWith('regression')).join('; ')}`),
  );
  const findings = report.drift?.findings ?? [];
  block(
    `Drift findings (${findings.length}):`,
    findings.map((f) => `  ${f.kind === 'breaking' ? 'BREAKING    ' : 'non-breaking'} ${f.operationId} ${f.path} ${f.change}: ${f.detail}`),
  );
  const regressions = (report.migration?.pairs ?? []).filter((p) => p.regression);
  block(
    `Migration regressions (${regressions.length}):`,
    regressions.map(
      (p) => `  ${p.purpose}: v1 ${p.v1Outcome}, v2 ${p.v2Outcome}${p.regressionReason === undefined ? '' : ` (${p.regressionReason})`}`,
    ),
  );
  block(
    `Not verified (${report.skipped.length})${report.allowSkips ? ', accepted with --allow-skips' : ''}:`,
    report.skipped.map((s) => `  ${s.section} ${s.id}: ${s.reason}`),
  );
  return out;
}

export interface FinishOptions {
  readonly secrets: readonly string[];
  /** The command's own lines after the report's details (e.g. every migration pair); free of credentials. */
  readonly extra?: readonly string[];
  /** Said at the end of the verdict line (and so in every report file), e.g. that the target's config was discovered first. */
  readonly verdictNote?: string;
}

/**
 * writeReports; when the disk is full the verdict is still known: its line goes to stdout, then the disk-full error
 * (naming the directory and the files not written) ends the command with the verdict's exit code, 1 at least.
 */
function writeKeepingVerdict(report: RunReport, dir: string, secrets: readonly string[]): WrittenReports {
  try {
    return writeReports(report, dir, { secrets });
  } catch (error) {
    if (!isHarnessError(error) || error.code !== 'GH_ERR_DISK_FULL') throw error;
    const clean = redactReport(report, secrets);
    process.stdout.write(`${[paintVerdictLine(clean), printable(reportDetails(clean).join('\n'))].join('\n')}\n`);
    throw new HarnessError(error.code, error.message, { exitCode: Math.max(clean.exitCode, EXIT.checkFailed), cause: error });
  }
}

/** Writes the report set, then prints the verdict line first, the details and the report paths; returns the exit code. */
export function finishRun(
  given: RunReport,
  dir: string,
  options: FinishOptions,
): { readonly exitCode: number; readonly written: WrittenReports } {
  const report = options.verdictNote === undefined ? given : { ...given, verdictLine: `${given.verdictLine}; ${options.verdictNote}` };
  const written = writeKeepingVerdict(report, dir, options.secrets);
  // The verdict line may be painted (its colours are the harness's own); every other line is shown escaped.
  const lines = reportDetails(written.report);
  if (options.extra !== undefined && options.extra.length > 0) lines.push('', ...options.extra);
  lines.push('', reportsLine(written));
  process.stdout.write(`${[paintVerdictLine(written.report), printable(lines.join('\n'))].join('\n')}\n`);
  return { exitCode: written.report.exitCode, written };
}

/**
 * A target that cannot be used ends the command with one line (exit 2); its reports are still written and say so.
 * Returns the error to throw (the CLI prints it as `gateway-harness: GH_ERR_TARGET: reason (reports: dir)`).
 */
export function unusableTarget(report: RunReport, dir: string, secrets: readonly string[]): HarnessError {
  const written = writeReports(report, dir, { secrets });
  return new HarnessError(
    'GH_ERR_TARGET',
    `${written.report.error?.message ?? written.report.verdictLine} (reports: ${join(dir, REPORT_FILES.reportHtml)})`,
    {
      exitCode: 2,
    },
  );
}

export interface InterruptWatchOptions {
  readonly command: string;
  readonly runId: string;
  readonly reportDir: string;
  readonly startedAt: number;
  /** As far as the command knows it before the run (an embedded sandbox's URL is known only inside the run). */
  readonly target: ReportInput['target'];
  readonly secrets: readonly string[];
  /** Progress on stderr: the first signal's line goes there. */
  readonly progress?: Progress;
}

/** Who ran a run, since when and on what: all its report says of it when it ends before its sections are judged. */
type EarlyEndRun = Pick<InterruptWatchOptions, 'command' | 'runId' | 'startedAt' | 'target'> & {
  readonly allowSkips?: boolean;
  /** As the run measured it; else from its start to now. */
  readonly durationMs?: number;
};

/**
 * The report of a run that ended before its sections were judged: stopped by a signal (`interruption`) or by a target
 * it could not use (`error`), with what its money side counted by then (`faults`, `ledger`).
 */
export function earlyEndReport(run: EarlyEndRun, end: Pick<ReportInput, 'interruption' | 'error' | 'faults' | 'ledger'>): RunReport {
  return assembleReport({
    runId: run.runId,
    command: run.command,
    startedAt: run.startedAt,
    durationMs: run.durationMs ?? Date.now() - run.startedAt,
    allowSkips: run.allowSkips,
    target: run.target,
    ...end,
  });
}

/**
 * The signal watch of a judging command (reports/interrupt-watch.ts). The first SIGINT/SIGTERM stops the running part
 * gracefully and the command then writes its partial reports as usual (assembleReport with the interruption). On a
 * second signal this writes, synchronously, the report set of a forced stop (verdict interrupted, nothing measured
 * collected, the reconcile command when the run kept a ledger) and prints its verdict line; the process then exits.
 */
export function watchRun(options: InterruptWatchOptions): RunInterrupt {
  const say = (line: string): void => {
    if (options.progress === undefined) process.stderr.write(`${printable(line)}\n`);
    else options.progress.line(line);
  };
  const watch = watchInterrupts({ startedAt: options.startedAt, say });
  watch.onForce((interruption) => {
    const ledger = join(options.reportDir, LEDGER_FILE);
    const reconcile = existsSync(ledger) ? reconcileCommand(ledger) : undefined;
    const report = earlyEndReport(options, { interruption: { ...interruption, ...(reconcile === undefined ? {} : { reconcile }) } });
    const written = writeReports(report, options.reportDir, { secrets: options.secrets });
    process.stdout.write(`${[paintVerdictLine(written.report), '', reportsLine(written)].join('\n')}\n`);
  });
  return watch;
}

/**
 * Runs a phase before the command's run proper (first contact, a baseline's recording) under its signal watch, named
 * `during`: a signal in it ends the command with the INTERRUPTED report set and 128 + signal (returned as `exitCode`)
 * instead of the process dying by the signal with no report. `phase` gets the watch's stop to abandon its requests;
 * `leftBy` adds to that report what the phase left (its requests' counts).
 */
export async function watchedPhase<T>(
  interrupt: RunInterrupt,
  during: string,
  options: Omit<InterruptWatchOptions, 'progress'>,
  phase: (stop: AbortSignal) => Promise<T>,
  leftBy: (report: RunReport, ended: { readonly value?: T; readonly error?: unknown }) => RunReport = (report) => report,
): Promise<{ readonly value: T } | { readonly exitCode: number }> {
  interrupt.enter(during);
  let ended: { value?: T; error?: unknown };
  try {
    ended = { value: await phase(interrupt.signal) };
  } catch (error) {
    if (!interrupt.signal.aborted) throw error;
    ended = { error };
  }
  const interruption = interrupt.interruption(options.startedAt);
  if (interruption === undefined) return { value: ended.value as T };
  // What the phase sent before the signal (its value, or what its stop carried) goes into the interrupted report.
  const report = leftBy(earlyEndReport(options, { interruption }), ended);
  return { exitCode: finishRun(report, options.reportDir, { secrets: options.secrets }).exitCode };
}
