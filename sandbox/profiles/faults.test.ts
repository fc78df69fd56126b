// Fault profiles over a real socket: each kind's effect (and whether the transaction happened), the seeded rate, the
// status endpoint's exemption (and faults-status, which lifts it), and the counters of requests and faults served.
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isHarnessError } from '../../api/errors.ts';
import { buildApp, STATS_PATH } from '../app.ts';
import { startSandbox } from '../server.ts';
import type { RunningSandbox, StartSandboxOptions } from '../server.ts';
import type { StatsSnapshot } from '../stats.ts';
import { AUTH_HEADER, newCorrelationId, waitFor } from '../routes/testing.ts';
import { FAULT_PROFILES, STATUS_OPERATIONS } from './faults.ts';

interface Raw {
  status?: number;
  body?: Buffer;
  error?: NodeJS.ErrnoException;
}

const running: RunningSandbox[] = [];
async function start(options: StartSandboxOptions): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ timeScale: 0.001, closeGraceMs: 200, ...options });
  running.push(sandbox);
  return sandbox;
}
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** node:http: the tests need the socket error code and the raw bytes. A fresh connection per request. */
function raw(url: string, method: 'GET' | 'POST', body?: unknown, auth = AUTH_HEADER): Promise<Raw> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { connection: 'close', ...(auth === '' ? {} : { authorization: auth }) };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', (error) => resolve({ error }));
    });
    req.on('error', (error) => resolve({ error }));
    req.setTimeout(20_000, () => req.destroy(new Error('test request timed out')));
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

function envelopeOf(result: Raw): { responseCode: string } | undefined {
  try {
    return JSON.parse(result.body?.toString() ?? '') as { responseCode: string };
  } catch {
    return undefined;
  }
}

/** Status of a correlationId on the given sandbox (the status endpoint is exempt in these profiles). */
async function statusCode(sandbox: RunningSandbox, correlationId: string): Promise<string | undefined> {
  return envelopeOf(await raw(`${sandbox.url}/api/v2/transaction/status/${correlationId}`, 'GET'))?.responseCode;
}

const topupBody = (correlationId: string): Record<string, unknown> => ({ skuId: 193, amount: 10, mobile: '18762345678', correlationId });

describe('fault profiles (data)', () => {
  it('faults-mixed, one per kind, and faults-status; only faults-status lets faults hit the status endpoint', () => {
    const names = FAULT_PROFILES.map((p) => p.name);
    expect(names).toEqual([
      'faults-mixed',
      'faults-reset',
      'faults-5xx',
      'faults-malformed',
      'faults-truncate',
      'faults-slow',
      'faults-late',
      'faults-status',
    ]);
    for (const profile of FAULT_PROFILES) {
      expect(profile.faults?.rate).toBe(0.1);
      const exempt = profile.faults?.exemptOperations ?? [];
      expect(exempt, profile.name).toEqual(profile.name === 'faults-status' ? [] : STATUS_OPERATIONS);
    }
    expect(STATUS_OPERATIONS).toEqual(['v1.transaction.status', 'v2.transaction.status']);
  });

  it('faultRate / faultSlowMs are refused out of range and without a fault profile (GH_ERR_CONFIG)', async () => {
    for (const options of [{ profile: 'faults-mixed', faultRate: 1.5 }, { profile: 'faults-mixed', faultSlowMs: -1 }, { faultRate: 0.5 }]) {
      const error = await buildApp(options).then(
        (app) => app.close().then(() => undefined),
        (e: unknown) => e,
      );
      expect(isHarnessError(error) && error.code === 'GH_ERR_CONFIG', JSON.stringify(options)).toBe(true);
    }
  });
});

/**
 * A top-up sent to a sandbox whose every answer is held (faultRate 1, 40 s scaled): the wait goes through the store's
 * sleep, and a gate the test opens (`release`) stands in for the clock, so nothing here depends on timing.
 */
async function heldTopup(profile: 'faults-slow' | 'faults-late') {
  const sandbox = await start({ profile, faultRate: 1, faultSlowMs: 40_000 });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const waits = vi.spyOn(sandbox.app.store, 'sleep').mockImplementation(() => gate);
  const correlationId = newCorrelationId(profile === 'faults-slow' ? 'slow' : 'late');
  const answer = raw(`${sandbox.url}/api/v2/transaction/topup`, 'POST', topupBody(correlationId));
  return { sandbox, waits, release, correlationId, answer };
}

