// Redaction of credentials wherever a request or an error is echoed (logs, reports, error messages, fixtures).
// Runtime-neutral and pure. Credentials are removed where they occur AS VALUES (credential headers, URL user info,
// Basic tokens, password-like fields of echoed bodies and queries); a plain substring search is only a safety net for
// secrets distinctive enough that finding one inside any text means it leaked (see isDistinctiveSecret).

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
    out[name] = redactCredentialValue(text);
  }
  return out;
}

/** A credential value replaced whole; an auth scheme word (`Basic`, `Bearer`, `Digest`) stays so a reader sees one was sent. */
export function redactCredentialValue(text: string): string {
  const scheme = /^(Basic|Bearer|Digest)\s/i.exec(text);
  return scheme ? `${scheme[1]} ${REDACTED}` : REDACTED;
}

/**
 * Whether a substring match of this secret is meaningful: at least 8 characters of two kinds or more (lower case,
 * upper case, digits, others), or at least 16 characters. A password such as `x`, `e`, `true` or `sandbox` occurs in
 * every report as structure or as an ordinary word: replacing it there would corrupt the file (`<?[REDACTED]ml`) and
 * show the reader which word the password is. Such secrets are redacted only where they stand as credential values.
 */
export function isDistinctiveSecret(secret: string): boolean {
  if (secret.length >= 16) return true;
  if (secret.length < 8) return false;
  const kinds = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((kind) => kind.test(secret)).length;
  return kinds >= 2;
}

/** Names of fields whose value is a credential, whatever it is (JSON members, query and form parameters, env assignments). */
const SECRET_FIELD = '(?:password|passwd|pwd|secret|token|access_token|api[_-]?key|authorization)';
const SECRET_FIELD_NAME = new RegExp(`^${SECRET_FIELD}$`, 'i');
const JSON_SECRET_MEMBER = new RegExp(`("${SECRET_FIELD}"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi');
const ASSIGNED_SECRET = new RegExp(`(${SECRET_FIELD}=)[^&\\s<>;,]+`, 'gi');

/** Whether a field of a structured value (an echoed body parsed into an object) holds a credential by its name. */
export function isSecretField(name: string): boolean {
  return SECRET_FIELD_NAME.test(name) || isSecretHeader(name);
}

/**
 * Replaces the values of credential fields: `"password": "…"` in an echoed JSON body, `password=…` in a query, a
 * form or an environment assignment (`GATEWAY_PASSWORD=…`). The field name stays, so a reader sees one was sent.
 */
export function redactSecretFields(text: string): string {
  return text.replace(JSON_SECRET_MEMBER, `$1"${REDACTED}"`).replace(ASSIGNED_SECRET, `$1${REDACTED}`);
}

/**
 * Scrubs a text: any `Basic <token>` credential, URL user info, credential fields, and each distinctive secret
 * (longest first, so a secret that contains another is removed whole). Secrets that are not distinctive are left to
 * those value-position rules: see isDistinctiveSecret.
 */
export function redactText(text: string, secrets: ReadonlyArray<string | undefined>): string {
  const out = redactSecretFields(redactUrl(text.replace(/\b(Basic)\s+[A-Za-z0-9+/=._~-]{4,}/g, `$1 ${REDACTED}`)));
  return scrubDistinctiveSecrets(out, secrets);
}

/** Plain replacement of each distinctive secret (longest first); no pattern rewriting that could break code or prose. */
export function scrubDistinctiveSecrets(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = text;
  const sorted = secrets.filter((s): s is string => typeof s === 'string' && isDistinctiveSecret(s)).sort((a, b) => b.length - a.length);
  for (const secret of sorted) out = out.split(secret).join(REDACTED);
  return out;
}

/** Removes userinfo (`user:password@`) from an absolute URL, wherever it appears in the text. */
export function redactUrl(url: string): string {
  return url.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/?#@\s]*@/gi, `$1${REDACTED}@`);
}
