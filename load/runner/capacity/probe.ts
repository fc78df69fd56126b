// One short load run through the measuring proxy (a `gateway-harness load` of its own, as a user runs it), on the Node
// engine or a real k6: what the generator reported beside what the proxy served. bench:wire, calibrate and accuracy.test.ts use it.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ACCURACY_GOAL, judgedPoints, pointsOf, saturationReason, type GeneratorReport } from '../../../reports/generator.ts';
import type { RunReport } from '../../../reports/model.ts';
import type { MeasuringProxy, Served } from './proxy.ts';

const CLI = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..', 'bin', 'gateway-harness.mjs');

/** The generator a probe runs: the Node engine, or a real k6 binary (the run's K6_BIN). */
export type ProbeEngine = { readonly kind: 'node' } | { readonly kind: 'k6'; readonly bin: string };

export interface ProbeResult {
  readonly vus: number;
  /** Iterations per second asked for (an arrival-rate run, `--rate`); undefined for a constant-VU run. */
  readonly rate?: number;
  /** The report's engine: 'node' or 'k6 v0.48.0'. */
  readonly engine: string;
  /** The generator's http_req_duration p50/p95/p99, ms. */
  readonly reported: { readonly p50: number; readonly p95: number; readonly p99: number };
  readonly served: Served;
  /** http_reqs of the report (setup's requests included; the preflight's balance read is not). */
  readonly requests: number;
  /** Requests and iterations per second over the run. */
  readonly requestRate: number;
  readonly iterationRate: number;
  /** The generator's saturation windows' reasons (reports/generator.ts), empty when none. */
  readonly windows: readonly string[];
  /** Why each second the judge found saturated was (a lone one too, which makes no window), empty when none. */
  readonly saturatedSeconds: readonly string[];
  /** dropped_iterations: iterations the arrival-rate plan asked for that no VU was free to start. */
  readonly droppedIterations: number;
  /** The report's statement of its latency accuracy (reports/generator.ts `accuracyOf`); undefined without a generator part. */
  readonly accuracy: GeneratorReport['accuracy'];
  /** The highest event-loop delay p99 of any second of the run (the busiest engine thread), ms; undefined on k6. */
  readonly peakLoopDelayP99Ms: number | undefined;
  /** The highest CPU share of any second (of the cores the generator could use): k6's process, the Node engine's whole process. */
  readonly peakCpuShare: number | undefined;
}

type Quantile = 'p50' | 'p95' | 'p99';

/** The most a reported figure may be to meet issue #36's accuracy goal: what was served, +3 ms + 5 %. */
export function goalBound(servedMs: number): number {
  return servedMs * (1 + ACCURACY_GOAL.share) + ACCURACY_GOAL.marginMs;
}

/** The accuracy goal of issue #36: reported p95 within +3 ms + 5 % of what the proxy served. */
export function withinGoal(result: Pick<AccuracyInput, 'reported' | 'served'>): boolean {
  return result.served.count > 0 && result.reported.p95 <= goalBound(result.served.p95);
}

/** What the judge reads of a run: its figures beside the proxy's, and the generator's own. */
export type AccuracyInput = Pick<ProbeResult, 'reported' | 'windows' | 'droppedIterations' | 'accuracy'> & {
  readonly served: Pick<Served, 'count' | Quantile>;
};

/** One quantile judged: reported beside served, their difference and ratio, and whether it meets the goal. */
export interface QuantileJudgement {
  readonly quantile: Quantile;
  readonly reportedMs: number;
  readonly servedMs: number;
  readonly differenceMs: number;
  readonly ratio: number | undefined;
  readonly within: boolean;
}

/** Each of p50/p95/p99 reported beside served, against +3 ms + 5 %; nothing served is never within. */
export function judgeQuantiles(result: Pick<AccuracyInput, 'reported' | 'served'>): QuantileJudgement[] {
  return (['p50', 'p95', 'p99'] as const).map((quantile): QuantileJudgement => {
    const reportedMs = result.reported[quantile];
    const servedMs = result.served[quantile];
    return {
      quantile,
      reportedMs,
      servedMs,
      differenceMs: reportedMs - servedMs,
      ratio: servedMs > 0 ? reportedMs / servedMs : undefined,
      within: result.served.count > 0 && reportedMs <= goalBound(servedMs),
    };
  });
}

/**
 * Whether the generator carried the run, by the report's own statement on either engine: no saturated window, no
 * dropped iteration (the plan was run as asked), and the report's accuracy within the goal (reports/generator.ts
 * `accuracyOf`: at least one second judged, and in every one no more added than the goal's 3 ms, a lone saturated
 * second included). The Node engine is judged by its busiest thread's event-loop delay p99; k6, which gives no loop
 * delay, by what /proc shows of its process (CPU, its threads' run-queue wait, the OS's wait per wake-up).
 */
