// pollUntilFinal with a fake clock: stops on a final outcome, at the deadline, at the attempt cap, or when told to give up.
// No real time passes; the loop's bounds are what is under test.
import { describe, expect, it } from 'vitest';
import { classifyOutcome, type Classification } from './outcome.ts';
import { pollUntilFinal } from './poll.ts';
import { classifyStatusCheck } from './poll.ts';
import { toGatewayResponse } from './envelope.ts';

function fakeClock() {
  let t = 1_000;
  const sleeps: number[] = [];
  return {
    now: () => t,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      t += ms;
    },
    sleeps,
  };
}

const code = (responseCode: string): Classification => classifyOutcome({ httpStatus: 200, responseCode, timedOut: false });

function scripted(codes: string[]): () => Promise<Classification> {
  let i = 0;
  return async () => code(codes[Math.min(i++, codes.length - 1)] ?? '852');
}

describe('pollUntilFinal', () => {
  it('stops at the first final outcome', async () => {
    const clock = fakeClock();
    const result = await pollUntilFinal({ check: scripted(['852', '852', '000']), intervalMs: 100, deadlineMs: 10_000, ...clock });
    expect(result).toMatchObject({ final: true, outcome: 'Successful', attempts: 3, elapsedMs: 200, stoppedBy: 'final' });
    expect(clock.sleeps).toEqual([100, 100]);
  });

  it('a final failure code ends the poll as Failed', async () => {
    const clock = fakeClock();
    const result = await pollUntilFinal({ check: scripted(['852', '510']), intervalMs: 100, deadlineMs: 10_000, ...clock });
    expect(result).toMatchObject({ final: true, outcome: 'Failed', attempts: 2 });
  });

  it('stops at the deadline, cutting the last sleep so a check lands on it', async () => {
    const clock = fakeClock();
    const result = await pollUntilFinal({ check: scripted(['852']), intervalMs: 300, deadlineMs: 1_000, ...clock });
    expect(result).toMatchObject({ final: false, outcome: 'InProgress', stoppedBy: 'deadline', elapsedMs: 1_000 });
    expect(clock.sleeps).toEqual([300, 300, 300, 100]);
    expect(result.attempts).toBe(5);
  });

  it('is bounded by maxAttempts even when the clock never moves', async () => {
    const result = await pollUntilFinal({
      check: scripted(['852']),
      intervalMs: 100,
      deadlineMs: 10_000,
      maxAttempts: 4,
      now: () => 0,
      sleep: async () => undefined,
    });
    expect(result).toMatchObject({ final: false, attempts: 4, stoppedBy: 'max-attempts' });
  });

  it('has a default attempt cap derived from deadline / interval', async () => {
    let checks = 0;
    const result = await pollUntilFinal({
      check: async () => {
        checks++;
        return code('852');
      },
      intervalMs: 100,
      deadlineMs: 1_000,
      now: () => 0,
      sleep: async () => undefined,
    });
    expect(result.stoppedBy).toBe('max-attempts');
    expect(checks).toBe(12);
  });

  it('gives up when told to, without a final outcome', async () => {
    const clock = fakeClock();
    const unknown = classifyOutcome({ timedOut: true });
    const result = await pollUntilFinal({ check: async () => unknown, giveUp: () => true, intervalMs: 10, deadlineMs: 100, ...clock });
    expect(result).toMatchObject({ final: false, outcome: 'Unknown', attempts: 1, stoppedBy: 'gave-up' });
  });

  it('rejects negative or NaN timing', async () => {
    const clock = fakeClock();
    await expect(pollUntilFinal({ check: scripted(['000']), intervalMs: -1, deadlineMs: 10, ...clock })).rejects.toThrow(RangeError);
    await expect(pollUntilFinal({ check: scripted(['000']), intervalMs: 1, deadlineMs: Number.NaN, ...clock })).rejects.toThrow(RangeError);
  });
});

describe('classifyStatusCheck', () => {
  const timings = { startedAt: 0, totalMs: 1 };
  const response = (httpStatus: number | undefined, bodyText: string | undefined, timedOut = false) =>
    toGatewayResponse({
      operationId: 'v2.transaction.status',
      ...(httpStatus === undefined ? {} : { httpStatus }),
      ...(bodyText === undefined ? {} : { bodyText }),
      timedOut,
      timings,
    });

  it.each([
    ['852 -> InProgress', response(200, '{"responseCode":"852","responseMessage":"in progress","payLoad":null}'), 'InProgress', false],
    ['000 -> Successful', response(200, '{"responseCode":"000","responseMessage":null,"payLoad":{}}'), 'Successful', true],
    ['other code -> Failed', response(200, '{"responseCode":"501","responseMessage":"x","payLoad":null}'), 'Failed', true],
    ['HTTP 503 on the check -> Unknown, keep polling', response(503, '{}'), 'Unknown', false],
    ['timeout of the check -> Unknown', response(undefined, undefined, true), 'Unknown', false],
    ['non-JSON check body -> Unknown', response(200, 'oops'), 'Unknown', false],
  ] as const)('%s', (_name, res, outcome, final) => {
    expect(classifyStatusCheck(res)).toMatchObject({ outcome, final });
  });
});
