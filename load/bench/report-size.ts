// `npm run bench:report-size -- --vus 50 --duration 60s --runs 3`: how big a load run's report directory grows, as a user
// runs it (`gateway-harness load`, catalog-browse smoke): the default directory (per-second aggregates) beside the same
// run keeping the raw one-line-per-sample stream in it (`--out json=raw.ndjson.gz`, what every run kept before the aggregates),
// interleaved, each run and the median, with the size an hour of the run would leave. Prints figures; asserts nothing.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { AGGREGATES_FILE } from '../../reports/metric-aggregates.ts';
import type { RunReport } from '../../reports/model.ts';
import { median, loadAverage } from './figures.ts';

const CLI = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'bin', 'gateway-harness.mjs');
// Gzipped, as every run kept it before the aggregates (its metrics.ndjson.gz).
const RAW_FILE = 'raw.ndjson.gz';

const { values } = parseArgs({
  options: {
    vus: { type: 'string', default: '50' },
    duration: { type: 'string', default: '60s' },
    runs: { type: 'string', default: '3' },
    engine: { type: 'string', default: 'node' },
  },
});
const runs = Math.max(1, Number(values.runs));
const seconds = Number(/^(\d+)s$/.exec(values.duration ?? '')?.[1] ?? Number.NaN);
if (!Number.isFinite(seconds)) throw new Error(`--duration takes whole seconds, e.g. 60s (got ${values.duration ?? ''})`);

type Variant = 'aggregates' | 'raw kept';
interface Sized {
  readonly requests: number;
  readonly dirBytes: number;
  /** The part that grows with the run: the per-second aggregates, or the raw stream when kept. */
  readonly growingBytes: number;
}

function bytesUnder(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((sum, entry) => {
    const path = join(dir, entry.name);
    return sum + (entry.isDirectory() ? bytesUnder(path) : statSync(path).size);
  }, 0);
}

function runCli(args: readonly string[]): Promise<number | null> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: 'ignore' });
    child.once('error', fail);
    child.once('exit', (code) => done(code));
  });
}

/** One `gateway-harness load` run, its report directory measured then removed. */
async function measure(variant: Variant): Promise<Sized> {
  const dir = mkdtempSync(join(tmpdir(), 'gh-report-size-'));
  try {
    const raw = variant === 'raw kept' ? ['--out', `json=${join(dir, RAW_FILE)}`] : [];
    const args = ['load', '--scenario', 'catalog-browse', '--profile', 'smoke', '--vus', values.vus ?? '50', '--duration'];
    const code = await runCli([...args, values.duration ?? '60s', '--engine', values.engine ?? 'node', '--report-dir', dir, ...raw]);
    const report = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as RunReport;
    if (report.load === undefined) throw new Error(`the load run (exit ${code ?? 'signal'}) wrote no load section`);
    const growing = variant === 'raw kept' ? RAW_FILE : AGGREGATES_FILE;
    return { requests: report.load.requests.count, dirBytes: bytesUnder(dir), growingBytes: statSync(join(dir, growing)).size };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What an hour of the same run would leave: the fixed part once, the growing part for 3,600 s. */
function perHour(s: Sized): number {
  return s.dirBytes - s.growingBytes + (s.growingBytes / seconds) * 3600;
}

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(2)} MB`;
const row = (label: string, s: Sized): string =>
  `| ${label} | ${s.requests.toLocaleString('en-US')} | ${mb(s.dirBytes)} | ${mb(s.growingBytes)} | ${mb(perHour(s))} |`;

async function main(): Promise<void> {
  console.log(
    `bench:report-size — catalog-browse smoke, ${values.vus} VUs × ${values.duration}, engine ${values.engine}, ${runs} run(s) each`,
  );
  console.log(`load average at start (1/5/15 min): ${loadAverage()}`);
  console.log('| run | requests | report dir | growing file | an hour of this run |');
  console.log('|---|---|---|---|---|');
  const results: Record<Variant, Sized[]> = { aggregates: [], 'raw kept': [] };
  for (let run = 1; run <= runs; run += 1) {
    // Interleaved, so a drift of the machine's load hits both alike.
    for (const variant of ['raw kept', 'aggregates'] as const) {
      const sized = await measure(variant);
      results[variant].push(sized);
      console.log(row(`${variant} (run ${run})`, sized));
    }
  }
  for (const variant of ['raw kept', 'aggregates'] as const) {
    const all = results[variant];
    const medianOf = (pick: (s: Sized) => number): number => median(all.map(pick));
    const sized = {
      requests: medianOf((s) => s.requests),
      dirBytes: medianOf((s) => s.dirBytes),
      growingBytes: medianOf((s) => s.growingBytes),
    };
    console.log(row(`**${variant} (median of ${runs})**`, sized));
  }
  const ratio = median(results['raw kept'].map((s) => s.dirBytes)) / median(results.aggregates.map((s) => s.dirBytes));
  console.log(`report dir, raw kept / aggregates (medians): ${ratio.toFixed(1)}x`);
  console.log(`load average at end (1/5/15 min): ${loadAverage()}`);
}

await main();
