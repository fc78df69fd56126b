// Verdict rules and one-line descriptions of each report section (conformance, load, drift, migration, ledger).
// One table of rules so the gate, summary.md, JUnit and the HTML banner all say the same thing in the same words.
import { isLatencyThreshold, windowsText } from './generator.ts';
import { combineVerdicts, type Verdict } from './verdict.ts';
import type {
  ComparedOperation,
  ComparisonSection,
  ConformanceSection,
  DriftFinding,
  DriftSection,
  LedgerSection,
  LedgerUnresolved,
  LoadSection,
  MigrationPair,
  MigrationSection,
  RemoteWriteSummary,
  SkippedItem,
} from './model.ts';

/** At most this many ids are named in one line; the rest become "+N more". */
const MAX_NAMED = 3;

/** 1234567 → "1,234,567" without Intl (k6's goja has no locale data). */
/** One line on the run's Prometheus remote write (summary.md and report.html say the same): where, how, what was lost. */
export function remoteWriteLine(rw: RemoteWriteSummary): string {
  const counts = [
    ...(rw.pushes === undefined ? [] : [plural(rw.pushes, 'push', 'pushes')]),
    rw.failedPushes === 0
      ? 'no push failed'
      : `${plural(rw.failedPushes, 'push', 'pushes')} failed (the run went on; those samples are not in Prometheus)`,
    ...(rw.series === undefined ? [] : [plural(rw.series, 'series', 'series')]),
    ...(rw.thresholdSeries === undefined || rw.thresholdSeries === 0
      ? []
      : [`${plural(rw.thresholdSeries, 'threshold result')} at the end`]),
  ];
  return `Prometheus remote write to ${rw.url} (${rw.trends === 'native-histogram' ? 'trends as native histograms' : 'trends as stats'}): ${counts.join(', ')}${rw.lastError === undefined ? '' : `; last error: ${rw.lastError}`}.`;
}

export function formatCount(value: number): string {
  const rounded = Math.round(value);
  const sign = rounded < 0 ? '-' : '';
  return sign + String(Math.abs(rounded)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Milliseconds as people read them: 0.84 ms, 12.3 ms, 612 ms, 1.24 s, 3 min 5 s. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return 'n/a';
  if (ms < 10) return `${ms.toFixed(2)} ms`;
  if (ms < 100) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms - minutes * 60_000) / 1000)} s`;
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`;
}

/** "A, B, C +2 more" */
export function nameSome(names: readonly string[], max = MAX_NAMED): string {
  const shown = names.slice(0, max).join(', ');
  return names.length > max ? `${shown} +${names.length - max} more` : shown;
}

// ---- conformance ---------------------------------------------------------------------------------------------------

function conformanceCasesLine(section: ConformanceSection, allowSkips: boolean): string {
  const { total, passed, failed, skipped } = section.counts;
  const ids = (status: 'failed' | 'skipped'): string => nameSome(section.cases.filter((c) => c.status === status).map((c) => c.id));
  if (failed > 0) return `conformance: ${formatCount(failed)} of ${plural(total, 'case')} failed (${ids('failed')})`;
  if (passed === 0)
    return `conformance: no case passed (${plural(total, 'case')} ran${skipped > 0 ? `, ${formatCount(skipped)} skipped` : ''}), nothing was verified`;
  if (skipped > 0 && !allowSkips)
    return `conformance: ${formatCount(skipped)} of ${plural(total, 'case')} skipped, not verified (${ids('skipped')})`;
  if (skipped > 0)
    return `conformance: ${formatCount(passed)} of ${plural(total, 'case')} passed, ${formatCount(skipped)} skipped (accepted with --allow-skips)`;
  return `conformance: all ${plural(total, 'case')} passed`;
}

/** --under-load: the cases whose status differs under load, or that none does. */
function underLoadWords(section: ConformanceSection): string {
  const u = section.underLoad;
  if (u === undefined) return '';
  const load = `${u.load.scenario}/${u.load.profile}`;
  const fails = u.failsOnlyUnderLoad.map((c) => c.id);
  const passes = u.passesOnlyUnderLoad.map((c) => c.id);
  const parts = [
    ...(fails.length > 0 ? [`${plural(fails.length, 'case')} fail only under load ${load} (${nameSome(fails)})`] : []),
    ...(passes.length > 0 ? [`${plural(passes.length, 'case')} pass only under load (${nameSome(passes)})`] : []),
  ];
  return parts.length > 0 ? `; ${parts.join('; ')}` : `; no case differs under load ${load} (${plural(u.compared, 'case')} compared)`;
}

