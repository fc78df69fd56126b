// Puts a run report together from the sections that ran: one combined verdict, its exit code, the verdict line
// (the first line of every report) and the list of everything not verified. The gate is a thin call to this.
import packageJson from '../package.json' with { type: 'json' };
import { addFaultCounts, FAULT_KINDS, type FaultCounts } from '../api/faults.ts';
import { combineVerdicts, interruptedExitCode, VERDICT_EXIT, VERDICT_WORD, type Verdict } from './verdict.ts';
import { interruptionText, type ReportInterruption } from './interruption.ts';
import { SCHEMA_VERSION, SECTION_ORDER, TOOL_NAME } from './model.ts';
import type {
  ComparisonSection,
  ConformanceSection,
  DriftSection,
  LedgerSection,
  LoadSection,
  MigrationSection,
  ReportPart,
  ReportSectionName,
  RunReport,
  RunTarget,
  SkippedItem,
} from './model.ts';
import {
  comparisonLine,
  comparisonSkipped,
  conformanceLine,
  driftLine,
  driftSkipped,
  ledgerLine,
  ledgerSkipped,
  loadLine,
  migrationLine,
  migrationSkipped,
} from './sections.ts';

// A pure call, so a bundle that never assembles a report (a k6 handleSummary that only builds the load section) drops
// package.json instead of inlining it.
export const TOOL_VERSION: string = /* @__PURE__ */ ((): string => packageJson.version)();

export interface ReportInput {
  readonly runId: string;
  /** The subcommand: gate, conformance, load, ... */
  readonly command: string;
  /** Epoch ms, ISO text or Date. */
  readonly startedAt: number | string | Date;
  readonly durationMs: number;
  /** Only `url` is required; environment defaults to sandbox, timeScale to 1, api to both, embedded to false. */
  readonly target: Pick<RunTarget, 'url'> & Partial<RunTarget>;
  /** Skips and unresolved items accepted (--allow-skips). Default false. */
  readonly allowSkips?: boolean;
  readonly conformance?: ConformanceSection;
  readonly load?: LoadSection;
  /** The load run compared with an earlier one (compare, --compare-with). */
  readonly comparison?: ComparisonSection;
  readonly drift?: DriftSection;
  readonly migration?: MigrationSection;
  readonly ledger?: LedgerSection;
  /** Responses that were no gateway answer, by kind (api/faults.ts), when the command counted them. */
  readonly faults?: FaultCounts;
  /** Files of the run by kind, relative to the report directory; writeReports adds its own four. */
  readonly artifacts?: Readonly<Record<string, string>>;
  /** The run stopped early: its stable code and one-line reason. Verdict default: unusable (exit 2). */
  readonly error?: { readonly code: string; readonly message: string; readonly verdict?: Verdict };
  /** The run was stopped by a signal: the verdict is interrupted (exit 128 + signal) whatever its parts say. */
  readonly interruption?: ReportInterruption;
  /** Parts that did not run by design, with why and how to make them run (the gate's drift check without a baseline). */
  readonly notRun?: readonly { readonly part: string; readonly reason: string }[];
  /**
   * Parts the run set out to verify and could not run for a reason of the harness's own (the gate's smoke load when the
   * wallet left nothing for it): listed among the skipped items, the verdict incomplete unless --allow-skips; never a failure.
   */
  readonly notVerified?: readonly SkippedItem[];
}

function isoTime(value: number | string | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`startedAt is not a time: ${String(value)}`);
  return date.toISOString();
}

function partOf(section: ReportSectionName, input: ReportInput, allowSkips: boolean): ReportPart | undefined {
  switch (section) {
    case 'conformance':
      return input.conformance && { section, verdict: input.conformance.verdict, line: conformanceLine(input.conformance, allowSkips) };
    case 'load':
      return input.load && { section, verdict: input.load.verdict, line: loadLine(input.load, allowSkips) };
    case 'comparison':
      return input.comparison && { section, verdict: input.comparison.verdict, line: comparisonLine(input.comparison) };
    case 'drift':
      return input.drift && { section, verdict: input.drift.verdict, line: driftLine(input.drift) };
    case 'migration':
      return input.migration && { section, verdict: input.migration.verdict, line: migrationLine(input.migration) };
    case 'ledger':
      return input.ledger && { section, verdict: input.ledger.verdict, line: ledgerLine(input.ledger) };
  }
}

/**
 * "FAIL: conformance: 2 of 212 cases failed (TRG-510-V2, ...); load mixed/smoke (k6 v0.48.0): 1,234 requests, ..."
 * The parts that decided the verdict come first, so the first words say why.
 */
export function composeVerdictLine(
  verdict: Verdict,
  parts: readonly ReportPart[],
  error?: ReportInput['error'],
  interruption?: ReportInterruption,
): string {
  const deciding = parts.filter((p) => p.verdict === verdict);
  const others = parts.filter((p) => p.verdict !== verdict);
  const reasons = [
    ...(interruption === undefined ? [] : [interruptionText(interruption)]),
    ...(error === undefined ? [] : [`${error.code}: ${error.message}`]),
    ...deciding.map((p) => p.line),
    ...others.map((p) => p.line),
  ];
  return `${VERDICT_WORD[verdict]}: ${reasons.length === 0 ? 'nothing ran, nothing was verified' : reasons.join('; ')}`;
}

