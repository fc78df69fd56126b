// The load generator judged by its own measurements: seconds where it was saturated (event-loop delay, CPU, run-queue
// wait) form windows, and a latency threshold crossed while one lasted is the generator's figure, not the gateway's.
import type { GeneratorReport, LoadSection } from '../schemas/generated/types.ts';

export type { GeneratorReport };

/** One sampled second of the generator; a figure the engine cannot give is left out. */
export interface GeneratorPoint {
  /** End of the second, epoch ms. */
  readonly t: number;
  readonly cpuShare?: number;
  readonly runQueueShare?: number;
  readonly loopDelayP99Ms?: number;
  readonly busyShare?: number;
  /** k6: mean wait for a CPU per wake-up of its threads, ms. */
  readonly waitPerSliceMs?: number;
  /** k6: the share of its threads' context switches that were involuntary (preempted with work left), 0..1. */
  readonly preemptedShare?: number;
}

export type GeneratorLimits = GeneratorReport['limits'];

/**
 * Above any of these in a second, the generator was saturated then (engine/README.md "Honest numbers at the limit"
 * has the measurements). Event-loop delay: a response waits that long for its turn before the script reads its time;
 * p99 over 20 ms already breaks the harness's accuracy goal (+3 ms + 5 % of what the gateway served), and a lone GC
 * pause stays under minWindowSec. CPU: above 90 % of the cores the run could use, every thread queues for a CPU; k6's
 * runnable time (its CPU plus its threads' run-queue wait) above the same 90 % says the same of a starved k6 (a hog
 * took the CPU it wanted). Run-queue wait: the threads together waited for a CPU more than half of the cores' time.
 */
export const GENERATOR_LIMITS: GeneratorLimits = Object.freeze({ loopDelayP99Ms: 20, cpuShare: 0.9, runQueueShare: 0.5, minWindowSec: 2 });

/**
 * Why this second was saturated, or undefined when it was not. The Node engine's threads are judged by their own
 * event-loop delay (the process's CPU includes the embedded sandbox's); k6 by its process's CPU and run-queue wait.
 */
export function saturationReason(point: GeneratorPoint, limits: GeneratorLimits = GENERATOR_LIMITS): string | undefined {
  if (point.loopDelayP99Ms !== undefined)
    return point.loopDelayP99Ms > limits.loopDelayP99Ms ? `event-loop delay p99 ${Math.round(point.loopDelayP99Ms)} ms` : undefined;
  if (point.cpuShare !== undefined && point.cpuShare > limits.cpuShare) return `CPU ${Math.round(point.cpuShare * 100)} % of the cores`;
  const runnable = runnableShare(point);
  if (runnable !== undefined && runnable > limits.cpuShare) {
    return `CPU-starved: wanted ${percent(runnable)} of the cores it may use, got ${percent(point.cpuShare ?? 0)} (its threads waited for a CPU ${percent(point.runQueueShare ?? 0)} of the cores' time)`;
  }
  if (point.runQueueShare !== undefined && point.runQueueShare > limits.runQueueShare) {
    return `threads waiting for a CPU ${percent(point.runQueueShare)} of the cores' time${point.waitPerSliceMs === undefined ? '' : ` (${point.waitPerSliceMs.toFixed(1)} ms per wake-up)`}`;
  }
  return undefined;
}

function percent(share: number): string {
  return `${Math.round(share * 100)} %`;
}

/**
 * The share of the cores the process may use that its threads wanted this second: running (CPU) or runnable and
 * waiting for a CPU (run-queue wait, /proc/<pid>/task/<tid>/schedstat). A k6 starved by a hog runs little but waits
 * much; its own wait is visible to the OS, the goroutines queued behind it are not. Undefined without schedstat.
 */
function runnableShare(point: GeneratorPoint): number | undefined {
  return point.runQueueShare === undefined ? undefined : (point.cpuShare ?? 0) + point.runQueueShare;
}

/**
 * The most this second's generator can have added to a measured request time: its event-loop delay p99 (Node), else
 * its wait per wake-up (k6 queued by the OS now and then). Undefined when unbounded: k6 wanted more than `cpuShare` of
 * its cores (it used them, or a hog took them while its threads waited). Go runs k6's goroutines on as many threads as
 * those cores (GOMAXPROCS); with every one busy or waiting, a goroutine readied by a response (the read that stops its
 * clock) queues in Go's own run queue behind the backlog, a wait no /proc figure shows and nothing bounds but the window.
 */
export function explainsMs(point: GeneratorPoint, limits: GeneratorLimits = GENERATOR_LIMITS): number | undefined {
  if (point.loopDelayP99Ms !== undefined) return point.loopDelayP99Ms;
  if (point.cpuShare !== undefined && point.cpuShare > limits.cpuShare) return undefined;
  const runnable = runnableShare(point);
  if (runnable !== undefined && runnable > limits.cpuShare) return undefined;
  return point.waitPerSliceMs ?? undefined;
}

