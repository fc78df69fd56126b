// slow-op and fail-op, the profiles the run comparison is proven with: they change exactly one operation, by exactly
// the set amount, and malformed names are refused with a reason.
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { AUTH_HEADER } from '../routes/testing.ts';
import { getProfile } from './registry.ts';

const SKUS = '/api/v2/catalog/skus';
const COUNTRIES = '/api/v2/catalog/countries';

describe('fail-op:<operationId>:<pct>%', () => {
  it('answers exactly that share of one operation with HTTP 200 and a business code, and nothing else', async () => {
    const app = await buildApp({ profile: 'fail-op:v2.catalog.skus:2%' });
    try {
      const codes = async (url: string): Promise<string[]> => {
        const out: string[] = [];
        for (let i = 0; i < 100; i++) {
          const res = await app.fastify.inject({ method: 'GET', url, headers: { authorization: AUTH_HEADER } });
          expect(res.statusCode).toBe(200);
          out.push((res.json() as { responseCode: string }).responseCode);
        }
        return out;
      };
      const skus = await codes(SKUS);
      expect(skus.filter((c) => c !== '000')).toEqual(['999', '999']);
      // Evenly spread: the 50th and the 100th.
      expect(skus.indexOf('999')).toBe(49);
      expect((await codes(COUNTRIES)).every((c) => c === '000')).toBe(true);
    } finally {
      await app.close();
    }
  });

  it('takes another failure code by its key', async () => {
    const app = await buildApp({ profile: 'fail-op:v2.catalog.skus:100%:outOfStock' });
    try {
      const res = await app.fastify.inject({ method: 'GET', url: SKUS, headers: { authorization: AUTH_HEADER } });
      expect((res.json() as { responseCode: string }).responseCode).toBe('510');
    } finally {
      await app.close();
    }
  });
});

describe('slow-op:<operationId>:<pct>%', () => {
  it('holds one operation longer by the fraction of the time the sandbox spends on it; others keep the base latency', async () => {
    expect(getProfile('slow-op:v2.catalog.skus:100%').behaviour?.operationSlowdown).toEqual({ 'v2.catalog.skus': 1 });
    const app = await buildApp({ profile: 'slow-op:v2.catalog.skus:100%', behaviour: { responseLatencyMs: 60 } });
    try {
      const fastest = async (url: string): Promise<number> => {
        let best = Infinity;
        for (let i = 0; i < 5; i++) {
          const started = performance.now();
          await app.fastify.inject({ method: 'GET', url, headers: { authorization: AUTH_HEADER } });
          best = Math.min(best, performance.now() - started);
        }
        return best;
      };
      // +100 % of (60 ms held + handling): at least 120 ms, never less; the other operation's fastest answer is near 60.
      expect(await fastest(SKUS)).toBeGreaterThanOrEqual(119);
      expect(await fastest(COUNTRIES)).toBeLessThan(119);
    } finally {
      await app.close();
    }
  });
});

describe('parameterized profile names', () => {
  it.each([
    ['slow-op:v2.catalog.skus', /write it slow-op:<operationId>:<pct>%/],
    ['slow-op:v2.catalog.skus:fast', /'fast' is not a percentage/],
    ['slow-op:v9.nothing:25%', /unknown operation 'v9.nothing'/],
    ['fail-op:v2.catalog.skus:150%', /not a percentage 0..100/],
    ['fail-op:v2.catalog.skus:2%:success', /'success' is not a failure code key/],
    ['nonsense', /known: faithful, slow, .*slow-op:<operationId>:<pct>%, fail-op:<operationId>:<pct>%\[:<codeKey>\]/],
  ])('%s is refused with its reason', (name, reason) => {
    expect(() => getProfile(name)).toThrow(reason);
  });

  it('each use gets its own profile object (a fail-op count starts again)', () => {
    expect(getProfile('fail-op:v2.catalog.skus:2%')).not.toBe(getProfile('fail-op:v2.catalog.skus:2%'));
  });
});
