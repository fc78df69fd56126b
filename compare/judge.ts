// Judges a candidate run against a baseline, per operation: latency quantiles and failure rates with confidence
// intervals and tests, Holm's correction over the operations, practical thresholds, "incomplete" when too few samples.
import type { ComparedOperation, ComparedRun, ComparedStat, ComparisonSection } from '../reports/model.ts';
import { changeText, estimateText } from '../reports/comparison-text.ts';
import { comparisonVerdict } from '../reports/sections.ts';
import { estimateQuantile, quantileTest, type QuantileEstimate, type QuantileSample } from '../stats/quantiles.ts';
import { DEFAULT_COMPARE_SETTINGS, type CompareSettings } from '../stats/regression-settings.ts';
import type { OperationSamples } from './run-samples.ts';
import { ALL_OPERATIONS, type RateCell, type RunSamples } from './run-samples.ts';
import { designEffect, holm, minimumSamples, twoProportionTest, wilsonInterval } from '../stats/statistics.ts';

export const METHOD =
  'latency: nearest-rank quantiles from histograms with 0.1 % log buckets; distribution-free order-statistic intervals (exact binomial ranks) ' +
  "and Mood's quantile test, each run's sample size divided by the design effect its time batches show (autocorrelation); " +
  'rates: Wilson intervals and the two-proportion z-test on the same effective sizes; Holm over the operations per statistic';

type Status = ComparedStat['status'];
type Side = 'baseline' | 'candidate';

interface Draft {
  readonly stat: ComparedStat;
  /** Direction and practical size decided; significance decided later (Holm) for judged statistics. */
  readonly beyond: 'worse' | 'better' | 'none';
  readonly complete: boolean;
}

function latencySample(samples: OperationSamples | undefined, ttf: boolean): QuantileSample | undefined {
  if (samples === undefined) return undefined;
  return ttf
    ? { total: samples.timeToFinal, batches: samples.timeToFinalBatches }
    : { total: samples.latency, batches: samples.latencyBatches };
}

function ci(e: QuantileEstimate): ComparedStat['baseline'] {
  return e.n === 0 ? null : { value: e.value, low: e.low ?? null, high: e.high ?? null };
}

function draftQuantile(
  a: QuantileSample | undefined,
  b: QuantileSample | undefined,
  q: number,
  settings: CompareSettings,
  minimum: number,
  judged: boolean,
): Draft {
  const ea = a === undefined ? undefined : estimateQuantile(a, q, settings.alpha);
  const eb = b === undefined ? undefined : estimateQuantile(b, q, settings.alpha);
  const complete = ea !== undefined && eb !== undefined && ea.effective >= minimum && eb.effective >= minimum;
  const change = ea !== undefined && eb !== undefined && ea.n > 0 && eb.n > 0 ? eb.value - ea.value : null;
  const pValue = a !== undefined && b !== undefined && complete ? quantileTest(a, b, q) : null;
  const base = ea?.value ?? 0;
  const practical = (d: number): boolean => d >= settings.latencyAbsoluteMs && d >= settings.latencyRelative * base;
  const beyond = change === null ? 'none' : practical(change) ? 'worse' : practical(-change) ? 'better' : 'none';
  return {
    beyond,
    complete,
    stat: {
      baseline: ea === undefined ? null : ci(ea),
      candidate: eb === undefined ? null : ci(eb),
      change,
      relativeChange: change !== null && base > 0 ? change / base : null,
      pValue,
      significant: false,
      judged,
      status: complete ? 'no-change' : 'incomplete',
      samples: {
        baseline: { n: ea?.n ?? 0, effective: round(ea?.effective ?? 0) },
        candidate: { n: eb?.n ?? 0, effective: round(eb?.effective ?? 0) },
      },
    },
  };
}

function rateTotals(cells: readonly RateCell[]): { n: number; hits: number; effect: number } {
  const n = cells.reduce((s, c) => s + c.n, 0);
  const hits = cells.reduce((s, c) => s + c.hits, 0);
  return { n, hits, effect: n === 0 ? 1 : designEffect(cells, hits / n) };
}

