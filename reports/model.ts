// The versioned run report (summary.json) every writer reads: its types come from schemas/summary.schema.json, so the
// schema, the TS model and the files cannot drift apart. Runtime-neutral (a k6 handleSummary can build one too).
import type {
  DriftSection,
  LedgerSection,
  LoadSection,
  MigrationSection,
  ReportSectionName,
  ReportVerdict,
  RunReport,
} from '../schemas/generated/types.ts';
import type { Verdict } from './verdict.ts';

export type {
  CaseCountsReport,
  ComparedOperation,
  ComparedRun,
  ComparedStat,
  ComparisonSection,
  ConformanceSection,
  UnderLoadComparison,
  DriftSection,
  LatencySeries,
  LedgerSection,
  LoadSection,
  LoadSeries,
  MigrationSection,
  ReportCase,
  ReportFailure,
  ReportOutcome,
  ReportRequest,
  ReportSectionName,
  RemoteWriteSummary,
  RunReport,
} from '../schemas/generated/types.ts';

/** MAJOR.MINOR of schemas/summary.schema.json. Minor: optional fields added. Major: anything removed or changed. */
export const SCHEMA_VERSION = '1.4';
export const TOOL_NAME = 'gateway-harness';

/** File names inside a report directory (DESIGN.md "interface contract"); `artifacts` uses these keys. */
export const REPORT_FILES = Object.freeze({
  summaryJson: 'summary.json',
  junitXml: 'junit.xml',
  summaryMd: 'summary.md',
  reportHtml: 'report.html',
} as const);

export type RunTarget = RunReport['target'];
export type SkippedItem = RunReport['skipped'][number];
export type ReportPart = RunReport['parts'][number];
export type LoadThreshold = LoadSection['thresholds'][number];
export type LoadCheck = LoadSection['checks'][number];
export type DriftFinding = DriftSection['findings'][number];
export type MigrationPair = MigrationSection['pairs'][number];
export type LedgerUnresolved = LedgerSection['unresolved'][number];

/** The sections in the order a gate runs them (and reports show them). */
export const SECTION_ORDER: readonly ReportSectionName[] = ['conformance', 'load', 'comparison', 'drift', 'migration', 'ledger'];

// The schema's verdict enum and reports/verdict.ts must be the same set: each assignment fails to compile otherwise.
const verdictFromSchema = (v: ReportVerdict): Verdict => v;
const verdictToSchema = (v: Verdict): ReportVerdict => v;
void verdictFromSchema;
void verdictToSchema;
