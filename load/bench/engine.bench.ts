// `npm run bench:engine`: the Node engine against the real k6 binaries on the REAL catalog-browse load suite
// (load/catalog-browse.load.ts, schema checks on: the same dist/k6 bundle on every engine) against the embedded sandbox
// in its own process: iterations/s, load-generator CPU s per 1,000 iterations, peak RSS, the target's CPU share, ratios
// engine/k6 per VU count, a row per worker count asked for, the limit row (the same requests from a bare Node loop,
// bare-loop.ts) with the engine's share of it, and RSS at the start and end of a soak. Prints figures; asserts nothing.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { supportedK6s } from '../runner/k6-binaries.ts';
import { K6_DEFAULT_ENV } from '../runner/k6-process.ts';
import { ensureBundle } from '../runner/run-load.ts';
import { K6_SUMMARY_FILE } from '../summary/handle-summary.ts';
import { buildLoadSection, type K6SummaryData } from '../../reports/k6-summary.ts';
import type { LoadCheck } from '../../reports/model.ts';
import { loadLine } from '../../reports/sections.ts';
import type { TargetMessage } from '../../sandbox/bench/bench-target.ts';
import { threadHeapLimits } from '../../engine/controller/threads.ts';
import type { BareLoopFigures } from './bare-loop.ts';
import { suiteEnv } from './suite-env.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');
const TARGET = join(ROOT, 'sandbox', 'bench', 'bench-target.ts');
const ENGINE_CLI = join(ROOT, 'engine', 'cli.ts');
const BARE_LOOP = join(HERE, 'bare-loop.ts');
/** The limit row's name: the same requests from a bare Node loop (bare-loop.ts). */
const BARE = 'bare loop';
const CLK_TCK = 100;

interface Engine {
  readonly name: string;
  /** Command and arguments that run the bundle with the run's settings in the environment. */
  readonly command: (bundle: string, vus: number) => [string, string[]];
  readonly env: NodeJS.ProcessEnv;
}

/** user+system CPU seconds of a live process (all its threads), from /proc. */
function cpuOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
  } catch {
    return 0;
  }
}

function rssMbOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m === null ? 0 : Number(m[1]) / 1024;
  } catch {
    return 0;
  }
}

interface Measured {
  readonly code: number;
  readonly cpuSec: number;
  readonly peakRssMb: number;
  readonly wallSec: number;
  readonly output: string;
}

