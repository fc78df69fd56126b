// A conformance case's failure as text (the check, expected vs received, the redacted request): for test messages and
// the planted-bug proof. The run's reports (summary.json, junit.xml, summary.md, report.html) are written by reports/.
import type { CaseResult, Failure } from './types.ts';

/** One failure as indented lines: the check, expected vs received, and the request (credentials redacted). */
export function formatFailure(failure: Failure, indent = '  '): string {
  const lines = [
    `${indent}[${failure.check}]${failure.severity === 'warning' ? ' (warning)' : ''} ${failure.operation === '' ? '' : `${failure.operation}: `}${failure.message}`,
    `${indent}  expected: ${failure.expected}`,
    `${indent}  received: ${failure.received}`,
  ];
  if (failure.request !== undefined) {
    const r = failure.request;
    lines.push(`${indent}  request:  ${r.method} ${r.url}`);
    const headers = Object.entries(r.headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join('; ');
    if (headers !== '') lines.push(`${indent}            ${headers}`);
    if (r.body !== undefined) lines.push(`${indent}            ${JSON.stringify(r.body)}`);
  }
  return lines.join('\n');
}

/** A failed case's full explanation (the command's failure list and the JUnit failure text). */
export function formatCaseFailure(result: CaseResult): string {
  const errors = result.failures.filter((f) => f.severity === 'error');
  return [
    `${result.id}: ${result.title}`,
    `  rule (${result.specSection}): ${result.rule}`,
    ...(result.assumed.length > 0 ? [`  assumed: ${result.assumed.join('; ')}`] : []),
    ...errors.map((f) => formatFailure(f, '  ')),
  ].join('\n');
}
