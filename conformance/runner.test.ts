// The runner against an in-memory target: invariants on every response, phases and concurrency, the drain between
// them, skips, errors, timeouts, credentials variants and redaction. No sockets: the target answers from a function.
import { describe, expect, test } from 'vitest';
import { toGatewayResponse, type GatewayResponse } from '../api/envelope.ts';
import { DEFAULT_FIELD_MAPPING } from '../api/field-mapping.ts';
import type { BuiltRequest } from '../api/request-builder.ts';
import { runCases, type ConformanceTarget, type ProgressEvent } from './runner.ts';
import { conformanceSection } from './section.ts';
import { DEFAULT_SETTINGS, mergeSettings } from '../target/settings.ts';
import { computeTiming, DEFAULT_TIMING_INPUT } from './timing.ts';
import { successful } from './checks.ts';
import { RunCorrelationIds } from './correlation-ids.ts';
import type { CaseContext, ConformanceCase } from './types.ts';

const PASSWORD = 'pw-Secret-123';

function envelope(operationId: string, body: unknown, httpStatus = 200): GatewayResponse {
  return toGatewayResponse({
    operationId,
    httpStatus,
    bodyText: JSON.stringify(body),
    timedOut: false,
    timings: { startedAt: Date.now(), totalMs: 1 },
  });
}

function fakeTarget(
  answer: (built: BuiltRequest) => GatewayResponse | Promise<GatewayResponse>,
): ConformanceTarget & { sent: BuiltRequest[] } {
  const sent: BuiltRequest[] = [];
  return {
    label: 'http://fake',
    connection: { baseUrl: 'http://fake', user: 'agent', password: PASSWORD },
    sent,
    connectTimeoutMs: 1_000,
    notFoundCodes: ['027'],
    transport: {
      async send(built) {
        sent.push(built);
        return answer(built);
      },
    },
  };
}

function timedOut(operationId: string): GatewayResponse {
  return toGatewayResponse({
    operationId,
    timedOut: true,
    transportError: { code: 'GH_ERR_TIMEOUT', message: 'response timeout' },
    timings: { startedAt: Date.now(), totalMs: 1 },
  });
}

const ok = (built: BuiltRequest) =>
  envelope(built.operationId, { responseCode: '000', responseMessage: null, payLoad: built.method === 'POST' ? {} : [] });

function env(target: ConformanceTarget, overrides: Partial<Parameters<typeof runCases>[1]> = {}, timeScale = 0.001) {
  const settings = mergeSettings(DEFAULT_SETTINGS, { concurrency: 3 });
  // Scale 0.001 and no slack: poll interval 5 ms, poll deadline 180 ms, service-side timeout 120 ms.
  return {
    target,
    settings,
    timing: computeTiming({ ...DEFAULT_TIMING_INPUT, timeScale, pollSlackMs: 0 }),
    mapping: DEFAULT_FIELD_MAPPING,
    ...overrides,
  };
}

/**
 * For cases whose polls must end before the poll deadline: 10× the default scale (interval 50 ms, deadline 1.8 s), so a
 * machine stalled for a few hundred ms cannot run the 180 ms deadline out (it did once under a load average of 17).
 */
const POLLS_IN_TIME = 0.01;

/** A top-up the fake gateway never answers in time: the case leaves it Unknown, for the drain to resolve. */
function topupLeftOpen(id: string): ConformanceCase {
  return scenario(id, async (ctx) => {
    await ctx.call('v2.transaction.topup', { body: { skuId: 1, amount: 5, mobile: '18765550123', correlationId: ctx.correlationId() } });
  });
}

function scenario(id: string, body: (ctx: CaseContext) => Promise<void>, extra: Partial<ConformanceCase> = {}): ConformanceCase {
  return {
    kind: 'scenario',
    id,
    group: 'ENV',
    title: id,
    specSection: 'S',
    rule: 'R',
    api: 'v2',
    scenario: body,
    ...extra,
  } as ConformanceCase;
}

