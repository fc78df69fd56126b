// The load's charges before it starts: the gate's smoke load is an elastic part that fills what conformance leaves,
// its lines following the mixed schedule's first iterations; a v1 load is priced cheapest first, as it now picks.
import { describe, expect, it } from 'vitest';
import { LOAD_ITERATIONS, loadFundsPlan } from './money-plan.ts';
import type { LoadFlags } from './load-options.ts';

const smoke: LoadFlags = { scenario: 'mixed', profile: 'smoke', engine: 'node', api: 'both', thresholds: {} };

describe("the gate's smoke load in the money plan", () => {
  it('elastic: one part that fills (down to none), each line counting the charging writes of the first n iterations', () => {
    const plan = loadFundsPlan(smoke, true);
    const part = plan.elastic?.[0];
    expect(part).toMatchObject({ part: LOAD_ITERATIONS, min: 0, fill: true, unit: 'iterations' });
    const full = part?.full ?? 0;
    const at = (n: number): number => plan.lines.reduce((sum, line) => sum + (line.elastic?.count(n) ?? 0), 0);
    // At its full value each line is its plain count; none at 0; never more charges than iterations, and growing with them.
    expect(plan.lines.every((line) => line.elastic?.count(full) === line.count)).toBe(true);
    expect(at(0)).toBe(0);
    for (let n = 1; n <= full; n++) {
      expect(at(n)).toBeLessThanOrEqual(n);
      expect(at(n)).toBeGreaterThanOrEqual(at(n - 1));
    }
    expect(at(full)).toBe(plan.lines.reduce((sum, line) => sum + line.count, 0));
  });

  it('a plain load run (not the gate) is not elastic: it runs whole or stops', () => {
    expect(loadFundsPlan(smoke).elastic).toBeUndefined();
    expect(loadFundsPlan(smoke).lines.every((line) => line.elastic === undefined)).toBe(true);
  });

  it("v1 writes are priced at the builder's cheapest picks as v2's (the v1 load reads wallet prices from the v2 list; before: by skuId)", () => {
    expect(new Set(loadFundsPlan({ ...smoke, api: 'v1' }).lines.map((line) => line.amount))).toEqual(new Set(['smallest']));
  });
});