/** Runs a command under /usr/bin/time: CPU of the whole process tree (threads and waited-for children) and peak RSS. */
function runMeasured(cmd: string, args: string[], env: NodeJS.ProcessEnv, onPid?: (pid: number) => void): Promise<Measured> {
  return new Promise((resolveRun, reject) => {
    const t0 = Date.now();
    const child = spawn('/usr/bin/time', ['-f', 'GH_TIME %U %S %M', cmd, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
    let output = '';
    const keep = (d: Buffer): void => {
      output += d.toString();
      if (output.length > 200_000) output = output.slice(-100_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    if (onPid !== undefined) {
      // /usr/bin/time's child is the measured process; find it once it exists.
      const finder = setInterval(() => {
        try {
          const kids = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim();
          if (kids !== '') {
            clearInterval(finder);
            onPid(Number(kids.split(' ')[0]));
          }
        } catch {
          clearInterval(finder);
        }
      }, 50);
    }
    child.on('error', reject);
    child.on('exit', (code) => {
      const m = /GH_TIME ([\d.]+) ([\d.]+) (\d+)/.exec(output);
      if (m === null) return reject(new Error(`${cmd} gave no timing: ${output.slice(-500)}`));
      resolveRun({
        code: code ?? -1,
        cpuSec: Number(m[1]) + Number(m[2]),
        peakRssMb: Number(m[3]) / 1024,
        wallSec: (Date.now() - t0) / 1000,
        output,
      });
    });
  });
}

function startTarget(children: ChildProcess[]): Promise<{ url: string; pid: number }> {
  const child = fork(TARGET, ['sandbox'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  children.push(child);
  return new Promise((resolveUrl, reject) => {
    child.on('message', (m: TargetMessage) => {
      if (m.type === 'ready') resolveUrl({ url: m.url, pid: child.pid as number });
      else if (m.type === 'failed') reject(new Error(m.message));
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited with ${String(code)}`)));
  });
}

/** What a row needs of a run's end-of-test data (k6-summary.json, kept by the bundle's handleSummary). */
interface SuiteFigures {
  readonly iterations: number;
  /** k6's own rates: counts over the test run (setup, scenario, graceful stop). */
  readonly iterationRate: number;
  readonly requestRate: number;
  readonly checks: readonly LoadCheck[];
  readonly verdict: string;
  /** The reports' line on the run: what was crossed or failed. */
  readonly line: string;
}

function figuresOf(data: K6SummaryData): SuiteFigures {
  // The verdict and checks as the reports judge them (reports/k6-summary.ts), whichever engine ran.
  const section = buildLoadSection(data, { scenario: 'catalog-browse', profile: 'bench', engine: 'node', setupRequired: true });
  const iterations = data.metrics.iterations?.values ?? {};
  return {
    iterations: iterations.count ?? 0,
    iterationRate: iterations.rate ?? 0,
    requestRate: section.requests.rate,
    checks: section.checks,
    verdict: section.verdict,
    line: loadLine(section),
  };
}

interface RunFigures {
  readonly summary: SuiteFigures;
  readonly measured: Measured;
  readonly targetCores: number;
}

async function runSuite(
  engine: Engine,
  bundle: string,
  base: string,
  vus: number,
  duration: string,
  dir: string,
  target: { pid: number },
  onPid?: (pid: number) => void,
): Promise<RunFigures> {
  mkdirSync(dir, { recursive: true });
  const [cmd, args] = engine.command(bundle, vus);
  const targetCpu0 = cpuOf(target.pid);
  const measured = await runMeasured(cmd, args, { ...engine.env, ...suiteEnv(base, vus, duration, dir) }, onPid);
  const targetCores = (cpuOf(target.pid) - targetCpu0) / measured.wallSec;
  const file = join(dir, K6_SUMMARY_FILE);
  if (!existsSync(file))
    throw new Error(`${engine.name} at ${vus} VUs wrote no ${K6_SUMMARY_FILE} (exit ${measured.code}):\n${measured.output.slice(-2000)}`);
  return { summary: figuresOf(JSON.parse(readFileSync(file, 'utf8')) as K6SummaryData), measured, targetCores };
}

/** An engine row's name: `engine` for the default worker count, `engine ×N` for N workers. */
function engineName(workers: string): string {
  return workers === 'auto' ? 'engine' : `engine ×${workers}`;
}

function isEngine(name: string): boolean {
  return name === 'engine' || name === 'engine base' || name.startsWith('engine ×');
}

/** The engine threads' heap limits as Node flags, so the limit row's Node gets the same GC room as the engine's VUs. */
function bareLoopHeapFlags(): string[] {
  const limits = threadHeapLimits();
  return [
    ...(limits.maxYoungGenerationSizeMb === undefined ? [] : [`--max-semi-space-size=${limits.maxYoungGenerationSizeMb / 3}`]),
    ...(limits.maxOldGenerationSizeMb === undefined ? [] : [`--max-old-space-size=${limits.maxOldGenerationSizeMb}`]),
  ];
}

/** The limit row: the bare loop in its own process, measured like an engine (CPU, RSS, the target's cores). */
async function runBare(
  base: string,
  vus: number,
  durationSec: number,
  dir: string,
  target: { pid: number },
): Promise<{ figures: BareLoopFigures; measured: Measured; targetCores: number }> {
  const targetCpu0 = cpuOf(target.pid);
  const measured = await runMeasured(
    process.execPath,
    [...bareLoopHeapFlags(), '--import', 'tsx', BARE_LOOP, String(vus), String(durationSec)],
    { ...process.env, ...suiteEnv(base, vus, `${durationSec}s`, dir) },
  );
  const targetCores = (cpuOf(target.pid) - targetCpu0) / measured.wallSec;
  const line = /GH_BARE (.*)/.exec(measured.output);
  if (line === null)
    throw new Error(`the bare loop at ${vus} VUs gave no figures (exit ${measured.code}):\n${measured.output.slice(-2000)}`);
  return { figures: JSON.parse(line[1] as string) as BareLoopFigures, measured, targetCores };
}

interface Row {
  engine: string;
  vus: number;
  iterations: number;
  /** k6's own rate: iterations over the test run (setup, scenario, graceful stop). */
  itersPerSec: number;
  requestsPerSec: number;
  cpuSec: number;
  cpuPer1k: number;
  peakRssMb: number;
  targetCores: number;
  generatorCores: number;
  /** Share of responses that failed any check (a row with failures is not a like-for-like comparison). */
  checkFailRate: number;
  verdict: string;
  exitCode: number;
}

/** Seconds of untimed load on the target before the first row. */
const WARM_UP_SEC = 5;

/** The sandbox is one Node event loop: near one busy core it is the limit of the row. */
const TARGET_LIMIT_CORES = 0.85;

function checkFailRate(summary: SuiteFigures): number {
  const total = summary.checks.reduce((n, c) => n + c.passes + c.fails, 0);
  return total === 0 ? 0 : summary.checks.reduce((n, c) => n + c.fails, 0) / total;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '30s' },
      vus: { type: 'string', default: '1,100,1000' },
      'soak-minutes': { type: 'string', default: '10' },
      'soak-vus': { type: 'string', default: '100' },
      engines: { type: 'string', default: 'engine,k6,k6-latest,bare' },
      'out-file': { type: 'string', default: 'reports/out/bench-engine.json' },
      // The old spelling, refused: --out means k6's outputs on every gateway-harness command.
      out: { type: 'string' },
      'cpu-prof': { type: 'string' },
      workers: { type: 'string' },
      'base-engine': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help === true) {
    process.stdout.write(
      'usage: npm run bench:engine -- [--duration 30s] [--vus 1,100,1000] [--soak-minutes 10] [--soak-vus 100] [--engines engine,k6,k6-latest,bare] [--out-file FILE] [--cpu-prof DIR] [--workers auto,1,2] [--base-engine CLI]\n' +
        '  runs the real catalog-browse suite (dist/k6/catalog-browse.js, schema checks on) on each engine against the embedded sandbox in its own process\n' +
        "  --workers: one engine row per worker count, `auto` the engine's default (default: 1 … cores, a row per count the machine allows)\n" +
        "  --base-engine CLI: also an `engine base` row from another checkout's engine/cli.ts (before/after a change, side by side under the same load)\n" +
        '  --cpu-prof DIR: the engine runs under node --cpu-prof, one profile per thread (controller, workers) in DIR/<VUs>\n' +
        '  k6 binaries: K6_BIN, else k6 on PATH; K6_LATEST_BIN, else k6-latest beside it (rows skipped when absent)\n',
    );
    return;
  }
  if (values.out !== undefined)
    throw new Error(`--out ${values.out}: the figures file is --out-file ${values.out} (--out means k6's outputs)`);
  const durationSec = Number(/^(\d+)s$/.exec(values.duration)?.[1] ?? NaN);
  if (!Number.isFinite(durationSec) || durationSec < 1) throw new Error('--duration must be whole seconds, e.g. 30s');
  const vusList = values.vus.split(',').map(Number);
  if (vusList.some((v) => !Number.isInteger(v) || v < 1)) throw new Error('--vus must be whole numbers ≥ 1, e.g. 1,100,1000');
  const soakMinutes = Number(values['soak-minutes']);
  const soakVus = Number(values['soak-vus']);
  const wanted = new Set(values.engines.split(','));
  // One engine row per worker count ('auto' is the engine's default: one per 6 VUs, at most one per core).
  // Default: a row per worker count the machine allows (1 … cores).
  const workerCounts = (values.workers ?? Array.from({ length: availableParallelism() }, (_, i) => String(i + 1)).join(',')).split(',');
  if (workerCounts.some((w) => w !== 'auto' && !(Number.isInteger(Number(w)) && Number(w) >= 1)))
    throw new Error("--workers must be 'auto' or whole numbers ≥ 1, e.g. auto,1,2");
  const tmp = mkdtempSync(join(tmpdir(), 'gh-bench-engine-'));
  const children: ChildProcess[] = [];
  try {
    // The one bundle every engine runs: exactly what `gateway-harness load --scenario catalog-browse` runs.
    const bundle = await ensureBundle('catalog-browse');
    const engines: Engine[] = [];
    if (wanted.has('engine')) {
      const profileDir = values['cpu-prof'];
      for (const workers of workerCounts) {
        const name = engineName(workers);
        engines.push({
          name,
          // Where the time goes: V8's profile of every thread (the controller and each worker), per row.
          command: (b, vus) => [
            process.execPath,
            [
              ...(profileDir === undefined
                ? []
                : ['--cpu-prof', '--cpu-prof-dir', resolve(profileDir, `${name.replace(/\W+/g, '-')}-${vus}`)]),
              '--import',
              'tsx',
              ENGINE_CLI,
              'run',
              b,
              '--progress',
              'none',
              '--workers',
              workers,
            ],
          ],
          env: { ...process.env },
        });
      }
    }
    const baseCli = values['base-engine'];
    if (baseCli !== undefined) {
      engines.push({
        name: 'engine base',
        command: (b) => [process.execPath, ['--import', 'tsx', resolve(baseCli), 'run', b, '--progress', 'none']],
        env: { ...process.env },
      });
    }
    const k6s = supportedK6s();
    for (const [index, label] of ['k6', 'k6-latest'].entries()) {
      if (!wanted.has(label)) continue;
      const bin = k6s[index];
      if (bin === undefined) {
        process.stdout.write(`${label}: no binary (K6_BIN or k6 on PATH; K6_LATEST_BIN or k6-latest beside it): rows skipped\n`);
        continue;
      }
      engines.push({
        name: `k6 ${bin.version}`,
        command: (b) => [bin.path, ['run', '-q', '--include-system-env-vars', b]],
        env: { ...process.env, ...K6_DEFAULT_ENV },
      });
    }
    const target = await startTarget(children);
    process.stdout.write(
      `bench:engine — real catalog-browse suite (${bundle}, schema checks on), ${durationSec} s of constant VUs per row, ` +
        `embedded sandbox in its own process at ${target.url}; ${availableParallelism()} CPUs shared by generator and target\n`,
    );
    // A fresh target process is slower for its first seconds (its JIT warms up): the first row would pay for it.
    await runBare(target.url, vusList[0] as number, WARM_UP_SEC, join(tmp, 'warm-up'), target);
    const rows: Row[] = [];
    for (const vus of vusList) {
      for (const engine of engines) {
        const f = await runSuite(
          engine,
          bundle,
          target.url,
          vus,
          `${durationSec}s`,
          join(tmp, `${engine.name.replace(/\W+/g, '-')}-${vus}`),
          target,
        );
        const s = f.summary;
        const row: Row = {
          engine: engine.name,
          vus,
          iterations: s.iterations,
          itersPerSec: s.iterationRate,
          requestsPerSec: s.requestRate,
          cpuSec: f.measured.cpuSec,
          cpuPer1k: s.iterations === 0 ? NaN : (f.measured.cpuSec / s.iterations) * 1000,
          peakRssMb: f.measured.peakRssMb,
          targetCores: f.targetCores,
          generatorCores: f.measured.cpuSec / f.measured.wallSec,
          checkFailRate: checkFailRate(s),
          verdict: s.verdict,
          exitCode: f.measured.code,
        };
        rows.push(row);
        process.stdout.write(
          `  ${row.engine.padEnd(10)} ${String(vus).padStart(5)} VUs: ${row.itersPerSec.toFixed(1).padStart(7)} it/s, ${row.cpuPer1k.toFixed(2)} CPU s/1k it, ` +
            `peak RSS ${row.peakRssMb.toFixed(0)} MB, target ${row.targetCores.toFixed(2)} cores, generator ${row.generatorCores.toFixed(2)} cores, ` +
            `${row.iterations} iterations in ${f.measured.wallSec.toFixed(0)} s wall, checks failed ${(row.checkFailRate * 100).toFixed(2)} %, ${row.verdict} (exit ${row.exitCode})\n`,
        );
        // A crossed latency threshold at many VUs says how long responses waited (in the generator or the target).
        if (s.verdict !== 'pass') process.stdout.write(`      ${s.line}\n`);
      }
      if (wanted.has('bare')) {
        const b = await runBare(target.url, vus, durationSec, join(tmp, `bare-${vus}`), target);
        const f = b.figures;
        const row: Row = {
          engine: BARE,
          vus,
          iterations: f.iterations,
          itersPerSec: f.iterations / f.seconds,
          requestsPerSec: f.requests / f.seconds,
          cpuSec: b.measured.cpuSec,
          cpuPer1k: f.iterations === 0 ? NaN : (b.measured.cpuSec / f.iterations) * 1000,
          peakRssMb: b.measured.peakRssMb,
          targetCores: b.targetCores,
          generatorCores: b.measured.cpuSec / b.measured.wallSec,
          checkFailRate: f.checks === 0 ? 0 : f.failedChecks / f.checks,
          verdict: '',
          exitCode: b.measured.code,
        };
        rows.push(row);
        const engineRow = rows.find((r) => r.vus === vus && isEngine(r.engine));
        process.stdout.write(
          `  ${BARE.padEnd(10)} ${String(vus).padStart(5)} VUs: ${row.itersPerSec.toFixed(1).padStart(7)} it/s, ${row.requestsPerSec.toFixed(0)} req/s, ${row.cpuPer1k.toFixed(2)} CPU s/1k it, ` +
            `peak RSS ${row.peakRssMb.toFixed(0)} MB, target ${row.targetCores.toFixed(2)} cores, generator ${row.generatorCores.toFixed(2)} cores, checks failed ${(row.checkFailRate * 100).toFixed(2)} %` +
            `${engineRow === undefined ? '' : `; engine's share: ${((engineRow.requestsPerSec / row.requestsPerSec) * 100).toFixed(0)} % of its req/s`}\n`,
        );
      }
    }

    // Soak: RSS after 30 s of warm-up and at the end of a long run, per engine.
    const soak: Array<{ engine: string; rssStartMb: number; rssEndMb: number; growthPct: number; iterations: number; peakRssMb: number }> =
      [];
    if (soakMinutes > 0) {
      for (const engine of engines) {
        let pid = 0;
        const samples: Array<[number, number]> = [];
        const t0 = Date.now();
        const sampler = setInterval(() => {
          if (pid !== 0) samples.push([(Date.now() - t0) / 1000, rssMbOf(pid)]);
        }, 5_000);
        const f = await runSuite(
          engine,
          bundle,
          target.url,
          soakVus,
          `${Math.round(soakMinutes * 60)}s`,
          join(tmp, `${engine.name.replace(/\W+/g, '-')}-soak`),
          target,
          (p) => (pid = p),
        );
        clearInterval(sampler);
        const live = samples.filter(([, rss]) => rss > 0);
        const start = live.find(([t]) => t >= 30) ?? live[0] ?? [0, 0];
        const end = live[live.length - 1] ?? [0, 0];
        const entry = {
          engine: engine.name,
          rssStartMb: start[1],
          rssEndMb: end[1],
          growthPct: start[1] === 0 ? NaN : ((end[1] - start[1]) / start[1]) * 100,
          iterations: f.summary.iterations,
          peakRssMb: f.measured.peakRssMb,
        };
        soak.push(entry);
        process.stdout.write(
          `  soak ${entry.engine}: RSS ${entry.rssStartMb.toFixed(0)} MB at ${start[0].toFixed(0)} s → ${entry.rssEndMb.toFixed(0)} MB at ${end[0].toFixed(0)} s ` +
            `(${entry.growthPct.toFixed(1)} %), peak ${entry.peakRssMb.toFixed(0)} MB, ${entry.iterations} iterations, checks failed ${(checkFailRate(f.summary) * 100).toFixed(2)} %\n`,
        );
      }
    }

    // The report: one table, ratios of the engine against each k6 at the same VUs.
    const lines: string[] = [
      '',
      `catalog-browse suite with schema checks, ${durationSec} s per row (constant VUs); target CPU in cores (of ${availableParallelism()})`,
      '',
    ];
    lines.push(
      'engine       VUs   iter/s  CPU s/1k it  peak RSS MB  target cores  gen. cores  checks failed  limit      engine÷k6 it/s            engine÷k6 it per CPU s',
    );
    for (const r of rows) {
      const refs = rows.filter((x) => x.vus === r.vus && !isEngine(x.engine) && x.engine !== BARE);
      const ratio = isEngine(r.engine) ? refs.map((k) => `${(r.itersPerSec / k.itersPerSec).toFixed(2)}× ${k.engine}`).join(', ') : '';
      const cpuRatio = isEngine(r.engine) ? refs.map((k) => `${(k.cpuPer1k / r.cpuPer1k).toFixed(2)}× ${k.engine}`).join(', ') : '';
      lines.push(
        `${r.engine.padEnd(11)} ${String(r.vus).padStart(5)} ${r.itersPerSec.toFixed(1).padStart(8)} ${r.cpuPer1k.toFixed(2).padStart(12)} ${r.peakRssMb.toFixed(0).padStart(12)} ` +
          `${r.targetCores.toFixed(2).padStart(13)} ${r.generatorCores.toFixed(2).padStart(11)} ${`${(r.checkFailRate * 100).toFixed(2)} %`.padStart(14)}  ` +
          `${(r.targetCores >= TARGET_LIMIT_CORES ? 'target' : 'generator').padEnd(9)}  ${ratio.padEnd(25)} ${cpuRatio}`,
      );
    }
    for (const r of rows.filter((x) => x.engine === BARE)) {
      for (const e of rows.filter((x) => x.vus === r.vus && isEngine(x.engine)))
        lines.push(
          `${e.engine}'s share of the bare loop at ${r.vus} VUs: ${((e.requestsPerSec / r.requestsPerSec) * 100).toFixed(0)} % of its requests/s (${e.requestsPerSec.toFixed(0)} of ${r.requestsPerSec.toFixed(0)})`,
        );
    }
    lines.push(
      '',
      `bare loop: the same catalog-browse requests (same setup, URLs, bodies) from one Node event loop — undici with one connection per VU, JSON.parse and the suite's checks — no k6 API, no metrics; its rates exclude setup.`,
      `limit: "target" when the sandbox (one event loop) used ≥ ${TARGET_LIMIT_CORES} core, else the load generator (or the machine, when the two together use less than its cores: other load).`,
      'CPU s/1k it counts the whole generator process (start-up, bundle transform, VU init included).',
    );
    for (const s of soak)
      lines.push(
        `soak ${s.engine}: RSS ${s.rssStartMb.toFixed(0)} → ${s.rssEndMb.toFixed(0)} MB (${s.growthPct.toFixed(1)} %) over ${soakMinutes} min at ${soakVus} VUs, ${s.iterations} iterations`,
      );
    process.stdout.write(`${lines.join('\n')}\n`);
    const out = resolve(ROOT, values['out-file']);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(
      out,
      `${JSON.stringify({ workload: 'load/catalog-browse.load.ts (dist/k6/catalog-browse.js)', durationSec, rows, soak, soakMinutes, soakVus }, null, 2)}\n`,
    );
    process.stdout.write(`figures written to ${out}\n`);
  } finally {
    for (const c of children) c.kill();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
