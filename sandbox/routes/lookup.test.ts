// Mobile lookup in-process. Spec: "sandbox supports only numbers of four countries (Jamaica, India, Pakistan, Mexico; a
// number with a valid country code from these). Production supports all countries except the United States and Spain."
// Arabic for Accept-Language: ar.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClient } from './testing.ts';
import type { TestClient } from './testing.ts';

type Rec = Record<string, unknown>;
let sandbox: TestClient;
let production: TestClient;
beforeAll(async () => {
  sandbox = await testClient();
  production = await testClient({ mode: 'production' });
});
afterAll(async () => {
  await Promise.all([sandbox.close(), production.close()]);
});

const PATHS = ['/api/v1/catalog/lookup/mobile', '/api/v2/lookup/mobile'];

function number(c: TestClient, country: string): string {
  const mobile = c.app.data.samples.validMobiles[country];
  if (mobile === undefined) throw new Error(`no sample number for ${country}`);
  return mobile;
}

describe('mobile lookup', () => {
  for (const country of ['JM', 'IN', 'PK', 'MX']) {
    it(`sandbox: a ${country} number returns operator and products (v1 object, v2 array)`, async () => {
      const v1 = await sandbox.get(`${PATHS[0]}/${number(sandbox, country)}`);
      expect(v1.body.responseCode).toBe('000');
      expect((v1.body.payLoad as Rec)['countryCode']).toBe(country);
      expect(typeof (v1.body.payLoad as Rec)['operatorId']).toBe('number');
      const v2 = await sandbox.get(`${PATHS[1]}/${number(sandbox, country)}`);
      expect(v2.body.responseCode).toBe('000');
      expect(Array.isArray(v2.body.payLoad)).toBe(true);
      expect((v2.body.payLoad as Rec[]).length).toBeGreaterThan(0);
    });
  }

  for (const country of ['US', 'ES', 'GB', 'NG']) {
    it(`sandbox: a ${country} number is not a success`, async () => {
      for (const path of PATHS) {
        const res = await sandbox.get(`${path}/${number(sandbox, country)}`);
        expect(res.status).toBe(200);
        expect(res.body.responseCode).not.toBe('000');
      }
    });
  }

  it('production: every country except the United States and Spain', async () => {
    for (const country of ['JM', 'GB', 'NG', 'IN']) {
      expect((await production.get(`${PATHS[1]}/${number(production, country)}`)).body.responseCode).toBe('000');
    }
    for (const country of ['US', 'ES']) {
      expect((await production.get(`${PATHS[1]}/${number(production, country)}`)).body.responseCode).not.toBe('000');
    }
  });

  it('a number that breaks its country format, or no number at all, is a failure', async () => {
    for (const mobile of ['1876234567', '99999999', 'abc', '1'.repeat(5000)]) {
      const res = await sandbox.get(`${PATHS[1]}/${mobile}`);
      expect(res.status).toBe(200);
      expect(res.body.responseCode).not.toBe('000');
    }
  });

  it('v2 lookup is Arabic for Accept-Language: ar', async () => {
    const url = `${PATHS[1]}/${number(sandbox, 'JM')}`;
    const english = JSON.stringify((await sandbox.get(url)).body.payLoad);
    const arabic = JSON.stringify((await sandbox.get(url, { 'accept-language': 'ar' })).body.payLoad);
    expect(english).not.toMatch(/[\u0600-\u06FF]/);
    expect(arabic).toMatch(/[\u0600-\u06FF]/);
  });
});