type Window = GeneratorReport['windows'][number];

function peak(points: readonly GeneratorPoint[], key: 'loopDelayP99Ms' | 'cpuShare'): number | undefined {
  const values = points.map((p) => p[key]).filter((v): v is number => v !== undefined);
  return values.length === 0 ? undefined : Math.max(...values);
}

/** The window's bound: the highest of its seconds', none when any second is unbounded. */
function windowExplains(run: readonly GeneratorPoint[], limits: GeneratorLimits): number | undefined {
  let most = 0;
  for (const point of run) {
    const ms = explainsMs(point, limits);
    if (ms === undefined) return undefined;
    most = Math.max(most, ms);
  }
  return most;
}

function windowOf(run: readonly GeneratorPoint[], reasons: readonly string[], limits: GeneratorLimits): Window {
  const first = run[0] as GeneratorPoint;
  const last = run[run.length - 1] as GeneratorPoint;
  const delay = peak(run, 'loopDelayP99Ms');
  const cpu = peak(run, 'cpuShare');
  // The worst second's reason speaks for the window: the one with the highest delay, else the first.
  const worst = delay === undefined ? 0 : run.findIndex((p) => p.loopDelayP99Ms === delay);
  const explains = windowExplains(run, limits);
  return {
    startMs: first.t - 1000,
    endMs: last.t,
    reason: reasons[Math.max(0, worst)] ?? '',
    ...(delay === undefined ? {} : { peakLoopDelayP99Ms: delay }),
    ...(cpu === undefined ? {} : { peakCpuShare: cpu }),
    ...(explains === undefined ? {} : { explainsMs: explains }),
  };
}

/** Runs of at least `minWindowSec` consecutive saturated seconds (points are one second apart, in order). */
export function saturatedWindows(points: readonly GeneratorPoint[], limits: GeneratorLimits = GENERATOR_LIMITS): Window[] {
  const windows: Window[] = [];
  let run: GeneratorPoint[] = [];
  let reasons: string[] = [];
  const close = (): void => {
    if (run.length >= limits.minWindowSec) windows.push(windowOf(run, reasons, limits));
    run = [];
    reasons = [];
  };
  for (const point of points) {
    const reason = saturationReason(point, limits);
    if (reason === undefined) close();
    else {
      run.push(point);
      reasons.push(reason);
    }
  }
  close();
  return windows;
}

const FIGURES = ['cpuShare', 'runQueueShare', 'loopDelayP99Ms', 'busyShare', 'waitPerSliceMs', 'preemptedShare'] as const;

/** Points of several samplers (the /proc monitor, the engine's threads) merged per second (floor of t), the highest of each figure. */
export function mergeBySecond(...sources: ReadonlyArray<readonly GeneratorPoint[]>): GeneratorPoint[] {
  const bySecond = new Map<number, Record<string, number>>();
  for (const point of sources.flat()) {
    const key = Math.floor(point.t / 1000);
    const merged = bySecond.get(key) ?? { t: point.t };
    merged.t = Math.max(merged.t ?? 0, point.t);
    for (const figure of FIGURES) {
      const value = point[figure];
      if (value !== undefined) merged[figure] = Math.max(merged[figure] ?? value, value);
    }
    bySecond.set(key, merged);
  }
  return [...bySecond.entries()].sort(([a], [b]) => a - b).map(([, p]) => p as unknown as GeneratorPoint);
}

function column(points: readonly GeneratorPoint[], key: keyof Omit<GeneratorPoint, 't'>): (number | null)[] | undefined {
  if (!points.some((p) => p[key] !== undefined)) return undefined;
  return points.map((p) => p[key] ?? null);
}

/**
 * The harness's accuracy goal (issue #36): a reported latency within +3 ms + 5 % of what the gateway served. A second in
 * which the generator's own figures say it added more than `marginMs` (or give no bound) puts the run's latency outside
 * it; the measuring-proxy test (load/runner/capacity/accuracy.test.ts) holds the report to this statement.
 */
export const ACCURACY_GOAL = Object.freeze({ marginMs: 3, share: 0.05 });

type Accuracy = NonNullable<GeneratorReport['accuracy']>;

/** The seconds the judge reads: the Node engine's by its threads' loop delay (the process's CPU includes the sandbox's), k6's by its CPU. */
export function judgedPoints(source: GeneratorReport['source'], points: readonly GeneratorPoint[]): GeneratorPoint[] {
  return points.filter((p) => (source === 'node' ? p.loopDelayP99Ms : p.cpuShare) !== undefined);
}