describe('each fault kind at rate 1 (every non-exempt request faulted)', () => {
  it('faults-reset: no response (ECONNRESET), but the top-up happened: status has its final result', async () => {
    const sandbox = await start({ profile: 'faults-reset', faultRate: 1 });
    const correlationId = newCorrelationId('reset');
    const result = await raw(`${sandbox.url}/api/v2/transaction/topup`, 'POST', topupBody(correlationId));
    expect(result.error?.code).toBe('ECONNRESET');
    expect(await statusCode(sandbox, correlationId)).toBe('000');
  });

  it('faults-5xx: HTTP 500/502/503/504 with an empty body before processing: nothing stored, nothing charged', async () => {
    const sandbox = await start({ profile: 'faults-5xx', faultRate: 1 });
    const funds = sandbox.app.store.availableFunds;
    const statuses = new Set<number>();
    for (let i = 0; i < 12; i += 1) {
      const correlationId = newCorrelationId('5xx');
      const result = await raw(`${sandbox.url}/api/v2/transaction/topup`, 'POST', topupBody(correlationId));
      expect([500, 502, 503, 504]).toContain(result.status);
      expect(result.body?.length).toBe(0);
      statuses.add(result.status ?? 0);
      expect(await statusCode(sandbox, correlationId)).toBe('027');
    }
    expect(statuses.size).toBeGreaterThan(1);
    expect(sandbox.app.store.availableFunds).toBe(funds);
  });

  it('faults-malformed and faults-truncate: HTTP 200 whose body no JSON parser accepts; the top-up happened', async () => {
    for (const profile of ['faults-malformed', 'faults-truncate']) {
      const sandbox = await start({ profile, faultRate: 1 });
      const correlationId = newCorrelationId(profile);
      const result = await raw(`${sandbox.url}/api/v2/transaction/topup`, 'POST', topupBody(correlationId));
      expect(result.status, profile).toBe(200);
      expect(result.body?.length ?? 0, profile).toBeGreaterThan(0);
      expect(envelopeOf(result), profile).toBeUndefined();
      expect(await statusCode(sandbox, correlationId), profile).toBe('000');
    }
  });

  it('faults-slow: processed at once, the answer held for the slow wait (status already final meanwhile)', async () => {
    const { sandbox, waits, release, correlationId, answer } = await heldTopup('faults-slow');
    await waitFor(() => waits.mock.calls.length === 1, 'the answer to be held');
    expect(waits.mock.calls[0]?.[0]).toBe(40); // 40 000 ms x time scale 0.001
    expect(sandbox.app.store.byCorrelationId(correlationId)?.result?.responseCode).toBe('000');
    release();
    expect(envelopeOf(await answer)?.responseCode).toBe('000');
  });

  it('faults-late: held before processing (no transaction yet: status 027), then processed and answered', async () => {
    const { sandbox, waits, release, correlationId, answer } = await heldTopup('faults-late');
    await waitFor(() => waits.mock.calls.length === 1, 'the request to be held');
    expect(await statusCode(sandbox, correlationId)).toBe('027');
    expect(sandbox.app.store.hasCorrelationId(correlationId)).toBe(false);
    release();
    expect(envelopeOf(await answer)?.responseCode).toBe('000');
    expect(await statusCode(sandbox, correlationId)).toBe('000');
  });
});

