// Fault kinds, their tally, and the bounded retry of idempotent reads: every fault is a response the one classifier
// never calls Successful.
import { describe, expect, it } from 'vitest';
import { toGatewayResponse, type GatewayResponse } from './envelope.ts';
import { addFaultCounts, createFaultTally, createSilenceWatch, faultKindOf, faultLine, retryRead, SILENT_READ_TIMEOUTS } from './faults.ts';

const timings = { startedAt: 0, totalMs: 1 };
const res = (raw: Partial<Parameters<typeof toGatewayResponse>[0]>): GatewayResponse =>
  toGatewayResponse({ operationId: 'v2.catalog.skus', timedOut: false, timings, ...raw });
const ok = res({ httpStatus: 200, bodyText: '{"responseCode":"000","responseMessage":null,"payLoad":[]}' });

const FAULTS: ReadonlyArray<[string, GatewayResponse, string]> = [
  ['client timeout', res({ timedOut: true }), 'timeout'],
  ['connection reset', res({ transportError: { code: 'GH_ERR_CONNECTION', message: 'socket hang up' } }), 'connection'],
  ['HTTP 503, empty body', res({ httpStatus: 503, bodyText: '' }), 'server-error'],
  ['HTTP 200, invalid JSON', res({ httpStatus: 200, bodyText: '{"responseCode":"000","pay' }), 'malformed'],
  ['HTTP 200, JSON without responseCode', res({ httpStatus: 200, bodyText: '{"x":1}' }), 'malformed'],
];

describe('faultKindOf', () => {
  it.each(FAULTS)('%s is a %s fault, never a success', (_name, response, kind) => {
    expect(faultKindOf(response)).toBe(kind);
    expect(response.classification.outcome).not.toBe('Successful');
  });

  it('a gateway answer is no fault: a success, a failure code, a 401', () => {
    expect(faultKindOf(ok)).toBeUndefined();
    expect(faultKindOf(res({ httpStatus: 200, bodyText: '{"responseCode":"510","responseMessage":"x","payLoad":null}' }))).toBeUndefined();
    expect(faultKindOf(res({ httpStatus: 401, bodyText: '' }))).toBeUndefined();
  });

  it("a request the harness abandoned (its own signal) is no fault of the target's, and still no success", () => {
    const abandoned = res({ transportError: { code: 'GH_ERR_CONNECTION', message: 'request aborted by the caller', abandoned: true } });
    expect(faultKindOf(abandoned)).toBeUndefined();
    expect(abandoned.classification.outcome).toBe('Unknown');
  });
});

describe('createFaultTally', () => {
  it('counts per kind and in all, and words them', () => {
    const tally = createFaultTally();
    for (const [, response] of FAULTS) tally.add(response);
    tally.add(ok);
    expect(tally.counts()).toEqual({ timeout: 1, connection: 1, 'server-error': 1, malformed: 2 });
    expect(tally.total()).toBe(5);
    expect(faultLine(tally.counts())).toBe(
      '1 client timeouts (Unknown), 1 no response: reset or refused (Unknown), 1 HTTP 5xx (Failed), 2 HTTP 200 without a readable envelope (Unknown)',
    );
    expect(faultLine(createFaultTally().counts())).toBe('none');
  });
});