export function conformanceLine(section: ConformanceSection, allowSkips: boolean): string {
  const line = `${conformanceCasesLine(section, allowSkips)}${underLoadWords(section)}`;
  const unresolved = section.drain?.unresolved ?? [];
  if (unresolved.length === 0) return line;
  const which = nameSome(
    unresolved.map((u) => u.correlationId ?? u.caseId),
    2,
  );
  return `${line}; ${plural(unresolved.length, 'transaction')} not final after the drain, not verified${allowSkips ? ' (accepted with --allow-skips)' : ''} (${which})`;
}

// ---- load -----------------------------------------------------------------------------------------------------------

/** The `checks{check:<name>}` threshold metric's check name (the profiles set one per check to tolerate a few fails). */
function checkThresholdName(metric: string): string | undefined {
  return /^checks\{check:(.+)\}$/.exec(metric)?.[1];
}

type LoadJudged = Pick<LoadSection, 'thresholds' | 'checks' | 'requests' | 'setupCompleted' | 'generator' | 'unverifiedOperations'>;

/** What a load section found wrong or could not verify, each list in the order the verdict weighs them. */
export function loadProblems(section: LoadJudged): {
  readonly unusable: boolean;
  readonly crossed: LoadSection['thresholds'];
  /** Latency thresholds crossed while the load generator was saturated (reports/generator.ts): not the gateway's. */
  readonly generatorBound: LoadSection['thresholds'];
  /** Operations whose assumed path the target lacks (the harness's gap): their thresholds are unverified, never crossed. */
  readonly pathUnverified: NonNullable<LoadSection['unverifiedOperations']>;
  /** Checks that failed where no `checks{check:<name>}` threshold decides how many fails are tolerated. */
  readonly failedChecks: LoadSection['checks'];
  readonly unverified: LoadSection['thresholds'];
  readonly neverRan: LoadSection['checks'];
  readonly noRequest: boolean;
} {
  const tolerated = new Set(section.thresholds.map((t) => checkThresholdName(t.metric)).filter((n): n is string => n !== undefined));
  const bound = new Set(section.generator?.latencyBound ?? []);
  const isBound = (t: LoadSection['thresholds'][number]): boolean => bound.has(`${t.metric} ${t.expression}`);
  return {
    unusable: section.setupCompleted === false,
    crossed: section.thresholds.filter((t) => !t.ok && t.unverifiedBy === undefined && !isBound(t)),
    generatorBound: section.thresholds.filter((t) => !t.ok && t.unverifiedBy === undefined && isBound(t)),
    pathUnverified: section.unverifiedOperations ?? [],
    failedChecks: section.checks.filter((c) => c.fails > 0 && !tolerated.has(c.name)),
    // A check's own threshold without samples is the check that never ran: said once, as the check.
    unverified: section.thresholds.filter(
      (t) => t.unverifiedBy === undefined && t.ok && t.verified === false && checkThresholdName(t.metric) === undefined,
    ),
    neverRan: section.checks.filter((c) => c.passes + c.fails === 0),
    noRequest: section.requests.count === 0,
  };
}

/**
 * The verdict of a load run: setup could not use the target (unusable, exit 2); crossed thresholds (99); a failed check
 * no threshold tolerates (1); a threshold whose metric got no sample, a check that never ran, or no request at all
 * (nothing was measured: incomplete, exit 1, though k6 calls it passed); a latency threshold crossed only while the load
 * generator was saturated, or an operation whose assumed path the target lacks (the harness's gap, said with the key to
 * set): incomplete, exit 1, unless skips are accepted (--allow-skips); else pass.
 */
export function loadVerdict(section: LoadJudged, options: { readonly allowSkips?: boolean } = {}): Verdict {
  const allowSkips = options.allowSkips === true;
  const p = loadProblems(section);
  const parts: Verdict[] = [];
  if (p.pathUnverified.length > 0 && !allowSkips) parts.push('incomplete');
  if (p.unusable) parts.push('unusable');
  if (p.crossed.length > 0) parts.push('thresholds');
  if (p.failedChecks.length > 0) parts.push('fail');
  if (p.unverified.length > 0 || p.neverRan.length > 0 || p.noRequest) parts.push('incomplete');
  if (p.generatorBound.length > 0 && !allowSkips) parts.push('incomplete');
  return combineVerdicts(parts.length === 0 ? ['pass'] : parts);
}

