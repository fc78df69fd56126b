// The client core with a scripted transport and a fake clock: follow-to-final through '852' and client timeouts,
// "not found" before and after the service-side timeout, hooks that see every exchange and can refuse a send.
import { describe, expect, it } from 'vitest';
import { CHECK_FLOOR_MS, createClientCore, correlationIdOf, type ClientHooks } from './client-core.ts';
import { toGatewayResponse, type GatewayResponse } from './envelope.ts';
import type { BuiltRequest } from './request-builder.ts';

interface Script {
  /** Answers in order, per path prefix; 'timeout' means the client gave up. */
  topup: Array<string>;
  status: Array<string>;
}

function harness(script: Script, hooks?: ClientHooks) {
  let clock = 1_000_000;
  const sent: BuiltRequest[] = [];
  const answer = (built: BuiltRequest, code: string): GatewayResponse => {
    const timings = { startedAt: clock, totalMs: 1 };
    if (code === 'timeout') return toGatewayResponse({ operationId: built.operationId, timedOut: true, timings });
    const body = {
      responseCode: code,
      responseMessage: code === '000' ? null : 'msg',
      payLoad: code === '000' ? { transactionId: 9 } : null,
    };
    return toGatewayResponse({ operationId: built.operationId, httpStatus: 200, bodyText: JSON.stringify(body), timedOut: false, timings });
  };
  const core = createClientCore({
    target: { baseUrl: 'http://gw', user: 'u', password: 'secret-pw' },
    transport: {
      async send(built) {
        sent.push(built);
        const queue = built.url.includes('/status/') ? script.status : script.topup;
        const code = queue.length > 1 ? (queue.shift() as string) : (queue[0] as string);
        return answer(built, code);
      },
    },
    timings: { connectTimeoutMs: 1_000, responseTimeoutMs: 1_000, pollIntervalMs: 10, pollDeadlineMs: 1_000 },
    status: { serviceTimeoutMs: 120, notFoundCodes: ['027'] },
    now: () => clock,
    sleep: async (ms) => {
      clock += ms;
    },
    ...(hooks === undefined ? {} : { hooks }),
  });
  return { core, sent, advance: (ms: number) => (clock += ms) };
}

const topup = { body: { skuId: 1, amount: 5, mobile: '1876555', correlationId: 'c-1' } };

