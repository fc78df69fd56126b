// The one JUnit XML writer: conformance cases, load thresholds and checks, drift findings all become <testcase>s here.
// Runtime-neutral (plain string building, ES2019) so a k6 bundle's handleSummary and the Node commands share it.
// Output is valid against the Jenkins/Ant JUnit XSD (reports/fixtures/junit-10.xsd), which GitLab and Jenkins read.

export type JUnitStatus = 'passed' | 'failed' | 'skipped' | 'error';

export interface JUnitCase {
  /** Test name as CI shows it; put the stable id first (e.g. `TRG-510-V2 top-up ... → '510'`). */
  readonly name: string;
  /** The group (conformance group, load scenario, drift operation): CI UIs group by it. */
  readonly classname: string;
  /** Duration in seconds (real, measured). */
  readonly timeSec: number;
  readonly status: JUnitStatus;
  /** One line: why it failed or was skipped (the `message` attribute). */
  readonly message?: string;
  /** Failure type, e.g. the check name (`type` attribute). */
  readonly type?: string;
  /** Multi-line detail: expected vs received, the redacted request. */
  readonly details?: string;
  /**
   * Facts about the case. The XSD allows no <properties> inside a <testcase>, so they are written as `name: value`
   * lines at the top of <system-out>, which every consumer shows.
   */
  readonly properties?: Readonly<Record<string, string>>;
  readonly systemOut?: string;
}

export interface JUnitSuite {
  readonly name: string;
  /** ISO 8601 start time without timezone suffix issues (e.g. `2026-11-22T14:00:00`). */
  readonly timestamp?: string;
  readonly timeSec: number;
  readonly hostname?: string;
  readonly properties?: Readonly<Record<string, string>>;
  readonly cases: readonly JUnitCase[];
}

/** XML 1.0 forbids most control characters even escaped; they are dropped. */
// eslint-disable-next-line no-control-regex -- the point is to match control characters
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function escapeXml(text: string): string {
  return text
    .replace(INVALID_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function seconds(value: number): string {
  return (Number.isFinite(value) && value > 0 ? value : 0).toFixed(3);
}

function attrs(pairs: ReadonlyArray<readonly [string, string | number | undefined]>): string {
  return pairs
    .filter((pair): pair is readonly [string, string | number] => pair[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeXml(String(value))}"`)
    .join('');
}

function propertiesXml(properties: Readonly<Record<string, string>> | undefined, indent: string): string {
  const entries = Object.entries(properties ?? {});
  if (entries.length === 0) return '';
  const lines = entries.map(
    ([name, value]) =>
      `${indent}  <property${attrs([
        ['name', name],
        ['value', value],
      ])}/>`,
  );
  return `${indent}<properties>\n${lines.join('\n')}\n${indent}</properties>\n`;
}

function caseXml(c: JUnitCase): string {
  const open = `    <testcase${attrs([
    ['name', c.name],
    ['classname', c.classname],
    ['time', seconds(c.timeSec)],
  ])}`;
  let inner = '';
  if (c.status === 'failed' || c.status === 'error') {
    const tag = c.status === 'failed' ? 'failure' : 'error';
    inner += `      <${tag}${attrs([
      ['message', c.message ?? c.status],
      ['type', c.type ?? c.status],
    ])}>${escapeXml(c.details ?? c.message ?? '')}</${tag}>\n`;
  } else if (c.status === 'skipped') {
    inner += `      <skipped${attrs([['message', c.message]])}/>\n`;
  }
  const out = [
    ...Object.entries(c.properties ?? {}).map(([name, value]) => `${name}: ${value}`),
    ...(c.systemOut === undefined || c.systemOut === '' ? [] : [c.systemOut]),
  ].join('\n');
  if (out !== '') inner += `      <system-out>${escapeXml(out)}</system-out>\n`;
  return inner === '' ? `${open}/>\n` : `${open}>\n${inner}    </testcase>\n`;
}

function count(cases: readonly JUnitCase[], status: JUnitStatus): number {
  return cases.filter((c) => c.status === status).length;
}

/** A whole JUnit document: `<testsuites>` with one `<testsuite>` per suite, counts computed from the cases. */
export function junitXml(suites: readonly JUnitSuite[], name = 'gateway-harness'): string {
  const all = suites.flatMap((s) => s.cases);
  let out = '<?xml version="1.0" encoding="UTF-8"?>\n';
  out += `<testsuites${attrs([
    ['name', name],
    ['tests', all.length],
    ['failures', count(all, 'failed')],
    ['errors', count(all, 'error')],
    // No `skipped` here: the XSD's <testsuites> has none (each <testsuite> carries its own).
    ['time', seconds(suites.reduce((sum, s) => sum + s.timeSec, 0))],
  ])}>\n`;
  suites.forEach((suite, index) => {
    out += `  <testsuite${attrs([
      ['name', suite.name],
      ['id', index],
      ['tests', suite.cases.length],
      ['failures', count(suite.cases, 'failed')],
      ['errors', count(suite.cases, 'error')],
      ['skipped', count(suite.cases, 'skipped')],
      ['time', seconds(suite.timeSec)],
      ['timestamp', suite.timestamp],
      ['hostname', suite.hostname],
    ])}>\n`;
    out += propertiesXml(suite.properties, '    ');
    for (const c of suite.cases) out += caseXml(c);
    out += '  </testsuite>\n';
  });
  out += '</testsuites>\n';
  return out;
}
