// HTTP Basic authentication of the sandbox (spec Authentication: the header is required on every request).
// The check runs on every request, so it is precomputed and cheap, and compares digests so time does not leak length.
import { createHash, timingSafeEqual } from 'node:crypto';

export const WWW_AUTHENTICATE = 'Basic realm="gateway-harness sandbox", charset="UTF-8"';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function digest(bytes: Buffer | string): Buffer {
  return createHash('sha256').update(bytes).digest();
}

export type AuthCheck = (authorization: string | undefined) => boolean;

/**
 * Returns a checker for `Authorization: Basic base64(user:password)`. The scheme is case-insensitive (RFC 7617);
 * the credentials are compared as SHA-256 digests with timingSafeEqual, so neither their content nor their length
 * shows in the timing.
 */
export function createBasicAuthCheck(user: string, password: string): AuthCheck {
  const expected = digest(Buffer.from(`${user}:${password}`, 'utf8'));
  return (authorization) => {
    if (typeof authorization !== 'string' || authorization.length > 4096) return false;
    const space = authorization.indexOf(' ');
    if (space === -1 || authorization.slice(0, space).toLowerCase() !== 'basic') return false;
    const token = authorization.slice(space + 1).trim();
    if (token === '' || !BASE64.test(token)) return false;
    return timingSafeEqual(digest(Buffer.from(token, 'base64')), expected);
  };
}
