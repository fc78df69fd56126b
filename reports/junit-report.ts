// A run report as JUnit: conformance cases, load thresholds and checks, drift per operation, migration pairs and
// unresolved ledger entries become <testcase>s, written by THE writer (junit-xml.ts). Runtime-neutral.
import { comparedRunText, operationLines, settingsText } from './comparison-text.ts';
import { junitXml, type JUnitCase, type JUnitSuite } from './junit-xml.ts';
import type { ConformanceSection, LoadSection, ReportCase, ReportFailure, ReportRequest, RunReport } from './model.ts';
import { formatCount, formatObserved, loadLabel, loadProblems } from './sections.ts';
import { VERDICT_WORD } from './verdict.ts';

/** The request as one block of text: method and URL, headers, body (all already redacted in the report). */
export function requestText(request: ReportRequest): string {
  const lines = [`${request.method} ${request.url}`];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
  if (request.body !== undefined) lines.push('', typeof request.body === 'string' ? request.body : JSON.stringify(request.body, null, 2));
  return lines.join('\n');
}

/** One failure: check, message, expected vs received, the request. */
export function failureText(failure: ReportFailure): string {
  const lines = [
    `[${failure.check}]${failure.severity === 'warning' ? ' (warning)' : ''} ${failure.operation === '' ? '' : `${failure.operation}: `}${failure.message}`,
    `  expected: ${failure.expected}`,
    `  received: ${failure.received}`,
  ];
  if (failure.request !== undefined) lines.push(`  request:\n${indent(requestText(failure.request), '    ')}`);
  return lines.join('\n');
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => prefix + line)
    .join('\n');
}

/** A JUnit timestamp: ISO local form without zone (Ant writes it so; the instant is UTC). */
function junitTimestamp(iso: string): string {
  return iso.slice(0, 19);
}

/** A failed case's full explanation: the quoted spec rule, assumptions, every error with expected vs received and the request. */
export function caseFailureText(c: ReportCase): string {
  const errors = c.failures.filter((f) => f.severity === 'error');
  return [
    `rule (${c.specSection}): ${c.rule}`,
    ...(c.assumed.length > 0 ? [`assumed: ${c.assumed.join('; ')}`] : []),
    '',
    ...errors.map(failureText),
  ].join('\n');
}

function conformanceCase(c: ReportCase): JUnitCase {
  const errors = c.failures.filter((f) => f.severity === 'error');
  const warnings = c.failures.filter((f) => f.severity === 'warning');
  const out = [...c.notes, ...warnings.map((w) => `warning: ${failureText(w)}`)].join('\n');
  const base = {
    name: `${c.id} ${c.title}`,
    classname: `conformance.${c.group}`,
    timeSec: c.durationMs / 1000,
    properties: {
      rule: `${c.specSection}: ${c.rule}`,
      api: c.api,
      ...(c.assumed.length > 0 ? { assumed: c.assumed.join('; ') } : {}),
    },
    ...(out === '' ? {} : { systemOut: out }),
  };
  if (c.status === 'skipped') return { ...base, status: 'skipped', message: c.skipReason ?? 'skipped' };
  if (c.status === 'passed') return { ...base, status: 'passed' };
  return {
    ...base,
    status: 'failed',
    message: firstErrorMessage(c.failures) ?? 'failed',
    type: errors[0]?.check ?? 'failed',
    details: caseFailureText(c),
  };
}

/** The first error's words, as a testcase's one-line message. */
function firstErrorMessage(failures: readonly ReportFailure[]): string | undefined {
  const first = failures.find((f) => f.severity === 'error');
  return first === undefined ? undefined : `${first.message} (expected ${first.expected}; received ${first.received})`;
}

/**
 * `--under-load`: one testcase per case judged idle, as the pass under load judged it. Failing only under load is a
 * failure with the rule quoted and what the loaded pass saw; not verified under load is skipped with why; failing in
 * both passes is a failure here too (its failures are in the idle testcase).
 */