describe('retryRead', () => {
  it('repeats a faulted read until a real answer, waiting between attempts', async () => {
    const answers = [FAULTS[1]?.[1], FAULTS[2]?.[1], ok] as GatewayResponse[];
    const waits: number[] = [];
    const result = await retryRead(async () => ({ response: answers.shift() as GatewayResponse }), {
      attempts: 5,
      waitMs: 7,
      sleep: async (ms) => void waits.push(ms),
    });
    expect(result.response).toBe(ok);
    expect(waits).toEqual([7, 7]);
  });

  it('gives up after the attempts and returns the last fault', async () => {
    let calls = 0;
    const fault = FAULTS[0]?.[1] as GatewayResponse;
    const result = await retryRead(async () => ((calls += 1), { response: fault }), {
      attempts: 3,
      waitMs: 0,
      sleep: async () => undefined,
    });
    expect(calls).toBe(3);
    expect(result.response).toBe(fault);
  });

  it('gives a silent target up after SILENT_READ_TIMEOUTS timeouts in a row, whatever its attempts (#32 finding 8)', async () => {
    let calls = 0;
    const timeout = FAULTS[0]?.[1] as GatewayResponse;
    const result = await retryRead(async () => ((calls += 1), { response: timeout }), {
      attempts: 5,
      waitMs: 0,
      sleep: async () => undefined,
    });
    expect(calls).toBe(SILENT_READ_TIMEOUTS);
    expect(result.response.timedOut).toBe(true);
    // Another fault between timeouts starts the count again: a slow answer now and then is no silence.
    const answers = [timeout, timeout, FAULTS[1]?.[1], timeout, timeout, ok] as GatewayResponse[];
    const mixed = await retryRead(async () => ({ response: answers.shift() as GatewayResponse }), {
      attempts: 6,
      waitMs: 0,
      sleep: async () => undefined,
    });
    expect(mixed.response).toBe(ok);
  });

  it('makes no attempt after its stop is aborted (an interrupted discovery ends now)', async () => {
    let calls = 0;
    const stop = new AbortController();
    const fault = FAULTS[1]?.[1] as GatewayResponse;
    await retryRead(async () => ((calls += 1), { response: fault }), {
      attempts: 5,
      waitMs: 0,
      sleep: async () => void stop.abort(),
      stop: stop.signal,
    });
    expect(calls).toBe(1);
  });
});

describe('addFaultCounts', () => {
  it('adds several parts kind by kind, and is all zeros for none', () => {
    expect(addFaultCounts()).toEqual({ timeout: 0, connection: 0, 'server-error': 0, malformed: 0 });
    expect(
      addFaultCounts(
        { timeout: 1, connection: 0, 'server-error': 2, malformed: 0 },
        { timeout: 3, connection: 4, 'server-error': 0, malformed: 5 },
      ),
    ).toEqual({
      timeout: 4,
      connection: 4,
      'server-error': 2,
      malformed: 5,
    });
  });
});

describe('createSilenceWatch', () => {
  const timeout = (ms: number): GatewayResponse => res({ timedOut: true, timings: { startedAt: 0, totalMs: ms } });

  it('trips on a target that answers nothing for timeout after timeout, and names the phase', () => {
    let clock = 0;
    const watch = createSilenceWatch('conformance cases', () => clock);
    for (let i = 1; i <= SILENT_READ_TIMEOUTS; i++) {
      clock += 5000;
      watch.see(timeout(5000));
    }
    expect(watch.silence()).toMatch(/^conformance cases: the target went silent after the preflight: 3 requests in a row/);
    expect(() => watch.check()).toThrow(/GH_ERR_TARGET|went silent/);
  });

  it('does not trip when requests sent side by side time out together in one stall of the harness machine (a loaded CI runner)', () => {
    let clock = 0;
    const watch = createSilenceWatch('conformance cases', () => clock);
    clock = 5100; // one stall: four requests in flight all reach their 5 s client timeout at once
    for (let i = 0; i < 4; i++) watch.see(timeout(5000));
    expect(watch.silence()).toBeUndefined();
    clock += 50;
    watch.see(ok); // the machine got its turn again: the target answers
    clock += 5000;
    for (let i = 0; i < 4; i++) watch.see(timeout(5000));
    expect(watch.silence()).toBeUndefined();
    clock += 5000; // still nothing answered, two client timeouts after the last answer: silent
    watch.see(timeout(5000));
    expect(watch.silence()).toMatch(/nothing answered for 10000 ms/);
  });

  it('an answer between timeouts starts the count again', () => {
    let clock = 0;
    const watch = createSilenceWatch('x', () => clock);
    clock += 10_000;
    watch.see(timeout(5000));
    watch.see(timeout(5000));
    watch.see(ok);
    clock += 10_000;
    watch.see(timeout(5000));
    watch.see(timeout(5000));
    expect(watch.silence()).toBeUndefined();
  });
});