describe('client core', () => {
  it('a final first answer needs no polling', async () => {
    const { core, sent } = harness({ topup: ['510'], status: ['000'] });
    const result = await core.transact('v2.transaction.topup', topup);
    expect(result).toMatchObject({ outcome: 'Failed', final: true, code: '510' });
    expect(result.poll).toBeUndefined();
    expect(sent).toHaveLength(1);
  });

  it("'852' is followed through the status endpoint of the same version to the final code", async () => {
    const { core, sent } = harness({ topup: ['852'], status: ['852', '852', '000'] });
    const result = await core.transact('v1.transaction.topup', topup);
    expect(result).toMatchObject({ outcome: 'Successful', final: true, code: '000' });
    expect(result.poll?.attempts).toBe(3);
    expect(sent.slice(1).every((b) => b.url === 'http://gw/api/v1/transaction/status/c-1')).toBe(true);
    expect(result.finalExchange?.response.envelope?.payLoad).toEqual({ transactionId: 9 });
  });

  it("after a client timeout, 'not found' before the service-side timeout is still Unknown; the real answer wins", async () => {
    const { core } = harness({ topup: ['timeout'], status: ['027', '027', '852', '000'] });
    const result = await core.transact('v2.transaction.topup', topup);
    expect(result).toMatchObject({ outcome: 'Successful', final: true, code: '000' });
    expect(result.poll?.attempts).toBe(4);
  });

  it("'not found' once the service-side timeout has passed since submission is a final failure", async () => {
    const { core } = harness({ topup: ['timeout'], status: ['027'] });
    const result = await core.transact('v2.transaction.topup', topup);
    expect(result).toMatchObject({ outcome: 'Failed', final: true, code: '027' });
    // 120 ms service timeout at a 10 ms interval: about 12 checks of Unknown first.
    expect(result.poll?.attempts).toBeGreaterThanOrEqual(12);
    expect(result.poll?.attempts).toBeLessThanOrEqual(14);
  });

  it("pollStatus without a submission time treats 'not found' as the final answer it is", async () => {
    const { core } = harness({ topup: ['000'], status: ['027'] });
    const poll = await core.pollStatus('v2', 'someone-elses');
    expect(poll).toMatchObject({ final: true, outcome: 'Failed', attempts: 1 });
  });

  it('stays Unknown (never Failed) when no status answer is final by the deadline', async () => {
    const { core } = harness({ topup: ['timeout'], status: ['timeout'] });
    const result = await core.transact('v2.transaction.topup', topup, { poll: { deadlineMs: 50 } });
    expect(result.final).toBe(false);
    expect(result.outcome).toBe('Unknown');
    expect(result.code).toBeUndefined();
  });

  it('a write without a correlationId cannot be followed: returned as it is', async () => {
    const { core, sent } = harness({ topup: ['timeout'], status: ['000'] });
    const result = await core.transact('v2.transaction.topup', { body: { skuId: 1 } });
    expect(result).toMatchObject({ outcome: 'Unknown', final: false });
    expect(sent).toHaveLength(1);
  });

  it('beforeSend sees each request before it leaves and can refuse it; afterResponse sees every exchange', async () => {
    const seenBefore: string[] = [];
    const seenAfter: string[] = [];
    const { core, sent } = harness(
      { topup: ['852'], status: ['000'] },
      {
        beforeSend: ({ operation, built }) => {
          seenBefore.push(`${operation.id} ${sent.length}`);
          if (operation.id === 'v2.transaction.pin') throw new Error('refused by guard');
          expect(built.headers.Authorization).toMatch(/^Basic /);
        },
        afterResponse: ({ operation, response }) => void seenAfter.push(`${operation.id} ${response.envelope?.responseCode ?? '-'}`),
      },
    );
    await core.transact('v2.transaction.topup', topup);
    expect(seenBefore).toEqual(['v2.transaction.topup 0', 'v2.transaction.status 1']);
    expect(seenAfter).toEqual(['v2.transaction.topup 852', 'v2.transaction.status 000']);
    await expect(core.call('v2.transaction.pin', { body: { skuId: 1, correlationId: 'p' } })).rejects.toThrow('refused by guard');
    expect(sent).toHaveLength(2);
  });

  it('exposes the credential strings to redact', () => {
    const { core } = harness({ topup: ['000'], status: ['000'] });
    expect(core.secrets).toContain('secret-pw');
    expect(core.secrets.some((s) => s !== 'secret-pw' && s.length > 8)).toBe(true);
  });

  it('correlationIdOf reads only a non-empty string', () => {
    expect(correlationIdOf({ correlationId: 'a' })).toBe('a');
    expect(correlationIdOf({ correlationId: '' })).toBeUndefined();
    expect(correlationIdOf({ correlationId: 5 })).toBeUndefined();
    expect(correlationIdOf('x')).toBeUndefined();
  });
});

describe('a status poll within its deadline (issue #32 finding 9)', () => {
  it('a check in flight is cut at the deadline: a 5 s poll never waits out a 30 s response timeout', async () => {
    let clock = 0;
    const timeouts: number[] = [];
    const core = createClientCore({
      target: { baseUrl: 'http://gw', user: 'u', password: 'secret-pw' },
      // A status endpoint that never answers: each call ends at its own response timeout, on the fake clock.
      transport: {
        async send(built, options) {
          timeouts.push(options.responseTimeoutMs);
          const startedAt = clock;
          clock += options.responseTimeoutMs;
          return toGatewayResponse({
            operationId: built.operationId,
            timedOut: true,
            timings: { startedAt, totalMs: options.responseTimeoutMs },
          });
        },
      },
      timings: { connectTimeoutMs: 10_000, responseTimeoutMs: 30_000, pollIntervalMs: 1_000, pollDeadlineMs: 180_000 },
      status: { serviceTimeoutMs: 120_000, notFoundCodes: ['027'] },
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
      },
    });
    const poll = await core.pollStatus('v2', 'c-1', { deadlineMs: 5_000 });
    expect(poll).toMatchObject({ final: false, outcome: 'Unknown' });
    expect(clock).toBeLessThanOrEqual(5_000 + CHECK_FLOOR_MS);
    expect(Math.max(...timeouts)).toBeLessThanOrEqual(5_000);
  });
});
