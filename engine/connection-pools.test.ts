// A VU's connection pool (runtime.ts poolForVU): VUs of a thread share pools 8 at a time, not one pool for all (undici
// scans a pool's connections for a free one on every request), a VU keeps its pool, and closing the runtime closes them.
import type { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { consolidateOptions } from './options.ts';
import { EngineRuntime } from './runtime.ts';
import { VU } from './vu.ts';

const runtime = (): EngineRuntime =>
  new EngineRuntime({ factory: () => ({}), options: consolidateOptions({}), env: {}, scriptDir: '.', submetrics: [] });

describe('connection pools of a thread', () => {
  it('gives 8 VUs a pool, the next 8 a new one, and a VU the same pool on every request', () => {
    const rt = runtime();
    const vus = Array.from({ length: 17 }, (_, i) => new VU(rt, { idInTest: i + 1, idInInstance: i + 1 }));
    const pools = vus.map((vu) => vu.agent);
    expect(new Set(pools).size).toBe(3);
    expect(new Set(pools.slice(0, 8)).size).toBe(1);
    expect(new Set(pools.slice(8, 16)).size).toBe(1);
    expect(pools[7]).not.toBe(pools[8]);
    expect(pools[15]).not.toBe(pools[16]);
    expect(vus.map((vu) => vu.agent)).toEqual(pools);
  });

  it('closes every pool with the runtime', async () => {
    const rt = runtime();
    const pools = Array.from({ length: 9 }, () => rt.poolForVU() as Agent);
    await rt.close();
    expect(pools.every((pool) => pool.destroyed)).toBe(true);
  });
});
