// Issue #23 finding 6: a short or common password (`x`, `sandbox`, `e`, `true`, `{`, `"`) must leave every report file
// valid and reveal nothing. The files written for each are compared with those of a long random password: identical.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { base64EncodeUtf8 } from '../api/base64.ts';
import { redactText } from '../api/redact.ts';
import { fullReport } from './fixtures/full-report.ts';
import { junitXsdErrors } from './fixtures/junit-xsd.ts';
import { summaryErrors } from './fixtures/schema-check.ts';
import type { RunReport } from './model.ts';
import { credentialSecrets } from './redact-report.ts';
import { writeReports } from './write.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-short-pw-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const USER = 'agent-7731';
const SHORT = ['x', 'sandbox', 'e', 'true', '{', '"'] as const;
const REFERENCE = 'Ref-9c1f-Long-Passw0rd';

/** The full report with the credential where a run echoes one: headers, URL user info, a Basic token, echoed bodies. */
function withCredential(base: RunReport, password: string): RunReport {
  const token = base64EncodeUtf8(`${USER}:${password}`);
  const cases = base.conformance?.cases ?? [];
  const index = cases.findIndex((c) => c.status === 'failed');
  const victim = cases[index]!;
  const failure = victim.failures[0]!;
  const leaky = {
    ...failure,
    message: `sent Authorization: Basic ${token} to http://${USER}:${password}@127.0.0.1:40123/api/v2/transaction/topup`,
    received: `HTTP 200 ${JSON.stringify({ responseCode: '000', echo: { password, authorization: `Basic ${token}` } })}`,
    request: {
      operationId: 'v2.transaction.topup',
      method: 'POST',
      url: `http://${USER}:${password}@127.0.0.1:40123/api/v2/transaction/topup?password=${encodeURIComponent(password)}`,
      headers: { authorization: `Basic ${token}`, 'x-debug-echo': `${USER}:${password}` },
      body: { skuId: 1001, password },
    },
  };
  const patched = { ...victim, failures: [leaky, ...victim.failures.slice(1)], notes: [...victim.notes, `Basic ${token}`] };
  return { ...base, conformance: { ...base.conformance!, cases: cases.map((c, i) => (i === index ? patched : c)) } };
}

function filesOf(out: string): Record<string, string> {
  return Object.fromEntries(readdirSync(out).map((name) => [name, readFileSync(join(out, name), 'utf8')]));
}

describe('a short or common password leaves every report valid and revealing nothing', () => {
  let base: RunReport;
  let reference: Record<string, string>;

  it('the reference run (a long random password) writes valid files', async () => {
    base = await fullReport(join(dir, 'stream.ndjson'));
    const out = join(dir, 'reference');
    writeReports(withCredential(base, REFERENCE), out, { secrets: credentialSecrets(USER, REFERENCE) });
    reference = filesOf(out);
    expect(Object.keys(reference).sort()).toEqual(['junit.xml', 'report.html', 'summary.json', 'summary.md']);
    expect(Object.values(reference).some((text) => text.includes(REFERENCE))).toBe(false);
  });

  for (const password of SHORT) {
    it(`password ${JSON.stringify(password)}: every file byte for byte that of the reference run, summary.json and junit.xml valid`, async () => {
      const out = join(dir, `pw-${SHORT.indexOf(password)}`);
      writeReports(withCredential(base, password), out, { secrets: credentialSecrets(USER, password) });
      const files = filesOf(out);
      const summary = JSON.parse(files['summary.json']!) as RunReport;
      expect(summaryErrors(summary)).toEqual([]);
      expect(summary.target.environment).toBe('sandbox');
      expect(files['junit.xml']!.startsWith('<?xml')).toBe(true);
      expect(await junitXsdErrors(files['junit.xml']!)).toEqual([]);
      // Output independent of the password: nothing in it can tell a reader what the password is.
      for (const name of Object.keys(reference)) expect(files[name], name).toBe(reference[name]);
    });
  }
});

describe('redactText with a short password: value positions only', () => {
  it.each(SHORT)('password %j: removed from the Basic token, URL user info and credential fields; the rest intact', (password) => {
    const token = base64EncodeUtf8(`${USER}:${password}`);
    const text = `exitCode 2 <?xml?> sandbox true {} "q" Basic ${token} http://${USER}:${password}@h/x?password=${password} {"password":${JSON.stringify(password)}} GATEWAY_PASSWORD=${password}`;
    expect(redactText(text, credentialSecrets(USER, password))).toBe(
      'exitCode 2 <?xml?> sandbox true {} "q" Basic [REDACTED] http://[REDACTED]@h/x?password=[REDACTED] {"password":"[REDACTED]"} GATEWAY_PASSWORD=[REDACTED]',
    );
  });
});
