// `npm run bench:wire -- --vus 50,100,200,500 --duration 10s --runs 3`: the Node engine's reported http_req_duration
// beside what a measuring proxy in front of the sandbox (its own process, load/runner/capacity/proxy.ts) served, per VU
// count, each run and the median of the runs, with the generator's saturation windows and the machine's load average
// (an idle box's figures need an idle box: the load average says whether it was). `--rate 5,20` instead: the `load`
// profile at those iterations/s, each quantile judged against the goal (+3 ms + 5 % of served) with whether the
// generator carried the run (probe.ts `generatorCarried`). Prints figures; asserts nothing: load/runner/capacity/accuracy.test.ts
// is the test.
import { parseArgs } from 'node:util';
import { judgeAccuracy, judgeQuantiles, probe, type AccuracyInput, type ProbeResult } from '../runner/capacity/probe.ts';
import { startMeasuringProxy, type MeasuringProxy } from '../runner/capacity/proxy.ts';
import { median, loadAverage } from './figures.ts';

const { values } = parseArgs({
  options: {
    vus: { type: 'string', default: '50,100,200,500' },
    rate: { type: 'string' },
    duration: { type: 'string', default: '10s' },
    runs: { type: 'string', default: '1' },
  },
});
const runs = Math.max(1, Number(values.runs ?? '1'));
const duration = values.duration ?? '10s';
const ms = (v: number): string => v.toFixed(1);

/** One table row: the engine's and the proxy's p50 / p95 / p99, the request counts, the windows. */
function row(label: string, results: readonly ProbeResult[]): string {
  const m = (pick: (r: ProbeResult) => number): string => ms(median(results.map(pick)));
  const reported = `${m((r) => r.reported.p50)} / ${m((r) => r.reported.p95)} / ${m((r) => r.reported.p99)}`;
  const served = `${m((r) => r.served.p50)} / ${m((r) => r.served.p95)} / ${m((r) => r.served.p99)}`;
  const ratio = median(results.map((r) => (r.served.p50 > 0 ? r.reported.p50 / r.served.p50 : 0))).toFixed(1);
  const windows = results.flatMap((r) => r.windows).join('; ') || 'none';
  const within = results.filter((r) => r.accuracy?.withinGoal === true).length;
  return `| ${label} | ${reported} | ${served} | ${ratio}x | ${m((r) => r.requests)} / ${m((r) => r.served.count)} | ${windows} | ${within} of ${results.length} |`;
}

async function byVus(proxy: MeasuringProxy): Promise<void> {
  console.log(
    '| VUs | engine p50 / p95 / p99 ms | proxy served p50 / p95 / p99 ms | engine/served p50 | requests / served | generator windows | report says within the accuracy goal |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const vus of (values.vus ?? '').split(',').map(Number)) {
    const results: ProbeResult[] = [];
    for (let run = 1; run <= runs; run += 1) {
      const r = await probe(proxy, { scenario: 'catalog-browse', vus, duration });
      results.push(r);
      if (runs > 1) console.log(row(`${vus} (run ${run})`, [r]));
    }
    console.log(row(runs > 1 ? `**${vus} (median of ${runs})**` : String(vus), results));
  }
}

/** Per quantile: reported / served (difference, ratio) and whether it meets the goal. */
function quantileCells(r: Pick<AccuracyInput, 'reported' | 'served'>): string[] {
  return judgeQuantiles(r).map(
    (q) =>
      `${ms(q.reportedMs)} / ${ms(q.servedMs)} (${q.differenceMs >= 0 ? '+' : ''}${ms(q.differenceMs)} ms, ${q.ratio === undefined ? '-' : q.ratio.toFixed(2)}x) ${q.within ? 'within' : 'OUTSIDE'}`,
  );
}

/** A rate run's row: per quantile reported / served, difference and ratio, within the goal or not; carried or not. */
function accuracyRow(label: string, r: ProbeResult): string {
  const judged = judgeAccuracy(r);
  const loop = r.peakLoopDelayP99Ms === undefined ? 'no loop figure' : `loop p99 peak ${ms(r.peakLoopDelayP99Ms)} ms`;
  const added = r.accuracy?.addedUpToMs === undefined ? 'added: no bound' : `added up to ${ms(r.accuracy.addedUpToMs)} ms`;
  const why = [
    ...r.windows,
    ...r.saturatedSeconds,
    ...(r.droppedIterations > 0 ? [`${r.droppedIterations} dropped iterations`] : []),
    added,
  ];
  const carried = judged.carried ? `carried (${loop})` : `NOT carried (${loop}; ${why.join('; ')})`;
  const verdict = judged.proven ? 'goal met' : judged.carried ? 'GOAL MISSED' : 'proves nothing (saturated)';
  return `| ${label} | ${ms(r.requestRate)} | ${quantileCells(r).join(' | ')} | ${carried} | ${verdict} |`;
}

/** The runs at one rate as one row: the median of each figure, and how many runs the generator carried. */
function medianRow(label: string, results: readonly ProbeResult[]): string {
  const m = (pick: (r: ProbeResult) => number): number => median(results.map(pick));
  const quantiles = (pick: (r: ProbeResult) => ProbeResult['reported']) => ({
    p50: m((r) => pick(r).p50),
    p95: m((r) => pick(r).p95),
    p99: m((r) => pick(r).p99),
  });
  const carried = results.filter((r) => judgeAccuracy(r).carried).length;
  const peaks = results.map((r) => (r.peakLoopDelayP99Ms === undefined ? '-' : ms(r.peakLoopDelayP99Ms))).join(', ');
  const medians = { reported: quantiles((r) => r.reported), served: { ...quantiles((r) => r.served), count: m((r) => r.served.count) } };
  // The medians prove the goal only when every run was carried: a saturated run's figures measure the generator.
  const within = judgeQuantiles(medians).every((q) => q.within);
  const verdict = carried < results.length ? 'proves nothing (not every run carried)' : within ? 'goal met' : 'GOAL MISSED';
  return `| ${label} | ${ms(m((r) => r.requestRate))} | ${quantileCells(medians).join(' | ')} | carried in ${carried} of ${results.length} runs (loop p99 peaks ${peaks} ms) | ${verdict} |`;
}

async function byRate(proxy: MeasuringProxy, rates: readonly number[]): Promise<void> {
  console.log('goal: reported <= served x 1.05 + 3 ms, per quantile; only a run the generator carried proves it');
  console.log('| rate it/s | req/s | p50 reported / served | p95 reported / served | p99 reported / served | generator | verdict |');
  console.log('|---|---|---|---|---|---|---|');
  for (const rate of rates) {
    const results: ProbeResult[] = [];
    for (let run = 1; run <= runs; run += 1) {
      // The VU pool is the profile's own (10 pre-allocated, up to 100): the rate, not the VUs, sets the load.
      const r = await probe(proxy, { scenario: 'catalog-browse', vus: 0, duration, rate });
      results.push(r);
      console.log(accuracyRow(`${rate} (run ${run})`, r));
    }
    if (runs > 1) console.log(medianRow(`**${rate} (median of ${runs})**`, results));
  }
}

const proxy = await startMeasuringProxy();
console.log(`load average at start (1/5/15 min): ${loadAverage()}; ${runs} run(s) each, ${duration} each`);
try {
  if (values.rate === undefined) await byVus(proxy);
  else await byRate(proxy, values.rate.split(',').map(Number));
} finally {
  proxy.close();
}
console.log(`load average at end (1/5/15 min): ${loadAverage()}`);