export function loadLabel(section: Pick<LoadSection, 'scenario' | 'profile' | 'engine'>): string {
  return `load ${section.scenario}/${section.profile} (${section.engine})`;
}

function thresholdText(t: LoadSection['thresholds'][number]): string {
  return `${t.metric} ${t.expression}${t.observed === undefined ? '' : `, observed ${formatObserved(t.observed, t.metric)}`}`;
}

/** A trend of times reads in ms; a rate as a percentage; anything else as the number. */
export function formatObserved(value: number, metric: string): string {
  if (/duration|waiting|blocked|connecting|sending|receiving|handshaking|time/i.test(metric)) return formatMs(value);
  if (/failed|rate|checks/i.test(metric) && value >= 0 && value <= 1) return `${(value * 100).toFixed(2)}%`;
  return String(Math.round(value * 1000) / 1000);
}

/** "2 latency thresholds crossed while the load generator was saturated (…): the latency is the generator's, not the gateway's". */
function generatorBoundText(section: LoadSection, bound: LoadSection['thresholds'], allowSkips: boolean): string {
  const generator = section.generator;
  const carried = generator?.carried;
  const honest =
    carried === undefined
      ? ''
      : (carried.requestRate ?? 0) === 0
        ? '; no measured second of the run was free of it'
        : `; outside it this machine carried ${formatCount(carried.vus ?? 0)} VUs, ${carried.requestRate ?? 0} req/s`;
  return (
    `incomplete: the load generator was saturated (${windowsText(generator?.windows ?? [])}${honest}): ` +
    `${plural(bound.length, 'latency threshold')} crossed then measured the generator, not the gateway (${bound.slice(0, 2).map(thresholdText).join('; ')}${bound.length > 2 ? ` +${bound.length - 2} more` : ''})` +
    (allowSkips ? ' (accepted with --allow-skips)' : '')
  );
}

type Accuracy = NonNullable<NonNullable<LoadSection['generator']>['accuracy']>;

/**
 * How close the latency figures are to the wire by the generator's own measurements (reports/generator.ts accuracyOf):
 * within the goal, outside it by up to what the generator added, or not measured.
 */
export function accuracyText(accuracy: Accuracy): string {
  const goal = `+${accuracy.marginMs} ms + 5 %`;
  if (accuracy.judgedSeconds === 0) return 'latency accuracy not measured: the generator gave no figure of its own delay';
  const seconds = `${formatCount(accuracy.judgedSeconds)} measured ${accuracy.judgedSeconds === 1 ? 'second' : 'seconds'}`;
  if (accuracy.withinGoal) {
    const most =
      accuracy.addedUpToMs === undefined ? '' : `: the generator added at most ${formatMs(accuracy.addedUpToMs)} in any of its ${seconds}`;
    return `latency within ${goal} of what the gateway served${most}`;
  }
  const upTo = accuracy.addedUpToMs === undefined ? 'a delay it cannot bound' : `up to ${formatMs(accuracy.addedUpToMs)}`;
  return (
    `latency outside the ${goal} accuracy goal: the generator's own delay added ${upTo} in ${formatCount(accuracy.secondsPastMargin)} of its ${seconds}` +
    `${accuracy.worst === undefined ? '' : ` (worst: ${accuracy.worst})`}, so its figures can be that much above what the gateway served`
  );
}

/** The accuracy said on the verdict line: only when outside the goal with no window (a window's line says more). */
function accuracyBeside(section: LoadSection): string {
  const generator = section.generator;
  const accuracy = generator?.accuracy;
  if (accuracy === undefined || accuracy.withinGoal || accuracy.judgedSeconds === 0 || generator?.windows.length !== 0) return '';
  return `; ${accuracyText(accuracy)}`;
}

