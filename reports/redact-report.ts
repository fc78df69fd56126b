// The last line of defence before a report leaves the process: every string (and key) of the model is scrubbed of URL
// user info, Basic credential tokens, credential fields and the run's distinctive secrets. Runtime-neutral. It works on
// the model's values, never on the rendered files, so a short password cannot corrupt JSON, XML or HTML structure.
import { base64EncodeUtf8 } from '../api/base64.ts';
import { printable } from '../api/printable.ts';
import { isSecretField, REDACTED, redactCredentialValue, redactSecretFields, redactUrl, scrubDistinctiveSecrets } from '../api/redact.ts';
import type { RunReport } from './model.ts';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Decodes base64 to Latin-1 text, or undefined when it is not well-formed base64. */
function decodeBase64(token: string): string | undefined {
  if (token.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(token)) return undefined;
  let bits = 0;
  let value = 0;
  let out = '';
  for (const char of token.replace(/=+$/, '')) {
    value = (value << 6) | BASE64.indexOf(char);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((value >> bits) & 0xff);
    }
  }
  return out;
}

/**
 * `Basic <token>` where the token decodes to `user:password`: a credential even when the run's secrets are unknown.
 * Prose such as the spec's "HTTP Basic Authentication" is left alone (a report quotes the spec verbatim).
 */
export function redactBasicCredentials(text: string): string {
  return text.replace(
    /\b(Basic)(\s+)([A-Za-z0-9+/]{4,}={0,2})(?![A-Za-z0-9+/=])/g,
    (match, scheme: string, space: string, token: string) =>
      decodeBase64(token)?.includes(':') === true ? `${scheme}${space}${REDACTED}` : match,
  );
}

/**
 * The forms a credential pair can take in text: the password, `user:password` and its base64 token (what a Basic
 * header carries). The user name alone is not a secret and stays readable.
 */
export function credentialSecrets(user: string | undefined, password: string | undefined): string[] {
  if (password === undefined || password === '') return [];
  const pair = `${user ?? ''}:${password}`;
  return [password, pair, base64EncodeUtf8(pair)];
}

/** One string of the model: credentials in value positions always, the run's secrets only where distinctive. */
function scrubString(text: string, secrets: readonly string[]): string {
  return printable(scrubDistinctiveSecrets(redactSecretFields(redactBasicCredentials(redactUrl(text))), secrets));
}

function scrub(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return scrubString(value, secrets);
  if (Array.isArray(value)) return value.map((item) => scrub(item, secrets));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    // A credential field of a structured body (`{ password: 'x' }`) is a value position whatever the password is.
    for (const [key, item] of Object.entries(value))
      out[scrubString(key, secrets)] = typeof item === 'string' && isSecretField(key) ? redactCredentialValue(item) : scrub(item, secrets);
    return out;
  }
  return value;
}

/** A deep copy of the report with every string redacted (headers were already; this catches messages and bodies). */
export function redactReport(report: RunReport, secrets: readonly string[]): RunReport {
  return scrub(report, secrets) as RunReport;
}