describe('runCases', () => {
  test('every response passes the envelope invariants, even when the case checks nothing', async () => {
    const target = fakeTarget((b) =>
      envelope(b.operationId, { responseCode: '510', responseMessage: 'out of stock', payLoad: { leaked: true } }),
    );
    const result = await runCases([scenario('ENV-X', async (ctx) => void (await ctx.call('v2.account.balance', {})))], env(target));
    expect(result.cases[0]?.status).toBe('failed');
    expect(result.cases[0]?.failures.map((f) => f.check)).toEqual(['payload-null-unless-000']);
  });

  test('two passes sharing one id memory: a case needing a short id none is left of is skipped (not verified), never failed', async () => {
    const target = fakeTarget((b) => envelope(b.operationId, { responseCode: '000', responseMessage: null, payLoad: 1 }));
    const ids = new RunCorrelationIds();
    const digit = scenario('LEN-X', async (ctx) => void ctx.correlationId(1, 'digits'));
    const first = await runCases(
      Array.from({ length: 10 }, (_, i) => ({ ...digit, id: `LEN-${i}` })),
      env(target, { ids }),
    );
    expect(first.cases.map((c) => c.status)).toEqual(Array(10).fill('passed'));
    const second = await runCases([digit], env(target, { ids }));
    expect(second.cases[0]).toMatchObject({
      status: 'skipped',
      skipReason: 'not verified: no unused correlationId of 1 digits character(s) left in this run',
    });
  });

  test('request cases run their expectation checks', async () => {
    const target = fakeTarget((b) => envelope(b.operationId, { responseCode: '003', responseMessage: 'bad', payLoad: null }));
    const c: ConformanceCase = {
      kind: 'request',
      id: 'PAGE-X',
      group: 'PAGE',
      title: 't',
      specSection: 's',
      rule: 'r',
      api: 'v2',
      operationId: 'v2.account.balance',
      input: () => ({}),
      expect: [successful],
    };
    // Request cases need fixtures: the fake answers the catalog reads with a failure, so discovery fails the case.
    const result = await runCases([c], env(target));
    expect(result.cases[0]?.failures[0]?.check).toBe('fixture-discovery');
  });

  test('exclusive cases run one at a time, after every concurrent case, and the limit holds', async () => {
    const target = fakeTarget(ok);
    let active = 0;
    let maxConcurrent = 0;
    let exclusiveOverlap = false;
    const log: string[] = [];
    const body = (id: string, exclusive: boolean) => async (ctx: CaseContext) => {
      active += 1;
      maxConcurrent = Math.max(maxConcurrent, active);
      if (exclusive && active > 1) exclusiveOverlap = true;
      await ctx.sleep(10);
      log.push(id);
      active -= 1;
    };
    const cases = [
      scenario('E-1', body('E-1', true), { exclusive: true }),
      ...Array.from({ length: 8 }, (_, i) => scenario(`C-${i}`, body(`C-${i}`, false))),
      scenario('E-2', body('E-2', true), { exclusive: true }),
    ];
    const result = await runCases(cases, env(target));
    expect(result.cases.map((c) => c.id)).toEqual(cases.map((c) => c.id));
    expect(maxConcurrent).toBeLessThanOrEqual(3);
    expect(exclusiveOverlap).toBe(false);
    expect(log.slice(-2)).toEqual(['E-1', 'E-2']);
  });

  test('skip is reported with its reason; a skip after a failure stays a failure', async () => {
    const target = fakeTarget(ok);
    const result = await runCases(
      [
        scenario('S-1', async (ctx) => ctx.skip('no Pin SKU')),
        scenario('S-2', async (ctx) => {
          ctx.fail({ check: 'x', operation: 'op', message: 'm', expected: 'e', received: 'r' });
          ctx.skip('later');
        }),
      ],
      env(target),
    );
    expect(result.cases.map((c) => [c.status, c.skipReason])).toEqual([
      ['skipped', 'no Pin SKU'],
      ['failed', undefined],
    ]);
  });

  test('a throwing case fails with case-error; a hanging case fails with case-timeout', async () => {
    const target = fakeTarget(ok);
    const result = await runCases(
      [
        scenario('X-1', async () => Promise.reject(new Error(`boom with ${PASSWORD}`))),
        scenario('X-2', () => new Promise<void>(() => undefined)),
      ],
      env(target, { caseTimeoutMs: 50 }),
    );
    expect(result.cases.map((c) => c.failures[0]?.check)).toEqual(['case-error', 'case-timeout']);
    expect(JSON.stringify(result)).not.toContain(PASSWORD);
  });

  test('credentials: valid, none and wrong; echoes are redacted', async () => {
    const target = fakeTarget((b) => envelope(b.operationId, { responseCode: '041', responseMessage: 'no' }, 401));
    const result = await runCases(
      [
        scenario('A-1', async (ctx) => {
          await ctx.call('v2.account.balance', {});
          await ctx.call('v2.account.balance', {}, { credentials: 'none' });
          const e = await ctx.call('v2.account.balance', {}, { credentials: 'wrong' });
          ctx.fail({ check: 'echo', operation: e.request.operationId, message: 'm', expected: 'e', received: 'r', request: e.request });
        }),
      ],
      env(target),
    );
    const auth = target.sent.map((b) => b.headers.Authorization);
    expect(auth[0]).toMatch(/^Basic /);
    expect(auth[1]).toBeUndefined();
    expect(auth[2]).toMatch(/^Basic /);
    expect(auth[2]).not.toBe(auth[0]);
    expect(result.cases[0]?.failures[0]?.request?.headers.Authorization).toBe('Basic [REDACTED]');
    expect(JSON.stringify(result)).not.toContain(Buffer.from(`agent:${PASSWORD}`).toString('base64'));
  });

  test('correlationIds are unique within a run, at every length', async () => {
    const target = fakeTarget(ok);
    const ids: string[] = [];
    await runCases(
      [
        scenario('I-1', async (ctx) => {
          for (let i = 0; i < 62; i++) ids.push(ctx.correlationId(1));
          for (const n of [0, 8, 36, 50, 51]) ids.push(ctx.correlationId(n));
        }),
      ],
      env(target),
    );
    expect(new Set(ids.slice(0, 62)).size).toBe(62);
    expect(ids.slice(62).map((id) => id.length)).toEqual([0, 8, 36, 50, 51]);
  });

  test('pollStatus follows 852 to the final code and checks every status response', async () => {
    let calls = 0;
    const target = fakeTarget((b) => {
      calls += 1;
      return envelope(
        b.operationId,
        calls < 3
          ? { responseCode: '852', responseMessage: 'in progress', payLoad: null }
          : { responseCode: '000', responseMessage: null, payLoad: {} },
      );
    });
    let seen: unknown;
    const result = await runCases(
      [scenario('P-1', async (ctx) => void (seen = await ctx.pollStatus('v2', 'abc', { submittedAt: Date.now() })))],
      env(target, {}, POLLS_IN_TIME),
    );
    expect(seen).toMatchObject({ final: true, outcome: 'Successful', responseCode: '000', attempts: 3 });
    expect(result.cases[0]?.status).toBe('passed');
  });

  test('drain: the exclusive phase starts only once the transaction a concurrent case left open is final', async () => {
    const log: string[] = [];
    let checks = 0;
    const target = fakeTarget((b) => {
      if (b.operationId === 'v2.transaction.topup') return timedOut(b.operationId);
      if (b.operationId === 'v2.transaction.status') {
        checks += 1;
        // In progress for a few checks, then final: only someone polling makes it final before the exclusive case.
        if (checks < 4) return envelope(b.operationId, { responseCode: '852', responseMessage: 'in progress', payLoad: null });
        log.push('final status read');
        return envelope(b.operationId, { responseCode: '000', responseMessage: null, payLoad: {} });
      }
      return ok(b);
    });
    const events: string[] = [];
    const onProgress = (e: ProgressEvent): void =>
      void (e.type === 'drain-start' || e.type === 'drain-end' || e.type === 'phase'
        ? events.push(e.type === 'phase' ? e.phase : e.type)
        : undefined);
    const result = await runCases(
      [topupLeftOpen('C-1'), scenario('E-1', async () => void log.push('exclusive case starts'), { exclusive: true })],
      env(target, { onProgress }, POLLS_IN_TIME),
    );
    expect(log).toEqual(['final status read', 'exclusive case starts']);
    expect(events).toEqual(['concurrent', 'drain-start', 'drain-end', 'exclusive']);
    expect(result.drain).toMatchObject({ submitted: 1, pendingAtBoundary: 1, unresolved: [] });
    expect(conformanceSection(result).verdict).toBe('pass');
  });

  test('drain: "not found" keeps a transaction open until the service-side timeout has passed since its submission', async () => {
    const checkedAt: number[] = [];
    const target = fakeTarget((b) => {
      if (b.operationId === 'v2.transaction.topup') return timedOut(b.operationId);
      if (b.operationId === 'v2.transaction.status') {
        checkedAt.push(Date.now());
        return envelope(b.operationId, { responseCode: '027', responseMessage: 'No record found', payLoad: null });
      }
      return ok(b);
    });
    // Scale 0.01: service-side timeout 1.2 s, checks every 50 ms. A first "not found" closing it would be one check.
    const timing = computeTiming({ ...DEFAULT_TIMING_INPUT, timeScale: 0.01, pollSlackMs: 0 });
    const result = await runCases([topupLeftOpen('C-1')], env(target, { timing }));
    expect(checkedAt.length).toBeGreaterThan(1);
    expect(result.drain?.unresolved).toEqual([]);
  });

  test('drain: a transaction never final is reported, and the run is incomplete', async () => {
    const seen: string[] = [];
    const target = fakeTarget((b) => {
      if (b.operationId === 'v2.transaction.topup') return timedOut(b.operationId);
      if (b.operationId === 'v2.transaction.status') {
        seen.push('status');
        return envelope(b.operationId, { responseCode: '852', responseMessage: 'in progress', payLoad: null });
      }
      return ok(b);
    });
    const result = await runCases([topupLeftOpen('C-1'), scenario('E-1', async () => undefined, { exclusive: true })], env(target));
    expect(seen.length).toBeGreaterThan(1);
    expect(result.drain?.unresolved).toEqual([
      expect.objectContaining({ caseId: 'C-1', operationId: 'v2.transaction.topup', outcome: 'InProgress' }),
    ]);
    expect(result.cases.map((c) => c.status)).toEqual(['passed', 'passed']);
    expect(conformanceSection(result).verdict).toBe('incomplete');
  });

  test('drain: a status that says final too early cannot let the exclusive phase start before the service-side timeout', async () => {
    let sentAt = 0;
    let exclusiveAt = 0;
    const target = fakeTarget((b) => {
      if (b.operationId === 'v2.transaction.topup') {
        sentAt = Date.now();
        return timedOut(b.operationId);
      }
      // A wrong status answer: final at once, while the gateway may still charge until its service-side timeout.
      if (b.operationId === 'v2.transaction.status')
        return envelope(b.operationId, { responseCode: '999', responseMessage: 'Internal error', payLoad: null });
      return ok(b);
    });
    const result = await runCases(
      [topupLeftOpen('C-1'), scenario('E-1', async () => void (exclusiveAt = Date.now()), { exclusive: true })],
      env(target),
    );
    // Scale 0.001: the service-side timeout is 120 ms after the submission.
    expect(exclusiveAt - sentAt).toBeGreaterThanOrEqual(120);
    expect(result.drain?.serviceTimeoutWaitMs).toBeGreaterThan(0);
  });

  test('drain: without exclusive cases after it, nothing waits for the service-side timeout', async () => {
    const target = fakeTarget((b) =>
      b.operationId === 'v2.transaction.topup'
        ? timedOut(b.operationId)
        : envelope(b.operationId, { responseCode: '000', responseMessage: null, payLoad: {} }),
    );
    const result = await runCases([topupLeftOpen('C-1')], env(target));
    expect(result.drain).toMatchObject({ pendingAtBoundary: 1, unresolved: [], serviceTimeoutWaitMs: 0 });
  });

  test('drain: a final answer to the submission itself needs no polling', async () => {
    const target = fakeTarget((b) =>
      b.operationId === 'v2.transaction.topup'
        ? envelope(b.operationId, { responseCode: '510', responseMessage: 'out of stock', payLoad: null })
        : ok(b),
    );
    const result = await runCases([topupLeftOpen('C-1')], env(target));
    expect(target.sent.map((b) => b.operationId)).toEqual(['v2.transaction.topup']);
    expect(result.drain).toMatchObject({ submitted: 1, pendingAtBoundary: 0, unresolved: [] });
  });

  test('a timed-out case sends nothing more (its later requests are refused, not sent into the next phase)', async () => {
    const target = fakeTarget(ok);
    let afterTimeout: (error: unknown) => void = () => undefined;
    const refused = new Promise<unknown>((resolve) => (afterTimeout = resolve));
    const result = await runCases(
      [
        scenario('X-1', async (ctx) => {
          await ctx.sleep(150);
          try {
            await ctx.call('v2.account.balance', {});
            afterTimeout(undefined);
          } catch (error) {
            afterTimeout(error);
          }
        }),
      ],
      env(target, { caseTimeoutMs: 30 }),
    );
    expect(result.cases[0]?.failures[0]?.check).toBe('case-timeout');
    expect(await refused).toMatchObject({ name: 'CaseCancelled' });
    expect(target.sent).toEqual([]);
  });

  test('a failure while a request got no answer in time is "not verified", not the gateway\'s failure; what it saw is kept', async () => {
    const target = fakeTarget((b) => (b.operationId === 'v2.account.balance' ? timedOut(b.operationId) : ok(b)));
    const result = await runCases(
      [
        scenario('U-1', async (ctx) => {
          const exchange = await ctx.call('v2.account.balance', {});
          ctx.check(successful, exchange);
        }),
      ],
      env(target),
    );
    const only = result.cases[0];
    expect(only).toMatchObject({ status: 'skipped', failures: [] });
    expect(only?.skipReason).toMatch(/^not verified: 1 request\(s\) got no answer within the client timeout \(\d+ ms\)/);
    expect(only?.skipReason).toContain('timeouts.responseMs');
    expect(only?.notes.join('\n')).toMatch(/seen before the timeout: \[successful\]/);
    expect(conformanceSection(result).verdict).toBe('incomplete');
  });

  test("a timeout the case asked for (a delay trigger's short client timeout) leaves its failures standing", async () => {
    const target = fakeTarget((b) => (b.operationId === 'v2.transaction.topup' ? timedOut(b.operationId) : ok(b)));
    const result = await runCases(
      [
        scenario('U-2', async (ctx) => {
          const body = { skuId: 1, amount: 5, mobile: '18765550123', correlationId: ctx.correlationId() };
          const exchange = await ctx.call('v2.transaction.topup', { body }, { timeoutMs: 5 });
          ctx.check(successful, exchange);
        }),
      ],
      env(target),
    );
    expect(result.cases[0]?.status).toBe('failed');
  });

  test('pollStatus reports its waits as progress events', async () => {
    const target = fakeTarget((b) => envelope(b.operationId, { responseCode: '000', responseMessage: null, payLoad: {} }));
    const events: ProgressEvent[] = [];
    await runCases(
      [scenario('P-2', async (ctx) => void (await ctx.pollStatus('v2', 'abc', { submittedAt: Date.now() })))],
      env(target, { onProgress: (e) => events.push(e) }),
    );
    expect(events.filter((e) => e.type === 'poll-start' || e.type === 'poll-end')).toEqual([
      { type: 'poll-start', caseId: 'P-2', correlationId: 'abc' },
      { type: 'poll-end', caseId: 'P-2', correlationId: 'abc' },
    ]);
  });

  test('duplicate case ids are refused', async () => {
    await expect(
      runCases([scenario('D-1', async () => undefined), scenario('D-1', async () => undefined)], env(fakeTarget(ok))),
    ).rejects.toThrow(/duplicate/);
  });
});