/** A latency threshold crossed by more than a saturated generator can have added: said, so the reader weighs the figure. */
function saturatedBeside(section: LoadSection, crossed: LoadSection['thresholds']): string {
  const windows = section.generator?.windows ?? [];
  if (windows.length === 0 || !crossed.some((t) => isLatencyThreshold(t.metric))) return '';
  const bound = windows.map((w) => w.explainsMs).filter((ms): ms is number => ms !== undefined);
  const most = bound.length === 0 ? undefined : formatMs(Math.max(...bound));
  // The first crossed latency threshold's own samples when they were counted (its submetric's), else the run's requests.
  const first = crossed.find((t) => isLatencyThreshold(t.metric));
  const own = first === undefined ? undefined : section.generator?.submetricShares?.[first.metric];
  const share = own ?? section.generator?.requestShareInWindows;
  if (share !== undefined) {
    // The windows held too few of the requests to set the statistic, or (bounded windows) added less than the excess.
    const inside = `${(share * 100).toFixed(share < 0.1 ? 1 : 0)} % of ${own === undefined ? 'the' : `${first?.metric}'s`} requests measured then`;
    return ` while the load generator was saturated (${windowsText(windows)}; ${inside}): too few to set it${most === undefined ? '' : `, or more than the ${most} a request it can have added`}`;
  }
  if (most === undefined) return '';
  return ` while the load generator was saturated (${windowsText(windows)}), by more than the ${most} a request it can have added`;
}

/** "1 operation unverified: path assumed (v2.transaction.sim-portin: set writePaths.v2.transaction.sim-portin; its 1 threshold not judged)" */
function pathUnverifiedText(ops: NonNullable<LoadSection['unverifiedOperations']>, allowSkips: boolean): string {
  const named = nameSome(
    ops.map((o) => `${o.operation}: set writePaths.${o.operation}`),
    2,
  );
  return `${plural(ops.length, 'operation')} unverified: path assumed (${named})${allowSkips ? ' (accepted with --allow-skips)' : ''}`;
}

export function loadLine(section: LoadSection, allowSkips = false): string {
  const label = loadLabel(section);
  const found = loadProblems(section);
  const { crossed, failedChecks } = found;
  const problems: string[] = [];
  // Everything else of a run whose setup failed (thresholds without samples, checks that never ran) follows from it.
  if (found.unusable)
    return `${label}: setup() did not complete: the target could not be used (its catalog could not be read; see the run's output)`;
  if (crossed.length > 0) {
    problems.push(
      `${formatCount(crossed.length)} of ${plural(section.thresholds.length, 'threshold')} crossed (${crossed.slice(0, 2).map(thresholdText).join('; ')}${crossed.length > 2 ? ` +${crossed.length - 2} more` : ''})${saturatedBeside(section, crossed)}`,
    );
  }
  if (found.generatorBound.length > 0) problems.push(generatorBoundText(section, found.generatorBound, allowSkips));
  if (failedChecks.length > 0) {
    const first = failedChecks[0];
    if (first !== undefined) {
      problems.push(
        `check '${first.name}' failed ${formatCount(first.fails)} of ${formatCount(first.passes + first.fails)} times${failedChecks.length > 1 ? ` (+${failedChecks.length - 1} more failing checks)` : ''}`,
      );
    }
  }
  if (found.noRequest) problems.push('no request was sent, nothing was measured');
  if (found.unverified.length > 0) {
    problems.push(
      `${plural(found.unverified.length, 'threshold')} unverified, the metric got no sample (${nameSome(
        found.unverified.map((t) => `${t.metric} ${t.expression}`),
        2,
      )})`,
    );
  }
  if (found.neverRan.length > 0)
    problems.push(
      `${plural(found.neverRan.length, 'check')} never ran (${nameSome(
        found.neverRan.map((c) => c.name),
        2,
      )})`,
    );
  if (found.pathUnverified.length > 0) problems.push(pathUnverifiedText(found.pathUnverified, allowSkips));
  if (problems.length > 0) return `${label}: ${problems.join(', ')}${accuracyBeside(section)}`;
  const checks = section.checks.reduce((sum, c) => sum + c.passes, 0);
  return `${label}: ${formatCount(section.requests.count)} requests, ${plural(section.thresholds.length, 'threshold')} met, ${plural(checks, 'check')} passed${accuracyBeside(section)}`;
}

// ---- drift ----------------------------------------------------------------------------------------------------------

export type DriftNotChecked = NonNullable<DriftSection['notChecked']>[number];

export interface DriftInput {
  readonly baselineDir: string;
  /** Operation ids compared; an empty list means nothing was verified (incomplete). */
  readonly compared?: readonly string[];
  readonly findings: readonly DriftFinding[];
  /** Operations not compared now; `skipped` ones (described by the baseline) leave the section incomplete. */
  readonly notChecked?: readonly DriftNotChecked[];
}