function underLoadCases(section: ConformanceSection): JUnitCase[] {
  const u = section.underLoad;
  if (u === undefined) return [];
  const label = `${u.load.scenario}/${u.load.profile}`;
  const failsOnly = new Map(u.failsOnlyUnderLoad.map((c) => [c.id, c.failures]));
  const notVerified = new Map((u.notVerified ?? []).map((c) => [c.id, c.reason]));
  const judged = section.cases.filter((c) => c.status === 'passed' || c.status === 'failed');
  return judged.map((c): JUnitCase => {
    const base = {
      name: `${c.id} under load ${label}: ${c.title}`,
      classname: `conformance.UNDER-LOAD.${c.group}`,
      timeSec: 0,
      properties: { rule: `${c.specSection}: ${c.rule}`, api: c.api },
    };
    const failures = failsOnly.get(c.id);
    if (failures !== undefined)
      return {
        ...base,
        status: 'failed',
        message: `fails only under load ${label} (passed idle): ${firstErrorMessage(failures) ?? 'failed'}`,
        type: failures.find((f) => f.severity === 'error')?.check ?? 'failed',
        details: caseFailureText({ ...c, failures }),
      };
    const why = notVerified.get(c.id);
    if (why !== undefined) return { ...base, status: 'skipped', message: `not verified under load ${label}: ${why}` };
    if (c.status === 'failed' && !u.passesOnlyUnderLoad.some((p) => p.id === c.id))
      return { ...base, status: 'failed', message: `fails idle and under load ${label} (the idle testcase ${c.id} has its failures)` };
    return { ...base, status: 'passed' };
  });
}

function conformanceSuites(report: RunReport, common: Omit<JUnitSuite, 'name' | 'timeSec' | 'cases'>): JUnitSuite[] {
  const section = report.conformance;
  if (section === undefined) return [];
  const suites = section.groups.map(({ group }) => {
    const cases = section.cases.filter((c) => c.group === group);
    return {
      ...common,
      name: `conformance.${group}`,
      timeSec: cases.reduce((sum, c) => sum + c.durationMs, 0) / 1000,
      cases: cases.map(conformanceCase),
    };
  });
  const underLoad = underLoadCases(section);
  if (underLoad.length > 0)
    suites.push({ ...common, name: 'conformance.UNDER-LOAD', timeSec: (section.underLoad?.passMs ?? 0) / 1000, cases: underLoad });
  // Transactions of the concurrent phase still not final after the drain: not verified, never a silent pass.
  const unresolved = section.drain?.unresolved ?? [];
  if (unresolved.length > 0) {
    suites.push({
      ...common,
      name: 'conformance.DRAIN',
      timeSec: (section.drain?.waitedMs ?? 0) / 1000,
      cases: unresolved.map((u): JUnitCase => {
        const what = `${u.operationId} of ${u.caseId}${u.correlationId === undefined ? '' : ` (correlationId ${u.correlationId})`}, last outcome ${u.outcome}`;
        return {
          name: `${u.correlationId ?? u.caseId} reached a final state after the drain`,
          classname: 'conformance.DRAIN',
          timeSec: 0,
          ...(report.allowSkips
            ? { status: 'skipped' as const, message: `not final: ${what}; accepted with --allow-skips` }
            : { status: 'error' as const, message: `not final after the drain: ${what}`, type: 'unresolved' }),
        };
      }),
    });
  }
  return suites;
}

type Where = Pick<JUnitCase, 'classname' | 'timeSec'>;

/** A threshold: failed when crossed, skipped when its metric got no sample (k6 calls that met). */
function thresholdCase(t: LoadSection['thresholds'][number], where: Where): JUnitCase {
  const observed = t.observed === undefined ? '' : `observed ${formatObserved(t.observed, t.metric)}`;
  const base = {
    name: `threshold ${t.metric} ${t.expression}`,
    ...where,
    ...(observed === '' ? {} : { systemOut: observed }),
  };
  if (!t.ok)
    return {
      ...base,
      status: 'failed',
      message: `threshold crossed: ${t.metric} ${t.expression}${observed === '' ? '' : `, ${observed}`}`,
      type: 'threshold',
    };
  if (t.verified === false)
    return {
      ...base,
      status: 'skipped',
      message: 'unverified: the metric got no sample in this run (k6 calls it met; not counted as passed)',
    };
  return { ...base, status: 'passed' };
}

/** A check: skipped when it never ran, failed when the load's problems count it failing. */
function checkCase(c: LoadSection['checks'][number], where: Where, failingChecks: ReadonlySet<string>): JUnitCase {
  const base = { name: `check ${c.path.replace(/^::/, '')}`, ...where, systemOut: `passes: ${c.passes}, fails: ${c.fails}` };
  if (c.passes + c.fails === 0) return { ...base, status: 'skipped', message: 'never ran in this run (not counted as passed)' };
  if (failingChecks.has(c.name))
    return {
      ...base,
      status: 'failed',
      message: `failed ${formatCount(c.fails)} of ${formatCount(c.passes + c.fails)} times`,
      type: 'check',
    };
  // A check with its own threshold is judged by it (the threshold's testcase); its fails are shown here.
  return { ...base, status: 'passed' };
}