describe('runCases interrupted (a signal to the command)', () => {
  test('no case starts after the stop: the rest are skipped "not run", the drain and the exclusive phase do not run', async () => {
    const stop = new AbortController();
    const target = fakeTarget(ok);
    // The second case of the concurrent phase stops the run while it runs (concurrency 1: one case at a time).
    const cases = [
      scenario('A-1', async (ctx) => void (await ctx.call('v2.catalog.countries', {}))),
      scenario('A-2', async (ctx) => {
        stop.abort();
        await ctx.call('v2.catalog.countries', {});
      }),
      scenario('A-3', async (ctx) => void (await ctx.call('v2.catalog.countries', {}))),
      topupLeftOpen('A-4'),
      scenario('X-1', async (ctx) => void (await ctx.call('v2.catalog.countries', {})), { exclusive: true }),
    ];
    const run = await runCases(cases, {
      ...env(target, { stop: stop.signal }),
      settings: mergeSettings(DEFAULT_SETTINGS, { concurrency: 1 }),
    });
    expect(run.cases.map((c) => [c.id, c.status])).toEqual([
      ['A-1', 'passed'],
      ['A-2', 'passed'],
      ['A-3', 'skipped'],
      ['A-4', 'skipped'],
      ['X-1', 'skipped'],
    ]);
    expect(
      run.cases.filter((c) => c.status === 'skipped').every((c) => c.skipReason === 'not run: the run was interrupted' && c.requests === 0),
    ).toBe(true);
    expect(target.sent).toHaveLength(2);
    expect(run.drain).toBeUndefined();
  });
});
