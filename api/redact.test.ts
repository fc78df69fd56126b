// Redaction: credentials never survive into echoed headers, texts or URLs.
import { describe, expect, it } from 'vitest';
import { REDACTED, redactHeaders, redactText, redactUrl } from './redact.ts';

describe('redactHeaders', () => {
  it('hides credential headers whatever their case, keeps the scheme word and other headers', () => {
    const out = redactHeaders({ Authorization: 'Basic dXNlcjpwYXNz', accept: 'application/json', COOKIE: 'sid=1', 'x-list': ['a', 'b'] });
    expect(out).toEqual({ Authorization: `Basic ${REDACTED}`, accept: 'application/json', COOKIE: REDACTED, 'x-list': 'a, b' });
  });
});

describe('redactText', () => {
  it('removes every occurrence of each secret, longest first', () => {
    expect(redactText('pw=abc123 again abc123 and abc', ['abc', 'abc123'])).toBe(`pw=${REDACTED} again ${REDACTED} and ${REDACTED}`);
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
