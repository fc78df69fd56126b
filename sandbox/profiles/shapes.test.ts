// Tests of the shape profiles: each is selectable, its declared truth reads the same values from its records as the
// defaults read from the faithful sandbox's, writes answer at the declared paths, and the paging meanings hold.
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_FIELD_MAPPING, mergeFieldMapping, readField } from '../../api/field-mapping.ts';
import { buildApp, type SandboxApp } from '../app.ts';
import { getProfile } from './registry.ts';
import { SHAPE_PROFILES, OTHER_WRITE_PATHS } from './shapes.ts';

const AUTH = `Basic ${Buffer.from('user:pass').toString('base64')}`;
const apps: SandboxApp[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

async function get(app: SandboxApp, url: string): Promise<Record<string, unknown>> {
  const res = await app.fastify.inject({ method: 'GET', url, headers: { authorization: AUTH } });
  return JSON.parse(res.body) as Record<string, unknown>;
}

async function start(profile: string): Promise<SandboxApp> {
  const app = await buildApp({ profile, timeScale: 0.01 });
  apps.push(app);
  return app;
}

describe('shape profiles', () => {
  it.each(SHAPE_PROFILES.map((p) => [p.name] as const))('%s is selectable by name and declares its truth', (name) => {
    const profile = getProfile(name);
    expect(profile.shape?.truth).toBeDefined();
  });

  it.each(['shape-snake', 'shape-pascal', 'shape-renamed', 'shape-string-ids'])(
    '%s: the declared mapping reads what the defaults read from the faithful SKU 193',
    async (name) => {
      const faithful = ((await get(await start('faithful'), '/api/v2/catalog/skus?skuId=193'))['payLoad'] as unknown[])[0];
      const shaped = ((await get(await start(name), '/api/v2/catalog/skus?skuId=193'))['payLoad'] as unknown[])[0];
      const truth = mergeFieldMapping(DEFAULT_FIELD_MAPPING, getProfile(name).shape?.truth.fieldMapping);
      for (const [field, path] of Object.entries(DEFAULT_FIELD_MAPPING.v2Sku)) {
        const expected = readField(faithful, path);
        const read = readField(shaped, (truth.v2Sku as unknown as Record<string, string>)[field] ?? '');
        const digits = (value: unknown): string => JSON.stringify(value).replace(/"(\d+)"/g, '$1');
        expect(read === undefined ? undefined : digits(read), `${name} ${field}`).toBe(digits(expected));
      }
    },
  );

  it('shape-snake spells keys in snake_case and leaves the envelope and request bodies as the spec names them', async () => {
    const app = await start('shape-snake');
    const list = await get(app, '/api/v2/catalog/skus/giftcards?pageSize=2');
    expect(Object.keys(list)).toEqual(expect.arrayContaining(['responseCode', 'payLoad', 'next', 'next_cursor']));
    expect(Object.keys((list['payLoad'] as Record<string, unknown>[])[0] ?? {})).toContain('sku_id');
    const topup = await app.fastify.inject({
      method: 'POST',
      url: '/api/v2/transaction/topup',
      headers: { authorization: AUTH },
      payload: { skuId: 193, amount: 5, mobile: '18765550123', correlationId: 'shape-snake-1' },
    });
    const body = JSON.parse(topup.body) as Record<string, unknown>;
    expect(body['responseCode']).toBe('000');
    expect(body['payLoad']).toHaveProperty('transaction_id');
  });

  it('shape-write-paths answers every assumed write at its other path, and no longer at the assumed one', async () => {
    const app = await start('shape-write-paths');
    for (const path of Object.values(OTHER_WRITE_PATHS)) {
      const res = await app.fastify.inject({ method: 'POST', url: path, headers: { authorization: AUTH }, payload: {} });
      expect(res.statusCode, path).not.toBe(404);
    }
    const old = await app.fastify.inject({ method: 'POST', url: '/api/v2/transaction/pin', headers: { authorization: AUTH }, payload: {} });
    expect(old.statusCode).toBe(404);
  });

  it('shape-cursor-last: next_cursor is the last skuId of the page; shape-cursor-pages: next counts the pages that follow', async () => {
    const last = await get(await start('shape-cursor-last'), '/api/v2/catalog/skus/giftcards?pageSize=2');
    const page = last['payLoad'] as { skuId: number }[];
    expect(last['next_cursor']).toBe(page[1]?.skuId);
    const app = await start('shape-cursor-pages');
    const first = await get(app, '/api/v2/catalog/skus/giftcards?pageSize=2');
    const second = await get(app, `/api/v2/catalog/skus/giftcards?pageSize=2&cursor=${String(first['next_cursor'])}`);
    expect(first['next']).toBeGreaterThan(1);
    expect(second['next']).toBe((first['next'] as number) - 1);
  });

  it('shape-small-wallet holds 1,000', async () => {
    expect((await get(await start('shape-small-wallet'), '/api/v2/account/balance'))['payLoad']).toBe(-1000);
  });
});
