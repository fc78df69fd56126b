// The two drift jobs end to end over an open target session: record a baseline (observe, infer, write) and check
// one (observe again with fresh inputs from the target's own catalog, compare). The commands and the gate call these.
import { OPERATIONS, type Operation } from '../api/operations.ts';
import { writeBaseline, type Baseline } from './baseline-files.ts';
import { compareWithBaseline, type DriftCheckResult } from './check.ts';
import { notRun, observeOperations, type OperationObservation } from './observe.ts';
import { INTERRUPTED_REASON } from '../reports/interruption.ts';
import { buildBaseline, type BuiltBaseline } from './record.ts';
import { discoverCatalog, type TargetSession } from '../target/session.ts';
import { createSilenceWatch, type SilenceWatch } from '../api/faults.ts';
import { HarnessError } from '../api/errors.ts';

export interface DriftRunOptions {
  readonly progress?: (line: string) => void;
  /** Operations to observe (default: the whole catalog). */
  readonly operations?: readonly Operation[];
  /** Aborted on SIGINT/SIGTERM: no operation starts after it (drift/observe.ts). */
  readonly stop?: AbortSignal;
  /** The silence watch of the operations (drift/observe.ts ObserveOptions.silence). */
  readonly silence?: SilenceWatch;
}

export async function observeTarget(session: TargetSession, options: DriftRunOptions = {}): Promise<Map<string, OperationObservation>> {
  const progress = options.progress ?? (() => undefined);
  progress(`reading the catalog of ${session.label}`);
  let fixtures;
  try {
    fixtures = await discoverCatalog(session, options.stop);
  } catch (error) {
    // A signal during the catalog reads: nothing is observed, every operation is left for that reason.
    if (options.stop?.aborted !== true) throw error;
    return new Map((options.operations ?? OPERATIONS).map((op) => [op.id, notRun(op.id, INTERRUPTED_REASON)]));
  }
  progress(
    `catalog: ${fixtures.skus.length} SKUs, ${fixtures.giftcards.length} gift card SKUs, ${fixtures.countries.length} countries; calling ${(options.operations ?? OPERATIONS).length} operations`,
  );
  return observeOperations({
    session,
    fixtures,
    progress,
    ...(options.operations === undefined ? {} : { operations: options.operations }),
    ...(options.stop === undefined ? {} : { stop: options.stop }),
    ...(options.silence === undefined ? {} : { silence: options.silence }),
  });
}

export interface RecordResult {
  readonly baseline: BuiltBaseline;
  readonly files: string[];
  readonly observations: ReadonlyMap<string, OperationObservation>;
}

export async function recordBaseline(session: TargetSession, outDir: string, options: DriftRunOptions = {}): Promise<RecordResult> {
  const silence = createSilenceWatch('baseline record operations');
  const observations = await observeTarget(session, { ...options, silence });
  // A target gone silent midway: nothing is written (a part of the operations must not replace a whole baseline).
  const silent = silence.silence();
  if (silent !== undefined) throw new HarnessError('GH_ERR_TARGET', `${session.label}: ${silent}; no baseline written`, { exitCode: 2 });
  const baseline = buildBaseline(observations, {
    target: session.stableLabel,
    environment: session.config.environment,
    mapping: session.config.fieldMapping,
  });
  // Nothing observed (an unusable target) writes nothing: an existing baseline is not replaced by an empty one.
  // Nor does an interrupted one (SIGINT/SIGTERM): a part of the operations must not replace a whole baseline.
  const files =
    baseline.entries.length === 0 || options.stop?.aborted === true ? [] : writeBaseline(outDir, baseline.index, baseline.entries);
  return { baseline, files, observations };
}

export interface CheckRunResult extends DriftCheckResult {
  readonly baseline: Baseline;
  readonly observations: ReadonlyMap<string, OperationObservation>;
  /** The target went silent during the operations: the line naming the phase (the run is unusable). */
  readonly silence?: string;
}

/** Observes the target and compares with a baseline read beforehand (`readBaseline`: a broken one stops before any request). */
export async function checkBaseline(session: TargetSession, baseline: Baseline, options: DriftRunOptions = {}): Promise<CheckRunResult> {
  const silence = createSilenceWatch('baseline check operations');
  const observations = await observeTarget(session, { ...options, silence });
  const selected = options.operations === undefined ? undefined : new Set(options.operations.map((op) => op.id));
  const silent = silence.silence();
  return {
    ...compareWithBaseline(baseline, observations, selected === undefined ? {} : { selected }),
    baseline,
    observations,
    ...(silent === undefined ? {} : { silence: `${session.label}: ${silent}` }),
  };
}
