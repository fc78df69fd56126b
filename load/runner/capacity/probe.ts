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
  /** The engine's http_req_duration p50/p95/p99, ms. */
  readonly reported: { readonly p50: number; readonly p95: number; readonly p99: number };
  readonly served: Served;
  readonly requests: number;
  /** Requests and iterations per second over the run. */
  readonly requestRate: number;
  readonly iterationRate: number;
  /** The generator's saturation windows' reasons (reports/generator.ts), empty when none. */
  readonly windows: readonly string[];
}

/** The accuracy goal of issue #36: reported p95 within +3 ms + 5 % of what the proxy served. */
export function withinGoal(result: Pick<ProbeResult, 'reported' | 'served'>): boolean {
  return result.served.count > 0 && result.reported.p95 <= result.served.p95 * 1.05 + 3;
}

function runCli(args: readonly string[]): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: 'ignore' });
    child.once('error', fail);
    child.once('exit', () => done());
  });
}

/** `scenario` at `vus` VUs for `duration` (k6 syntax) through `proxy`, smoke profile, Node engine, both API versions (`api` to change). */
export async function probe(
  proxy: MeasuringProxy,
  options: { readonly scenario: string; readonly vus: number; readonly duration: string; readonly api?: string },
): Promise<ProbeResult> {
  const dir = mkdtempSync(join(tmpdir(), 'gh-probe-'));
  try {
    await proxy.served();
    const args = [
      'load',
      '--scenario',
      options.scenario,
      '--profile',
      'smoke',
      '--engine',
      'node',
      '--api',
      options.api ?? 'both',
      '--target',
      proxy.url,
      '--vus',
      String(options.vus),
      '--duration',
      options.duration,
      '--report-dir',
      dir,
    ];
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
    return {
      vus: options.vus,
      reported: { p50: d.med ?? 0, p95: d['p(95)'] ?? 0, p99: d['p(99)'] ?? 0 },
      served,
      requests: report.load?.requests.count ?? 0,
      requestRate: metrics.http_reqs?.values.rate ?? 0,
      iterationRate: metrics.iterations?.values.rate ?? 0,
      windows: report.load?.generator?.windows.map((w) => w.reason) ?? [],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
