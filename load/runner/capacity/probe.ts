// One short Node-engine load run through the measuring proxy (a `gateway-harness load` of its own, as a user runs it):
// what the engine reported beside what the proxy served. bench:wire and `gateway-harness calibrate` measure with it.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunReport } from '../../../reports/model.ts';
import type { MeasuringProxy, Served } from './proxy.ts';

const CLI = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..', 'bin', 'gateway-harness.mjs');

export interface ProbeResult {
  readonly vus: number;
  /** Iterations per second asked for (an arrival-rate run, `--rate`); undefined for a constant-VU run. */
  readonly rate?: number;
  /** The engine's http_req_duration p50/p95/p99, ms. */
  readonly reported: { readonly p50: number; readonly p95: number; readonly p99: number };
  readonly served: Served;
  readonly requests: number;
  /** Requests and iterations per second over the run. */
  readonly requestRate: number;
  readonly iterationRate: number;
  /** The generator's saturation windows' reasons (reports/generator.ts), empty when none. */
  readonly windows: readonly string[];
  /** The highest event-loop delay p99 of any second of the run (the busiest engine thread), ms; undefined without one. */
  readonly peakLoopDelayP99Ms: number | undefined;
  /** The limit a second's loop delay p99 is judged against (reports/generator.ts GENERATOR_LIMITS), ms. */
  readonly loopDelayLimitMs: number | undefined;
}

type Quantile = 'p50' | 'p95' | 'p99';

/** The most a reported figure may be to meet issue #36's accuracy goal: what was served, +3 ms + 5 %. */
export function goalBound(servedMs: number): number {
  return servedMs * 1.05 + 3;
}

/** The accuracy goal of issue #36: reported p95 within +3 ms + 5 % of what the proxy served. */
export function withinGoal(result: Pick<AccuracyInput, 'reported' | 'served'>): boolean {
  return result.served.count > 0 && result.reported.p95 <= goalBound(result.served.p95);
}

/** What the judge reads of a run: its figures beside the proxy's, and the generator's own. */
export type AccuracyInput = Pick<ProbeResult, 'reported' | 'windows' | 'peakLoopDelayP99Ms' | 'loopDelayLimitMs'> & {
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

/**
 * A run's accuracy against the proxy, per quantile, and whether the generator carried it: no saturated window and no
 * second whose loop delay p99 passed its limit. Only a carried run proves the goal: a saturated one measures the generator.
 */
export function judgeAccuracy(result: AccuracyInput): {
  readonly quantiles: readonly QuantileJudgement[];
  readonly carried: boolean;
  readonly proven: boolean;
} {
  const quantiles = (['p50', 'p95', 'p99'] as const).map((quantile): QuantileJudgement => {
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
  const peak = result.peakLoopDelayP99Ms;
  const carried = result.windows.length === 0 && peak !== undefined && peak <= (result.loopDelayLimitMs ?? 0);
  return { quantiles, carried, proven: carried && quantiles.every((q) => q.within) };
}

function runCli(args: readonly string[]): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: 'ignore' });
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
    'node',
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

/** `scenario` at `vus` VUs (or `rate` iterations/s) for `duration` (k6 syntax) through `proxy`, Node engine, both API versions. */
export async function probe(proxy: MeasuringProxy, options: ProbeOptions): Promise<ProbeResult> {
  const dir = mkdtempSync(join(tmpdir(), 'gh-probe-'));
  try {
    await proxy.served();
    const args = loadArgs(proxy, options, dir);
    await runCli(args);
    const served = await proxy.served();
    let report: RunReport;
    try {
      report = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as RunReport;
    } catch {
      throw new Error(`the load run at ${options.vus} VUs left no report (run: gateway-harness ${args.join(' ')})`);
    }
    const metrics = report.load?.metrics ?? {};
    const d = metrics.http_req_duration?.values ?? {};
    const generator = report.load?.generator;
    const delays = (generator?.series.loopDelayP99Ms ?? []).filter((v): v is number => v !== null);
    return {
      vus: options.vus,
      ...(options.rate === undefined ? {} : { rate: options.rate }),
      reported: { p50: d.med ?? 0, p95: d['p(95)'] ?? 0, p99: d['p(99)'] ?? 0 },
      served,
      requests: report.load?.requests.count ?? 0,
      requestRate: metrics.http_reqs?.values.rate ?? 0,
      iterationRate: metrics.iterations?.values.rate ?? 0,
      windows: generator?.windows.map((w) => w.reason) ?? [],
      peakLoopDelayP99Ms: delays.length === 0 ? undefined : Math.max(...delays),
      loopDelayLimitMs: generator?.limits.loopDelayP99Ms,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
