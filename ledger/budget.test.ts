// The spend counter: reservations never cross the cap, Failed gives back, Successful settles at the charged amount;
// the shared counter holds across real worker threads racing for the last cents.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { createLocalBudget, createSharedBudget, SHARED_BUDGET_BYTES } from './budget.ts';
import { toCents } from './money-settings.ts';

describe('local budget', () => {
  it('reserves up to the cap and refuses the request that would cross it', () => {
    const b = createLocalBudget(1000);
    expect(b.reserve(600)).toBe(true);
    expect(b.reserve(400)).toBe(true);
    expect(b.reserve(1)).toBe(false);
    expect(b.committed()).toBe(1000);
    expect(b.refused()).toBe(1);
  });

  it('gives a Failed reservation back and settles a Successful one at what it cost', () => {
    const b = createLocalBudget(1000);
    b.reserve(600);
    b.release(600);
    expect(b.committed()).toBe(0);
    b.reserve(600);
    b.settle(600, 550);
    expect(b.committed()).toBe(550);
    expect(b.reserve(451)).toBe(false);
    expect(b.reserve(450)).toBe(true);
  });
});

describe('toCents', () => {
  it('rounds up to the cent, never down', () => {
    expect(toCents(4.995)).toBe(500);
    expect(toCents(10)).toBe(1000);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(0.001)).toBe(1);
  });
});

const BOOT = new URL('../engine/worker-boot.mjs', import.meta.url);
const RACER = new URL('./fixtures/budget-racer.ts', import.meta.url).href;

describe('shared budget', () => {
  it('is the same counter through its API', () => {
    const b = createSharedBudget(new Int32Array(new SharedArrayBuffer(SHARED_BUDGET_BYTES)), 500);
    expect(b.reserve(300)).toBe(true);
    expect(b.reserve(300)).toBe(false);
    b.settle(300, 200);
    expect(b.reserve(300)).toBe(true);
    expect(b.committed()).toBe(500);
    expect(b.refused()).toBe(1);
  });

  it('never lets threads racing on one SharedArrayBuffer cross the cap together', async () => {
    const buffer = new SharedArrayBuffer(SHARED_BUDGET_BYTES);
    const cap = 1_000_000;
    const got = await Promise.all(
      [1, 2, 3, 4].map(
        (seed) =>
          new Promise<number>((resolve, reject) => {
            const w = new Worker(BOOT, { workerData: { entry: RACER, buffer, cap, seed } });
            w.once('message', (n: number) => resolve(n));
            w.once('error', reject);
          }),
      ),
    );
    const total = got.reduce((a, b) => a + b, 0);
    const view = createSharedBudget(new Int32Array(buffer), cap);
    expect(total).toBe(view.committed());
    expect(total).toBeLessThanOrEqual(cap);
    // It stopped only when nothing more fitted: less than the largest request (97 cents) was left.
    expect(cap - total).toBeLessThan(97);
    expect(view.refused()).toBeGreaterThan(0);
  });
});