/**
 * Breaking drift fails (spec: Versioning); non-breaking additions are reported and pass. Nothing compared, or an
 * operation of the baseline not checked now, is incomplete unless skips are accepted (--allow-skips).
 */
export function driftSection(input: DriftInput, options: { readonly allowSkips?: boolean } = {}): DriftSection {
  const breaking = input.findings.some((f) => f.kind === 'breaking');
  const skipped = (input.notChecked ?? []).some((n) => n.skipped);
  const verdict: Verdict = breaking
    ? 'fail'
    : input.compared !== undefined && input.compared.length === 0
      ? 'incomplete'
      : skipped && options.allowSkips !== true
        ? 'incomplete'
        : 'pass';
  return {
    verdict,
    baselineDir: input.baselineDir,
    ...(input.compared === undefined ? {} : { compared: [...input.compared] }),
    findings: input.findings.map((f) => ({ ...f })),
    ...(input.notChecked === undefined ? {} : { notChecked: input.notChecked.map((n) => ({ ...n })) }),
  };
}

export function driftSkipped(section: DriftSection): SkippedItem[] {
  return (section.notChecked ?? [])
    .filter((n) => n.skipped)
    .map((n) => ({ section: 'drift' as const, id: n.operationId, reason: n.reason }));
}

export function driftLine(section: DriftSection): string {
  const breaking = section.findings.filter((f) => f.kind === 'breaking');
  const nonBreaking = section.findings.length - breaking.length;
  if (breaking.length > 0) {
    return `drift: ${plural(breaking.length, 'breaking change')} (${nameSome(
      breaking.map((f) => `${f.operationId} ${f.path} ${f.change}`),
      2,
    )})`;
  }
  if (section.compared !== undefined && section.compared.length === 0) return 'drift: no operation was compared against the baseline';
  const where = section.compared === undefined ? '' : ` in ${plural(section.compared.length, 'operation')}`;
  const skipped = (section.notChecked ?? []).filter((n) => n.skipped);
  const notChecked =
    skipped.length === 0
      ? ''
      : `; ${formatCount(skipped.length)} operation${skipped.length === 1 ? '' : 's'} of the baseline not checked${section.verdict === 'pass' ? ' (accepted with --allow-skips)' : ', not verified'} (${nameSome(
          skipped.map((n) => n.operationId),
          2,
        )})`;
  return `drift: no breaking change${where}${nonBreaking > 0 ? ` (${plural(nonBreaking, 'non-breaking change')})` : ''}${notChecked}`;
}

// ---- migration ------------------------------------------------------------------------------------------------------

export type MigrationNotCompared = NonNullable<MigrationSection['notCompared']>[number];

/**
 * A regression (v2 fails where v1 succeeds) fails. No pair compared, or a selected pair not compared, is incomplete
 * unless skips are accepted (--allow-skips).
 */
export function migrationSection(
  pairs: readonly MigrationPair[],
  options: { readonly notCompared?: readonly MigrationNotCompared[]; readonly allowSkips?: boolean } = {},
): MigrationSection {
  const notCompared = options.notCompared ?? [];
  const verdict: Verdict = pairs.some((p) => p.regression)
    ? 'fail'
    : pairs.length === 0
      ? 'incomplete'
      : notCompared.length > 0 && options.allowSkips !== true
        ? 'incomplete'
        : 'pass';
  return {
    verdict,
    pairs: pairs.map((p) => ({ ...p })),
    ...(options.notCompared === undefined ? {} : { notCompared: notCompared.map((n) => ({ ...n })) }),
  };
}

export function migrationSkipped(section: MigrationSection): SkippedItem[] {
  return (section.notCompared ?? []).map((n) => ({ section: 'migration' as const, id: n.purpose, reason: n.reason }));
}

export function migrationLine(section: MigrationSection): string {
  const regressed = section.pairs.filter((p) => p.regression);
  const notCompared = section.notCompared ?? [];
  const skipped =
    notCompared.length === 0
      ? ''
      : `; ${formatCount(notCompared.length)} not compared${section.verdict === 'pass' ? ' (accepted with --allow-skips)' : ', not verified'} (${nameSome(
          notCompared.map((n) => n.purpose),
          2,
        )})`;
  if (regressed.length > 0) {
    return `migration: ${formatCount(regressed.length)} of ${plural(section.pairs.length, 'v1/v2 pair')} regressed (${nameSome(regressed.map((p) => p.purpose))})${skipped}`;
  }
  if (section.pairs.length === 0) return `migration: no v1/v2 pair was compared${skipped}`;
  return `migration: ${plural(section.pairs.length, 'v1/v2 pair')} compared, no regression${skipped}`;
}

