// The authentication space's Authorization values: each a near miss of the right credentials, never the right ones, and
// a variant the credentials cannot give is said so (the GEN property then skips that input).
import { describe, expect, test } from 'vitest';
import { basicAuthorization } from '../api/request-builder.ts';
import { variantAuthorization } from './credential-variants.ts';
import { VariantUnavailable, type CredentialVariant } from './types.ts';

const RIGHT = { user: 'agent7', password: 'Secret9x' };
const decoded = (header: string): string => Buffer.from(header.replace(/^Basic /, ''), 'base64').toString('utf8');

describe('variantAuthorization', () => {
  test('each variant differs from the right header and is what it says', () => {
    const right = basicAuthorization(RIGHT.user, RIGHT.password);
    const cases: Array<[CredentialVariant, (h: string) => boolean]> = [
      [{ kind: 'scheme', scheme: 'Bearer' }, (h) => h.startsWith('Bearer ')],
      [{ kind: 'empty-user' }, (h) => decoded(h) === ':Secret9x'],
      [{ kind: 'empty-password' }, (h) => decoded(h) === 'agent7:'],
      [{ kind: 'unknown-user', user: 'someone' }, (h) => decoded(h) === 'someone:Secret9x'],
      [{ kind: 'password-extension', extra: '!' }, (h) => decoded(h) === 'agent7:Secret9x!'],
      [{ kind: 'password-case', at: 0 }, (h) => decoded(h) === 'agent7:secret9x'],
      [{ kind: 'password-case', at: 6 }, (h) => decoded(h) === 'agent7:Secret9X'],
      [{ kind: 'no-colon' }, (h) => decoded(h) === 'agent7Secret9x'],
      [{ kind: 'not-base64', token: 'ab!' }, (h) => h === 'Basic ab!'],
    ];
    for (const [variant, holds] of cases) {
      const header = variantAuthorization(variant, RIGHT);
      expect(header, variant.kind).not.toBe(right);
      expect(holds(header), `${variant.kind}: ${header}`).toBe(true);
    }
  });

  test('a prefix is always non-empty and proper, whatever the cut', () => {
    for (let cut = 1; cut <= 40; cut++) {
      const sent = decoded(variantAuthorization({ kind: 'password-prefix', cut }, RIGHT)).slice('agent7:'.length);
      expect(sent.length >= 1 && sent.length < RIGHT.password.length && RIGHT.password.startsWith(sent), `cut ${cut}: ${sent}`).toBe(true);
    }
  });

  test('variants the credentials cannot give are unavailable', () => {
    expect(() => variantAuthorization({ kind: 'password-case', at: 0 }, { user: 'u', password: '1234' })).toThrow(VariantUnavailable);
    expect(() => variantAuthorization({ kind: 'password-prefix', cut: 1 }, { user: 'u', password: 'x' })).toThrow(VariantUnavailable);
    expect(() => variantAuthorization({ kind: 'other-environment' }, RIGHT)).toThrow(VariantUnavailable);
    expect(() => variantAuthorization({ kind: 'unknown-user', user: 'agent7' }, RIGHT)).toThrow(VariantUnavailable);
    expect(decoded(variantAuthorization({ kind: 'other-environment' }, RIGHT, { user: 'agent7', password: 'prod-pw' }))).toBe(
      'agent7:prod-pw',
    );
  });
});
