// End to end with the real conformance runner: a planted-bug sandbox whose credentials are a known password, a run
// of a few cases, every report written from it. The failure shows in every file; no file holds the credential.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FIELD_MAPPING } from '../api/field-mapping.ts';
import { selectCases } from '../conformance/plan.ts';
import { runCases } from '../conformance/runner.ts';
import { DEFAULT_SETTINGS } from '../target/settings.ts';
import { createNodeConformanceTarget, sandboxTargetConfig, timingFor } from '../conformance/target.ts';
import { startSandbox } from '../sandbox/server.ts';
import { addProfiles } from '../sandbox/profiles/registry.ts';
import { PLANTED_BUG_PROFILES } from '../conformance/proof/planted-bugs.ts';
import { fromConformanceRun } from '../conformance/section.ts';
import { junitXsdErrors } from './fixtures/junit-xsd.ts';
import { summaryErrors } from './fixtures/schema-check.ts';
import { credentialSecrets } from './redact-report.ts';
import { writeReports } from './write.ts';
import { base64EncodeUtf8 } from '../api/base64.ts';

// The planted bugs are selected by name here, as the CLI does (scripts/cli.ts).
addProfiles(PLANTED_BUG_PROFILES);

const USER = 'ci-agent-0042';
const PASSWORD = 'Gate-Known-Pa55word-7';
const TIME_SCALE = 0.02;
const dir = mkdtempSync(join(tmpdir(), 'gh-conf-reports-'));
let files: Record<string, string> = {};

beforeAll(async () => {
  const sandbox = await startSandbox({ port: 0, timeScale: TIME_SCALE, profile: 'bug-trigger-510-code', user: USER, password: PASSWORD });
  const config = sandboxTargetConfig(sandbox.url, TIME_SCALE, { user: USER, password: PASSWORD });
  const target = createNodeConformanceTarget(config);
  try {
    const cases = selectCases({ grep: '^(TRG-510-V2|ENV-v2\\.account\\.balance|AUTH-WRONG-v2\\.account\\.balance) ' });
    expect(cases).toHaveLength(3);
    const run = await runCases(cases, {
      target,
      settings: DEFAULT_SETTINGS,
      timing: timingFor(config, DEFAULT_SETTINGS),
      mapping: DEFAULT_FIELD_MAPPING,
    });
    const report = fromConformanceRun(run, {
      runId: 'e2e',
      target: { url: sandbox.url, embedded: true, profile: 'bug-trigger-510-code', timeScale: TIME_SCALE },
      secrets: credentialSecrets(USER, PASSWORD),
    });
    writeReports(report, join(dir, 'out'), { secrets: credentialSecrets(USER, PASSWORD) });
    files = Object.fromEntries(readdirSync(join(dir, 'out')).map((name) => [name, readFileSync(join(dir, 'out', name), 'utf8')]));
  } finally {
    await target.close();
    await sandbox.close();
  }
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('reports of a real conformance run against a planted bug', () => {
  it('every file states the failure: summary.json, junit.xml, summary.md (first line), report.html', async () => {
    const summary = JSON.parse(files['summary.json'] ?? '{}');
    expect(summaryErrors(summary)).toEqual([]);
    expect(summary.verdict).toBe('fail');
    expect(summary.verdictLine).toBe(
      'FAIL: conformance: 1 of 3 cases failed (TRG-510-V2) [target: the embedded sandbox, profile bug-trigger-510-code, not a gateway]',
    );
    expect(files['summary.md']?.split('\n')[0]).toBe(
      '## ❌ FAIL: conformance: 1 of 3 cases failed (TRG-510-V2) \\[target: the embedded sandbox, profile bug-trigger-510-code, not a gateway\\]',
    );
    expect(files['junit.xml']).toMatch(/<testcase name="TRG-510-V2 [^"]*" classname="conformance\.TRG" time="[0-9.]+">\n\s*<failure /);
    expect(await junitXsdErrors(files['junit.xml'] ?? '')).toEqual([]);
    expect(files['report.html']).toContain('data-case="TRG-510-V2"');
  });

  it('the requests were sent with the credential, and no file holds it in any form', () => {
    const forms = { password: PASSWORD, 'user:password': `${USER}:${PASSWORD}`, 'Basic token': base64EncodeUtf8(`${USER}:${PASSWORD}`) };
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['junit.xml', 'report.html', 'summary.json', 'summary.md']);
    for (const [name, text] of Object.entries(files))
      for (const [form, secret] of Object.entries(forms)) expect(text.includes(secret), `${name} contains the ${form}`).toBe(false);
    // The AUTH case passed because the right credential was refused when wrong: the run really used it.
    expect(
      JSON.parse(files['summary.json'] ?? '{}').conformance.cases.find((c: { id: string }) => c.id === 'AUTH-WRONG-v2.account.balance')
        .status,
    ).toBe('passed');
  });
});
