// Tests of the contract-change profiles as data and of the header seam they use: each is registered, names a known
// baseline profile and declares findings; an envelope hook's `headers` reach the response (buildApp().inject()).
import { afterAll, describe, expect, it } from 'vitest';
import { findOperation } from '../../api/operations.ts';
import { buildApp, type SandboxApp } from '../app.ts';
import { CONTRACT_CHANGE_PROFILES } from './contract-changes.ts';
import { getProfile } from './registry.ts';

const AUTH = `Basic ${Buffer.from('user:pass').toString('base64')}`;
const apps: SandboxApp[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

describe('contract-change profiles', () => {
  it.each(CONTRACT_CHANGE_PROFILES.map((p) => [p.name, p] as const))(
    '%s is registered and declares findings on catalog operations',
    (name, profile) => {
      expect(getProfile(name)).toBe(profile);
      expect(name.startsWith('contract-')).toBe(true);
      expect(() => getProfile(profile.contractChange.baselineProfile)).not.toThrow();
      expect(profile.contractChange.expectedFindings.length).toBeGreaterThan(0);
      for (const f of profile.contractChange.expectedFindings) expect(findOperation(f.operationId), f.operationId).toBeDefined();
      expect(profile.contractChange.rule).toMatch(/breaking|Non-breaking/i);
    },
  );

  it('covers a rename, a removal, an addition, a type change, a dropped header and a v2 regression', () => {
    const changes = new Set(CONTRACT_CHANGE_PROFILES.flatMap((p) => p.contractChange.expectedFindings.map((f) => f.change)));
    for (const change of ['field-renamed', 'field-removed', 'field-added', 'type-changed', 'header-removed', 'header-added'])
      expect(changes).toContain(change);
    expect(CONTRACT_CHANGE_PROFILES.some((p) => p.contractChange.expectedRegressions.length > 0)).toBe(true);
  });

  it('adds the response header an envelope hook returns, on that operation only', async () => {
    const app = await buildApp({ profile: 'contract-header-added', timeScale: 0.01 });
    apps.push(app);
    const lookup = await app.fastify.inject({
      method: 'GET',
      url: `/api/v2/lookup/mobile/${app.data.samples.validMobiles.JM ?? ''}`,
      headers: { authorization: AUTH },
    });
    expect(lookup.headers['x-request-id']).toMatch(/^req-\d+$/);
    expect(lookup.headers['content-type']).toBe('application/json; charset=utf-8');
    const balance = await app.fastify.inject({ method: 'GET', url: '/api/v2/account/balance', headers: { authorization: AUTH } });
    expect(balance.headers['x-request-id']).toBeUndefined();
  });
});