/** What the generator added in a second past the goal's margin, or undefined when it stayed within it. */
function pastMargin(point: GeneratorPoint, limits: GeneratorLimits): string | undefined {
  const saturated = saturationReason(point, limits);
  if (saturated !== undefined) return saturated;
  const added = explainsMs(point, limits);
  if (added !== undefined && added <= ACCURACY_GOAL.marginMs) return undefined;
  if (point.loopDelayP99Ms !== undefined) return `event-loop delay p99 ${point.loopDelayP99Ms.toFixed(1)} ms`;
  return added === undefined ? 'no bound on its own delay' : `${added.toFixed(1)} ms wait for a CPU per wake-up`;
}

/**
 * Whether the run's latency figures are within the accuracy goal by the generator's own measurements: every judged
 * second added at most the goal's 3 ms. Wider than a saturated window (20 ms over 2 seconds changes the verdict):
 * a lone late second, or seconds 3–20 ms late, move a short run's p95/p99 past the goal, and the report says so.
 */
export function accuracyOf(
  source: GeneratorReport['source'],
  points: readonly GeneratorPoint[],
  limits: GeneratorLimits = GENERATOR_LIMITS,
): Accuracy {
  const judged = judgedPoints(source, points);
  const past = judged.filter((p) => pastMargin(p, limits) !== undefined).length;
  const added = judged.map((p) => explainsMs(p, limits));
  const bounded = judged.length > 0 && added.every((ms) => ms !== undefined);
  const worst = worstReason(judged, limits);
  return {
    marginMs: ACCURACY_GOAL.marginMs,
    withinGoal: judged.length > 0 && past === 0,
    judgedSeconds: judged.length,
    secondsPastMargin: past,
    ...(bounded ? { addedUpToMs: Math.max(...(added as number[])) } : {}),
    ...(worst === undefined ? {} : { worst }),
  };
}

/** The reason of the second that added the most (an unbounded one first). */
function worstReason(judged: readonly GeneratorPoint[], limits: GeneratorLimits): string | undefined {
  let worst: { ms: number; why: string } | undefined;
  for (const point of judged) {
    const why = pastMargin(point, limits);
    if (why === undefined) continue;
    const ms = explainsMs(point, limits) ?? Infinity;
    if (worst === undefined || ms > worst.ms) worst = { ms, why };
  }
  return worst?.why;
}

/** The report's generator part from the sampled seconds (without `carried`, which needs the load series). */
export function generatorReport(
  source: GeneratorReport['source'],
  cores: number,
  points: readonly GeneratorPoint[],
  limits: GeneratorLimits = GENERATOR_LIMITS,
): GeneratorReport {
  const optional = {
    runQueueShare: column(points, 'runQueueShare'),
    loopDelayP99Ms: column(points, 'loopDelayP99Ms'),
    busyShare: column(points, 'busyShare'),
    waitPerSliceMs: column(points, 'waitPerSliceMs'),
    preemptedShare: column(points, 'preemptedShare'),
  };
  const series: GeneratorReport['series'] = { t: points.map((p) => p.t), cpuShare: points.map((p) => p.cpuShare ?? null) };
  for (const [key, values] of Object.entries(optional)) if (values !== undefined) Object.assign(series, { [key]: values });
  // The Node engine is judged by its threads' loop delay alone: a second without one (setup, before the threads report)
  // says nothing, whatever the process's CPU (the embedded sandbox's among it) was.
  const judged = source === 'node' ? points.map((p) => (p.loopDelayP99Ms === undefined ? { t: p.t } : p)) : points;
  return {
    source,
    cores,
    limits: { ...limits },
    series,
    windows: saturatedWindows(judged, limits),
    accuracy: accuracyOf(source, points, limits),
  };
}

