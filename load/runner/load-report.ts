// The report of a load run, through reports/ only: k6's end-of-test data (k6-summary.json) and the NDJSON stream become
// the load section (with its charts' time series); a run that left no data is reported as such, never as a pass.
// The unified load report for every caller: `gateway-harness load`, the gate, and merged distributed runs.
import { scenarioNameOf } from '../scenarios.ts';
import { addFaultCounts, type FaultCounts } from '../../api/faults.ts';
import type { TargetConfig } from '../../api/target-config.ts';
import { assembleReport } from '../../reports/assemble.ts';
import { loadSectionFromK6 } from '../../reports/from-k6.ts';
import {
  carriedOutside,
  generatorBoundThresholds,
  isLatencyThreshold,
  requestShareInWindows,
  type GeneratorReport,
} from '../../reports/generator.ts';
import { submetricSharesInWindows } from '../../reports/submetric-windows.ts';
import { loadVerdict } from '../../reports/sections.ts';
import type { K6SummaryData } from '../../reports/k6-summary.ts';
import type { ComparisonSection, LoadSection, RunReport, RunTarget } from '../../reports/model.ts';
import type { RunInterrupt } from '../../reports/interrupt-watch.ts';
import type { ReportInterruption } from '../../reports/interruption.ts';
import { ENGINE_EXTERNAL_ABORT } from '../../reports/verdict.ts';
import { payloadChecksOf, type PayloadCheckInputs } from '../../reports/payload-checks.ts';
import { pathUnverifiedCounts, withUnverifiedPaths } from '../../reports/unverified-paths.ts';
import { METRICS } from '../metric-names.ts';
import { K6_SUMMARY_FILE } from '../summary/handle-summary.ts';
import type { LoadFlags } from './load-options.ts';
import { insideReportDir, type LoadRun } from './run-load.ts';

/** What a load section is built from: one run's summary data and stream, or several runs' merged. */
export interface LoadSectionInput {
  readonly summaryData: K6SummaryData;
  readonly scenario: string;
  readonly profile: string;
  /** 'k6 v0.48.0', 'k6' or 'node'. */
  readonly engine: string;
  /** The run's metrics: per-second aggregates or k6's NDJSON stream (plain or .gz); the charts and payload counts come from it. */
  readonly ndjsonPath?: string;
  /** The run's payload-check samples, baseline and promotion (LoadRun `payload`). */
  readonly payload?: Omit<PayloadCheckInputs, 'ndjsonPath'>;
  /** The load generator's own measurements (LoadRun `generator`): saturated windows make latency thresholds incomplete. */
  readonly generator?: GeneratorReport;
  /** --allow-skips: latency thresholds the generator explains do not leave the run incomplete. */
  readonly allowSkips?: boolean;
}

/**
 * The section judged with the generator's measurements: its windows, what the machine carried outside them, k6's own
 * dropped iterations and VUs against the plan, and the latency thresholds it explains (reports/generator.ts).
 */
export function withGenerator(
  section: LoadSection,
  generator: GeneratorReport | undefined,
  allowSkips = false,
  submetricShares: ReadonlyMap<string, number> = new Map(),
): LoadSection {
  if (generator === undefined) return section;
  const dropped = section.metrics.dropped_iterations?.values.count;
  const vusMax = section.metrics.vus_max?.values.max ?? section.metrics.vus_max?.values.value;
  const carried = carriedOutside(generator, section.series);
  const insideShare = generator.windows.length === 0 ? undefined : requestShareInWindows(generator.windows, section.series);
  const latencyBound = generatorBoundThresholds(section.thresholds, generator, insideShare, submetricShares);
  const judged: LoadSection = {
    ...section,
    generator: {
      ...generator,
      ...(carried === undefined ? {} : { carried }),
      ...(dropped === undefined ? {} : { droppedIterations: dropped }),
      ...(vusMax === undefined ? {} : { vusMax }),
      ...(latencyBound.length === 0 ? {} : { latencyBound }),
      ...(insideShare === undefined ? {} : { requestShareInWindows: insideShare }),
      ...(submetricShares.size === 0 ? {} : { submetricShares: Object.fromEntries(submetricShares) }),
    },
  };
  return { ...judged, verdict: loadVerdict(judged, { allowSkips }) };
}

