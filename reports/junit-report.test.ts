// junit.xml from a run report: valid against the Jenkins/Ant JUnit XSD for every kind of report, with the shape CI
// consumers read (suite per conformance group, case id first in the name, failure message and body, skipped, error).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import { assembleReport } from './assemble.ts';
import { fromConformanceRun } from '../conformance/section.ts';
import { fullReport, realK6Summary } from './fixtures/full-report.ts';
import { junitXsdErrors } from './fixtures/junit-xsd.ts';
import { passingConformanceRun } from './fixtures/sample-runs.ts';
import { junitXml } from './junit-xml.ts';
import { junitSuites, reportJunitXml } from './junit-report.ts';
import { reportFromK6Summary } from './k6-summary.ts';
import type { RunReport } from './model.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-junit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let full: RunReport;
beforeAll(async () => {
  full = await fullReport(join(dir, 'full.ndjson'));
});
const meta = { runId: 'r', startedAt: Date.UTC(2026, 0, 1), target: { url: 'http://127.0.0.1:1' } };

describe('XSD validity (reports/fixtures/junit-10.xsd)', () => {
  it('the validator rejects what the XSD forbids (so a pass below means something)', async () => {
    const errors = await junitXsdErrors(
      '<testsuites skipped="1"><testsuite name="x" tests="1" failures="0" errors="0"><testcase name="a"><properties/></testcase></testsuite></testsuites>',
    );
    expect(errors.join('\n')).toMatch(/attribute 'skipped' is not allowed[\s\S]*'properties': This element is not expected/);
  });

  it.each([
    ['every section, failures, skips, warnings, drift, migration, ledger', () => full],
    ['a passing conformance run', () => fromConformanceRun(passingConformanceRun(), meta)],
    [
      'a load run alone',
      () => reportFromK6Summary(realK6Summary('v2.2.0'), { ...meta, scenario: 'mixed', profile: 'smoke', engine: 'k6 v2.2.0' }),
    ],
    [
      'a run stopped early',
      () => assembleReport({ ...meta, command: 'gate', durationMs: 5, error: { code: 'GH_ERR_TARGET', message: 'refused <&>' } }),
    ],
    [
      'an interrupted run',
      () =>
        assembleReport({
          ...meta,
          command: 'load',
          durationMs: 5,
          interruption: { signal: 'SIGTERM', afterMs: 2500, during: 'load', reconcile: 'gateway-harness reconcile /r/ledger.jsonl' },
        }),
    ],
  ])('%s', async (_name, make) => {
    expect(await junitXsdErrors(reportJunitXml(make()))).toEqual([]);
  });

  it('the raw writer with every status, properties and control characters', async () => {
    const xml = junitXml([
      {
        name: 's',
        timeSec: 1234.5,
        timestamp: '2026-01-01T00:00:00',
        properties: { a: 'b' },
        cases: [
          { name: 'p', classname: 'k', timeSec: 1, status: 'passed', properties: { rule: 'x' } },
          { name: 'f\u0001', classname: 'k', timeSec: 1, status: 'failed', message: 'm', details: '<d>' },
          { name: 's', classname: 'k', timeSec: 0, status: 'skipped', message: 'why' },
          { name: 'e', classname: 'k', timeSec: 0, status: 'error', message: 'boom', systemOut: 'out' },
        ],
      },
    ]);
    expect(await junitXsdErrors(xml)).toEqual([]);
  });
});