/** Thresholds on a time a request or iteration took: what a saturated generator inflates (counts and rates it does not). */
export function isLatencyThreshold(metric: string): boolean {
  const base = metric.replace(/\{.*$/, '');
  return (
    /^(http_req_(duration|waiting|blocked|connecting|sending|receiving|tls_handshaking)|iteration_duration|group_duration)$/.test(base) ||
    /_duration$/.test(base)
  );
}

/** The bound an upper-limit expression sets (`p(95)<500`, `max<=80`), or undefined for any other. */
function upperLimit(expression: string): number | undefined {
  const m = /^\s*(?:avg|min|med|max|p\([\d.]+\))\s*<=?\s*(-?[\d.]+)\s*$/.exec(expression);
  return m === null ? undefined : Number(m[1]);
}

/**
 * The share of the samples that must have been measured inside the windows for them to move the statistic past its
 * limit: a p(95) is set by the slowest 5 % (more than 5 % inside), a median by half, a max or an average by any one, a
 * min only by all of them.
 */
function sharesNeeded(expression: string): number {
  const stat = /^\s*(avg|min|med|max|p\(([\d.]+)\))/.exec(expression);
  if (stat?.[1] === 'min') return 1;
  if (stat?.[1] === 'med') return 0.5;
  if (stat?.[2] !== undefined) return 1 - Number(stat[2]) / 100;
  return 0;
}

/**
 * The share of the run's requests measured inside the windows, from the load series (each bucket's requests weighted by
 * the part of it a window covers); undefined without a series.
 */
export function requestShareInWindows(windows: GeneratorReport['windows'], series: LoadSection['series']): number | undefined {
  if (series === undefined) return undefined;
  let inside = 0;
  let total = 0;
  for (let i = 0; i < series.buckets; i += 1) {
    const start = series.startTime + i * series.intervalMs;
    const end = start + series.intervalMs;
    const requests = series.requests[i] ?? 0;
    const covered = windows.reduce((sum, w) => sum + Math.max(0, Math.min(end, w.endMs) - Math.max(start, w.startMs)), 0);
    inside += (requests * Math.min(series.intervalMs, covered)) / series.intervalMs;
    total += requests;
  }
  return total === 0 ? undefined : inside / total;
}

/**
 * The crossed latency thresholds a saturated generator explains (`metric expression`): while a window lasted, a
 * threshold whose observed value exceeds its limit by no more than the generator can have added (the windows' highest
 * bound; no bound: any excess), and whose statistic the windows' samples can have set: the share of the threshold's own
 * samples measured inside them (`submetricShares`, per threshold metric: `http_req_duration{scenario:browse}` counts its
 * scenario's requests only), else `insideShare`, the run's (a 2 s window at the start of a 60 s run does not make its
 * p(95)). A gateway slower than that still crosses. Counts, rates and business failures keep their own verdicts.
 */
export function generatorBoundThresholds(
  thresholds: LoadSection['thresholds'],
  generator: Pick<GeneratorReport, 'windows'> | undefined,
  insideShare?: number,
  submetricShares?: ReadonlyMap<string, number>,
): string[] {
  if (generator === undefined || generator.windows.length === 0) return [];
  const bounds = generator.windows.map((w) => w.explainsMs);
  const explains = bounds.some((b) => b === undefined) ? Infinity : Math.max(...(bounds as number[]));
  const explained = (t: LoadSection['thresholds'][number]): boolean => {
    const share = submetricShares?.get(t.metric) ?? insideShare;
    if (share !== undefined && !(share > sharesNeeded(t.expression) || share >= 1)) return false;
    const limit = upperLimit(t.expression);
    return limit === undefined || t.observed === undefined || t.observed - limit <= explains;
  };
  return thresholds.filter((t) => !t.ok && isLatencyThreshold(t.metric) && explained(t)).map((t) => `${t.metric} ${t.expression}`);
}

function clock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}

/** "01:02:03–01:02:09 UTC (event-loop delay p99 240 ms)" for each window, the first two named. */
export function windowsText(windows: GeneratorReport['windows']): string {
  const named = windows.slice(0, 2).map((w) => `${clock(w.startMs)}–${clock(w.endMs)} UTC, ${w.reason}`);
  return `${named.join('; ')}${windows.length > 2 ? ` +${windows.length - 2} more` : ''}`;
}

/** The sampled seconds back from the report's columns. */
export function pointsOf(series: GeneratorReport['series']): GeneratorPoint[] {
  return series.t.map((t, i) => {
    const point: Record<string, number> = { t };
    for (const figure of FIGURES) {
      const value = series[figure]?.[i];
      if (value !== undefined && value !== null) point[figure] = value;
    }
    return point as unknown as GeneratorPoint;
  });
}

/**
 * What the machine carried honestly, from the load series: the highest VUs and requests per second of a bucket whose
 * measured seconds (those ending within it, give or take half a second) were all free of saturation; a bucket with no
 * measured second says nothing.
 */
export function carriedOutside(
  generator: Pick<GeneratorReport, 'series' | 'limits'>,
  series: LoadSection['series'],
): GeneratorReport['carried'] {
  if (series === undefined) return undefined;
  const points = pointsOf(generator.series);
  let vus = 0;
  let rate = 0;
  for (let i = 0; i < series.buckets; i += 1) {
    const start = series.startTime + i * series.intervalMs;
    const inside = points.filter((p) => p.t > start + 500 && p.t <= start + series.intervalMs + 500);
    if (inside.length === 0 || inside.some((p) => saturationReason(p, generator.limits) !== undefined)) continue;
    vus = Math.max(vus, series.vus[i] ?? 0);
    rate = Math.max(rate, ((series.requests[i] ?? 0) * 1000) / series.intervalMs);
  }
  return { vus, requestRate: Math.round(rate * 10) / 10 };
}