/** The load section: thresholds, checks, metrics and (with the stream) time series; the verdict by reports/sections.ts. */
export async function loadSection(input: LoadSectionInput): Promise<LoadSection> {
  const section = await loadSectionFromK6(
    input.summaryData,
    // Every harness scenario's setup() returns the catalog it read: no setup data means the target could not be used.
    { scenario: input.scenario, profile: input.profile, engine: input.engine, setupRequired: true },
    input.ndjsonPath === undefined ? {} : { ndjsonPath: input.ndjsonPath },
  );
  const payloadChecks = await payloadChecksOf({
    ...input.payload,
    ...(input.ndjsonPath === undefined ? {} : { ndjsonPath: input.ndjsonPath }),
  });
  // The generator's saturated windows first; then an assumed path the target lacks: the harness's gap, its operation
  // unverified, its thresholds not crossed. Each step judges the section again with what it learned.
  const withWindows = withGenerator(section, input.generator, input.allowSkips, await crossedLatencyShares(section, input));
  const judged = withUnverifiedPaths(withWindows, await pathUnverifiedCounts(input.ndjsonPath), input.allowSkips === true);
  return payloadChecks === undefined ? judged : { ...judged, payloadChecks };
}

/** The share of each crossed latency threshold's own samples inside the generator's windows (reports/submetric-windows.ts). */
function crossedLatencyShares(section: LoadSection, input: LoadSectionInput): Promise<Map<string, number>> {
  const metrics = section.thresholds.filter((t) => !t.ok && isLatencyThreshold(t.metric)).map((t) => t.metric);
  return submetricSharesInWindows(input.ndjsonPath, [...new Set(metrics)], input.generator?.windows ?? []);
}

/** A run that ended without handleSummary data: why, for the report's error. */
export function missingSummaryMessage(run: Pick<LoadRun, 'engineLabel' | 'engineExit' | 'summaryFile'>): string {
  return `load: the run wrote no ${K6_SUMMARY_FILE} (${run.engineLabel === 'node' ? 'Node engine' : run.engineLabel} exit ${run.engineExit}; see its output above)`;
}

/** Files of the run beside the four report files, relative to the report directory. */
export function loadArtifacts(
  run: Pick<LoadRun, 'reportDir' | 'summaryFile' | 'summaryData' | 'ndjsonPath' | 'aggregatesPath'>,
): Record<string, string> {
  const artifacts: Record<string, string> = {};
  const summary = run.summaryData === undefined ? undefined : insideReportDir(run.reportDir, run.summaryFile);
  if (summary !== undefined) artifacts.k6Summary = summary;
  const ndjson = run.ndjsonPath === undefined ? undefined : insideReportDir(run.reportDir, run.ndjsonPath);
  if (ndjson !== undefined) artifacts.metricsNdjson = ndjson;
  const perSecond = run.aggregatesPath === undefined ? undefined : insideReportDir(run.reportDir, run.aggregatesPath);
  if (perSecond !== undefined) artifacts.metricsPerSecond = perSecond;
  return artifacts;
}

/** The metric file a run's report and comparison read: its per-second aggregates, else the raw stream it kept. */
export function runMetricsFile(run: Pick<LoadRun, 'ndjsonPath' | 'aggregatesPath'>): string | undefined {
  return run.aggregatesPath ?? run.ndjsonPath;
}

export interface LoadReportMeta {
  readonly scenario: string;
  readonly profile: string;
  readonly target: Pick<RunTarget, 'environment' | 'timeScale' | 'api'>;
}

/** The report's description of a `load` run, from its flags and target config. */
export function loadReportMeta(
  flags: Pick<LoadFlags, 'scenario' | 'profile' | 'api'>,
  config: Pick<TargetConfig, 'environment' | 'timeScale'>,
): LoadReportMeta {
  return {
    scenario: scenarioNameOf(flags.scenario),
    profile: flags.profile,
    target: { environment: config.environment, timeScale: config.timeScale, api: flags.api },
  };
}

/** A run's whole fault tally: what its VUs counted and what the harness's own reads met (LoadRun `harnessFaults`). */
export function loadFaults(run: Pick<LoadRun, 'summaryData' | 'harnessFaults'>): FaultCounts {
  return addFaultCounts(
    ...(run.summaryData === undefined ? [] : [faultsOf(run.summaryData)]),
    ...(run.harnessFaults === undefined ? [] : [run.harnessFaults]),
  );
}

