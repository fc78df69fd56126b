// Issue #36's proof of accuracy: the Node engine, k6 v0.48 and the newest k6 each run catalog-browse at a low arrival rate
// through the measuring proxy; the report counts exactly what the proxy served, and its p50/p95 (and p99 when enough
// requests set it) are within +3 ms + 5 % of served, plus what the report's accuracy statement says its generator added.
// A relay that holds every answer unseen by the proxy is shown further above the wire than the report says.
import { createServer, request as forward, Agent, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { k6ComparisonSlots } from '../k6-binaries.ts';
import { accuracyText } from '../../../reports/sections.ts';
import {
  goalBound,
  judgeAccuracy,
  judgeQuantiles,
  probe,
  type ProbeEngine,
  type ProbeOptions,
  type ProbeResult,
  type QuantileJudgement,
} from './probe.ts';
import { startMeasuringProxy, type MeasuringProxy } from './proxy.ts';

/**
 * A load the generator carries on a loaded 2-core box (engine/README.md "At a rate the generator carries": 5 it/s was
 * carried, 20 it/s saturated the engine), for long enough to hold it a few seconds after the profile's ramp.
 */
const RUN: Omit<ProbeOptions, 'engine'> = { scenario: 'catalog-browse', vus: 0, rate: 3, duration: '8s' };
/** The preflight's one balance read (client/target-preflight.ts) goes through the proxy, outside the report's http_reqs. */
const PREFLIGHT_READS = 1;
/** The CLI's start (tsx, k6's bundle), the run and its report, on a loaded box. */
const RUN_TIMEOUT_MS = 240_000;

let proxy: MeasuringProxy | undefined;
beforeAll(async () => {
  proxy = await startMeasuringProxy();
}, 60_000);
afterAll(() => proxy?.close());

function theProxy(): MeasuringProxy {
  if (proxy === undefined) throw new Error('the measuring proxy did not start');
  return proxy;
}

/**
 * The samples above a quantile that set it: with fewer, one request the OS scheduled late (a Go GC pause in k6, another
 * process's turn) moves it by milliseconds the generator's own per-second figures cannot see. At 3 it/s for 8 s (240
 * requests) p50 and p95 are set by 120 and 12 samples, p99 by 2: a carried k6 v2.2 run in CI had p99 5.8 ms against 1.8
 * served (p50 0.6 / 0.5, p95 2.0 / 1.3 ms), so p99 is judged only where at least this many requests lie above it.
 */
const TAIL = 10;

function settledBy(quantile: QuantileJudgement['quantile'], requests: number): boolean {
  const above = { p50: 0.5, p95: 0.05, p99: 0.01 }[quantile];
  return requests * above >= TAIL;
}

/**
 * What the report allows its latency to be above the wire, past the goal's +3 ms + 5 %: nothing when it says it is
 * within the goal, else the most its generator added in a second (reports/generator.ts `accuracyOf`: "its figures can
 * be that much above what the gateway served"), no bound when a second had none (a starved k6).
 */
function allowanceMs(r: ProbeResult): number {
  if (r.accuracy === undefined) return 0;
  return r.accuracy.withinGoal ? 0 : (r.accuracy.addedUpToMs ?? Infinity);
}

/** Quantiles further above what was served than the report says they can be: its statement understated them. */
function understated(r: ProbeResult): QuantileJudgement[] {
  const allowance = allowanceMs(r);
  return judgeQuantiles(r).filter((q) => q.reportedMs > goalBound(q.servedMs) + allowance);
}

/** The run's figures, for the failure message and the test's output (the proof's table). */
function figures(r: ProbeResult): string {
  const judged = judgeAccuracy(r);
  const ms = (v: number): string => v.toFixed(1);
  const quantiles = judged.quantiles.map(
    (q) => `${q.quantile} ${ms(q.reportedMs)} / ${ms(q.servedMs)} ms ${q.within ? 'within' : 'OUTSIDE'}`,
  );
  const generator = [
    judged.carried ? 'carried' : 'NOT carried',
    `windows: ${r.windows.join('; ') || 'none'}`,
    `saturated seconds: ${r.saturatedSeconds.join('; ') || 'none'}`,
    r.accuracy === undefined ? 'no accuracy statement' : `report: ${accuracyText(r.accuracy)}`,
    `dropped ${r.droppedIterations}`,
    r.peakLoopDelayP99Ms === undefined ? undefined : `loop p99 peak ${ms(r.peakLoopDelayP99Ms)} ms`,
    r.peakCpuShare === undefined ? undefined : `CPU peak ${Math.round(r.peakCpuShare * 100)} %`,
  ].filter((part) => part !== undefined);
  return `${r.engine} at ${r.rate ?? '-'} it/s: requests ${r.requests}, served ${r.served.count}; reported / served: ${quantiles.join(', ')}; ${generator.join(', ')}`;
}

const ENGINES: Array<[string, ProbeEngine | undefined]> = [
  ['the Node engine', { kind: 'node' }],
  ...k6ComparisonSlots('load/runner/capacity/accuracy.test.ts').map(([label, bin]): [string, ProbeEngine | undefined] => [
    label,
    bin === undefined ? undefined : { kind: 'k6', bin },
  ]),
];

describe.each(ENGINES)('%s through the measuring proxy', (_label, engine) => {
  it.skipIf(engine === undefined)(
    'counts exactly what was served; a quantile set by 10 or more requests is within +3 ms + 5 % of served, plus what the report says its generator added',
    async () => {
      const r = await probe(theProxy(), { ...RUN, engine: engine as ProbeEngine });
      const measured = figures(r);
      console.log(`accuracy: ${measured}`);
      expect(r.requests, measured).toBeGreaterThan(0);
      expect(r.served.count, measured).toBe(r.requests + PREFLIGHT_READS);
      expect(r.accuracy, measured).toBeDefined();
      // Within the goal by the report's own statement (every second the generator added 3 ms or less), its figures are
      // the wire's at every quantile its samples set firmly; outside it, the report says by how much they can be above
      // the wire (summary.md, report.html), and they are no further than that.
      const wrong = understated(r).map((q) => q.quantile);
      expect(
        wrong.filter((q) => settledBy(q, r.requests)),
        `further above what was served than the report says they can be: ${measured}`,
      ).toEqual([]);
      // A thin tail (p99 of 240 requests is set by 2): one request the OS scheduled late moves it, unseen per second.
      if (wrong.length > 0)
        console.warn(
          `accuracy: FINDING (#36): further above what was served than the report says at ${wrong.join(', ')}, set by under ${TAIL} requests: ${measured}`,
        );
    },
    RUN_TIMEOUT_MS,
  );
});

/** A relay that holds every answer `holdMs` before passing it on: time on the generator's side the proxy never sees. */
async function startHoldingRelay(upstream: string, holdMs: number): Promise<{ url: string; close: () => Promise<void> }> {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true });
  const server = createServer((req, res) => {
    const out = forward(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers, agent },
      (answer: IncomingMessage) => {
        const body: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => body.push(chunk));
        answer.on('end', () =>
          setTimeout(() => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(body));
          }, holdMs),
        );
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((done) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

describe('the check fails a generator that adds time the proxy does not see', () => {
  /** Far above +3 ms + 5 % of any served time under 1.9 s, so every quantile is outside the goal whatever the box. */
  const HOLD_MS = 100;

  it(
    'answers held 100 ms on the way back: every quantile outside the goal, and further above the wire than the report says',
    async () => {
      const real = theProxy();
      const relay = await startHoldingRelay(real.url, HOLD_MS);
      try {
        const r = await probe(
          { url: relay.url, served: () => real.served(), close: () => undefined },
          { ...RUN, engine: { kind: 'node' } },
        );
        const measured = figures(r);
        console.log(`accuracy (held ${HOLD_MS} ms, planted): ${measured}`);
        expect(r.served.count, measured).toBe(r.requests + PREFLIGHT_READS);
        expect(
          judgeQuantiles(r)
            .filter((q) => !q.within)
            .map((q) => q.quantile),
          measured,
        ).toEqual(['p50', 'p95', 'p99']);
        // The report knows nothing of the held time: at most what its own generator added (a few ms on a quiet box, tens
        // beside a hog), so every quantile is further above the wire than it says, and the check of the runs above fails
        // on it. Only a generator late by about the hold itself (no bound, or 50 ms and more) would cover it.
        if (allowanceMs(r) < HOLD_MS / 2)
          expect(
            understated(r).map((q) => q.quantile),
            measured,
          ).toEqual(['p50', 'p95', 'p99']);
      } finally {
        await relay.close();
      }
    },
    RUN_TIMEOUT_MS,
  );
});