function generatorCarried(result: Pick<AccuracyInput, 'windows' | 'droppedIterations' | 'accuracy'>): boolean {
  return result.windows.length === 0 && result.droppedIterations === 0 && result.accuracy?.withinGoal === true;
}

/**
 * A run's accuracy against the proxy, per quantile, and whether the generator carried it (`generatorCarried`). Only a
 * carried run proves the goal: a saturated one measures the generator.
 */
export function judgeAccuracy(result: AccuracyInput): {
  readonly quantiles: readonly QuantileJudgement[];
  readonly carried: boolean;
  readonly proven: boolean;
} {
  const quantiles = judgeQuantiles(result);
  const carried = generatorCarried(result);
  return { quantiles, carried, proven: carried && quantiles.every((q) => q.within) };
}

function runCli(args: readonly string[], engine: ProbeEngine): Promise<void> {
  const env = engine.kind === 'k6' ? { ...process.env, K6_BIN: engine.bin } : process.env;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: 'ignore', env });
    child.once('error', fail);
    child.once('exit', () => done());
  });
}

export interface ProbeOptions {
  readonly scenario: string;
  /** Constant VUs (smoke profile); not passed with `rate` (the profile's own VU pool). */
  readonly vus: number;
  readonly duration: string;
  readonly api?: string;
  /** Iterations per second: the `load` profile (an open model: ramp, hold, ramp down) at this rate instead of constant VUs. */
  readonly rate?: number;
  /** The generator; the Node engine when not given. */
  readonly engine?: ProbeEngine;
}

/** The CLI's arguments of one probe's load run, its report in `dir`. */
function loadArgs(proxy: MeasuringProxy, options: ProbeOptions, dir: string): string[] {
  const shape =
    options.rate === undefined
      ? ['--profile', 'smoke', '--vus', String(options.vus)]
      : ['--profile', 'load', '--rate', String(options.rate)];
  return [
    'load',
    '--scenario',
    options.scenario,
    ...shape,
    '--engine',
    options.engine?.kind ?? 'node',
    '--api',
    options.api ?? 'both',
    '--target',
    proxy.url,
    '--duration',
    options.duration,
    '--report-dir',
    dir,
  ];
}

/** Why each second the judge read was saturated (a lone one too), as generatorReport judges them. */
function saturatedSeconds(generator: GeneratorReport | undefined): string[] {
  if (generator === undefined) return [];
  const judged = judgedPoints(generator.source, pointsOf(generator.series));
  return judged.map((p) => saturationReason(p, generator.limits)).filter((r): r is string => r !== undefined);
}

function peakOf(values: ReadonlyArray<number | null> | undefined): number | undefined {
  const numbers = (values ?? []).filter((v): v is number => v !== null);
  return numbers.length === 0 ? undefined : Math.max(...numbers);
}

/** The probe's figures from the run's report beside what the proxy served. */
function resultOf(report: RunReport, served: Served, options: ProbeOptions): ProbeResult {
  const metrics = report.load?.metrics ?? {};
  const d = metrics.http_req_duration?.values ?? {};
  const generator = report.load?.generator;
  return {
    vus: options.vus,
    ...(options.rate === undefined ? {} : { rate: options.rate }),
    engine: report.load?.engine ?? options.engine?.kind ?? 'node',
    reported: { p50: d.med ?? 0, p95: d['p(95)'] ?? 0, p99: d['p(99)'] ?? 0 },
    served,
    requests: report.load?.requests.count ?? 0,
    requestRate: metrics.http_reqs?.values.rate ?? 0,
    iterationRate: metrics.iterations?.values.rate ?? 0,
    windows: generator?.windows.map((w) => w.reason) ?? [],
    saturatedSeconds: saturatedSeconds(generator),
    accuracy: generator?.accuracy,
    droppedIterations: generator?.droppedIterations ?? metrics.dropped_iterations?.values.count ?? 0,
    peakLoopDelayP99Ms: peakOf(generator?.series.loopDelayP99Ms),
    peakCpuShare: peakOf(generator?.series.cpuShare),
  };
}

/**
 * `scenario` at `vus` VUs (or `rate` iterations/s) for `duration` (k6 syntax) through `proxy`, both API versions, on
 * the Node engine or the k6 `options.engine` names.
 */
export async function probe(proxy: MeasuringProxy, options: ProbeOptions): Promise<ProbeResult> {
  const dir = mkdtempSync(join(tmpdir(), 'gh-probe-'));
  try {
    await proxy.served();
    const args = loadArgs(proxy, options, dir);
    await runCli(args, options.engine ?? { kind: 'node' });
    const served = await proxy.served();
    let report: RunReport;
    try {
      report = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as RunReport;
    } catch {
      const load = options.rate === undefined ? `${options.vus} VUs` : `${options.rate} it/s`;
      throw new Error(`the load run at ${load} left no report (run: gateway-harness ${args.join(' ')})`);
    }
    return resultOf(report, served, options);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
