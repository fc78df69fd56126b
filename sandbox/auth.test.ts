// The Basic auth checker: exact credentials only, scheme case-insensitive, malformed headers refused.
import { describe, expect, it } from 'vitest';
import { createBasicAuthCheck } from './auth.ts';

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

describe('createBasicAuthCheck', () => {
  const check = createBasicAuthCheck('agent', 'pässword');
  const cases: Array<[string, string | undefined, boolean]> = [
    ['exact credentials', `Basic ${b64('agent:pässword')}`, true],
    ['lower-case scheme', `basic ${b64('agent:pässword')}`, true],
    ['missing header', undefined, false],
    ['empty header', '', false],
    ['scheme only', 'Basic', false],
    ['scheme and space', 'Basic ', false],
    ['wrong password', `Basic ${b64('agent:password')}`, false],
    ['password with extra character', `Basic ${b64('agent:pässword!')}`, false],
    ['user only', `Basic ${b64('agent')}`, false],
    ['Bearer scheme', `Bearer ${b64('agent:pässword')}`, false],
    ['not base64', 'Basic ***', false],
    ['huge header', `Basic ${'A'.repeat(10_000)}`, false],
  ];
  for (const [name, header, expected] of cases) {
    it(`${name} -> ${expected ? 'accepted' : 'refused'}`, () => {
      expect(check(header)).toBe(expected);
    });
  }
});