/** Said on the verdict line whenever the target is the harness's own simulator: a PASS there says nothing of a gateway. */
export function simulatorNote(target: Pick<RunTarget, 'embedded' | 'profile' | 'simulator' | 'url'>): string {
  const profile = target.profile === undefined ? '' : `, profile ${target.profile}`;
  if (target.embedded) return ` [target: the embedded sandbox${profile}, not a gateway]`;
  if (target.simulator === true) return ` [target: the harness's sandbox at ${target.url}${profile}, not a gateway]`;
  return '';
}

function withTotal(counts: FaultCounts): FaultCounts & { total: number } {
  return { ...counts, total: FAULT_KINDS.reduce((sum, kind) => sum + counts[kind], 0) };
}

/**
 * The report with what first contact sent before the run proper (target/discover/first-contact.ts) as a part of its
 * own, its faults counted into the run's: the report's fault counts are then everything the target served.
 */
export function withFirstContact(
  report: RunReport,
  reads: { readonly requests: number; readonly faults: FaultCounts } | undefined,
): RunReport {
  if (reads === undefined) return report;
  const none: FaultCounts = { timeout: 0, connection: 0, 'server-error': 0, malformed: 0 };
  const faults = withTotal(addFaultCounts(report.faults ?? none, reads.faults));
  return { ...report, faults, firstContact: { requests: reads.requests, faults: withTotal(reads.faults) } };
}

/** Everything not verified, from every section (and the parts that could not run), in report order. */
function skippedItems(input: ReportInput): SkippedItem[] {
  return [
    ...(input.conformance?.cases ?? [])
      .filter((c) => c.status === 'skipped')
      .map((c) => ({ section: 'conformance' as const, id: c.id, reason: c.skipReason ?? 'skipped' })),
    ...(input.conformance?.drain?.unresolved ?? []).map((u) => ({
      section: 'conformance' as const,
      id: u.correlationId ?? u.caseId,
      reason: `${u.caseId}: ${u.operationId} not final after the drain (last outcome ${u.outcome})`,
    })),
    ...(input.load?.unverifiedOperations ?? []).map((o) => ({
      section: 'load' as const,
      id: o.operation,
      reason: `unverified: ${o.reason}`,
    })),
    ...(input.comparison === undefined ? [] : comparisonSkipped(input.comparison)),
    ...(input.drift === undefined ? [] : driftSkipped(input.drift)),
    ...(input.migration === undefined ? [] : migrationSkipped(input.migration)),
    ...(input.ledger === undefined ? [] : ledgerSkipped(input.ledger)),
    ...(input.notVerified ?? []),
  ];
}

/** The whole report. Sections carry their own verdicts (their builders apply the rules); this combines them. */
export function assembleReport(input: ReportInput): RunReport {
  const allowSkips = input.allowSkips ?? false;
  const parts = SECTION_ORDER.map((s) => partOf(s, input, allowSkips)).filter((p): p is ReportPart => p !== undefined);
  const errorVerdict = input.error === undefined ? [] : [input.error.verdict ?? 'unusable'];
  const interrupted: Verdict[] = input.interruption === undefined ? [] : ['interrupted'];
  const unverified: Verdict[] = (input.notVerified ?? []).length > 0 && !allowSkips ? ['incomplete'] : [];
  const verdict = combineVerdicts([...interrupted, ...errorVerdict, ...parts.map((p) => p.verdict), ...unverified]);
  const exitCode = verdict === 'interrupted' ? interruptedExitCode(input.interruption?.signal) : VERDICT_EXIT[verdict];
  const skipped = skippedItems(input);
  const target: RunTarget = {
    url: input.target.url,
    environment: input.target.environment ?? 'sandbox',
    timeScale: input.target.timeScale ?? 1,
    api: input.target.api ?? 'both',
    embedded: input.target.embedded ?? false,
    ...(input.target.profile === undefined ? {} : { profile: input.target.profile }),
    ...(input.target.seed === undefined ? {} : { seed: input.target.seed }),
    ...(input.target.simulator === true ? { simulator: true } : {}),
  };
  return {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    runId: input.runId,
    command: input.command,
    verdict,
    exitCode: exitCode as RunReport['exitCode'],
    verdictLine:
      composeVerdictLine(verdict, parts, input.error, input.interruption) +
      (input.notVerified ?? []).map((n) => `; ${n.section} not verified: ${n.reason}`).join('') +
      simulatorNote(target),
    allowSkips,
    skipped,
    ...(input.notRun === undefined || input.notRun.length === 0 ? {} : { notRun: input.notRun.map((n) => ({ ...n })) }),
    startedAt: isoTime(input.startedAt),
    durationMs: Math.max(0, input.durationMs),
    target,
    parts,
    ...(input.error === undefined ? {} : { error: { code: input.error.code, message: input.error.message } }),
    ...(input.interruption === undefined ? {} : { interruption: { ...input.interruption } }),
    ...(input.conformance === undefined ? {} : { conformance: input.conformance }),
    ...(input.load === undefined ? {} : { load: input.load }),
    ...(input.comparison === undefined ? {} : { comparison: input.comparison }),
    ...(input.drift === undefined ? {} : { drift: input.drift }),
    ...(input.migration === undefined ? {} : { migration: input.migration }),
    ...(input.ledger === undefined ? {} : { ledger: input.ledger }),
    ...(input.faults === undefined ? {} : { faults: withTotal(input.faults) }),
    artifacts: { ...(input.artifacts ?? {}) },
  };
}
