// How a discovery is said: one line per finding (status, key, value, evidence, candidates) and the config file
// (gateway-harness.config.json: fieldMapping and writePaths, only what differs from the defaults).
import { printable } from '../../api/printable.ts';
import type { Finding, FindingStatus } from './findings.ts';
import type { Discovery } from './run.ts';

const ORDER: readonly FindingStatus[] = ['learned', 'ambiguous', 'unknown', 'confirmed-default'];
const WORD: Readonly<Record<FindingStatus, string>> = {
  learned: 'LEARNED',
  ambiguous: 'AMBIGUOUS',
  unknown: 'UNKNOWN',
  'confirmed-default': 'default ok',
};

function line(finding: Finding): string {
  const value = finding.value === undefined ? '' : ` = ${JSON.stringify(finding.value)}`;
  const candidates = finding.candidates === undefined ? '' : ` [candidates: ${finding.candidates.join(', ')}]`;
  return `${WORD[finding.status].padEnd(10)} ${finding.key}${value}\n           ${finding.evidence}${candidates}`;
}

/** The config file's object: baseUrl, then the keys discovery learned that differ from the defaults, and the cursor meaning it learned. */
export function configFileOf(discovery: Discovery, baseUrl: string): Record<string, unknown> {
  const { fieldMapping, writePaths, paging } = discovery.config;
  return {
    baseUrl,
    ...(Object.keys(fieldMapping).length === 0 ? {} : { fieldMapping }),
    ...(Object.keys(writePaths).length === 0 ? {} : { writePaths }),
    ...(paging === undefined ? {} : { paging }),
  };
}

/**
 * What the run's charges taught (charge-learning.ts), one finding a line as discover says them, then the config lines
 * to keep: printed by gate and conformance (their output escapes target text through api/printable.ts).
 */
export function renderChargeFindings(findings: readonly Finding[]): string[] {
  if (findings.length === 0) return [];
  const keep: Record<string, Record<string, string>> = {};
  for (const f of findings)
    if (f.status === 'learned' && typeof f.value === 'string') (keep['transaction'] ??= {})[f.key.split('.').pop() as string] = f.value;
  const config =
    Object.keys(keep).length === 0
      ? []
      : [`learned on the first charge; keep it in gateway-harness.config.json: ${JSON.stringify({ fieldMapping: keep })}`];
  return [...findings.map(line), ...config];
}

/** "fieldMapping.transaction.transactionId = orderReference learned on the first charge", for a verdict line; '' when nothing. */
export function chargeNote(findings: readonly Finding[]): string {
  if (findings.length === 0) return '';
  const said = findings.map((f) => `${f.key} ${f.status === 'learned' ? `= "${String(f.value)}"` : f.status}`);
  return printable(`; learned on the first charge: ${said.join(', ')}`);
}

/** Counts per status, e.g. "12 learned, 0 ambiguous, 3 unknown, 98 default ok". */
export function countsOf(findings: readonly Finding[]): string {
  return ORDER.map((status) => `${findings.filter((f) => f.status === status).length} ${WORD[status].toLowerCase()}`).join(', ');
}

export function renderDiscovery(discovery: Discovery, label: string, baseUrl: string): string {
  const sorted = ORDER.flatMap((status) => discovery.findings.filter((f) => f.status === status));
  return [
    `discover: ${label}: ${discovery.requests} requests in ${(discovery.elapsedMs / 1000).toFixed(1)} s, nothing charged; ${countsOf(discovery.findings)}`,
    '',
    ...sorted.map(line),
    '',
    '--- gateway-harness.config.json (what differs from the defaults; everything else stays as it is) ---',
    JSON.stringify(configFileOf(discovery, baseUrl), null, 2),
    ...(discovery.settings.loanNumbers.length === 0
      ? []
      : [
          '',
          '--- conformance settings (--settings FILE): target data no config key holds ---',
          JSON.stringify({ loanNumbers: discovery.settings.loanNumbers }, null, 2),
        ]),
    '',
  ].join('\n');
}