describe('shape for CI consumers', () => {
  const parse = (xml: string) =>
    new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name),
    }).parse(xml);

  it('one suite per conformance group, then load, drift, migration, ledger', () => {
    expect(junitSuites(full).map((s) => s.name)).toEqual([
      'conformance.AUTH',
      'conformance.ENV',
      'conformance.TRG',
      'conformance.PAGE',
      'conformance.LEN',
      'conformance.CUR',
      'conformance.CAT',
      'conformance.LOOKUP',
      'conformance.FMT',
      'conformance.LOC',
      'conformance.GIFT',
      'conformance.BAL',
      'conformance.LOAN',
      'load.mixed.smoke',
      'drift',
      'migration',
      'ledger',
    ]);
  });

  it('a failed case: id first in the name, message with expected/received, body with rule and redacted request', () => {
    const doc = parse(reportJunitXml(full));
    const trg = doc.testsuites.testsuite.find((s: { name: string }) => s.name === 'conformance.TRG');
    const failed = trg.testcase.find((c: { name: string }) => c.name.startsWith('TRG-510-V2 '));
    expect(failed.classname).toBe('conformance.TRG');
    expect(failed.failure.message).toBe("responseCode must be '510' (expected responseCode '510'; received responseCode '000' (HTTP 200))");
    expect(failed.failure.type).toBe('responseCodeIs');
    expect(failed.failure['#text']).toContain(
      'rule (Errors / Sandbox simulation triggers (top-up operation)): Mobile number ends with 510',
    );
    expect(failed.failure['#text']).toContain('authorization: Basic [REDACTED]');
    expect(failed['system-out']).toContain('warning: [statusAgrees] (warning)');
    expect(trg.failures).toBe('1');
  });

  it('--under-load: a testcase per case judged idle; fails only under load is a failure quoting the rule, not verified is skipped with why', async () => {
    const section = full.conformance!;
    const judged = section.cases.filter((c) => c.status === 'passed' || c.status === 'failed');
    const [broken, unverified, same] = judged.filter((c) => c.status === 'passed');
    const failure = {
      check: 'not-successful',
      operation: 'v2.transaction.topup',
      severity: 'error' as const,
      message: 'the request was accepted as a success although the rule forbids it',
      expected: "not a success (no HTTP 200 with responseCode '000')",
      received: "HTTP 200, responseCode '000'",
    };
    const reason = 'no request of the load was in flight at the target when the case sent one (waited 10 s)';
    const report: RunReport = {
      ...full,
      conformance: {
        ...section,
        underLoad: {
          load: { scenario: 'mixed', profile: 'load', durationMs: 1000, stoppedAtPassEnd: true },
          compared: judged.length - 1,
          failsOnlyUnderLoad: [{ id: broken!.id, title: broken!.title, failures: [failure] }],
          passesOnlyUnderLoad: [],
          notVerified: [{ id: unverified!.id, title: unverified!.title, reason }],
          notes: [],
        },
      },
    };
    const xml = reportJunitXml(report);
    expect(await junitXsdErrors(xml)).toEqual([]);
    const suite = parse(xml).testsuites.testsuite.find((s: { name: string }) => s.name === 'conformance.UNDER-LOAD');
    expect(suite.testcase).toHaveLength(judged.length);
    const named = (id: string) => suite.testcase.find((c: { name: string }) => c.name.startsWith(`${id} under load mixed/load: `));
    const failed = named(broken!.id);
    expect(failed.classname).toBe(`conformance.UNDER-LOAD.${broken!.group}`);
    expect(failed.failure.message).toMatch(/^fails only under load mixed\/load \(passed idle\): the request was accepted as a success/);
    expect(failed.failure.type).toBe('not-successful');
    expect(failed.failure['#text']).toContain(`rule (${broken!.specSection}): ${broken!.rule}`);
    expect(named(unverified!.id).skipped.message).toBe(`not verified under load mixed/load: ${reason}`);
    expect(named(same!.id).failure ?? named(same!.id).skipped).toBeUndefined();
    expect(suite.failures).toBe(String(1 + judged.filter((c) => c.status === 'failed').length));
    expect(suite.skipped).toBe('1');
    // Without --under-load there is no such suite.
    expect(junitSuites(full).some((s) => s.name === 'conformance.UNDER-LOAD')).toBe(false);
  });

  it('a skipped case is <skipped> with its reason; an unresolved ledger entry is an <error>', () => {
    const doc = parse(reportJunitXml(full));
    const loan = doc.testsuites.testsuite.find((s: { name: string }) => s.name === 'conformance.LOAN');
    expect(loan.testcase[0].skipped.message).toBe('no number with dues is configured (settings.loanNumbers)');
    const ledger = doc.testsuites.testsuite.find((s: { name: string }) => s.name === 'ledger');
    expect(ledger.testcase[0].error.message).toMatch(/^unresolved: v2\.transaction\.topup, last outcome Unknown/);
  });

  it('load thresholds and checks are testcases; a crossed threshold fails with its observed value', () => {
    const load = full.load!;
    const crossed = { ...full, load: { ...load, thresholds: load.thresholds.map((t, i) => (i === 1 ? { ...t, ok: false } : t)) } };
    const suite = junitSuites(crossed).find((s) => s.name === 'load.mixed.smoke')!;
    expect(suite.cases.map((c) => [c.name, c.status])).toEqual([
      ['threshold gateway_failed rate<0.5', 'passed'],
      ['threshold http_req_duration p(95)<2000', 'failed'],
      ['threshold http_req_duration{operation:v2.account.balance} p(90)<2000', 'passed'],
      ['check HTTP 200', 'passed'],
      ["check responseCode '000'", 'passed'],
    ]);
    expect(suite.cases[1]?.message).toMatch(/^threshold crossed: http_req_duration p\(95\)<2000, observed \d/);
  });

  it('drift: a testcase per compared operation, failing on breaking findings; migration: per pair', () => {
    const drift = junitSuites(full).find((s) => s.name === 'drift')!;
    expect(drift.cases.map((c) => [c.name, c.status])).toEqual([
      ['v2.catalog.skus payload matches the baseline', 'failed'],
      ['v2.account.balance payload matches the baseline', 'passed'],
    ]);
    const migration = junitSuites(full).find((s) => s.name === 'migration')!;
    expect(migration.cases.map((c) => c.status)).toEqual(['passed', 'failed']);
  });

  it('a run that stopped early or ran nothing is an error testcase, never an empty green file', () => {
    const stopped = junitSuites(
      assembleReport({ ...meta, command: 'gate', durationMs: 1, error: { code: 'GH_ERR_TARGET', message: 'refused' } }),
    );
    expect(stopped.flatMap((s) => s.cases.map((c) => [c.status, c.message]))).toEqual([
      ['error', 'UNUSABLE TARGET: GH_ERR_TARGET: refused'],
    ]);
    const nothing = junitSuites(assembleReport({ ...meta, command: 'gate', durationMs: 1 }));
    expect(nothing.flatMap((s) => s.cases.map((c) => c.status))).toEqual(['error']);
  });

  it('suite properties carry the verdict and run id for Jenkins/GitLab', () => {
    const doc = parse(reportJunitXml(full));
    const props = doc.testsuites.testsuite[0].properties.property as Array<{ name: string; value: string }>;
    expect(Object.fromEntries(props.map((p) => [p.name, p.value]))).toMatchObject({
      verdict: 'fail',
      runId: full.runId,
      target: 'http://127.0.0.1:40123',
    });
  });
});

describe('an interrupted run', () => {
  it('is an error testcase of type "interrupted" first, whatever its partial suites say (CI never shows it passed)', () => {
    const report = assembleReport({
      ...meta,
      command: 'gate',
      durationMs: 2_600,
      ...(full.load === undefined ? {} : { load: full.load }),
      interruption: { signal: 'SIGINT', afterMs: 2_500, during: 'load', notRun: ['drift'] },
    });
    expect(report.verdict).toBe('interrupted');
    const [first] = junitSuites(report);
    expect(first?.cases[0]).toMatchObject({ status: 'error', type: 'interrupted', message: report.verdictLine });
    expect(report.verdictLine).toMatch(/^INTERRUPTED: by SIGINT after 2\.50 s during load \(results up to then\); not run: drift; /);
  });
});