// ---- comparison -----------------------------------------------------------------------------------------------------

/** A regression fails the run; an operation too thinly sampled to conclude is incomplete unless accepted (--allow-skips). */
export function comparisonVerdict(operations: readonly Pick<ComparedOperation, 'verdict'>[], allowSkips: boolean): Verdict {
  if (operations.some((o) => o.verdict === 'regression')) return 'fail';
  if (operations.length === 0) return 'incomplete';
  if (operations.some((o) => o.verdict === 'incomplete') && !allowSkips) return 'incomplete';
  return 'pass';
}

export function comparisonLine(section: ComparisonSection): string {
  const of = (v: ComparedOperation['verdict']): string[] => section.operations.filter((o) => o.verdict === v).map((o) => o.operation);
  const regressed = of('regression');
  const incomplete = of('incomplete');
  const improved = of('improvement');
  const engines =
    section.baseline.engine === section.candidate.engine
      ? ''
      : ` (engines differ: ${section.baseline.engine} vs ${section.candidate.engine})`;
  const parts = [
    regressed.length > 0
      ? `${formatCount(regressed.length)} of ${plural(section.operations.length, 'operation')} regressed (${nameSome(regressed)})`
      : '',
    incomplete.length > 0
      ? `${formatCount(incomplete.length)} too few samples to conclude${section.verdict === 'pass' ? ' (accepted with --allow-skips)' : ', not verified'} (${nameSome(incomplete)})`
      : '',
    improved.length > 0 ? `${formatCount(improved.length)} improved (${nameSome(improved)})` : '',
  ].filter((p) => p !== '');
  if (section.operations.length === 0) return `comparison: no operation to compare${engines}`;
  if (parts.length === 0) return `comparison: ${plural(section.operations.length, 'operation')} compared, no regression${engines}`;
  return `comparison: ${parts.join('; ')}${engines}`;
}

export function comparisonSkipped(section: ComparisonSection): SkippedItem[] {
  return section.operations
    .filter((o) => o.verdict === 'incomplete')
    .map((o) => ({ section: 'comparison' as const, id: o.operation, reason: o.reasons.join('; ') || 'too few samples to conclude' }));
}

// ---- ledger ---------------------------------------------------------------------------------------------------------

export interface LedgerInput {
  readonly file?: string;
  readonly entries: number;
  readonly charged: LedgerSection['charged'];
  readonly unresolved: readonly LedgerUnresolved[];
}

/** An unresolved charging transaction could not be verified: incomplete unless the user accepted it (--allow-skips). */
export function ledgerSection(input: LedgerInput, options: { readonly allowSkips: boolean }): LedgerSection {
  const verdict: Verdict = input.unresolved.length > 0 && !options.allowSkips ? 'incomplete' : 'pass';
  return {
    verdict,
    ...(input.file === undefined ? {} : { file: input.file }),
    entries: input.entries,
    charged: input.charged.map((c) => ({ ...c })),
    unresolved: input.unresolved.map((u) => ({ ...u })),
  };
}

export function ledgerLine(section: LedgerSection): string {
  const n = section.unresolved.length;
  if (n > 0) {
    return `ledger: ${plural(n, 'charging transaction')} unresolved${section.verdict === 'pass' ? ' (accepted with --allow-skips)' : ''}; run gateway-harness reconcile (${nameSome(section.unresolved.map((u) => u.correlationId))})`;
  }
  return `ledger: ${plural(section.entries, 'charging request')} recorded, all final`;
}

export function ledgerSkipped(section: LedgerSection): SkippedItem[] {
  return section.unresolved.map((u) => ({
    section: 'ledger' as const,
    id: u.correlationId,
    reason: `${u.operationId}: not final at the end of the run (last outcome ${u.lastOutcome})`,
  }));
}

/** The charged total per currency: "12.50 USD, 3.00 JMD". */
export function formatCharged(charged: LedgerSection['charged']): string {
  return charged.length === 0 ? 'nothing' : charged.map((c) => `${c.amount.toFixed(2)} ${c.currency}`).join(', ');
}
