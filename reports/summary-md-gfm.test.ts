// Issue #32 findings 5 and 6 in summary.md, checked through a GFM renderer (marked): what a target says (a message, a
// payload value, a path) renders as text, never as an image, a link, markup or a broken table; no raw control byte.
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { fromConformanceRun } from '../conformance/section.ts';
import type { CaseResult } from '../conformance/types.ts';
import { assembleReport } from './assemble.ts';
import { realK6Summary } from './fixtures/full-report.ts';
import { passingConformanceRun, sampleConformanceRun } from './fixtures/sample-runs.ts';
import { buildLoadSection } from './k6-summary.ts';
import { redactReport } from './redact-report.ts';
import { mdCode, mdText, renderSummaryMarkdown } from './summary-md.ts';

const meta = { runId: 'r', startedAt: Date.UTC(2026, 0, 1), durationMs: 10, target: { url: 'http://127.0.0.1:1' } };
const INJECTION = '`` ![img](http://evil.example/x.png) [link](http://evil.example/) ``';
const AUTOLINKS = 'see http://evil.example/a www.evil.example mail@evil.example **bold** &#8238; <b>x</b>';
const CONTROLS = '\u001b[2J\u001b[32mPASS\u001b]52;c;ZXZpbA==\u0007 \u0000 \u202e';

/** The HTML GitHub would show for `markdown` (GFM: tables, autolinks, strikethrough). */
function gfm(markdown: string): string {
  return marked.parse(markdown, { gfm: true, async: false });
}

function expectInert(html: string): void {
  expect(html).not.toMatch(/<img|<a\s|<strong>bold|<b>|<script/);
  expect(html).not.toContain('\u202e');
}

describe('summary.md through a GFM renderer', () => {
  it('a code span holding double backticks stays one code span: no image, no link', () => {
    const html = gfm(`- received ${mdCode(INJECTION)}`);
    expectInert(html);
    expect(html.match(/<code>/g)).toHaveLength(1);
  });

  it('text holding links, autolinks, e-mails, emphasis, entities and HTML renders as that text', () => {
    expectInert(gfm(`- ${mdText(`${INJECTION} ${AUTOLINKS}`)}`));
    expect(gfm(mdText('a_b*c')).trim()).toBe('<p>a_b*c</p>');
    expect(gfm(mdText('an _emphasis_ and a *star*')).trim()).toBe('<p>an _emphasis_ and a *star*</p>');
  });

  it('a pipe in a code span of a table cell does not add a column', () => {
    const html = gfm(['| A | B |', '|---|---|', `| ${mdCode('x|y|z', true)} | 1 |`].join('\n'));
    expect(html.match(/<td>/g)).toHaveLength(2);
    expect(html).toContain('<code>x|y|z</code>');
  });

  it("a failed case's message and received value from the target render inert, without control bytes", () => {
    const base = sampleConformanceRun().cases.find((c) => c.id === 'TRG-510-V2')!;
    const failures = base.failures.map((f) => ({ ...f, message: `${AUTOLINKS} ${CONTROLS}`, received: `${INJECTION} ${CONTROLS}` }));
    const evil: CaseResult = { ...base, failures };
    const run = passingConformanceRun();
    const report = redactReport(fromConformanceRun({ ...run, cases: [...run.cases, evil] }, meta), []);
    const md = renderSummaryMarkdown(report);
    // eslint-disable-next-line no-control-regex -- raw control bytes are what must not be there
    expect(md).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
    expect(md).toContain('\\x1b[2J');
    expectInert(gfm(md));
  });

  it("a payload check's path with pipes keeps the table's columns", () => {
    const load = buildLoadSection(realK6Summary(), { scenario: 'mixed', profile: 'smoke', engine: 'k6 v0.48.0' });
    const byPath = [
      { operation: 'v2.catalog.operators', path: '$.payLoad[*].a|b|c', layer: 'spec' as const, severity: 'error' as const, count: 1 },
    ];
    const payloadChecks = { violations: 1, warnings: 0, byPath, samples: [] };
    const html = gfm(renderSummaryMarkdown(assembleReport({ ...meta, command: 'load', load: { ...load, payloadChecks } })));
    const row = html.split('<tr>').find((r) => r.includes('v2.catalog.operators')) ?? '';
    expect(row.match(/<td>/g)).toHaveLength(5);
  });
});
