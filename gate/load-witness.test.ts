// The loaded pass's witness: a request waits (bounded) for a request of the load in flight at the target; a case that
// sent one while the load had ended, or with nothing in flight until the bound, is named with why.
import { describe, expect, it } from 'vitest';
import { createLoadWitness } from './load-witness.ts';

describe('createLoadWitness', () => {
  it('waits for the load to have a request in flight, then lets the request go unnoted', async () => {
    let inFlight = 0;
    let asked = 0;
    const witness = createLoadWitness({
      running: () => true,
      inFlight: () => {
        asked += 1;
        // The load's request arrives while the case waits (the third look sees it).
        if (asked === 3) inFlight = 1;
        return inFlight;
      },
    });
    await witness.beforeRequest('A');
    expect(asked).toBe(3);
    expect(witness.unwitnessed.size).toBe(0);
  });

  it('names a case that sent a request after the load ended, or with nothing in flight until the bound', async () => {
    let running = true;
    const witness = createLoadWitness({ running: () => running, inFlight: () => 0 }, 20);
    await witness.beforeRequest('QUIET');
    running = false;
    await witness.beforeRequest('LATE');
    await witness.beforeRequest('LATE');
    expect([...witness.unwitnessed]).toEqual([
      ['QUIET', 'no request of the load was in flight at the target when the case sent one (waited 0.02 s)'],
      ['LATE', 'the load had ended when the case sent a request'],
    ]);
  });

  it('where the target counts nothing in flight, a running load is enough', async () => {
    const witness = createLoadWitness({ running: () => true });
    await witness.beforeRequest('A');
    expect(witness.unwitnessed.size).toBe(0);
  });
});
