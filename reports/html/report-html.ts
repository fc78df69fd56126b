// report.html: one self-contained page (styles, charting library, chart data and script inlined; a CSP forbids any
// fetch) that a release manager reads in five seconds: verdict banner first, then every failure with its spec rule.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type {
  ComparisonSection,
  ConformanceSection,
  UnderLoadComparison,
  DriftSection,
  LedgerSection,
  LoadSection,
  MigrationSection,
  ReportCase,
  ReportFailure,
  RunReport,
} from '../model.ts';
import { faultLine } from '../../api/faults.ts';
import { changeText, comparedRunText, estimateText, operationLines, settingsText } from '../comparison-text.ts';
import { requestText } from '../junit-report.ts';
import { accuracyText, formatCharged, formatCount, formatMs, formatObserved, loadLabel, plural, remoteWriteLine } from '../sections.ts';
import { VERDICT_WORD, type Verdict } from '../verdict.ts';
import { interruptionText } from '../interruption.ts';
import { curlLine } from '../curl.ts';
import { firstContactLine, rerunCommand } from '../summary-md.ts';
import { genCoverageHeadline, genCoverageRows } from '../gen-coverage.ts';

/** Everything the page inlines. `chart*` is the pinned charting library read from node_modules at write time. */
export interface HtmlAssets {
  readonly css: string;
  readonly pageJs: string;
  readonly chartJs: string;
  readonly chartCss: string;
  /** Name and version shown in the footer, e.g. "uPlot 1.6.32". */
  readonly chartName: string;
  /** The library's licence text, kept beside its code as the MIT licence requires. */
  readonly chartLicense: string;
}

const CHART_PACKAGE = 'uplot';