describe('rate, seed and the status endpoint', () => {
  /** Outcome of one request, as a client sees it. */
  const outcome = (r: Raw): string =>
    r.error ? `error:${r.error.code ?? ''}` : `${r.status ?? 0}:${envelopeOf(r) === undefined ? 'unparsable' : 'json'}`;

  async function sequence(seed: number, count: number): Promise<string[]> {
    const sandbox = await start({ profile: 'faults-mixed', faultRate: 0.5, faultSlowMs: 10, seed });
    const out: string[] = [];
    for (let i = 0; i < count; i += 1) out.push(outcome(await raw(`${sandbox.url}/api/v2/account/balance`, 'GET')));
    return out;
  }

  it('the same seed gives the same faults to the n-th request; another seed other faults', async () => {
    const a = await sequence(1, 30);
    expect(await sequence(1, 30)).toEqual(a);
    expect(await sequence(2, 30)).not.toEqual(a);
    expect(a.filter((o) => o !== '200:json').length).toBeGreaterThan(0);
  });

  it('about the rate: 0.2 of 300 eligible requests faulted (seeded, so a fixed count), counted per kind', async () => {
    const sandbox = await start({ profile: 'faults-mixed', faultRate: 0.2, faultSlowMs: 1 });
    for (let i = 0; i < 300; i += 1) await raw(`${sandbox.url}/api/v2/account/balance`, 'GET');
    const stats = sandbox.app.stats.snapshot();
    expect(stats.faultsTotal).toBeGreaterThan(30);
    expect(stats.faultsTotal).toBeLessThan(90);
    expect(Object.keys(stats.faults).sort()).toEqual(['late', 'malformed', 'reset', 'slow', 'status', 'truncate']);
    expect(Object.values(stats.faults).reduce((a, b) => a + (b ?? 0), 0)).toBe(stats.faultsTotal);
  });

  it('faults-mixed at rate 1 never faults the status endpoint (reconciliation stays possible); faults-status does', async () => {
    const exempt = await start({ profile: 'faults-mixed', faultRate: 1, faultSlowMs: 1 });
    for (let i = 0; i < 20; i += 1) {
      for (const v of ['v1', 'v2'])
        expect(envelopeOf(await raw(`${exempt.url}/api/${v}/transaction/status/none-${i}`, 'GET'))?.responseCode).toBe('027');
    }
    expect(exempt.app.stats.snapshot().faultsTotal).toBe(0);
    const harsh = await start({ profile: 'faults-status', faultRate: 1, faultSlowMs: 1 });
    await raw(`${harsh.url}/api/v2/transaction/status/none`, 'GET');
    expect(harsh.app.stats.snapshot().faultsByOperation).toEqual({ 'v2.transaction.status': 1 });
  });
});

describe('counters: requests received and faults served', () => {
  it('counts every arrival per operation (401s, unknown paths and 5xx-faulted requests too)', async () => {
    const sandbox = await start({ profile: 'faults-5xx', faultRate: 1 });
    await raw(`${sandbox.url}/api/v2/transaction/topup`, 'POST', topupBody(newCorrelationId()));
    await raw(`${sandbox.url}/api/v1/transaction/topup`, 'POST', topupBody(newCorrelationId()), '');
    await raw(`${sandbox.url}/api/v2/nope`, 'GET');
    await raw(`${sandbox.url}/api/v2/transaction/status/x`, 'GET');
    const stats = sandbox.app.stats.snapshot();
    expect(stats).toMatchObject({
      requestsTotal: 4,
      requests: { 'v2.transaction.topup': 1, 'v1.transaction.topup': 1, unmatched: 1, 'v2.transaction.status': 1 },
      chargingRequests: 2,
      faults: { status: 3 },
    });
  });

  it('GET /__sandbox/stats serves the counters with the same credentials, is itself never counted nor faulted', async () => {
    const sandbox = await start({ profile: 'faults-status', faultRate: 1, faultSlowMs: 1 });
    expect((await raw(`${sandbox.url}${STATS_PATH}`, 'GET', undefined, '')).status).toBe(401);
    await raw(`${sandbox.url}/api/v2/account/balance`, 'GET');
    const first = await raw(`${sandbox.url}${STATS_PATH}`, 'GET');
    expect(first.status).toBe(200);
    const stats = JSON.parse(first.body?.toString() ?? '') as StatsSnapshot;
    expect(stats.requests).toEqual({ 'v2.account.balance': 1 });
    expect(stats.faultsTotal).toBe(1);
    expect(stats).toEqual(sandbox.app.stats.snapshot());
  });

  it('nothing reached the sandbox: a fresh sandbox reports zero requests, and reset() zeroes the counters', async () => {
    const sandbox = await start({});
    expect(sandbox.app.stats.snapshot()).toEqual({
      requestsTotal: 0,
      requests: {},
      chargingRequests: 0,
      faultsTotal: 0,
      faults: {},
      faultsByOperation: {},
      corruptions: {},
    });
    await raw(`${sandbox.url}/api/v2/account/balance`, 'GET');
    expect(sandbox.app.stats.requestsOf('v2.account.balance')).toBe(1);
    sandbox.app.stats.reset();
    expect(sandbox.app.stats.snapshot().requestsTotal).toBe(0);
  });
});