/** The run's fault tally (api/faults.ts), from the counters every VU kept (load/metric-names.ts). */
export function faultsOf(data: K6SummaryData): FaultCounts {
  const count = (name: string): number => data.metrics[name]?.values.count ?? 0;
  return {
    timeout: count(METRICS.faults.timeout),
    connection: count(METRICS.faults.connection),
    'server-error': count(METRICS.faults['server-error']),
    malformed: count(METRICS.faults.malformed),
  };
}

/**
 * Whether the load run was interrupted, as the report says it: the harness's signal (from its watch), or k6's own
 * 105 when the engine was aborted by a signal sent to it directly; with the reconcile command when money stayed open.
 */
export function loadInterruption(
  run: Pick<LoadRun, 'engineExit' | 'durationMs' | 'reconcile'>,
  interrupt: RunInterrupt | undefined,
  startedAt: number,
  extra: Pick<ReportInterruption, 'notRun'> = {},
): ReportInterruption | undefined {
  const more = { ...extra, ...(run.reconcile === undefined ? {} : { reconcile: run.reconcile }) };
  const bySignal = interrupt?.interruption(startedAt, more);
  if (bySignal !== undefined) return bySignal;
  return run.engineExit === ENGINE_EXTERNAL_ABORT ? { afterMs: run.durationMs, during: 'load', ...more } : undefined;
}

/**
 * An interrupted run's load section: what was measured up to the signal, its verdict interrupted (never a pass). A
 * setup() the signal cut short says nothing about the target, so it is not reported as one that could not be used.
 */
export function interruptedSection(section: LoadSection, interruption: ReportInterruption | undefined): LoadSection {
  if (interruption === undefined) return section;
  const { setupCompleted, ...rest } = section;
  return { ...rest, verdict: 'interrupted', ...(setupCompleted === true ? { setupCompleted } : {}) };
}

/** The whole report of `gateway-harness load`. */
/**
 * `interruption`: the run was stopped by a signal (its partial section says so); `comparison`: the run compared with an
 * earlier one (--compare-with), made by compare/ over this run's NDJSON.
 */
export async function loadRunReport(
  run: LoadRun,
  meta: LoadReportMeta,
  extra: { readonly interruption?: ReportInterruption; readonly comparison?: ComparisonSection; readonly allowSkips?: boolean } = {},
): Promise<RunReport> {
  const { interruption } = extra;
  const target = {
    url: run.target.url,
    embedded: run.target.embedded,
    ...(run.target.profile === undefined ? {} : { profile: run.target.profile }),
    ...meta.target,
  };
  const stopped = interruption === undefined ? {} : { interruption };
  const common = {
    runId: run.runId,
    command: 'load',
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    target,
    artifacts: loadArtifacts(run),
    ...stopped,
  };
  // The ledger is reported whatever became of the run: a charge is never left out of the reports.
  const ledger = run.ledger === undefined ? {} : { ledger: run.ledger };
  if (run.unusable !== undefined) return assembleReport({ ...common, error: { code: 'GH_ERR_TARGET', message: run.unusable } });
  if (run.summaryData === undefined) {
    // Interrupted before the engine wrote its summary: the interruption says why there is no load section.
    if (interruption !== undefined) return assembleReport({ ...common, ...ledger });
    return assembleReport({
      ...common,
      ...ledger,
      error: { code: 'GH_ERR_INTERNAL', message: missingSummaryMessage(run), verdict: 'fail' },
    });
  }
  const money = { ...ledger, faults: loadFaults(run) };
  const load = await loadSection({
    summaryData: run.summaryData,
    scenario: meta.scenario,
    profile: meta.profile,
    engine: run.engineLabel,
    ...(runMetricsFile(run) === undefined ? {} : { ndjsonPath: runMetricsFile(run) }),
    payload: run.payload,
    ...(run.generator === undefined ? {} : { generator: run.generator }),
    ...(extra.allowSkips === undefined ? {} : { allowSkips: extra.allowSkips }),
  });
  const withOutput = run.remoteWrite === undefined ? load : { ...load, remoteWrite: run.remoteWrite };
  return assembleReport({
    ...common,
    ...(extra.allowSkips === undefined ? {} : { allowSkips: extra.allowSkips }),
    load: interruptedSection(withOutput, interruption),
    ...money,
    ...(extra.comparison === undefined ? {} : { comparison: extra.comparison }),
  });
}
