// Redaction: credentials never survive into echoed headers, texts or URLs.
import { describe, expect, it } from 'vitest';
import { isDistinctiveSecret, REDACTED, redactHeaders, redactText, redactUrl } from './redact.ts';

describe('redactHeaders', () => {
  it('hides credential headers whatever their case, keeps the scheme word and other headers', () => {
    const out = redactHeaders({ Authorization: 'Basic dXNlcjpwYXNz', accept: 'application/json', COOKIE: 'sid=1', 'x-list': ['a', 'b'] });
    expect(out).toEqual({ Authorization: `Basic ${REDACTED}`, accept: 'application/json', COOKIE: REDACTED, 'x-list': 'a, b' });
  });
});

describe('redactText', () => {
  it('removes every occurrence of each distinctive secret, longest first', () => {
    expect(redactText('pw: Abc-12345-xyz again Abc-12345-xyz and Abc-12345', ['Abc-12345', 'Abc-12345-xyz'])).toBe(
      `pw: ${REDACTED} again ${REDACTED} and ${REDACTED}`,
    );
  });
  it('leaves a short or common secret where it is not a credential value (it is structure or an ordinary word there)', () => {
    expect(redactText('<?xml exitCode sandbox', ['x', 'sandbox'])).toBe('<?xml exitCode sandbox');
    expect(redactText('{"password":"x"} password=x', ['x'])).toBe(`{"password":"${REDACTED}"} password=${REDACTED}`);
  });
  it('removes Basic tokens even when not listed', () => {
    expect(redactText('Authorization: Basic dXNlcjpwYXNz;', [])).toBe(`Authorization: Basic ${REDACTED};`);
  });
  it('ignores empty secrets', () => {
    expect(redactText('hello', ['', undefined])).toBe('hello');
  });
});

describe('redactUrl', () => {
  it('drops userinfo from URLs anywhere in a text', () => {
    expect(redactUrl('GET https://agent:s3cret@gw.example/api/v2?x=1 then http://u@h/')).toBe(
      `GET https://${REDACTED}@gw.example/api/v2?x=1 then http://${REDACTED}@h/`,
    );
  });
  it('leaves URLs without userinfo alone', () => {
    expect(redactUrl('http://127.0.0.1:8080/api/v1/account/balance')).toBe('http://127.0.0.1:8080/api/v1/account/balance');
  });
});

describe('isDistinctiveSecret', () => {
  it('8+ characters of two kinds, or 16+ characters: a substring match means a leak; shorter or plainer ones do not', () => {
    expect(['Fixture-Pa55word!x9', 's3cret-pw', 'correcthorsebatterystaple'].map(isDistinctiveSecret)).toEqual([true, true, true]);
    expect(['x', 'e', 'true', '{', '"', 'sandbox', 'production', 'abc123'].map(isDistinctiveSecret)).toEqual(Array(8).fill(false));
  });
});
