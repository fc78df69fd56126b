// The last line of defence before a report leaves the process: every string of the model is scrubbed of the run's
// secrets (password, `user:password`, its base64 Basic token) and of URL user info. Runtime-neutral.
import { base64EncodeUtf8 } from '../api/base64.ts';
import { redactText, redactUrl } from '../api/redact.ts';
import type { RunReport } from './model.ts';

/**
 * The forms a credential pair can take in text: the password, `user:password` and its base64 token (what a Basic
 * header carries). The user name alone is not a secret and stays readable.
 */
export function credentialSecrets(user: string | undefined, password: string | undefined): string[] {
  if (password === undefined || password === '') return [];
  const pair = `${user ?? ''}:${password}`;
  return [password, pair, base64EncodeUtf8(pair)];
}

function scrub(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redactText(redactUrl(value), secrets);
  if (Array.isArray(value)) return value.map((item) => scrub(item, secrets));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = scrub(item, secrets);
    return out;
  }
  return value;
}

/** A deep copy of the report with every string redacted (headers were already; this catches messages and bodies). */
export function redactReport(report: RunReport, secrets: readonly string[]): RunReport {
  return scrub(report, secrets) as RunReport;
}

/** Plain replacement of each secret in a finished file's text (no pattern rewriting that could break code). */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of [...secrets].filter((s) => s.length > 0).sort((a, b) => b.length - a.length)) out = out.split(secret).join('[REDACTED]');
  return out;
}
