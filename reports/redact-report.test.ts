// Redaction of a whole report: the three forms of a credential, URL user info and Basic tokens go; prose, such as the
// spec's "HTTP Basic Authentication" quoted in a rule, stays word for word.
import { describe, expect, it } from 'vitest';
import { base64EncodeUtf8 } from '../api/base64.ts';
import { fromConformanceRun } from '../conformance/section.ts';
import { passingConformanceRun } from './fixtures/sample-runs.ts';
import { credentialSecrets, redactBasicCredentials, redactReport } from './redact-report.ts';

const RULE = 'Every call uses HTTP Basic Authentication with a user id and password issued to the agent by the service operator.';

describe('redactReport', () => {
  it('credentialSecrets: the password, user:password and its base64 token; nothing for no password', () => {
    expect(credentialSecrets('u', 'p4ss')).toEqual(['p4ss', 'u:p4ss', base64EncodeUtf8('u:p4ss')]);
    expect(credentialSecrets('u', undefined)).toEqual([]);
  });

  it('scrubs secrets, URL user info and Basic tokens in every string, keeps the spec quote intact', () => {
    const run = passingConformanceRun();
    const first = run.cases[0]!;
    const report = fromConformanceRun(
      {
        ...run,
        cases: [
          {
            ...first,
            rule: RULE,
            notes: ['sent Basic ' + base64EncodeUtf8('someone:else'), 'to http://a:b@127.0.0.1:1/x', 'pw s3cret-value'],
          },
        ],
      },
      {
        runId: 'r',
        target: { url: 'http://127.0.0.1:1' },
      },
    );
    const clean = redactReport(report, ['s3cret-value']);
    expect(clean.conformance?.cases[0]?.rule).toBe(RULE);
    expect(clean.conformance?.cases[0]?.notes).toEqual(['sent Basic [REDACTED]', 'to http://[REDACTED]@127.0.0.1:1/x', 'pw [REDACTED]']);
  });

  it('a Basic token is a credential only when it decodes to user:password', () => {
    expect(redactBasicCredentials('Authorization: Basic ' + base64EncodeUtf8('agent:pw'))).toBe('Authorization: Basic [REDACTED]');
    expect(redactBasicCredentials('HTTP Basic Authentication is required')).toBe('HTTP Basic Authentication is required');
    expect(redactBasicCredentials('Basic dGVzdA==')).toBe('Basic dGVzdA=='); // "test": no colon, not a credential
  });

  it('a credential field of a structured body is redacted whatever its value; the scheme word of a header stays', () => {
    const run = passingConformanceRun();
    const report = fromConformanceRun(run, { runId: 'r', target: { url: 'http://127.0.0.1:1' } });
    const clean = redactReport({ ...report, artifacts: { password: 'x', authorization: 'Bearer x', note: 'x' } }, ['x']);
    expect(clean.artifacts).toEqual({ password: '[REDACTED]', authorization: 'Bearer [REDACTED]', note: 'x' });
  });
});
