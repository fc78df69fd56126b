// Runtime-neutral base64 for the Basic auth header: k6 0.48 has no btoa and api/ cannot use Node's Buffer.
// Encodes the UTF-8 bytes of a string, so non-ASCII user ids and passwords give the same header every runtime would.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** UTF-8 bytes of a string; lone surrogates become U+FFFD, as TextEncoder would do. */
export function utf8Bytes(text: string): number[] {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        i++;
      } else {
        code = 0xfffd;
      }
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      code = 0xfffd;
    }
    if (code < 0x80) {
      bytes.push(code);
    } else if (code < 0x800) {
      bytes.push(0xc0 | (code >> 6), 0x80 | (code & 0x3f));
    } else if (code < 0x10000) {
      bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
    } else {
      bytes.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 0x3f), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
    }
  }
  return bytes;
}

export function base64EncodeBytes(bytes: readonly number[]): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const b0 = bytes[i] ?? 0;
    const b1 = bytes[i + 1] ?? 0;
    const b2 = bytes[i + 2] ?? 0;
    const triple = (b0 << 16) | (b1 << 8) | b2;
    out += ALPHABET.charAt((triple >> 18) & 0x3f);
    out += ALPHABET.charAt((triple >> 12) & 0x3f);
    out += i + 1 < bytes.length ? ALPHABET.charAt((triple >> 6) & 0x3f) : '=';
    out += i + 2 < bytes.length ? ALPHABET.charAt(triple & 0x3f) : '=';
  }
  return out;
}

/** Standard (RFC 4648, padded) base64 of the UTF-8 encoding of `text`. */
export function base64EncodeUtf8(text: string): string {
  return base64EncodeBytes(utf8Bytes(text));
}
