// `npm run bench:engine`: the Node engine against the real k6 binaries on the same catalog-browse script with schema
// checks, against the embedded sandbox in its own process: iterations/s, load-generator CPU s per 1,000 iterations,
// peak RSS, the target's CPU share, ratios engine/k6 at 1, 100 and 1,000 VUs, and RSS at start and end of a soak.
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore -- the k6 bundle settings live in the project's esbuild config (plain .mjs, untyped)
import { K6_BUNDLE_OPTIONS } from '../../esbuild.config.mjs';
import type { TargetMessage } from '../../sandbox/bench/bench-target.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');
const SCRIPT = join(HERE, 'catalog-browse.js');
const TARGET = join(ROOT, 'sandbox', 'bench', 'bench-target.ts');
const ENGINE_CLI = join(ROOT, 'engine', 'cli.ts');
const CLK_TCK = 100;

interface Engine {
  name: string;
  command: (script: string, vus: number, duration: string, exportPath: string, base: string) => [string, string[]];
}

interface Usage {
  cpuSec: number;
  peakRssMb: number;
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

/** Runs a command under /usr/bin/time: CPU of the whole process tree and peak RSS, measured by the kernel. */
function runMeasured(cmd: string, args: string[], onPid?: (pid: number) => void): Promise<Usage & { code: number; stderr: string }> {
  return new Promise((resolveRun, reject) => {
    const child = spawn('/usr/bin/time', ['-f', 'GH_TIME %U %S %M', cmd, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: process.env });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (stderr.length > 200_000) stderr = stderr.slice(-100_000);
    });
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
      const m = /GH_TIME ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
      if (m === null) return reject(new Error(`${cmd} gave no timing: ${stderr.slice(-500)}`));
      resolveRun({ code: code ?? -1, cpuSec: Number(m[1]) + Number(m[2]), peakRssMb: Number(m[3]) / 1024, stderr });
    });
  });
}

