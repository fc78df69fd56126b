// The relay hold: each held answer waits for the next one (or its bound), one out at a time, and it stays counted in
// flight at the sandbox while it waits (the state the planted under-load bug and `--under-load`'s witness read).
import { describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { getProfile } from './profiles/registry.ts';
import { createRelayHold } from './relay-hold.ts';
import { waitFor } from './routes/testing.ts';

/** A wait the test ends by hand (the bound), so nothing here depends on timing. */
function manualWaits(): { wait: (ms: number) => Promise<void>; end: () => void; asked: number[] } {
  const pending: Array<() => void> = [];
  const asked: number[] = [];
  return {
    asked,
    wait: (ms) => {
      asked.push(ms);
      return new Promise((resolve) => pending.push(resolve));
    },
    end: () => pending.shift()?.(),
  };
}

describe('createRelayHold', () => {
  it('holds an answer until the next held one arrives, which takes its place; the bound (x time scale) ends the last', async () => {
    const waits = manualWaits();
    const hold = createRelayHold({ operations: ['v2.catalog.countries'], boundMs: 100_000 }, 0.01, waits.wait);
    expect(hold('v2.account.balance')).toBeUndefined();
    const released: string[] = [];
    void hold('v2.catalog.countries')?.then(() => released.push('first'));
    await Promise.resolve();
    expect(released).toEqual([]);
    void hold('v2.catalog.countries')?.then(() => released.push('second'));
    await waitFor(() => released.length === 1, 'the first released by the second', { timeoutMs: 1_000 });
    expect(released).toEqual(['first']);
    expect(waits.asked).toEqual([1_000, 1_000]);
    waits.end(); // the first's bound: it is already out, nothing changes
    waits.end(); // the second's bound
    await waitFor(() => released.length === 2, 'the second released by its bound', { timeoutMs: 1_000 });
  });
});

describe('a held answer at the sandbox', () => {
  it('stays counted in flight until it leaves', async () => {
    const profile = {
      ...getProfile('faithful'),
      name: 'relay-test',
      relayHold: { operations: ['v2.catalog.countries'], boundMs: 10_000_000 },
    };
    const app = await buildApp({ profile, timeScale: 0.01 });
    try {
      const headers = { authorization: `Basic ${Buffer.from('user:pass').toString('base64')}` };
      const first = app.fastify.inject({ method: 'GET', url: '/api/v2/catalog/countries', headers });
      await waitFor(() => app.stats.inFlight === 1, 'the first read held in flight', { timeoutMs: 5_000 });
      const second = app.fastify.inject({ method: 'GET', url: '/api/v2/catalog/countries', headers });
      expect((await first).statusCode).toBe(200);
      // The second holds now: one request in flight, without a gap, until the sandbox closes (its bound is far away).
      expect(app.stats.inFlight).toBe(1);
      await app.close();
      expect((await second).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
