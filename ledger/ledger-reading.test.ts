// Reading a ledger that is not as the harness left it (#32 finding 10): a torn last line does not swallow the next
// append, an unreadable line elsewhere or of an unknown version is a verdict of its own, hand-edited impossibilities are refused.
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../scripts/fixtures/run-cli.ts';
import type { LedgerLine, LedgerOutcomeLine } from './entry.ts';
import { topupRequestLine } from './fixtures/ledger-lines.ts';
import { ledgerDefects, openLedgerWriter, readLedger } from './ledger-file.ts';
import { foldLedger, ledgerTotals } from './ledger-state.ts';
import { buildLedgerSection } from './report.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-ledger-reading-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TARGET = 'http://127.0.0.1:9';
const request = (n: number, estimate = 50): LedgerLine =>
  topupRequestLine(`e${n}`, `c${n}`, 1_000 + n, {
    target: TARGET,
    body: { skuId: 1, amount: estimate },
    estimate: { amount: estimate, currency: 'USD' },
  });
const success = (n: number, amount: number): LedgerOutcomeLine => ({
  v: 1,
  type: 'outcome',
  entry: `e${n}`,
  correlationId: `c${n}`,
  operationId: 'v2.transaction.topup',
  outcome: 'Successful',
  final: true,
  rule: 'success-000',
  code: '000',
  charged: { amount, currency: 'USD', from: 'payload' },
  source: 'response',
  at: new Date(2_000 + n).toISOString(),
});
const text = (lines: readonly (LedgerLine | string)[]): string =>
  lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
let n = 0;
const ledgerOf = (lines: readonly (LedgerLine | string)[]): string => {
  const path = join(dir, `ledger-${++n}.jsonl`);
  writeFileSync(path, text(lines));
  return path;
};

describe('a torn last line', () => {
  it('is ended before the next append: the appended outcome is read back, the torn line known for one', () => {
    const path = ledgerOf([request(1)]);
    appendFileSync(path, JSON.stringify(request(2)).slice(0, 30));
    const writer = openLedgerWriter(path);
    writer.append(success(1, 49.5));
    writer.close();
    const read = readLedger(path);
    expect(read.lines.map((l) => l.type)).toEqual(['request', 'outcome']);
    expect(ledgerTotals(foldLedger(read.lines))).toMatchObject({ successful: 1, unresolved: [] });
    // The torn line, now in the middle, is still a crash's torn line: no defect.
    expect(ledgerDefects(read)).toEqual([]);
  });
});

describe('an unreadable line that is not the last', () => {
  const path = (): string =>
    ledgerOf([
      request(1),
      success(1, 49),
      '{"v":1,"type":"request","entry":"e2","correlationId":"c2",###',
      success(2, 47.94),
      request(3),
      success(3, 10),
    ]);

  it('reconcile: INCOMPLETE naming the line, exit 1 (not PASS with the charge missing)', async () => {
    const run = await runCli(['reconcile', path()]);
    expect(run.code, run.output).toBe(1);
    expect(run.stdout).toMatch(/INCOMPLETE: .*line 3 unreadable/);
    expect(run.stdout).not.toMatch(/^PASS/m);
  });

  it("a run's ledger section: incomplete, naming the line", () => {
    const read = readLedger(path());
    const transactions = foldLedger(read.lines);
    const section = buildLedgerSection(
      { result: { transactions, polled: 0, resolved: 0, totals: ledgerTotals(transactions) }, defects: ledgerDefects(read) },
      { allowSkips: false },
    );
    expect(section.verdict).toBe('incomplete');
    expect(section.unresolved.map((u) => u.correlationId)).toContainEqual(expect.stringMatching(/line 3 unreadable/));
  });
});

describe('a line of an unknown version', () => {
  it('is not dropped silently: reconcile names it, exit 1', async () => {
    const path = ledgerOf([request(1), success(1, 49), { ...request(2), v: 2 } as unknown as LedgerLine, request(3), success(3, 10)]);
    const run = await runCli(['reconcile', path]);
    expect(run.code, run.output).toBe(1);
    expect(run.stdout).toMatch(/line 3 unreadable \(ledger version 2 unknown/);
  });
});

describe('hand-edited impossibilities', () => {
  it.each([
    ['a negative charge', [request(1), success(1, -500)]],
    ['an infinite charge', [request(1), JSON.stringify(success(1, 1)).replace('"amount":1,', '"amount":1e999,')]],
    ['a negative estimate', [request(1, -5), success(1, 1)]],
    ['an outcome without its request', [request(1), success(1, 1), success(7, 3)]],
  ] as const)('%s: refused (GH_ERR_LEDGER, exit 2), nothing polled or written', async (_name, lines) => {
    const run = await runCli(['reconcile', ledgerOf(lines)]);
    expect(run.code, run.output).toBe(2);
    expect(run.output).toMatch(/GH_ERR_LEDGER.*line \d+: /);
  });
});
