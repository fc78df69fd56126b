// Redaction of credentials wherever a request or an error is echoed (logs, reports, error messages, fixtures).
// Runtime-neutral and pure: callers pass the secrets they know (password, user, the Basic token) and get safe text back.

export const REDACTED = '[REDACTED]';

/** Header names whose values are credentials (compared case-insensitively). */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);

export function isSecretHeader(name: string): boolean {
  return SECRET_HEADERS.has(name.toLowerCase());
}

/** A copy of the headers with every credential-bearing value replaced; keeps the auth scheme word so reports show it was sent. */
export function redactHeaders(headers: Readonly<Record<string, string | readonly string[] | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = typeof value === 'string' ? value : value.join(', ');
    if (!isSecretHeader(name)) {
      out[name] = text;
      continue;
    }
    const scheme = /^(Basic|Bearer|Digest)\s/i.exec(text);
    out[name] = scheme ? `${scheme[1]} ${REDACTED}` : REDACTED;
  }
  return out;
}

/**
 * Replaces every occurrence of each secret, and any `Basic <token>` credential, with a marker.
 * Longer secrets go first so a secret that contains another is removed whole; empty secrets are ignored
 * (replacing '' would shred the text and hide nothing).
 */
export function redactText(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = text.replace(/\b(Basic)\s+[A-Za-z0-9+/=._~-]{4,}/g, `$1 ${REDACTED}`);
  const sorted = secrets
    .filter((s): s is string => typeof s === 'string' && s.length > 0)
    .sort((a, b) => b.length - a.length);
  for (const secret of sorted) out = out.split(secret).join(REDACTED);
  return out;
}

/** Removes userinfo (`user:password@`) from an absolute URL, wherever it appears in the text. */
export function redactUrl(url: string): string {
  return url.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/?#@\s]*@/gi, `$1${REDACTED}@`);
}
