// The three report files of a load run, written by the project (no remote jslib): summary.json, junit.xml (one testcase
// per threshold and per check, through the one JUnit writer) and summary.md; plus the short text k6 prints. Runtime-neutral.
import { faultLine } from '../../api/faults.ts';
import { junitXml, type JUnitCase } from '../../reports/junit-xml.ts';
import type { CheckSummary, LoadSummary, ThresholdResult } from './build-summary.ts';
import { round } from './build-summary.ts';

export const SUMMARY_JSON = 'summary.json';
export const JUNIT_XML = 'junit.xml';
export const SUMMARY_MD = 'summary.md';

function observedText(t: ThresholdResult): string {
  return t.observed === undefined ? 'no value' : String(round(t.observed));
}

function thresholdCase(summary: LoadSummary, t: ThresholdResult): JUnitCase {
  const name = `threshold ${t.metric} ${t.expression}`;
  const base = { name, classname: `load.${summary.run.scenario}.thresholds`, timeSec: summary.durationSec, properties: { metric: t.metric, expression: t.expression } };
  if (!t.ok) return { ...base, status: 'failed', type: 'threshold', message: `crossed: ${t.expression} (observed ${observedText(t)})` };
  if (!t.verified) return { ...base, status: 'skipped', message: 'unverified: the metric got no samples in this run (not counted as passed)' };
  return { ...base, status: 'passed', systemOut: `observed ${observedText(t)}` };
}

function checkCase(summary: LoadSummary, c: CheckSummary): JUnitCase {
  const total = c.passes + c.fails;
  const counts = `${c.fails} of ${total} failed`;
  const tolerance = c.threshold === undefined ? 'no failure tolerated' : `threshold ${c.threshold.expression}`;
  const base = {
    name: `check ${c.name}`,
    classname: `load.${summary.run.scenario}.checks`,
    timeSec: summary.durationSec,
    ...(c.rule === undefined ? {} : { properties: { rule: c.rule } }),
  };
  if (total === 0) return { ...base, status: 'skipped', message: 'never ran in this run (not counted as passed)' };
  if (!c.ok) return { ...base, status: 'failed', type: 'check', message: `${counts} (${tolerance})`, details: `${counts}; ${tolerance}${c.rule === undefined ? '' : `\nrule: ${c.rule}`}` };
  return { ...base, status: 'passed', systemOut: `${counts} (${tolerance})` };
}

export function loadJunitXml(summary: LoadSummary): string {
  const cases = [
    ...summary.thresholds.filter((t) => !/^checks\{check:/.test(t.metric)).map((t) => thresholdCase(summary, t)),
    ...summary.checks.map((c) => checkCase(summary, c)),
  ];
  return junitXml([
    {
      name: `load ${summary.run.scenario} (${summary.run.profile})`,
      timeSec: summary.durationSec,
      properties: { verdict: summary.verdict, scenario: summary.run.scenario, profile: summary.run.profile, api: summary.run.api, target: summary.run.target },
      cases,
    },
  ]);
}

const mark = (ok: boolean, verified = true): string => (!ok ? '❌' : verified ? '✅' : '⚪');
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');

function stats(values: Readonly<Record<string, number>> | undefined, keys: readonly string[]): string {
  if (values === undefined) return '–';
  return keys.filter((k) => values[k] !== undefined).map((k) => `${k} ${round(values[k] as number)}`).join(', ');
}

export function loadSummaryMarkdown(summary: LoadSummary): string {
  const { run, gateway } = summary;
  const lines: string[] = [];
  lines.push(`# Load run: ${summary.headline}`, '');
  lines.push(
    `Scenario **${run.scenario}**, profile **${run.profile}**, api ${run.api}, target ${run.target} (${run.environment}, time scale ${run.timeScale})` +
      `${run.runId === '' ? '' : `, run ${run.runId}`}. ${summary.iterations} iterations, ${summary.requests} requests in ${summary.durationSec} s.` +
      `${run.schemaChecks ? '' : ' Schema checks were OFF.'}`,
    '',
  );
  if (summary.problems.length > 0) {
    lines.push('## Problems', '');
    for (const p of summary.problems) lines.push(`- ${cell(p)}`);
    lines.push('');
  }
  lines.push('## Envelope-aware metrics', '');
  lines.push(`- responses: ${gateway.responses}; outcome Failed: ${gateway.failed} (rate ${gateway.failedRate === undefined ? '–' : round(gateway.failedRate)})`);
  lines.push(`- schema violations: ${gateway.schemaViolations}; unresolved transactions: ${gateway.unresolved}`);
  lines.push(`- faults (responses that were no gateway answer): ${faultLine(gateway.faults)}`);
  if (gateway.refusedCharges > 0) lines.push(`- charging requests not sent by the money guard: ${gateway.refusedCharges}`);
  lines.push(`- time to final (ms): ${stats(gateway.timeToFinalMs, ['count', 'med', 'p(95)', 'p(99)', 'max'])}`);
  if (gateway.checkDurationMs !== undefined) lines.push(`- response checks inside the runtime (ms): ${stats(gateway.checkDurationMs, ['count', 'avg', 'p(95)', 'max'])}`);
  lines.push('');
  lines.push('## Thresholds', '', '| | Metric | Threshold | Observed |', '|---|---|---|---|');
  for (const t of summary.thresholds) lines.push(`| ${mark(t.ok, t.verified)} | \`${cell(t.metric)}\` | \`${cell(t.expression)}\` | ${t.verified ? observedText(t) : 'no samples'} |`);
  lines.push('', '## Checks', '', '| | Check | Passed | Failed | Rule |', '|---|---|---|---|---|');
  for (const c of summary.checks) lines.push(`| ${mark(c.ok, c.passes + c.fails > 0)} | ${cell(c.name)} | ${c.passes} | ${c.fails} | ${cell(c.rule ?? '')} |`);
  if (summary.operations.length > 0) {
    lines.push('', '## Latency per operation (ms)', '', '| Operation | Requests | med | p(95) | p(99) | max |', '|---|---|---|---|---|---|');
    for (const op of summary.operations) {
      const v = op.latencyMs;
      const f = (k: string): string => (v[k] === undefined ? '–' : String(round(v[k] as number)));
      lines.push(`| ${op.id} | ${f('count')} | ${f('med')} | ${f('p(95)')} | ${f('p(99)')} | ${f('max')} |`);
    }
  }
  lines.push('');
  return lines.join('\n');
}

/** What k6 prints at the end instead of its own summary (whose layout changed in v2; nothing parses it). */
export function loadSummaryText(summary: LoadSummary, files: readonly string[]): string {
  const lines = [`load: ${summary.headline}`];
  for (const p of summary.problems.slice(1, 6)) lines.push(`  ${p}`);
  if (summary.problems.length > 6) lines.push(`  ... ${summary.problems.length - 6} more in summary.md`);
  lines.push(`reports: ${files.join(', ')}`);
  return `${lines.join('\n')}\n`;
}