function draftRate(
  a: readonly RateCell[] | undefined,
  b: readonly RateCell[] | undefined,
  settings: CompareSettings,
  minimum: number,
): Draft {
  const ta = a === undefined ? undefined : rateTotals(a);
  const tb = b === undefined ? undefined : rateTotals(b);
  const estimate = (t: typeof ta): ComparedStat['baseline'] => {
    if (t === undefined || t.n === 0) return null;
    const interval = wilsonInterval(t.hits / t.effect, t.n / t.effect, settings.alpha);
    return { value: t.hits / t.n, low: interval?.low ?? null, high: interval?.high ?? null };
  };
  // A metric neither run wrote (a stream from outside the load suites) is not measured: reported, not judged.
  const measured = (ta?.n ?? 0) > 0 || (tb?.n ?? 0) > 0;
  const effA = ta === undefined ? 0 : ta.n / ta.effect;
  const effB = tb === undefined ? 0 : tb.n / tb.effect;
  const complete = !measured || (effA >= minimum && effB >= minimum);
  const ea = estimate(ta);
  const eb = estimate(tb);
  const change = ea !== null && eb !== null ? eb.value - ea.value : null;
  // No event on either side: the test cannot reject, so it leaves the family (Tarone's rule for discrete tests).
  const pValue =
    complete && ta !== undefined && tb !== undefined && ta.hits + tb.hits > 0
      ? twoProportionTest(ta.hits, ta.n, tb.hits, tb.n, ta.effect, tb.effect).pValue
      : null;
  const points = settings.failureRatePoints / 100;
  const beyond = change === null ? 'none' : change >= points ? 'worse' : -change >= points ? 'better' : 'none';
  return {
    beyond,
    complete,
    stat: {
      baseline: ea,
      candidate: eb,
      change,
      relativeChange: change !== null && ea !== null && ea.value > 0 ? change / ea.value : null,
      pValue,
      significant: false,
      judged: measured,
      status: complete ? 'no-change' : 'incomplete',
      samples: { baseline: { n: ta?.n ?? 0, effective: round(effA) }, candidate: { n: tb?.n ?? 0, effective: round(effB) } },
    },
  };
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

/** Fixes a draft's status from its (adjusted) p-value. */
function settle(draft: Draft, p: number | null, alpha: number, adjusted?: number | null): ComparedStat {
  const significant = p !== null && p <= alpha;
  let status: Status = draft.stat.status;
  if (draft.complete)
    status =
      significant && draft.beyond === 'worse' ? 'regression' : significant && draft.beyond === 'better' ? 'improvement' : 'no-change';
  return { ...draft.stat, significant, status, ...(adjusted === undefined ? {} : { adjustedPValue: adjusted }) };
}

interface OperationDrafts {
  readonly operation: string;
  readonly only?: Side;
  readonly p50: Draft;
  readonly p95: Draft;
  readonly p99: Draft;
  readonly business: Draft;
  readonly http: Draft;
  readonly schema: Draft;
  readonly ttf50: Draft | undefined;
  readonly ttf95: Draft | undefined;
  readonly throughput: { baseline: number; candidate: number };
  readonly cdf: { baseline: number[][]; candidate: number[][] };
}

function draftOperation(operation: string, a: RunSamples, b: RunSamples, settings: CompareSettings, minimum: number): OperationDrafts {
  const sa = a.operations.get(operation);
  const sb = b.operations.get(operation);
  const q = settings.latencyQuantile;
  const hasTtf = (sa?.timeToFinal.count ?? 0) > 0 || (sb?.timeToFinal.count ?? 0) > 0;
  const perSecond = (s: OperationSamples | undefined, run: RunSamples): number =>
    s === undefined || run.durationMs <= 0 ? 0 : round((s.requests * 1000) / run.durationMs);
  return {
    operation,
    ...(sa === undefined ? { only: 'candidate' as const } : sb === undefined ? { only: 'baseline' as const } : {}),
    p50: draftQuantile(latencySample(sa, false), latencySample(sb, false), 0.5, settings, minimumSamples(0.5, settings.alpha), false),
    p95: draftQuantile(latencySample(sa, false), latencySample(sb, false), q, settings, minimum, true),
    p99: draftQuantile(latencySample(sa, false), latencySample(sb, false), 0.99, settings, minimumSamples(0.99, settings.alpha), false),
    business: draftRate(sa?.business, sb?.business, settings, minimum),
    http: draftRate(sa?.http, sb?.http, settings, minimum),
    schema: draftRate(sa?.schema, sb?.schema, settings, minimum),
    ttf50: hasTtf
      ? draftQuantile(latencySample(sa, true), latencySample(sb, true), 0.5, settings, minimumSamples(0.5, settings.alpha), false)
      : undefined,
    ttf95: hasTtf
      ? draftQuantile(latencySample(sa, true), latencySample(sb, true), 0.95, settings, minimumSamples(0.95, settings.alpha), false)
      : undefined,
    throughput: { baseline: perSecond(sa, a), candidate: perSecond(sb, b) },
    cdf: { baseline: sa?.latency.cdf() ?? [], candidate: sb?.latency.cdf() ?? [] },
  };
}

const JUDGED = ['p95', 'business', 'http', 'schema'] as const;
const LABEL: Readonly<Record<(typeof JUDGED)[number], string>> = {
  p95: 'p95',
  business: 'business failures',
  http: 'HTTP failures',
  schema: 'schema violations',
};

function finishOperation(
  d: OperationDrafts,
  judged: Record<(typeof JUDGED)[number], ComparedStat>,
  settings: CompareSettings,
): ComparedOperation {
  const alpha = settings.alpha;
  const reasons: string[] = [];
  const stats = JUDGED.map((k) => [k, judged[k]] as const);
  if (d.only !== undefined) reasons.push(`only in the ${d.only} run: nothing to compare`);
  for (const [k, s] of stats)
    if (s.status === 'regression' || s.status === 'improvement')
      reasons.push(
        `${s.status}: ${LABEL[k]} ${k === 'p95' ? changeText(s, 'ms') : `${estimateText(s.baseline, 'rate')} → ${estimateText(s.candidate, 'rate')}, ${changeText(s, 'rate')}`}`,
      );
  for (const [k, s] of stats) {
    if (s.status === 'incomplete' && d.only === undefined) {
      reasons.push(
        `${LABEL[k]}: too few samples to conclude (effective ${s.samples?.baseline.effective ?? 0} / ${s.samples?.candidate.effective ?? 0}, need ${minimumSamples(settings.latencyQuantile, alpha)} each)`,
      );
    }
  }
  const statuses = stats.map(([, s]) => s.status);
  const verdict: ComparedOperation['verdict'] = statuses.includes('regression')
    ? 'regression'
    : d.only !== undefined || statuses.includes('incomplete')
      ? 'incomplete'
      : statuses.includes('improvement')
        ? 'improvement'
        : 'no-change';
  return {
    operation: d.operation,
    verdict,
    reasons,
    latency: { p50: settle(d.p50, d.p50.stat.pValue, alpha), p95: judged.p95, p99: settle(d.p99, d.p99.stat.pValue, alpha) },
    businessFailureRate: judged.business,
    httpFailureRate: judged.http,
    schemaViolationRate: judged.schema,
    throughput: d.throughput,
    ...(d.ttf50 === undefined || d.ttf95 === undefined
      ? {}
      : { timeToFinal: { p50: settle(d.ttf50, d.ttf50.stat.pValue, alpha), p95: settle(d.ttf95, d.ttf95.stat.pValue, alpha) } }),
    cdf: d.cdf,
  };
}

function describeRun(run: RunSamples): ComparedRun {
  return {
    dir: run.dir,
    ...(run.runId === undefined ? {} : { runId: run.runId }),
    engine: run.engine,
    ...(run.scenario === undefined ? {} : { scenario: run.scenario }),
    ...(run.profile === undefined ? {} : { profile: run.profile }),
    files: [...run.files],
    requests: Math.round(run.operations.get(ALL_OPERATIONS)?.requests ?? 0),
    durationMs: run.durationMs,
  };
}

const ORDER: Readonly<Record<ComparedOperation['verdict'], number>> = { regression: 0, incomplete: 1, improvement: 2, 'no-change': 3 };

/** The comparison section: every operation of either run, regressions first. */
export function compareRuns(
  baseline: RunSamples,
  candidate: RunSamples,
  settings: CompareSettings = DEFAULT_COMPARE_SETTINGS,
  options: { allowSkips?: boolean } = {},
): ComparisonSection {
  const minimum = minimumSamples(settings.latencyQuantile, settings.alpha);
  const names = [...new Set([...baseline.operations.keys(), ...candidate.operations.keys()])].filter((n) => n !== ALL_OPERATIONS).sort();
  const drafts = names.map((n) => draftOperation(n, baseline, candidate, settings, minimum));
  // Holm per judged statistic over the operations that could be tested.
  const judged = drafts.map(() => ({}) as Record<(typeof JUDGED)[number], ComparedStat>);
  for (const key of JUDGED) {
    const tested = drafts.map((d, i) => [d[key], i] as const).filter(([d]) => d.stat.pValue !== null);
    const { adjusted } = holm(
      tested.map(([d]) => d.stat.pValue as number),
      settings.alpha,
    );
    for (const [i, d] of drafts.entries()) (judged[i] as Record<string, ComparedStat>)[key] = settle(d[key], null, settings.alpha);
    for (const [j, [d, i]] of tested.entries()) {
      const adj = adjusted[j] as number;
      (judged[i] as Record<string, ComparedStat>)[key] = settle(d, adj, settings.alpha, adj);
    }
  }
  const operations = drafts
    .map((d, i) => finishOperation(d, judged[i] as Record<(typeof JUDGED)[number], ComparedStat>, settings))
    .sort((x, y) => ORDER[x.verdict] - ORDER[y.verdict] || x.operation.localeCompare(y.operation));
  // Every request together: reported the same way, one test each (no family); the verdict is the operations'.
  const all = draftOperation(ALL_OPERATIONS, baseline, candidate, settings, minimum);
  const overall = finishOperation(
    all,
    {
      p95: settle(all.p95, all.p95.stat.pValue, settings.alpha),
      business: settle(all.business, all.business.stat.pValue, settings.alpha),
      http: settle(all.http, all.http.stat.pValue, settings.alpha),
      schema: settle(all.schema, all.schema.stat.pValue, settings.alpha),
    },
    settings,
  );
  const notes: string[] = [];
  if (baseline.engine !== candidate.engine)
    notes.push(
      `the runs ran on different engines (baseline ${baseline.engine}, candidate ${candidate.engine}): compared anyway; part of a difference may be the engine's`,
    );
  if (baseline.scenario !== candidate.scenario || baseline.profile !== candidate.profile) {
    notes.push(
      `the runs differ in scenario or profile (baseline ${baseline.scenario ?? '?'}/${baseline.profile ?? '?'}, candidate ${candidate.scenario ?? '?'}/${candidate.profile ?? '?'})`,
    );
  }
  for (const run of [baseline, candidate])
    if (run.badLines > 0) notes.push(`${run.dir}: ${run.badLines} lines were not k6 output and were not read`);
  notes.push(`the overall row pools every operation and is reported, not judged: the verdict is the operations'`);
  return {
    verdict: comparisonVerdict(operations, options.allowSkips ?? false),
    baseline: describeRun(baseline),
    candidate: describeRun(candidate),
    settings: { ...settings, correction: 'holm', minimumEffectiveSamples: minimum, method: METHOD },
    operations,
    overall,
    notes,
  };
}
