// The ledger in the reports: the section's verdict (unresolved → incomplete) carried into every report file by
// reports/, a worse verdict never improved, the JUnit file valid against the XSD.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assembleReport, type ReportInput } from '../reports/assemble.ts';
import type { LedgerSection, RunReport } from '../reports/model.ts';
import { renderSummaryMarkdown } from '../reports/summary-md.ts';
import { writeReports } from '../reports/write.ts';
import { junitXsdErrors } from '../reports/fixtures/junit-xsd.ts';
import type { LedgerOutcomeLine, LedgerRequestLine } from './entry.ts';
import { ledgerTotals, type LedgerTransaction } from './ledger-state.ts';
import { buildLedgerSection, ledgerLines, reconcileTable } from './report.ts';
import { topupRequestLine } from './fixtures/ledger-lines.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-ledger-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const request = (entry: string): LedgerRequestLine =>
  topupRequestLine(entry, `c-${entry}`, 0, {
    target: 'http://127.0.0.1:1',
    body: { skuId: 1, amount: 5 },
    estimate: { amount: 5, currency: 'USD' },
  });
const outcome = (entry: string, o: LedgerOutcomeLine['outcome'], final: boolean, charged?: number): LedgerOutcomeLine => ({
  v: 1,
  type: 'outcome',
  entry,
  correlationId: `c-${entry}`,
  operationId: 'v2.transaction.topup',
  outcome: o,
  final,
  rule: final ? (o === 'Successful' ? 'success-000' : 'failure-code') : 'client-timeout',
  ...(o === 'Successful' ? { code: '000' } : {}),
  ...(charged === undefined ? {} : { charged: { amount: charged, currency: 'USD', from: 'payload' as const } }),
  source: 'response',
  at: 'x',
});

const transactions: LedgerTransaction[] = [
  { request: request('1'), outcome: outcome('1', 'Successful', true, 4.8) },
  { request: request('2'), outcome: outcome('2', 'Failed', true) },
  { request: request('3'), outcome: outcome('3', 'Unknown', false) },
];
const result = { transactions, polled: 1, resolved: 0, totals: ledgerTotals(transactions) };

/** A report of one command holding this ledger section. */
const ledgerReport = (command: string, ledger: LedgerSection, extra: Partial<ReportInput> = {}): RunReport =>
  assembleReport({ runId: 'r', command, startedAt: 0, durationMs: 1, target: { url: 'http://127.0.0.1:1' }, ledger, ...extra });

describe('buildLedgerSection', () => {
  it('is incomplete with an unresolved charge, and lists it; pass when accepted', () => {
    const section = buildLedgerSection(
      { result, cap: { amount: 20, currency: 'USD' }, committed: 9.8, refused: 2, balance: { before: -100, after: -95.2 } },
      { allowSkips: false },
    );
    expect(section).toMatchObject({
      verdict: 'incomplete',
      entries: 3,
      charged: [{ amount: 4.8, currency: 'USD' }],
      unresolved: [{ correlationId: 'c-3', operationId: 'v2.transaction.topup', lastOutcome: 'Unknown' }],
      spendCap: { amount: 20, currency: 'USD' },
      committed: { amount: 9.8, currency: 'USD' },
      refused: 2,
      balance: { before: -100, after: -95.2, moved: 4.8 },
    });
    expect(buildLedgerSection({ result }, { allowSkips: true }).verdict).toBe('pass');
    expect(ledgerLines(section, 'ledger.jsonl').join('\n')).toMatch(/unresolved c-3 v2\.transaction\.topup: Unknown/);
  });

  it('#32: never says "charged nothing" while charges are unresolved, and says when the balance moved more than the ledger counts', () => {
    const open: LedgerTransaction[] = [
      { request: request('1'), outcome: outcome('1', 'Unknown', false) },
      { request: request('2'), outcome: outcome('2', 'Failed', true) },
    ];
    const section = buildLedgerSection(
      { result: { transactions: open, polled: 1, resolved: 0, totals: ledgerTotals(open) }, balance: { before: -100, after: -90 } },
      { allowSkips: false },
    );
    const text = ledgerLines(section, 'ledger.jsonl').join('\n');
    expect(text).not.toMatch(/charged nothing(?! final)/);
    expect(text).toMatch(/charged nothing final yet, the 1 unresolved not counted/);
    expect(text).toMatch(/the balance moved 10\.00 more than the ledger counts as charged/);
  });

  it('#32: requests not sent (the recording gate could not make their line durable) are said without a cap too, in every file', () => {
    const section = buildLedgerSection({ result, refused: 2 }, { allowSkips: false });
    expect(section.refused).toBe(2);
    expect(ledgerLines(section, 'ledger.jsonl')).toContain(
      '2 charging requests not sent (cap, unbounded charge, or ledger line not durable)',
    );
    expect(renderSummaryMarkdown(ledgerReport('load', section))).toMatch(
      /^Ledger: 3 charging requests, charged 4\.80 USD, 2 charging requests not sent\.$/m,
    );
  });

  it('reconcileTable shows every transaction with its outcome, charge and what decided it', () => {
    const table = reconcileTable(transactions);
    expect(table[0]).toMatch(/^correlationId\s+operation\s+outcome\s+charged\s+decided by$/);
    expect(table[1]).toMatch(/^c-1\s+v2\.transaction\.topup\s+Successful\s+4\.80 USD\s+response 000$/);
    expect(table[3]).toMatch(/Unknown \(not final\).*response \(client-timeout\)/);
  });
});

/** The report input of a migrate run against a local target, its sections added by each test. */
const migrateRun = { runId: 'r', command: 'migrate', startedAt: 0, durationMs: 1, target: { url: 'http://127.0.0.1:1' } };

describe('the ledger section in the report set', () => {
  it('leaves a run with an unresolved charge incomplete in every report file, JUnit valid against the XSD', async () => {
    const section = buildLedgerSection(
      { result, cap: { amount: 20, currency: 'USD' }, committed: 14.8, refused: 2 },
      { allowSkips: false },
    );
    const report = assembleReport({ ...migrateRun, target: { ...migrateRun.target, environment: 'production' }, ledger: section });
    writeReports(report, dir);
    const json = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Record<string, unknown>;
    expect(json).toMatchObject({ verdict: 'incomplete', exitCode: 1, ledger: { verdict: 'incomplete', entries: 3, refused: 2 } });
    expect(json.verdictLine).toMatch(/^INCOMPLETE: ledger: 1 charging transaction unresolved/);
    const xml = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(xml).toMatch(/<testsuite name="ledger"/);
    expect(xml).toContain('c-3');
    expect(await junitXsdErrors(xml)).toEqual([]);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toMatch(
      /Ledger: 3 charging requests, charged .*; spend cap 20\.00 USD, 2 charging requests not sent\./,
    );
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toMatch(
      /spend cap 20\.00 USD; committed 14\.80 USD; 2 charging requests not sent by the guard/,
    );
  });

  it('never improves a worse verdict', () => {
    const report = ledgerReport('migrate', buildLedgerSection({ result }, { allowSkips: false }), {
      error: { code: 'GH_ERR_TARGET', message: 'gone' },
    });
    expect([report.verdict, report.exitCode]).toEqual(['unusable', 2]);
  });
});