/** Reads the page's own CSS and script and uPlot's IIFE build and CSS from node_modules (pinned in package.json). */
export function loadHtmlAssets(): HtmlAssets {
  const require = createRequire(import.meta.url);
  const here = (name: string): string => readFileSync(fileURLToPath(new URL(name, import.meta.url)), 'utf8');
  const pkg = JSON.parse(readFileSync(require.resolve(`${CHART_PACKAGE}/package.json`), 'utf8')) as { version: string };
  const chartJs = readFileSync(require.resolve(`${CHART_PACKAGE}/dist/uPlot.iife.min.js`), 'utf8')
    // Its banner comment is a URL; the licence text below names the author and terms instead (no URL in the page).
    .replace(/^\/\*![^*]*\*\/\s*/, '');
  return {
    css: here('page.css'),
    pageJs: here('page.js'),
    chartJs,
    chartCss: readFileSync(require.resolve(`${CHART_PACKAGE}/dist/uPlot.min.css`), 'utf8'),
    chartName: `uPlot ${pkg.version}`,
    chartLicense: readFileSync(require.resolve(`${CHART_PACKAGE}/LICENSE`), 'utf8'),
  };
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const h = escapeHtml;

/** Script text safe inside <script>: a literal "</script" or "<!--" would end or confuse the element. */
export function scriptSafe(code: string, what: string): string {
  if (/<\/script|<!--/i.test(code)) throw new Error(`${what} contains "</script" or "<!--" and cannot be inlined`);
  return code;
}

/** JSON inside <script type="application/json">: `<` escaped so no "</script>" can close it early. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** What each verdict means to someone deciding on a release. */
export const VERDICT_MEANING: Readonly<Record<Verdict, string>> = Object.freeze({
  pass: 'Everything that was checked passed.',
  fail: 'The gateway does not do what the spec requires: see the failures below.',
  incomplete: 'Nothing failed, but not everything could be verified: see what was skipped.',
  unusable: 'The target could not be tested (unreachable, refused the credentials, or bad configuration).',
  thresholds: 'Load thresholds were crossed (too slow or too many errors); nothing else failed.',
  interrupted: 'The run was stopped before it finished: what it measured is partial and proves nothing.',
});

/** A failure only of the v1/v2 comparison is a difference between versions, not a spec rule the gateway broke. */
const MIGRATION_FAIL_MEANING =
  'v2 answers differently from v1 where a client moving to v2 would notice: see the regressions in the migration table.';

function verdictMeaning(report: RunReport): string {
  const failing = report.parts.filter((p) => p.verdict === 'fail');
  if (report.verdict === 'fail' && failing.length > 0 && failing.every((p) => p.section === 'migration')) return MIGRATION_FAIL_MEANING;
  return VERDICT_MEANING[report.verdict];
}

const VERDICT_ICON: Readonly<Record<Verdict, string>> = Object.freeze({
  pass: '✓',
  fail: '✗',
  incomplete: '!',
  unusable: '–',
  thresholds: '!',
  interrupted: '■',
});

function chip(kind: string, text: string): string {
  return `<span class="chip ${h(kind)}">${h(text)}</span>`;
}

function anchor(id: string): string {
  return `case-${id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** Worst first, so the reason that decided the verdict is the first bullet. */
const SEVERITY: readonly Verdict[] = ['interrupted', 'unusable', 'fail', 'thresholds', 'incomplete'];

/** The banner's reasons: every part that did not pass (and the early-stop error), worst first; or the one pass line. */
function reasons(report: RunReport): string[] {
  const bad = SEVERITY.flatMap((v) => report.parts.filter((p) => p.verdict === v).map((p) => p.line));
  const error = [
    ...(report.interruption === undefined ? [] : [`Interrupted ${interruptionText(report.interruption)}`]),
    ...(report.error === undefined ? [] : [`${report.error.code}: ${report.error.message}`]),
  ];
  if (error.length + bad.length > 0) return [...error, ...bad];
  return report.parts.length === 0 ? ['nothing ran, nothing was verified'] : report.parts.map((p) => p.line);
}

function banner(report: RunReport): string {
  const why = reasons(report);
  const t = report.target;
  const where = `${t.embedded ? 'embedded sandbox' : t.environment}${t.profile === undefined ? '' : `, profile ${t.profile}`}, API ${t.api}, time scale ${t.timeScale}`;
  return `<header class="banner v-${report.verdict}" role="banner">
  <div class="inner">
    <div class="word${VERDICT_WORD[report.verdict].length > 10 ? ' long' : ''}" data-verdict="${report.verdict}"><span class="icon" aria-hidden="true">${VERDICT_ICON[report.verdict]}</span>${h(VERDICT_WORD[report.verdict])}</div>
    <div>
      <div class="meaning">${h(verdictMeaning(report))}</div>
      <ul class="why" id="verdict-reasons">${why.map((line) => `<li>${h(line)}</li>`).join('')}</ul>
      <div class="meta">gateway-harness ${h(report.command)} · target <code>${h(t.url)}</code> (${h(where)}) · ${h(report.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'))} · ${h(formatMs(report.durationMs))} · exit code ${report.exitCode}</div>
    </div>
  </div>
</header>`;
}

function tiles(report: RunReport): string {
  if (report.parts.length === 0) return '';
  const cells = report.parts.map(
    (p) =>
      `<a class="tile ${p.verdict}" href="#${p.section}"><div class="name">${h(p.section)}</div><div class="big">${h(VERDICT_WORD[p.verdict])}</div><div class="line">${h(p.line.replace(/^[^:]*:\s*/, ''))}</div></a>`,
  );
  return `<section class="tiles" aria-label="parts">${cells.join('')}</section>`;
}

function failureHtml(f: ReportFailure): string {
  const request =
    f.request === undefined
      ? ''
      : `<details open><summary>Request (credentials redacted)</summary><pre class="request">${h(requestText(f.request))}</pre></details>`;
  return `<div class="failure${f.severity === 'warning' ? ' warning' : ''}">
  <div class="what">${f.severity === 'warning' ? `${chip('warning', 'warning')} ` : ''}<code>${h(f.check)}</code>${f.operation === '' ? '' : ` on <code>${h(f.operation)}</code>`}: ${h(f.message)}</div>
  <div class="evr"><div class="expected"><div class="label">Expected</div><pre>${h(f.expected)}</pre></div><div class="received"><div class="label">Received</div><pre>${h(f.received)}</pre></div></div>
  ${request}
</div>`;
}

/** How to reproduce a failed case: the command that reruns it alone, and a curl line with credential placeholders. */
function reproduceHtml(c: ReportCase, target: RunReport['target']): string {
  const request = c.failures.find((f) => f.severity === 'error' && f.request !== undefined)?.request;
  const curl = request === undefined ? '' : `\n${curlLine(request)}`;
  return `<details class="reproduce"><summary>Reproduce</summary><pre>${h(rerunCommand(c.id, target))}${h(curl)}</pre></details>`;
}

function failedCaseHtml(c: ReportCase, target: RunReport['target']): string {
  const assumed = c.assumed.length === 0 ? '' : `<div class="assumed">Assumed (not stated by the spec): ${h(c.assumed.join('; '))}</div>`;
  const notes =
    c.notes.length === 0 ? '' : `<details><summary>Notes (${c.notes.length})</summary><pre>${h(c.notes.join('\n'))}</pre></details>`;
  const errors = c.failures.filter((f) => f.severity === 'error');
  const warnings = c.failures.filter((f) => f.severity === 'warning');
  return `<article class="case" id="${anchor(c.id)}" data-case="${h(c.id)}">
  <h4>${chip('failed', 'FAIL')} ${h(c.id)} — ${h(c.title)}</h4>
  <blockquote class="rule"><span class="section">${h(c.specSection)}</span>“${h(c.rule)}”</blockquote>
  ${assumed}
  ${[...errors, ...warnings].map(failureHtml).join('\n')}
  ${reproduceHtml(c, target)}
  ${notes}
</article>`;
}

function groupTable(section: ConformanceSection): string {
  const rows = section.groups.map(({ group, counts }) => {
    const pct = (n: number): string => (counts.total === 0 ? '0' : ((n / counts.total) * 100).toFixed(2));
    return `<tr class="${counts.failed > 0 ? 'has-failures' : ''}"><td>${h(group)}</td><td class="num">${counts.total}</td><td class="num">${counts.passed}</td><td class="num">${counts.failed}</td><td class="num">${counts.skipped}</td><td><div class="bar" title="${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped"><span class="passed" style="width:${pct(counts.passed)}%"></span><span class="failed" style="width:${pct(counts.failed)}%"></span><span class="skipped" style="width:${pct(counts.skipped)}%"></span></div></td></tr>`;
  });
  return `<table class="groups"><thead><tr><th>Group</th><th class="num">Cases</th><th class="num">Passed</th><th class="num">Failed</th><th class="num">Skipped</th><th></th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** GEN's reach, collapsed: per generated case its inputs, requests and the items of its space it covered or missed. */
function genCoverageHtml(cases: readonly ReportCase[]): string[] {
  const rows = genCoverageRows(cases);
  if (rows.length === 0) return [];
  const body = rows
    .map(
      (r) =>
        `<tr><td><code>${h(r.id)}</code></td><td class="num">${r.inputs}</td><td class="num">${r.requests} (${r.charging})</td><td class="num">${r.covered} of ${r.of}</td><td>${h(r.missing.join('; '))}</td></tr>`,
    )
    .join('');
  return [
    `<details class="gen-coverage"><summary>${h(genCoverageHeadline(rows))}</summary><table><thead><tr><th>GEN case</th><th class="num">Inputs</th><th class="num">Requests (charging)</th><th class="num">Covered</th><th>Not reached this run</th></tr></thead><tbody>${body}</tbody></table></details>`,
  ];
}

/** --under-load: the cases whose status differs between the idle pass and the pass under load (#33). */
function underLoadHtml(u: UnderLoadComparison): string {
  const rows = [
    ...u.failsOnlyUnderLoad.map(
      (c) =>
        `<tr><td><code>${h(c.id)}</code></td><td>fails only under load</td><td>${h(c.title)}</td><td>${h(c.failures.find((f) => f.severity === 'error')?.message ?? '')}</td></tr>`,
    ),
    ...u.passesOnlyUnderLoad.map(
      (c) => `<tr><td><code>${h(c.id)}</code></td><td>passes only under load</td><td>${h(c.title)}</td><td></td></tr>`,
    ),
  ];
  return [
    `<h3>Under load (${h(`${u.load.scenario}/${u.load.profile}`)})</h3>`,
    `<p>${formatCount(u.compared)} cases compared between the idle pass and the pass under load; ${rows.length === 0 ? 'no case differs' : `${rows.length} differ`}.</p>`,
    ...(rows.length === 0
      ? []
      : [
          `<table><thead><tr><th>Case</th><th>Difference</th><th>Title</th><th>Under load</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
        ]),
    ...u.notes.map((note) => `<p>${h(note)}</p>`),
  ].join('');
}

function conformanceHtml(section: ConformanceSection, allowSkips: boolean, target: RunReport['target']): string {
  const failed = section.cases.filter((c) => c.status === 'failed');
  const skipped = section.cases.filter((c) => c.status === 'skipped');
  const c = section.counts;
  const unresolved = section.drain?.unresolved ?? [];
  const parts = [
    `<h2 id="conformance">Conformance ${chip(section.verdict, VERDICT_WORD[section.verdict])}</h2>`,
    `<p>${formatCount(c.passed)} of ${plural(c.total, 'case')} passed, ${formatCount(c.failed)} failed, ${formatCount(c.skipped)} skipped${c.skipped > 0 ? (allowSkips ? ' (accepted with --allow-skips)' : ' (not verified: the run is not a pass)') : ''} · ${h(formatMs(section.durationMs))}</p>`,
    ...(failed.length === 0
      ? []
      : [`<p class="failed-list">Failed: ${failed.map((k) => `<a href="#${anchor(k.id)}"><code>${h(k.id)}</code></a>`).join(', ')}</p>`]),
    groupTable(section),
  ];
  if (failed.length > 0) parts.push(`<h3>Failed cases (${failed.length})</h3>`, ...failed.map((k) => failedCaseHtml(k, target)));
  if (skipped.length > 0) {
    parts.push(
      `<h3>Skipped cases (${skipped.length}): not verified</h3>`,
      `<table><thead><tr><th>Case</th><th>Title</th><th>Why it could not run</th></tr></thead><tbody>${skipped
        .map((s) => `<tr><td><code>${h(s.id)}</code></td><td>${h(s.title)}</td><td>${h(s.skipReason ?? '')}</td></tr>`)
        .join('')}</tbody></table>`,
    );
  }
  if (section.underLoad !== undefined) parts.push(underLoadHtml(section.underLoad));
  if (unresolved.length > 0) {
    parts.push(
      `<h3>Transactions not final after the drain (${unresolved.length}): not verified</h3>`,
      `<table><thead><tr><th>correlationId</th><th>Case</th><th>Operation</th><th>Last outcome</th></tr></thead><tbody>${unresolved
        .map(
          (u) =>
            `<tr><td><code>${h(u.correlationId ?? '(none)')}</code></td><td><code>${h(u.caseId)}</code></td><td><code>${h(u.operationId)}</code></td><td>${h(u.outcome)}</td></tr>`,
        )
        .join('')}</tbody></table>`,
    );
  }
  parts.push(...genCoverageHtml(section.cases));
  const rows = section.cases.map(
    (k) =>
      `<tr><td><code>${h(k.id)}</code></td><td>${chip(k.status, k.status)}</td><td>${h(k.title)}</td><td>${h(k.api)}</td><td class="num">${h(formatMs(k.durationMs))}</td><td class="num">${k.requests}</td></tr>`,
  );
  parts.push(
    `<details><summary>All ${plural(section.cases.length, 'case')}</summary><table><thead><tr><th>Case</th><th>Status</th><th>Title</th><th>API</th><th class="num">Time</th><th class="num">Requests</th></tr></thead><tbody>${rows.join('')}</tbody></table></details>`,
  );
  return `<section class="conformance">${parts.join('\n')}</section>`;
}

function stat(label: string, value: string): string {
  return `<div class="stat"><div class="k">${h(label)}</div><div class="v">${h(value)}</div></div>`;
}

export const CHARTS: ReadonlyArray<readonly [string, string]> = [
  ['latency-overall', 'Latency percentiles over time (all requests)'],
  ['latency-operations', 'p95 latency per operation over time'],
  ['throughput', 'Throughput, HTTP failures and VUs'],
  ['outcomes', 'Outcomes over time (envelope-aware)'],
];

/** The chart of a run whose generator measured itself (load.generator): not on the live page, which has no such data. */
export const GENERATOR_CHART = ['generator', 'The load generator itself: event-loop delay, CPU wait and CPU share'] as const;

/** Beside it: the requests measured while the generator was starved or preempted (its saturated windows), over time. */
const PREEMPTED_CHART = ['generator-preempted', 'Requests measured while the generator was starved or preempted'] as const;

/** Payload violations and warnings per operation and JSON path, and the kept samples (redacted, truncated). */
function payloadChecksHtml(checks: LoadSection['payloadChecks']): string {
  if (checks === undefined) return '';
  const basis = `${checks.baselineDir === undefined ? 'spec and observed payloads' : `spec, observed payloads and the baseline <code>${h(checks.baselineDir)}</code>`}${checks.promoteObserved === true ? ' (observed promoted to errors)' : ''}`;
  const parts = [
    `<h3>Payload checks</h3><p>Every response checked against ${basis}: ${formatCount(checks.violations)} violations, ${formatCount(checks.warnings)} warnings.</p>`,
  ];
  if (checks.byPath.length > 0) {
    parts.push(
      `<table><thead><tr><th>Operation</th><th>JSON path</th><th>Rules</th><th>Severity</th><th class="num">Count</th></tr></thead><tbody>${checks.byPath
        .map(
          (e) =>
            `<tr><td><code>${h(e.operation)}</code></td><td><code>${h(e.path)}</code></td><td>${h(e.layer)}</td><td>${e.severity === 'error' ? chip('failed', 'error') : chip('skipped', 'warning')}</td><td class="num">${formatCount(e.count)}</td></tr>`,
        )
        .join('')}</tbody></table>`,
    );
  }
  if (checks.samples.length > 0) {
    parts.push(
      `<details open><summary>Samples (${checks.samples.length}: the first violating responses per operation and path, redacted, truncated)</summary><table><thead><tr><th>Operation</th><th>JSON path</th><th>What</th><th>Received</th></tr></thead><tbody>${checks.samples
        .map(
          (x) =>
            `<tr><td><code>${h(x.operation)}</code></td><td><code>${h(x.path)}</code></td><td>${h(x.message)}</td><td><code>${h(x.received)}</code></td></tr>`,
        )
        .join('')}</tbody></table></details>`,
    );
  }
  return parts.join('\n');
}

function loadHtml(load: LoadSection): string {
  const trend = load.metrics.http_req_duration?.values ?? {};
  const pct = (v: number | undefined): string => (v === undefined ? 'n/a' : `${(v * 100).toFixed(2)}%`);
  const ms = (v: number | undefined): string => (v === undefined ? 'n/a' : formatMs(v));
  const checks = load.checks.reduce((sum, c) => sum + c.passes + c.fails, 0);
  const checkFails = load.checks.reduce((sum, c) => sum + c.fails, 0);
  const parts = [
    `<h2 id="load">${h(loadLabel(load).replace(/^load/, 'Load'))} ${chip(load.verdict, VERDICT_WORD[load.verdict])}</h2>`,
    `<div class="stats">${[
      stat('Requests', formatCount(load.requests.count)),
      stat('Throughput', `${load.requests.rate.toFixed(1)}/s`),
      stat('HTTP failures', pct(load.requests.failedRate)),
      stat('Median', ms(trend.med)),
      stat('p95', ms(trend['p(95)'])),
      stat('Checks failed', `${formatCount(checkFails)} / ${formatCount(checks)}`),
      stat('Duration', formatMs(load.durationMs)),
    ].join('')}</div>`,
  ];
  const accuracy = load.generator?.accuracy;
  if (accuracy !== undefined) parts.push(`<p class="accuracy${accuracy.withinGoal ? '' : ' outside'}">${h(accuracyText(accuracy))}</p>`);
  if (load.remoteWrite !== undefined) parts.push(`<p class="remote-write">${h(remoteWriteLine(load.remoteWrite))}</p>`);
  if (load.setupCompleted === false) {
    parts.push(
      '<div class="error-box" role="alert">setup() did not complete: the target could not be used (its catalog could not be read), so nothing was measured.</div>',
    );
  }
  if (load.thresholds.length > 0) {
    parts.push(
      `<h3>Thresholds</h3><table><thead><tr><th>Metric</th><th>Threshold</th><th>Result</th><th class="num">Observed</th></tr></thead><tbody>${load.thresholds
        .map(
          (t) =>
            `<tr><td><code>${h(t.metric)}</code></td><td><code>${h(t.expression)}</code></td><td>${!t.ok ? chip('crossed', 'crossed') : t.verified === false ? chip('skipped', 'unverified: no sample') : chip('ok', 'met')}</td><td class="num">${t.observed === undefined ? '' : h(formatObserved(t.observed, t.metric))}</td></tr>`,
        )
        .join('')}</tbody></table>`,
    );
  }
  if (load.checks.length > 0) {
    parts.push(
      `<h3>Checks</h3><table><thead><tr><th>Check</th><th>Result</th><th class="num">Passes</th><th class="num">Fails</th></tr></thead><tbody>${load.checks
        .map(
          (c) =>
            `<tr><td>${h(c.path.replace(/^::/, ''))}</td><td>${c.fails > 0 ? chip('failed', 'failed') : c.passes === 0 ? chip('skipped', 'never ran') : chip('ok', 'passed')}</td><td class="num">${formatCount(c.passes)}</td><td class="num">${formatCount(c.fails)}</td></tr>`,
        )
        .join('')}</tbody></table>`,
    );
  }
  parts.push(payloadChecksHtml(load.payloadChecks));
  if (load.series === undefined) {
    parts.push(
      '<p class="chart-note">No metric stream was kept for this run, so there are no charts over time (k6 <code>--out json=FILE</code> keeps one).</p>',
    );
  } else {
    const s = load.series;
    parts.push(
      `<h3>Over time</h3><div class="charts">${[...CHARTS, ...(load.generator === undefined ? [] : [GENERATOR_CHART, PREEMPTED_CHART])].map(([id, title]) => `<div class="chart-box"><h4>${h(title)}</h4><div class="chart" data-chart="${id}"></div></div>`).join('')}</div>`,
      `<p class="chart-note">${formatCount(s.buckets)} buckets of ${h(formatMs(s.intervalMs))} from ${formatCount(s.source.points)} points (${formatCount(s.source.lines)} lines read${s.source.badLines > 0 ? `, ${formatCount(s.source.badLines)} unreadable` : ''}${s.source.latePoints > 0 ? `, ${formatCount(s.source.latePoints)} late points counted but not in percentiles` : ''}${s.source.droppedPoints > 0 ? `, ${formatCount(s.source.droppedPoints)} dropped outside the range` : ''}). Percentiles per bucket from HdrHistograms (2 significant digits, at most 1% off).</p>`,
    );
  }
  return `<section class="load">${parts.join('\n')}</section>`;
}

const COMPARE_CHIP: Readonly<Record<ComparisonSection['operations'][number]['verdict'], string>> = {
  regression: 'failed',
  incomplete: 'incomplete',
  improvement: 'ok',
  'no-change': 'ok',
};

/** The comparison: a table (regressions first), then per operation the two latency CDFs overlaid with their p95 intervals. */
function comparisonHtml(c: ComparisonSection): string {
  const rows = [...c.operations, c.overall].map(
    (o) =>
      `<tr data-operation="${h(o.operation)}"><td><code>${h(o.operation)}</code></td><td>${chip(COMPARE_CHIP[o.verdict], o.verdict)}</td><td class="num">${h(estimateText(o.latency.p95.baseline, 'ms'))}</td><td class="num">${h(estimateText(o.latency.p95.candidate, 'ms'))}</td><td>${h(changeText(o.latency.p95, 'ms'))}</td><td>${h(`${estimateText(o.businessFailureRate.baseline, 'rate')} → ${estimateText(o.businessFailureRate.candidate, 'rate')}`)}</td><td>${h(o.reasons.join('; '))}</td></tr>`,
  );
  const charts = [...c.operations, c.overall]
    .map(
      (o) =>
        `<div class="chart-box"><h4>${h(o.operation)} ${chip(COMPARE_CHIP[o.verdict], o.verdict)}</h4><div class="chart" data-chart="compare:${h(o.operation)}"></div><details><summary>all statistics</summary><pre>${h(operationLines(o).join('\n'))}</pre></details></div>`,
    )
    .join('');
  return `<section class="comparison"><h2 id="comparison">Comparison with the baseline ${chip(c.verdict, VERDICT_WORD[c.verdict as Verdict])}</h2>
<ul><li>baseline: ${h(comparedRunText(c.baseline))}</li><li>candidate: ${h(comparedRunText(c.candidate))}</li>${c.notes.map((n) => `<li>${h(n)}</li>`).join('')}</ul>
<table><thead><tr><th>Operation</th><th>Verdict</th><th class="num">p95 baseline [CI]</th><th class="num">p95 candidate [CI]</th><th>Change</th><th>Business failures</th><th>Why</th></tr></thead><tbody>${rows.join('')}</tbody></table>
<p class="chart-note">${h(settingsText(c))}. ${h(c.settings.method)}.</p>
<h3>Latency distributions (CDF), baseline and candidate, with each p95's interval</h3><div class="charts">${charts}</div></section>`;
}

function notCheckedHtml(drift: DriftSection): string {
  const list = drift.notChecked ?? [];
  if (list.length === 0) return '';
  const rows = list.map(
    (n) =>
      `<tr><td><code>${h(n.operationId)}</code></td><td>${n.skipped ? chip('skipped', 'not verified') : chip('ok', 'not in the baseline')}</td><td>${h(n.reason)}</td></tr>`,
  );
  return `<details${list.some((n) => n.skipped) ? ' open' : ''}><summary>Not checked (${list.length})</summary><table><thead><tr><th>Operation</th><th></th><th>Why</th></tr></thead><tbody>${rows.join('')}</tbody></table></details>`;
}

function driftHtml(drift: DriftSection): string {
  const rows = drift.findings.map(
    (f) =>
      `<tr><td><code>${h(f.operationId)}</code></td><td><code>${h(f.path)}</code></td><td>${chip(f.kind, f.kind)}</td><td>${h(f.change)}</td><td>${h(f.detail)}</td></tr>`,
  );
  return `<section class="drift"><h2 id="drift">Drift against the baseline ${chip(drift.verdict, VERDICT_WORD[drift.verdict])}</h2>
<p>Baseline <code>${h(drift.baselineDir)}</code>${drift.compared === undefined ? '' : ` · ${plural(drift.compared.length, 'operation')} compared`} · ${plural(drift.findings.length, 'finding')}. Breaking: a field removed, renamed or retyped; non-breaking: a field added (spec: Versioning).</p>
${rows.length === 0 ? '<p>No difference from the baseline.</p>' : `<table><thead><tr><th>Operation</th><th>Field</th><th>Kind</th><th>Change</th><th>Detail</th></tr></thead><tbody>${rows.join('')}</tbody></table>`}
${notCheckedHtml(drift)}</section>`;
}

function migrationHtml(migration: MigrationSection): string {
  const lat = (v: number | null): string => (v === null ? 'n/a' : formatMs(v));
  const rows = migration.pairs.map(
    (p) =>
      `<tr class="${p.regression ? 'has-failures' : ''}"><td>${h(p.purpose)}</td><td><code>${h(p.v1)}</code><br><code>${h(p.v2)}</code></td><td>${h(p.v1Outcome)} → ${h(p.v2Outcome)}</td><td>${p.regression ? chip('failed', 'regression') : chip('ok', 'same')}${p.regressionReason === undefined ? '' : ` ${h(p.regressionReason)}`}</td><td class="num">${lat(p.latency.v1.p50)} / ${lat(p.latency.v1.p95)}</td><td class="num">${lat(p.latency.v2.p50)} / ${lat(p.latency.v2.p95)}</td><td>${p.contentDiffs.length === 0 ? '' : `<details><summary>${plural(p.contentDiffs.length, 'difference')}</summary><pre>${h(p.contentDiffs.join('\n'))}</pre></details>`}${p.fieldCorrespondence.length === 0 ? '' : `<details><summary>Field correspondence</summary><pre>${h(p.fieldCorrespondence.map((f) => `${f.v1Field} → ${f.v2Field ?? '(none)'}`).join('\n'))}</pre></details>`}</td></tr>`,
  );
  return `<section class="migration"><h2 id="migration">v1 → v2 migration ${chip(migration.verdict, VERDICT_WORD[migration.verdict])}</h2>
<table><thead><tr><th>Purpose</th><th>Operations</th><th>Outcome v1 → v2</th><th>Result</th><th class="num">v1 p50 / p95</th><th class="num">v2 p50 / p95</th><th>Differences</th></tr></thead><tbody>${rows.join('')}</tbody></table>
${
  (migration.notCompared ?? []).length === 0
    ? ''
    : `<h3>Not compared (${(migration.notCompared ?? []).length}): not verified</h3><table><thead><tr><th>Purpose</th><th>Operations</th><th>Why</th></tr></thead><tbody>${(
        migration.notCompared ?? []
      )
        .map((n) => `<tr><td>${h(n.purpose)}</td><td><code>${h(n.v1)}</code><br><code>${h(n.v2)}</code></td><td>${h(n.reason)}</td></tr>`)
        .join('')}</tbody></table>`
}</section>`;
}

/** Spend cap, what counted against it, refused requests and the balance moved: production runs with an allowance. */
function moneyFacts(ledger: LedgerSection): string {
  const facts: string[] = [];
  if (ledger.spendCap !== undefined) facts.push(`spend cap ${h(formatCharged([ledger.spendCap]))}`);
  if (ledger.committed !== undefined) facts.push(`committed ${h(formatCharged([ledger.committed]))}`);
  if (ledger.refused !== undefined && ledger.refused > 0) facts.push(`${plural(ledger.refused, 'charging request')} not sent by the guard`);
  if (ledger.balance !== undefined)
    facts.push(`balance ${ledger.balance.before} before, ${ledger.balance.after} after (moved ${ledger.balance.moved})`);
  return facts.length === 0 ? '' : `<p>${facts.join('; ')}.</p>`;
}

function faultsHtml(faults: NonNullable<RunReport['faults']>, withConformance: boolean): string {
  const provoked = withConformance ? ' (conformance provokes client timeouts on purpose)' : '';
  return `<section class="faults"><h2 id="faults">Faults seen</h2><p>${plural(faults.total, 'response')} that were no gateway answer, each judged by the section whose request saw it${provoked}: ${h(faultLine(faults))}.</p></section>`;
}

function ledgerHtml(ledger: LedgerSection): string {
  const rows = ledger.unresolved.map(
    (u) => `<tr><td><code>${h(u.correlationId)}</code></td><td><code>${h(u.operationId)}</code></td><td>${h(u.lastOutcome)}</td></tr>`,
  );
  return `<section class="ledger"><h2 id="ledger">Money safety ledger ${chip(ledger.verdict, VERDICT_WORD[ledger.verdict])}</h2>
<p>${plural(ledger.entries, 'charging request')} recorded${ledger.file === undefined ? '' : ` in <code>${h(ledger.file)}</code>`}; charged ${h(formatCharged(ledger.charged))}.</p>
${moneyFacts(ledger)}
${rows.length === 0 ? '<p>Every charging transaction reached a final state.</p>' : `<h3>Unresolved (${rows.length}): run <code>gateway-harness reconcile</code></h3><table><thead><tr><th>correlationId</th><th>Operation</th><th>Last outcome</th></tr></thead><tbody>${rows.join('')}</tbody></table>`}</section>`;
}

/**
 * The document up to </head>: the page's own CSP (nothing from the network; the live dashboard alone may also connect
 * back to its own server for its event stream), the title, and the inlined styles.
 */
export function pageHead(
  title: string,
  assets: HtmlAssets,
  options: { readonly generator?: string; readonly connectSelf?: boolean } = {},
): string {
  const connect = options.connectSelf === true ? "; connect-src 'self'" : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:${connect}">
${options.generator === undefined ? '' : `<meta name="generator" content="gateway-harness ${h(options.generator)}">\n`}<title>${h(title)}</title>
<style>
${assets.chartCss}
${assets.css}
</style>
</head>`;
}

/** uPlot (with its licence) and page.js inlined: the charts of the report and of the live dashboard alike. */
export function chartScripts(assets: HtmlAssets): string {
  return `<script>
/* ${h(assets.chartName)} — licence:
${assets.chartLicense.replace(/\*\//g, '* /')}
*/
${scriptSafe(assets.chartJs, assets.chartName)}
</script>
<script>
${scriptSafe(assets.pageJs, 'page.js')}
</script>`;
}

/** The whole page. Pure: the same report and assets give the same bytes. */
/** The report's sections in reading order, and the table of contents' links to those that have a heading. */
function sectionsHtml(report: RunReport): { sections: string[]; toc: string[] } {
  const sections: string[] = [];
  const toc: string[] = [];
  if (report.error !== undefined) {
    sections.push(`<div class="error-box" role="alert"><strong>${h(report.error.code)}</strong>: ${h(report.error.message)}</div>`);
  }
  for (const n of report.notRun ?? []) sections.push(`<p class="not-run">⏭️ <strong>${h(n.part)}</strong> did not run: ${h(n.reason)}</p>`);
  if (report.conformance !== undefined) {
    toc.push('<a href="#conformance">Conformance</a>');
    sections.push(conformanceHtml(report.conformance, report.allowSkips, report.target));
  }
  if (report.load !== undefined) {
    toc.push('<a href="#load">Load</a>');
    sections.push(loadHtml(report.load));
  }
  if (report.comparison !== undefined) {
    toc.push('<a href="#comparison">Comparison</a>');
    sections.push(comparisonHtml(report.comparison));
  }
  if (report.drift !== undefined) {
    toc.push('<a href="#drift">Drift</a>');
    sections.push(driftHtml(report.drift));
  }
  if (report.migration !== undefined) {
    toc.push('<a href="#migration">Migration</a>');
    sections.push(migrationHtml(report.migration));
  }
  if (report.ledger !== undefined) {
    toc.push('<a href="#ledger">Ledger</a>');
    sections.push(ledgerHtml(report.ledger));
  }
  if (report.faults !== undefined && report.faults.total > 0) {
    toc.push('<a href="#faults">Faults</a>');
    sections.push(faultsHtml(report.faults, report.conformance !== undefined));
  }
  if (report.firstContact !== undefined)
    sections.push(`<section class="first-contact"><p>${h(firstContactLine(report.firstContact))}</p></section>`);
  return { sections, toc };
}

/** What the page's charts draw (read by the inlined script from #report-data): the load's series, the comparison's CDFs. */
function chartDataOf(report: RunReport): object {
  const comparisonCharts =
    report.comparison === undefined
      ? undefined
      : [...report.comparison.operations, report.comparison.overall].map((o) => ({
          operation: o.operation,
          cdf: o.cdf ?? { baseline: [], candidate: [] },
          p95: { baseline: o.latency.p95.baseline, candidate: o.latency.p95.candidate },
        }));
  return {
    ...(report.load?.series === undefined
      ? {}
      : { load: { series: report.load.series, ...(report.load.generator === undefined ? {} : { generator: report.load.generator }) } }),
    ...(comparisonCharts === undefined ? {} : { comparison: comparisonCharts }),
  };
}

export function renderReportHtml(report: RunReport, assets: HtmlAssets): string {
  const { sections, toc } = sectionsHtml(report);
  const chartData = chartDataOf(report);
  const title = `${VERDICT_WORD[report.verdict]} · gateway-harness ${report.command} · ${report.runId}`;
  return `${pageHead(title, assets, { generator: report.tool.version })}
<body>
${banner(report)}
<main>
${tiles(report)}
${toc.length > 1 ? `<nav class="toc">Jump to: ${toc.join('')}</nav>` : ''}
${sections.join('\n')}
<footer>gateway-harness ${h(report.tool.version)} · run <code>${h(report.runId)}</code> · summary.json schema ${h(report.schemaVersion)} · this file is self-contained and opens offline · charts drawn with ${h(assets.chartName)} (MIT licence, inlined).</footer>
</main>
<script type="application/json" id="report-data">${jsonForScript(chartData)}</script>
${chartScripts(assets)}
</body>
</html>
`;
}
