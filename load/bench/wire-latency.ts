// `npm run bench:wire -- --vus 50,100,200,500 --duration 10s --runs 3`: the Node engine's reported http_req_duration
// beside what a measuring proxy in front of the sandbox (its own process, load/runner/capacity/proxy.ts) served, per VU
// count, each run and the median of the runs, with the generator's saturation windows and the machine's load average
// (an idle box's figures need an idle box: the load average says whether it was). Prints figures; asserts nothing.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { probe, type ProbeResult } from '../runner/capacity/probe.ts';
import { startMeasuringProxy } from '../runner/capacity/proxy.ts';

const { values } = parseArgs({
  options: {
    vus: { type: 'string', default: '50,100,200,500' },
    duration: { type: 'string', default: '10s' },
    runs: { type: 'string', default: '1' },
  },
});
const runs = Math.max(1, Number(values.runs ?? '1'));
const ms = (v: number): string => v.toFixed(1);
const load = (): string =>
  loadavg()
    .map((v) => v.toFixed(1))
    .join(' ');

function median(numbers: readonly number[]): number {
  const sorted = [...numbers].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** One table row: the engine's and the proxy's p50 / p95 / p99, the request counts, the windows. */
function row(label: string, results: readonly ProbeResult[]): string {
  const m = (pick: (r: ProbeResult) => number): string => ms(median(results.map(pick)));
  const reported = `${m((r) => r.reported.p50)} / ${m((r) => r.reported.p95)} / ${m((r) => r.reported.p99)}`;
  const served = `${m((r) => r.served.p50)} / ${m((r) => r.served.p95)} / ${m((r) => r.served.p99)}`;
  const ratio = median(results.map((r) => (r.served.p50 > 0 ? r.reported.p50 / r.served.p50 : 0))).toFixed(1);
  const windows = results.flatMap((r) => r.windows).join('; ') || 'none';
  return `| ${label} | ${reported} | ${served} | ${ratio}x | ${m((r) => r.requests)} / ${m((r) => r.served.count)} | ${windows} |`;
}

const proxy = await startMeasuringProxy();
console.log(`load average at start (1/5/15 min): ${load()}; ${runs} run(s) per VU count, ${values.duration ?? '10s'} each`);
console.log(
  '| VUs | engine p50 / p95 / p99 ms | proxy served p50 / p95 / p99 ms | engine/served p50 | requests / served | generator windows |',
);
console.log('|---|---|---|---|---|---|');
try {
  for (const vus of (values.vus ?? '').split(',').map(Number)) {
    const results: ProbeResult[] = [];
    for (let run = 1; run <= runs; run += 1) {
      const r = await probe(proxy, { scenario: 'catalog-browse', vus, duration: values.duration ?? '10s' });
      results.push(r);
      if (runs > 1) console.log(row(`${vus} (run ${run})`, [r]));
    }
    console.log(row(runs > 1 ? `**${vus} (median of ${runs})**` : String(vus), results));
  }
} finally {
  proxy.close();
}
console.log(`load average at end (1/5/15 min): ${load()}`);
