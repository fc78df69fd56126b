// Tests of the pair latency load: the run comparison's statistics (nearest-rank quantiles, distribution-free intervals,
// Mood's test), bounded request counts, both versions interleaved, failures counted; a fake sender reports the
// timings, so nothing here depends on the machine's speed.
import { describe, expect, it } from 'vitest';
import type { GatewayResponse } from '../api/envelope.ts';
import type { Outcome } from '../api/outcome.ts';
import { measurePair } from './latency.ts';

function response(totalMs: number, outcome: Outcome = 'Successful'): GatewayResponse {
  return {
    operationId: 'x',
    headers: {},
    timedOut: false,
    timings: { startedAt: 0, totalMs },
    classification: { outcome, final: outcome !== 'InProgress' && outcome !== 'Unknown' } as GatewayResponse['classification'],
  };
}

describe('latency statistics (stats/quantiles.ts, the one implementation)', () => {
  it('nearest-rank p50/p95 with intervals, unbounded where 10 samples cannot bound a p95, and the v1/v2 test', async () => {
    let a = 0;
    let b = 0;
    const result = await measurePair(
      { v1: async () => response(1 + (a++ % 20)), v2: async () => response(1 + (b++ % 20)) },
      { requests: 200, concurrency: 1, maxMs: 60_000 },
    );
    expect(result.v1.p50).toBeGreaterThanOrEqual(9);
    expect(result.v1.p50).toBeLessThanOrEqual(12);
    expect(result.v1.p95Ci[0]).not.toBeNull();
    expect(result.v1.p95Ci[1]).not.toBeNull();
    expect(result.p95PValue).toBeGreaterThan(0.01);
    let c = 0;
    let d = 0;
    const slower = await measurePair(
      { v1: async () => response(1 + (c++ % 20)), v2: async () => response(1.5 * (1 + (d++ % 20))) },
      { requests: 200, concurrency: 1, maxMs: 60_000 },
    );
    expect(slower.p95PValue).toBeLessThan(0.01);
    const few = await measurePair(
      { v1: async () => response(5), v2: async () => response(50) },
      { requests: 10, concurrency: 1, maxMs: 60_000 },
    );
    expect(few.v1.p95Ci[1]).toBeNull();
  });
});

describe('measurePair', () => {
  it('sends the requested count per version plus one warm-up each, interleaved', async () => {
    const order: string[] = [];
    const result = await measurePair(
      {
        v1: async () => (order.push('v1'), response(10)),
        v2: async () => (order.push('v2'), response(20)),
      },
      { requests: 5, concurrency: 1, maxMs: 60_000 },
    );
    expect(order).toHaveLength(12);
    expect(order.slice(2, 6)).toEqual(['v1', 'v2', 'v2', 'v1']);
    expect(result.v1).toMatchObject({ p50: 10, p95: 10, count: 5, failures: 0 });
    expect(result.v2).toMatchObject({ p50: 20, p95: 20, count: 5, failures: 0 });
  });

  it('counts answers that are not successful as failures', async () => {
    const result = await measurePair(
      { v1: async () => response(1), v2: async () => response(1, 'Failed') },
      { requests: 3, concurrency: 2, maxMs: 60_000 },
    );
    expect(result.v2.failures).toBe(3);
    expect(result.v1.failures).toBe(0);
  });

  it('starts nothing after the time bound', async () => {
    let clock = 0;
    let sent = 0;
    const send = async () => {
      sent += 1;
      clock += 100;
      return response(1);
    };
    const result = await measurePair({ v1: send, v2: send }, { requests: 50, concurrency: 1, maxMs: 250 }, () => clock);
    expect(result.v1.count + result.v2.count).toBe(3);
    expect(sent).toBe(5);
  });
});