function loadSuites(report: RunReport, common: Omit<JUnitSuite, 'name' | 'timeSec' | 'cases'>): JUnitSuite[] {
  const load = report.load;
  if (load === undefined) return [];
  const classname = `load.${load.scenario}`;
  const timeSec = load.durationMs / 1000;
  const problems = loadProblems(load);
  const failingChecks = new Set(problems.failedChecks.map((c) => c.name));
  const cases: JUnitCase[] = [
    ...load.thresholds.map((t) => thresholdCase(t, { classname, timeSec })),
    ...load.checks.map((c) => checkCase(c, { classname, timeSec }, failingChecks)),
  ];
  if (problems.unusable) {
    cases.unshift({
      name: "setup() read the target's catalog",
      classname,
      timeSec,
      status: 'error',
      message: 'setup() did not complete: the target could not be used (its catalog could not be read)',
      type: 'unusable',
    });
  }
  // A run with nothing to judge still gets a testcase, so "no request was made" is an error and never an empty pass.
  if (cases.length === 0 || problems.noRequest) {
    cases.push({
      name: `run ${loadLabel(load)}`,
      classname,
      timeSec,
      status: load.verdict === 'pass' ? 'passed' : 'error',
      ...(load.verdict === 'pass'
        ? {}
        : { message: `load run ${VERDICT_WORD[load.verdict]}: ${formatCount(load.requests.count)} requests`, type: 'incomplete' }),
      systemOut: `${formatCount(load.requests.count)} requests at ${load.requests.rate.toFixed(1)}/s`,
    });
  }
  return [{ ...common, name: `load.${load.scenario}.${load.profile}`, timeSec, cases }];
}

function driftSuites(report: RunReport, common: Omit<JUnitSuite, 'name' | 'timeSec' | 'cases'>): JUnitSuite[] {
  const drift = report.drift;
  if (drift === undefined) return [];
  const ops = [...(drift.compared ?? [])];
  for (const f of drift.findings) if (!ops.includes(f.operationId)) ops.push(f.operationId);
  const cases = ops.map((op): JUnitCase => {
    const findings = drift.findings.filter((f) => f.operationId === op);
    const breaking = findings.filter((f) => f.kind === 'breaking');
    const lines = findings.map((f) => `${f.kind}: ${f.path} ${f.change} — ${f.detail}`);
    return {
      name: `${op} payload matches the baseline`,
      classname: 'drift',
      timeSec: 0,
      status: breaking.length > 0 ? 'failed' : 'passed',
      ...(breaking.length > 0
        ? {
            message: `${breaking.length} breaking change(s): ${breaking.map((f) => `${f.path} ${f.change}`).join(', ')}`,
            type: 'breaking-drift',
            details: lines.join('\n'),
          }
        : {}),
      ...(lines.length > 0 ? { systemOut: lines.join('\n') } : {}),
    };
  });
  for (const n of (drift.notChecked ?? []).filter((x) => x.skipped)) {
    cases.push({
      name: `${n.operationId} payload matches the baseline`,
      classname: 'drift',
      timeSec: 0,
      status: 'skipped',
      message: `not checked: ${n.reason}`,
    });
  }
  if (ops.length === 0) {
    cases.push({
      name: 'operations compared against the baseline',
      classname: 'drift',
      timeSec: 0,
      status: 'error',
      message: 'no operation was compared',
      type: 'incomplete',
    });
  }
  return [{ ...common, name: 'drift', timeSec: 0, properties: { ...common.properties, baselineDir: drift.baselineDir }, cases }];
}

function migrationSuites(report: RunReport, common: Omit<JUnitSuite, 'name' | 'timeSec' | 'cases'>): JUnitSuite[] {
  const migration = report.migration;
  if (migration === undefined) return [];
  const cases = migration.pairs.map((p): JUnitCase => ({
    name: `${p.purpose} (${p.v1} → ${p.v2})`,
    classname: 'migration',
    timeSec: 0,
    status: p.regression ? 'failed' : 'passed',
    ...(p.regression
      ? {
          message: p.regressionReason ?? `v1 ${p.v1Outcome}, v2 ${p.v2Outcome}`,
          type: 'regression',
          details: [`v1: ${p.v1Outcome}`, `v2: ${p.v2Outcome}`, ...p.contentDiffs].join('\n'),
        }
      : {}),
    systemOut: `v1 ${p.v1Outcome} p50 ${p.latency.v1.p50 ?? 'n/a'} ms; v2 ${p.v2Outcome} p50 ${p.latency.v2.p50 ?? 'n/a'} ms`,
  }));
  for (const n of migration.notCompared ?? []) {
    cases.push({
      name: `${n.purpose} (${n.v1} → ${n.v2})`,
      classname: 'migration',
      timeSec: 0,
      status: 'skipped',
      message: `not compared: ${n.reason}`,
    });
  }
  if (migration.pairs.length === 0) {
    cases.push({
      name: 'v1/v2 pairs compared',
      classname: 'migration',
      timeSec: 0,
      status: 'error',
      message: 'no pair was compared',
      type: 'incomplete',
    });
  }
  return [{ ...common, name: 'migration', timeSec: 0, cases }];
}

