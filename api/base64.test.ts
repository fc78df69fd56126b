// The runtime-neutral base64 must match Node's Buffer byte for byte, for ASCII and for UTF-8 credentials.
// Buffer is fine here: tests run in Node; only the module under test must avoid it.
import { describe, expect, it } from 'vitest';
import { base64EncodeUtf8 } from './base64.ts';

const cases = ['', 'f', 'fo', 'foo', 'foob', 'fooba', 'foobar', 'user:pass', 'agént:pässwörd', '用户:密码', 'emoji:😀🔑', 'x'.repeat(1000)];

describe('base64EncodeUtf8', () => {
  it.each(cases)('matches Buffer for %j', (text) => {
    expect(base64EncodeUtf8(text)).toBe(Buffer.from(text, 'utf8').toString('base64'));
  });

  it('RFC 4648 test vectors', () => {
    expect(base64EncodeUtf8('foobar')).toBe('Zm9vYmFy');
    expect(base64EncodeUtf8('fooba')).toBe('Zm9vYmE=');
    expect(base64EncodeUtf8('foob')).toBe('Zm9vYg==');
  });

  it('encodes a lone surrogate as U+FFFD like TextEncoder', () => {
    const lone = 'a\ud800b';
    expect(base64EncodeUtf8(lone)).toBe(Buffer.from(new TextEncoder().encode(lone)).toString('base64'));
  });
});