function findK6(names: string[]): string | undefined {
  for (const name of names) {
    if (name.includes('/')) {
      if (existsSync(name)) return name;
      continue;
    }
    for (const dir of (process.env.PATH ?? '').split(delimiter)) if (existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
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

interface Row {
  engine: string;
  vus: number;
  iterations: number;
  itersPerSec: number;
  cpuPer1k: number;
  peakRssMb: number;
  targetCores: number;
  /** CPU cores the load generator's process tree used on average. */
  generatorCores: number;
  exitCode: number;
}

/** The sandbox is one Node event loop: near one busy core it is the limit of the row. */
const TARGET_LIMIT_CORES = 0.85;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '10s' },
      vus: { type: 'string', default: '1,100,1000' },
      'soak-minutes': { type: 'string', default: '10' },
      'soak-vus': { type: 'string', default: '100' },
      out: { type: 'string', default: 'reports/out/bench-engine.json' },
      help: { type: 'boolean' },
    },
  });
  if (values.help === true) {
    process.stdout.write('usage: npm run bench:engine -- [--duration 10s] [--vus 1,100,1000] [--soak-minutes 10] [--soak-vus 100] [--out FILE]\n  k6 binaries: K6_BIN and K6_LATEST_BIN, else k6 / k6-latest on PATH (rows skipped when absent)\n');
    return;
  }
  const durationSec = Number(/^(\d+)s$/.exec(values.duration)?.[1] ?? NaN);
  if (!Number.isFinite(durationSec)) throw new Error('--duration must be whole seconds, e.g. 10s');
  const vusList = values.vus.split(',').map(Number);
  const soakMinutes = Number(values['soak-minutes']);
  const tmp = mkdtempSync(join(tmpdir(), 'gh-bench-engine-'));
  const children: ChildProcess[] = [];
  try {
    // The k6 bundle of the same script, built with the project's k6 settings.
    const k6Script = join(tmp, 'catalog-browse.k6.js');
    await build({ ...(K6_BUNDLE_OPTIONS as object), entryPoints: [SCRIPT], outfile: k6Script });
    const engines: Engine[] = [
      {
        name: 'engine',
        command: (_s, vus, duration, exportPath, base) => [process.execPath, ['--import', 'tsx', ENGINE_CLI, 'run', SCRIPT, '--vus', String(vus), '--duration', duration, '--summary-export', exportPath, '--progress', 'none', '-e', `BASE=${base}`]],
      },
    ];
    for (const [label, names] of [
      ['k6 v0.48', [process.env.K6_BIN ?? '', 'k6']],
      ['k6 latest', [process.env.K6_LATEST_BIN ?? '', 'k6-latest']],
    ] as Array<[string, string[]]>) {
      const bin = findK6(names.filter((n) => n !== ''));
      if (bin === undefined) {
        process.stdout.write(`${label}: no binary (set K6_BIN / K6_LATEST_BIN or put k6 / k6-latest on PATH): rows skipped\n`);
        continue;
      }
      const version = execFileSync(bin, ['version'], { encoding: 'utf8' }).trim().split('\n')[0] ?? bin;
      engines.push({ name: version.split(' ')[1] ?? label, command: (s, vus, duration, exportPath, base) => [bin, ['run', '-q', '--vus', String(vus), '--duration', duration, '--summary-export', exportPath, '-e', `BASE=${base}`, s]] });
    }
    const target = await startTarget(children);
    process.stdout.write(`target: embedded sandbox in its own process at ${target.url}; load generator and target share this machine's cores\n`);
    const rows: Row[] = [];
    for (const vus of vusList) {
      for (const engine of engines) {
        const exportPath = join(tmp, `${engine.name}-${vus}.json`);
        const [cmd, args] = engine.command(k6Script, vus, `${durationSec}s`, exportPath, target.url);
        const targetCpu0 = cpuOf(target.pid);
        const t0 = Date.now();
        const usage = await runMeasured(cmd, args);
        const wallSec = (Date.now() - t0) / 1000;
        const targetCores = (cpuOf(target.pid) - targetCpu0) / wallSec;
        const exported = JSON.parse(readFileSync(exportPath, 'utf8')) as { metrics: Record<string, Record<string, number>> };
        const iterations = exported.metrics.iterations?.count ?? 0;
        const row: Row = {
          engine: engine.name,
          vus,
          iterations,
          itersPerSec: iterations / durationSec,
          cpuPer1k: iterations === 0 ? NaN : (usage.cpuSec / iterations) * 1000,
          peakRssMb: usage.peakRssMb,
          targetCores,
          generatorCores: usage.cpuSec / wallSec,
          exitCode: usage.code,
        };
        rows.push(row);
        process.stdout.write(`  ${row.engine.padEnd(8)} ${String(vus).padStart(5)} VUs: ${row.itersPerSec.toFixed(0).padStart(6)} it/s, ${row.cpuPer1k.toFixed(3)} CPU s/1k it, peak RSS ${row.peakRssMb.toFixed(0)} MB, target ${row.targetCores.toFixed(2)} cores, generator ${row.generatorCores.toFixed(2)} cores\n`);
      }
    }

    // Soak: RSS early (after 30 s of warm-up) and at the end of a long run, per engine.
    const soak: Array<{ engine: string; rssStartMb: number; rssEndMb: number; growthPct: number; iterations: number }> = [];
    if (soakMinutes > 0) {
      for (const engine of engines) {
        const exportPath = join(tmp, `${engine.name}-soak.json`);
        const [cmd, args] = engine.command(k6Script, Number(values['soak-vus']), `${Math.round(soakMinutes * 60)}s`, exportPath, target.url);
        let pid = 0;
        const samples: Array<[number, number]> = [];
        const t0 = Date.now();
        const sampler = setInterval(() => {
          if (pid !== 0) samples.push([(Date.now() - t0) / 1000, rssMbOf(pid)]);
        }, 5_000);
        await runMeasured(cmd, args, (p) => (pid = p));
        clearInterval(sampler);
        const live = samples.filter(([, rss]) => rss > 0);
        const start = live.find(([t]) => t >= 30) ?? live[0] ?? [0, 0];
        const end = live[live.length - 1] ?? [0, 0];
        const exported = JSON.parse(readFileSync(exportPath, 'utf8')) as { metrics: Record<string, Record<string, number>> };
        const entry = { engine: engine.name, rssStartMb: start[1], rssEndMb: end[1], growthPct: start[1] === 0 ? NaN : ((end[1] - start[1]) / start[1]) * 100, iterations: exported.metrics.iterations?.count ?? 0 };
        soak.push(entry);
        process.stdout.write(`  soak ${entry.engine}: RSS ${entry.rssStartMb.toFixed(0)} MB at ${start[0].toFixed(0)} s → ${entry.rssEndMb.toFixed(0)} MB at ${end[0].toFixed(0)} s (${entry.growthPct.toFixed(1)} %), ${entry.iterations} iterations\n`);
      }
    }

    // The report: one table, ratios against each k6.
    const lines: string[] = ['', `catalog-browse with schema checks, ${durationSec} s per row (constant VUs), target CPU in cores (of ${String((await import('node:os')).availableParallelism())})`, ''];
    lines.push('engine     VUs   iter/s  CPU s/1k it  peak RSS MB  target cores  gen. cores  limit      ratio it/s  ratio it/CPU s');
    for (const r of rows) {
      const ref = rows.filter((x) => x.vus === r.vus && x.engine !== 'engine');
      const e = rows.find((x) => x.vus === r.vus && x.engine === 'engine');
      const ratio = r.engine === 'engine' ? ref.map((k) => `${(r.itersPerSec / k.itersPerSec).toFixed(2)}× ${k.engine}`).join(', ') : '';
      const cpuRatio = r.engine === 'engine' && e !== undefined ? ref.map((k) => `${(k.cpuPer1k / e.cpuPer1k).toFixed(2)}× ${k.engine}`).join(', ') : '';
      lines.push(`${r.engine.padEnd(9)} ${String(r.vus).padStart(5)} ${r.itersPerSec.toFixed(0).padStart(8)} ${r.cpuPer1k.toFixed(3).padStart(12)} ${r.peakRssMb.toFixed(0).padStart(12)} ${r.targetCores.toFixed(2).padStart(13)} ${r.generatorCores.toFixed(2).padStart(11)}  ${(r.targetCores >= TARGET_LIMIT_CORES ? 'target' : 'generator').padEnd(9)}  ${ratio}  ${cpuRatio}`);
    }
    lines.push('', `limit: "target" when the sandbox (one event loop) used ≥ ${TARGET_LIMIT_CORES} core, else the load generator (or the machine, when the two together use less than its cores: other load).`);
    for (const s of soak) lines.push(`soak ${s.engine}: RSS ${s.rssStartMb.toFixed(0)} → ${s.rssEndMb.toFixed(0)} MB (${s.growthPct.toFixed(1)} %) over ${soakMinutes} min at ${values['soak-vus']} VUs`);
    process.stdout.write(`${lines.join('\n')}\n`);
    const out = resolve(ROOT, values.out);
    (await import('node:fs')).mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify({ durationSec, rows, soak, soakMinutes }, null, 2)}\n`);
    process.stdout.write(`figures written to ${out}\n`);
  } finally {
    for (const c of children) c.kill();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