/** One testcase per compared operation: a regression fails, too few samples is an error (skipped with --allow-skips). */
function comparisonSuites(report: RunReport, common: Omit<JUnitSuite, 'name' | 'timeSec' | 'cases'>): JUnitSuite[] {
  const comparison = report.comparison;
  if (comparison === undefined) return [];
  const cases = comparison.operations.map((o): JUnitCase => {
    const base = { name: `${o.operation} no regression`, classname: 'comparison', timeSec: 0, systemOut: operationLines(o).join('\n') };
    if (o.verdict === 'regression')
      return { ...base, status: 'failed', type: 'regression', message: o.reasons.filter((r) => r.startsWith('regression')).join('; ') };
    if (o.verdict === 'incomplete') {
      return report.allowSkips
        ? { ...base, status: 'skipped', message: `too few samples to conclude; accepted with --allow-skips: ${o.reasons.join('; ')}` }
        : { ...base, status: 'error', type: 'incomplete', message: o.reasons.join('; ') || 'too few samples to conclude' };
    }
    return { ...base, status: 'passed' };
  });
  if (cases.length === 0)
    cases.push({
      name: 'operations compared',
      classname: 'comparison',
      timeSec: 0,
      status: 'error',
      type: 'incomplete',
      message: 'no operation to compare',
    });
  const properties = {
    ...common.properties,
    baseline: comparedRunText(comparison.baseline),
    candidate: comparedRunText(comparison.candidate),
    settings: settingsText(comparison),
  };
  return [{ ...common, name: 'comparison', timeSec: 0, properties, cases }];
}

function ledgerSuites(report: RunReport, common: Omit<JUnitSuite, 'name' | 'timeSec' | 'cases'>): JUnitSuite[] {
  const ledger = report.ledger;
  if (ledger === undefined) return [];
  const cases = ledger.unresolved.map((u): JUnitCase => ({
    name: `${u.correlationId} reached a final state`,
    classname: 'ledger',
    timeSec: 0,
    ...(report.allowSkips
      ? { status: 'skipped', message: `unresolved (${u.operationId}, last ${u.lastOutcome}); accepted with --allow-skips` }
      : {
          status: 'error',
          message: `unresolved: ${u.operationId}, last outcome ${u.lastOutcome}; run gateway-harness reconcile`,
          type: 'unresolved',
        }),
  }));
  if (cases.length === 0 && ledger.entries > 0) {
    cases.push({
      name: `all ${ledger.entries} charging requests reached a final state`,
      classname: 'ledger',
      timeSec: 0,
      status: 'passed',
    });
  }
  return cases.length === 0 ? [] : [{ ...common, name: 'ledger', timeSec: 0, cases }];
}

/** The suites of a report. A run that stopped early or ran nothing gets an error testcase: CI never sees it green. */
export function junitSuites(report: RunReport): JUnitSuite[] {
  const common = {
    timestamp: junitTimestamp(report.startedAt),
    properties: {
      verdict: report.verdict,
      verdictLine: report.verdictLine,
      runId: report.runId,
      target: report.target.url,
      tool: `${report.tool.name} ${report.tool.version}`,
    },
  };
  const suites = [
    ...conformanceSuites(report, common),
    ...loadSuites(report, common),
    ...comparisonSuites(report, common),
    ...driftSuites(report, common),
    ...migrationSuites(report, common),
    ...ledgerSuites(report, common),
  ];
  // An interrupted run is an error testcase of its own (type "interrupted"): CI shows a cancelled run as not passed,
  // whatever the partial suites after it say.
  if (report.interruption !== undefined || report.error !== undefined || suites.length === 0) {
    suites.unshift({
      ...common,
      name: report.command,
      timeSec: report.durationMs / 1000,
      cases: [
        {
          name: `${report.command} run`,
          classname: report.command,
          timeSec: report.durationMs / 1000,
          status: 'error',
          message: report.verdictLine,
          type: report.interruption === undefined ? (report.error?.code ?? 'incomplete') : 'interrupted',
        },
      ],
    });
  }
  return suites;
}

export function reportJunitXml(report: RunReport): string {
  return junitXml(junitSuites(report), `gateway-harness ${report.command}`);
}
