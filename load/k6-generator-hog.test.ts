// A real k6 judged by its own process: pinned to one CPU beside two busy loops pinned to the same CPU, it is starved
// (little CPU, its threads waiting for the rest), and a latency threshold crossed then is incomplete (exit 1), never
// "thresholds crossed"; an idle k6 against a slow gateway still crosses (exit 99). On each k6 found (v0.48 and latest).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.ts';
import { requestShareInWindows, type GeneratorReport } from '../reports/generator.ts';
import { runLoadReported } from './fixtures/load-run.ts';
import { procTimes } from './runner/generator-monitor.ts';
import { k6ComparisonSlots } from './runner/k6-binaries.ts';
import { parseLoadFlags } from './runner/load-options.ts';

const workDir = mkdtempSync(join(tmpdir(), 'gh-k6-hog-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const RUN_TIMEOUT_MS = 240_000;
/** Each busy loop ends by itself after this, whatever happens to the test (it is also killed when the run ends). */
const HOG_LIFETIME_MS = 180_000;

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The first CPU this process may run on: the one k6 and the hogs share. */
function firstAllowedCpu(): string {
  const list = /^Cpus_allowed_list:\s*(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return list?.[1] ?? '0';
}

const canPin = process.platform === 'linux' && hasTaskset();
if (!canPin) console.warn('load/k6-generator-hog.test.ts: no taskset (or not Linux): the starved-k6 runs are SKIPPED');
const CPU = canPin ? firstAllowedCpu() : '0';

/** A K6_BIN that runs `k6` pinned to CPU (exec: the pid the runner watches becomes k6's own). */
function pinnedK6(k6: string, label: string): string {
  const path = join(workDir, `k6-pinned-${label}`);
  writeFileSync(path, `#!/bin/sh\nexec taskset -c ${CPU} '${k6.replace(/'/g, `'\\''`)}' "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

/** Two bounded busy loops pinned to CPU, returned once both have burnt CPU (polled with a deadline, no fixed sleep). */
async function startHogs(): Promise<ChildProcess[]> {
  const loop = `const end = Date.now() + ${HOG_LIFETIME_MS}; while (Date.now() < end);`;
  const hogs = [0, 1].map(() => spawn('taskset', ['-c', CPU, process.execPath, '-e', loop], { stdio: 'ignore' }));
  const deadline = Date.now() + 30_000;
  const burnt = (hog: ChildProcess): boolean => hog.pid !== undefined && (procTimes(hog.pid)?.cpuMs ?? 0) >= 100;
  while (!hogs.every(burnt)) {
    if (Date.now() > deadline) throw new Error('the busy loops did not start within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return hogs;
}

function flags(label: string, vus: string, duration: string, threshold: string) {
  return parseLoadFlags({
    scenario: 'catalog-browse',
    profile: 'smoke',
    engine: 'k6',
    api: 'v2',
    vus,
    duration,
    threshold: [threshold],
    reportDir: join(workDir, label),
  });
}

/** The seconds the judge read as starved: k6's CPU under 90 % of its cores while CPU + run-queue wait was above it. */
function starvedSeconds(generator: GeneratorReport | undefined): number {
  const { cpuShare, runQueueShare } = generator?.series ?? { cpuShare: [] };
  return cpuShare.filter((cpu, i) => cpu !== null && cpu < 0.9 && cpu + (runQueueShare?.[i] ?? 0) > 0.9).length;
}

describe.each(k6ComparisonSlots('load/k6-generator-hog.test.ts'))('%s', (label, k6) => {
  const slug = label.startsWith('k6 latest') ? 'latest' : 'first';

  it.skipIf(k6 === undefined || !canPin)(
    'pinned beside two busy loops on its CPU: starved, and a latency threshold crossed then is incomplete (exit 1)',
    async () => {
      const hogs = await startHogs();
      try {
        const config = loadConfig({ cwd: workDir, env: {} });
        const r = await runLoadReported(flags(`starved-${slug}`, '20', '8s', 'http_req_duration:p(95)<20'), config, {
          cwd: workDir,
          env: { ...process.env, K6_BIN: pinnedK6(k6 as string, slug) },
        });
        const generator = r.report.load?.generator;
        const measured = JSON.stringify({ generator, crossed: r.report.load?.thresholds.filter((t) => !t.ok) });
        // The classifier's inputs: the pin is what the run could use, and k6 ran little while its threads waited.
        expect(generator, r.output()).toMatchObject({ source: 'k6', cores: 1 });
        expect(starvedSeconds(generator), measured).toBeGreaterThanOrEqual(2);
        expect(
          generator?.windows.some((w) => w.reason.startsWith('CPU-starved') && w.explainsMs === undefined),
          measured,
        ).toBe(true);
        expect(
          r.report.load?.thresholds.find((t) => t.metric === 'http_req_duration' && t.expression === 'p(95)<20'),
          measured,
        ).toMatchObject({
          ok: false,
        });
        expect(generator?.latencyBound, measured).toEqual(expect.arrayContaining(['http_req_duration p(95)<20']));
        expect(r.report, measured).toMatchObject({ verdict: 'incomplete', exitCode: 1 });
        expect(r.exitCode).toBe(1);
        expect(r.report.verdictLine).toMatch(
          /incomplete: the load generator was saturated \(.*CPU-starved: wanted \d+ % of the cores it may use/,
        );
      } finally {
        for (const hog of hogs) hog.kill('SIGKILL');
      }
    },
    RUN_TIMEOUT_MS,
  );

  it.skipIf(k6 === undefined)(
    "idle against a slow gateway: the crossed threshold stays the gateway's (exit 99)",
    async () => {
      const base = loadConfig({ cwd: workDir, env: { GATEWAY_TIME_SCALE: '0.2' } });
      // benign-latency: every response 1-5 s x time scale (200-1000 ms here); k6 with 4 VUs barely runs.
      const config = { ...base, sandbox: { ...base.sandbox, profile: 'benign-latency' } };
      const r = await runLoadReported(flags(`slow-${slug}`, '4', '12s', 'http_req_duration:p(95)<5'), config, {
        cwd: workDir,
        env: { ...process.env, K6_BIN: k6 as string },
      });
      const generator = r.report.load?.generator;
      const measured = JSON.stringify({ generator, crossed: r.report.load?.thresholds.filter((t) => !t.ok) });
      expect(generator, r.output()).toMatchObject({ source: 'k6' });
      // The classifier's inputs: on a loaded box k6's init may be starved for a second or two (its setup's requests
      // measured then), too few requests to set a p(95): at most 5 % of the run's were measured while k6 was starved.
      const starvedWindows = (generator?.windows ?? []).filter((w) => w.explainsMs === undefined);
      expect(requestShareInWindows(starvedWindows, r.report.load?.series) ?? 0, measured).toBeLessThanOrEqual(0.05);
      expect(generator?.latencyBound, measured).toBeUndefined();
      expect(r.report, measured).toMatchObject({ verdict: 'thresholds', exitCode: 99 });
      expect(r.exitCode).toBe(99);
    },
    RUN_TIMEOUT_MS,
  );
});
