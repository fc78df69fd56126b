// `npm run bench:monitor -- --vus 50 --duration 40s --segment 2s`: what the generator's measurement of itself costs
// (#36), side by side in one run: the bare loop (bare-loop.ts: the catalog-browse requests from one Node event loop)
// against a measuring proxy's sandbox, with the engine's monitors (event-loop delay histogram, utilization, heartbeat and
// its watch, the /proc sampler) switched on and off every segment, so a box getting busier or quieter weighs on both
// sides alike; requests/s and p50 per side and their ratios on/off, the median over the segment pairs. Prints figures;
// asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { newHeartbeats, startLoopMonitor, watchHeartbeats } from '../../engine/loop-monitor.ts';
import { startProcMonitor } from '../runner/generator-monitor.ts';
import { startMeasuringProxy } from '../runner/capacity/proxy.ts';
import { runBareLoop } from './bare-loop.ts';
import { suiteEnv } from './suite-env.ts';
import { median, loadAverage } from './figures.ts';

interface Segment {
  readonly monitor: boolean;
  readonly requestsPerSec: number;
  readonly p50Ms: number;
}

/**
 * What the Node engine runs to measure itself (engine/loop-monitor.ts: a VU thread's loop-delay histogram, utilization
 * and heartbeat, the controller's heartbeat watch; runner/generator-monitor.ts: the /proc sampler), all on this one
 * thread, where the engine spreads them over its VU threads and controller: what they cost here is an upper bound.
 */
function startGeneratorMeasurement(): () => void {
  const heartbeats = newHeartbeats(1);
  const loop = startLoopMonitor(() => undefined, { heartbeats, index: 0 });
  const watch = watchHeartbeats(heartbeats, 1, () => undefined);
  watch.started();
  const proc = startProcMonitor({ pid: process.pid });
  return () => {
    loop.stop();
    watch.stop();
    proc.stop();
  };
}

/** One bare-loop run with the monitors switched every `segmentMs`; its segments, the last (the loops' drain) left out. */
async function alternatingRun(base: string, vus: number, seconds: number, segmentMs: number): Promise<Segment[]> {
  const dir = mkdtempSync(join(tmpdir(), 'gh-monitor-cost-'));
  const segments: Segment[] = [];
  let times: number[] = [];
  let monitor = false;
  let stopMonitor: (() => void) | undefined;
  let segmentStart = 0;
  let timer: NodeJS.Timeout | undefined;
  const close = (): void => {
    const now = performance.now();
    segments.push({ monitor, requestsPerSec: (times.length * 1000) / Math.max(1, now - segmentStart), p50Ms: median(times) });
    times = [];
    segmentStart = now;
  };
  const toggle = (): void => {
    close();
    monitor = !monitor;
    if (monitor) stopMonitor = startGeneratorMeasurement();
    else stopMonitor?.();
  };
  const onStart = (): void => {
    segmentStart = performance.now();
    timer = setInterval(toggle, segmentMs);
  };
  try {
    await runBareLoop(suiteEnv(base, vus, `${seconds}s`, dir), vus, seconds, { onStart, onResponse: (ms) => times.push(ms) });
  } finally {
    clearInterval(timer);
    if (monitor) stopMonitor?.();
    rmSync(dir, { recursive: true, force: true });
  }
  return segments;
}

/** Adjacent segments as (on, off) pairs, the first pair left out (the loops warming up after setup). */
function pairs(segments: readonly Segment[]): Array<{ on: Segment; off: Segment }> {
  const out: Array<{ on: Segment; off: Segment }> = [];
  for (let i = 2; i + 1 < segments.length; i += 2) {
    const [a, b] = [segments[i] as Segment, segments[i + 1] as Segment];
    out.push(a.monitor ? { on: a, off: b } : { on: b, off: a });
  }
  return out;
}

const { values } = parseArgs({
  options: {
    vus: { type: 'string', default: '50' },
    duration: { type: 'string', default: '40s' },
    segment: { type: 'string', default: '2s' },
  },
});
const vus = Number(values.vus ?? '50');
const seconds = Number.parseFloat(values.duration ?? '40s');
const segmentMs = Number.parseFloat(values.segment ?? '2s') * 1000;
const f = (v: number, digits = 1): string => v.toFixed(digits);
console.log(
  `load average at start (1/5/15 min): ${loadAverage()}; bare loop at ${vus} VUs for ${seconds} s, monitors switched every ${segmentMs / 1000} s`,
);
const proxy = await startMeasuringProxy();
let found: Array<{ on: Segment; off: Segment }>;
try {
  found = pairs(await alternatingRun(proxy.url, vus, seconds, segmentMs));
} finally {
  proxy.close();
}
const side = (pick: (p: { on: Segment; off: Segment }) => Segment, key: keyof Omit<Segment, 'monitor'>): number =>
  median(found.map((p) => pick(p)[key]));
console.log('| side | requests/s (median of segments) | p50 ms (median of segments) |');
console.log('|---|---|---|');
console.log(
  `| monitors on | ${f(side((p) => p.on, 'requestsPerSec'))} | ${f(
    side((p) => p.on, 'p50Ms'),
    2,
  )} |`,
);
console.log(
  `| monitors off | ${f(side((p) => p.off, 'requestsPerSec'))} | ${f(
    side((p) => p.off, 'p50Ms'),
    2,
  )} |`,
);
console.log(
  `ratio on/off, median of ${found.length} adjacent pairs: requests/s ${f(median(found.map((p) => p.on.requestsPerSec / p.off.requestsPerSec)), 3)}, ` +
    `p50 ${f(median(found.map((p) => p.on.p50Ms / p.off.p50Ms)), 3)} (1.000: no cost; requests/s below 1 and p50 above 1 are the monitors' cost)`,
);
console.log(`load average at end (1/5/15 min): ${loadAverage()}`);
