// The capacity cache and load's warning from it: shown when a Node-engine plan asks more than the cached capacity for
// this machine, scenario and target; not shown below it, without a cache, for another target, or on k6.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseLoadFlags } from '../load-options.ts';
import { capacityCachePath, capacityKey, capacityWarning, loadCapacityWarning, planAsk, readCapacity, writeCapacity } from './cache.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-capacity-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { XDG_CACHE_HOME: dir, PATH: '' };
const capacity = { vus: 40, requestRate: 812.5, iterationRate: 90.2, measuredAt: '2026-11-27T05:00:00.000Z' };

describe('the capacity cache', () => {
  const path = capacityCachePath(env);
  writeCapacity(path, capacityKey('catalog-browse', 'embedded sandbox'), capacity);

  it('lives under the user cache dir, keyed by this machine, the scenario and the target', () => {
    expect(path).toBe(join(dir, 'gateway-harness', 'capacity.json'));
    expect(readCapacity(path, capacityKey('catalog-browse', 'embedded sandbox'))).toEqual(capacity);
    expect(readCapacity(path, capacityKey('lookup', 'embedded sandbox'))).toBeUndefined();
    expect(readCapacity(path, { ...capacityKey('catalog-browse', 'embedded sandbox'), cores: 9_999 })).toBeUndefined();
  });

  it('load warns (one line) when its plan asks more VUs than the cached capacity, on the Node engine', () => {
    const flags = (vus: string, engine = 'node') =>
      parseLoadFlags({ scenario: 'catalog-browse', profile: 'smoke', engine, api: 'both', vus });
    const warning = loadCapacityWarning(flags('100'), 'embedded sandbox', env, dir);
    expect(warning).toMatch(
      /^warning: 100 VUs is more than this machine measures honestly on the Node engine \(40 VUs, 813 requests\/s; calibrated 2026-11-27: `gateway-harness calibrate`\)/,
    );
    expect(warning).not.toContain('\n');
    expect(loadCapacityWarning(flags('40'), 'embedded sandbox', env, dir)).toBeUndefined();
    expect(loadCapacityWarning(flags('100'), 'https://other.example.com', env, dir)).toBeUndefined();
    expect(loadCapacityWarning(flags('100', 'k6'), 'embedded sandbox', env, dir)).toBeUndefined();
    expect(loadCapacityWarning(flags('100'), 'embedded sandbox', { XDG_CACHE_HOME: join(dir, 'none') }, dir)).toBeUndefined();
  });

  it('an unreadable cache is no cache (calibration is advice, never required)', () => {
    const broken = join(dir, 'broken');
    const brokenPath = capacityCachePath({ XDG_CACHE_HOME: broken });
    writeCapacity(brokenPath, capacityKey('lookup', 'embedded sandbox'), capacity);
    writeFileSync(brokenPath, '{not json');
    expect(readCapacity(brokenPath, capacityKey('lookup', 'embedded sandbox'))).toBeUndefined();
  });

  it('an arrival-rate plan is held against the cached iterations per second at its top rate', () => {
    const ask = planAsk(parseLoadFlags({ scenario: 'catalog-browse', profile: 'load', engine: 'node', api: 'both', rate: '500' }));
    expect('iterationRate' in ask && ask.iterationRate).toBeGreaterThanOrEqual(500);
    expect(capacityWarning(ask, capacity)).toMatch(/^warning: \d+(\.\d+)? iterations\/s is more than .*90\.2 iterations\/s at 40 VUs/);
    expect(capacityWarning({ iterationRate: 50 }, capacity)).toBeUndefined();
  });
});
