// The ledger in a run's reports: the LedgerSection of the report model (reports/sections.ts decides its verdict:
// an unresolved charge leaves the run incomplete), its lines on stdout, the reconcile table, and the section added to
// the report files a command already wrote (summary.json / junit.xml / summary.md and their kin), so no command's
// reports can end with a transaction silently Unknown.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAULT_KINDS, faultLine, type FaultCounts } from '../api/faults.ts';
import { junitXml, type JUnitCase } from '../reports/junit-xml.ts';
import type { LedgerSection } from '../reports/model.ts';
import { formatCharged, ledgerLine, ledgerSection } from '../reports/sections.ts';
import { combineVerdicts, VERDICT_EXIT, type Verdict } from '../reports/verdict.ts';
import { LEDGER_FILE } from './entry.ts';
import { lastOutcome, type LedgerTransaction } from './ledger-state.ts';
import { formatMoney, type SpendCap } from './money-settings.ts';
import type { ReconcileResult } from './reconcile.ts';

/** "12.50 USD, 3.00 JMD" (the reports' wording, for read-only totals). */
export function chargedText(charged: ReadonlyArray<{ readonly amount: number; readonly currency: string }>): string {
  return formatCharged(charged.map((c) => ({ amount: c.amount, currency: c.currency })));
}

export interface LedgerFacts {
  readonly result: ReconcileResult;
  readonly cap?: SpendCap;
  /** Worst case still counted against the cap (charged + unresolved estimates), when a cap applied. */
  readonly committed?: number;
  readonly refused?: number;
  readonly balance?: { readonly before: number; readonly after: number };
}

export function buildLedgerSection(facts: LedgerFacts, options: { readonly allowSkips: boolean; readonly file?: string }): LedgerSection {
  const { totals } = facts.result;
  const base = ledgerSection(
    {
      file: options.file ?? LEDGER_FILE,
      entries: totals.entries,
      charged: totals.charged.map((c) => ({ amount: c.amount, currency: c.currency })),
      unresolved: totals.unresolved.map((t) => ({
        correlationId: t.request.correlationId ?? `(no correlationId: entry ${t.request.entry})`,
        operationId: t.request.operationId,
        lastOutcome: lastOutcome(t),
      })),
    },
    { allowSkips: options.allowSkips },
  );
  const round = (n: number): number => Math.round(n * 1e6) / 1e6;
  return {
    ...base,
    ...(facts.cap === undefined ? {} : { spendCap: { amount: facts.cap.amount, currency: facts.cap.currency } }),
    ...(facts.cap === undefined || facts.committed === undefined ? {} : { committed: { amount: round(facts.committed), currency: facts.cap.currency } }),
    ...(facts.refused === undefined ? {} : { refused: facts.refused }),
    ...(facts.balance === undefined ? {} : { balance: { ...facts.balance, moved: round(facts.balance.after - facts.balance.before) } }),
  };
}

/** What a command prints about money at the end (stderr or stdout, the command decides). */
export function ledgerLines(section: LedgerSection, path: string): string[] {
  const lines = [`${ledgerLine(section)}; charged ${formatCharged(section.charged)}; ledger ${path}`];
  if (section.spendCap !== undefined) {
    const committed = section.committed === undefined ? '' : `, ${formatMoney(section.committed.amount, section.committed.currency)} committed`;
    lines.push(`spend cap ${formatMoney(section.spendCap.amount, section.spendCap.currency)}${committed}${section.refused ? `; ${section.refused} charging request${section.refused === 1 ? '' : 's'} not sent (cap or unbounded charge)` : ''}`);
  }
  if (section.balance !== undefined) {
    lines.push(`balance before ${section.balance.before}, after ${section.balance.after}: the run took ${section.balance.moved}`);
  }
  for (const u of section.unresolved) lines.push(`  unresolved ${u.correlationId} ${u.operationId}: ${u.lastOutcome}`);
  return lines;
}

/** The reconcile command's table: one row per transaction, then the total charged. */
export function reconcileTable(transactions: readonly LedgerTransaction[]): string[] {
  const rows = transactions.map((t) => {
    const o = t.outcome;
    const outcome = o === undefined ? 'Unknown (no outcome recorded)' : `${o.outcome}${o.final ? '' : ' (not final)'}`;
    const charged = o?.charged === undefined ? '' : formatMoney(o.charged.amount, o.charged.currency);
    const how = o === undefined ? '' : `${o.source}${o.code === undefined ? '' : ` ${o.code}`}${o.rule === 'failure-code' || o.rule === 'success-000' ? '' : ` (${o.rule})`}`;
    return [t.request.correlationId ?? `(entry ${t.request.entry})`, t.request.operationId, outcome, charged, how];
  });
  const header = ['correlationId', 'operation', 'outcome', 'charged', 'decided by'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return [line(header), ...rows.map(line)];
}

function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** A worse verdict, when the ledger's is worse than the command's own. */
export function withLedgerVerdict(verdict: Verdict, section: LedgerSection): Verdict {
  return combineVerdicts([verdict, section.verdict]);
}

function junitCases(section: LedgerSection): JUnitCase[] {
  const cases: JUnitCase[] = section.unresolved.map((u) => ({
    name: `unresolved ${u.correlationId}`,
    classname: 'ledger',
    timeSec: 0,
    status: section.verdict === 'pass' ? 'skipped' : 'error',
    message: `${u.operationId}: not final at the end of the run (last outcome ${u.lastOutcome}); run gateway-harness reconcile`,
  }));
  if (cases.length === 0 && section.entries > 0) {
    cases.push({ name: `all ${section.entries} charging requests reached a final state`, classname: 'ledger', timeSec: 0, status: 'passed', systemOut: `charged ${formatCharged(section.charged)}` });
  }
  return cases;
}

/**
 * Adds the ledger section to report files a command already wrote in `dir` (those that exist): JSON files get a
 * `ledger` member and, when the ledger's verdict is worse, their `verdict`/`exitCode` and headline follow it; a JUnit
 * file gets a `ledger` testsuite (totals updated); Markdown files get a "Ledger" section. Written atomically.
 */
export function attachLedgerSection(dir: string, section: LedgerSection, files: { readonly json?: readonly string[]; readonly junit?: readonly string[]; readonly md?: readonly string[] }): void {
  const line = ledgerLine(section);
  for (const name of files.json ?? []) {
    const path = join(dir, name);
    if (!existsSync(path)) continue;
    const report = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    const own = report.verdict;
    if (typeof own === 'string' && ['pass', 'fail', 'incomplete', 'unusable', 'thresholds'].includes(own)) {
      const worse = withLedgerVerdict(own as Verdict, section);
      if (worse !== own) {
        report.verdict = worse;
        if (typeof report.exitCode === 'number') report.exitCode = VERDICT_EXIT[worse];
      }
    }
    for (const key of ['headline', 'verdictLine']) if (typeof report[key] === 'string') report[key] = `${report[key] as string}; ${line}`;
    report.ledger = section;
    writeAtomic(path, `${JSON.stringify(report, null, 2)}\n`);
  }
  const cases = junitCases(section);
  for (const name of cases.length === 0 ? [] : (files.junit ?? [])) {
    const path = join(dir, name);
    if (!existsSync(path)) continue;
    const xml = readFileSync(path, 'utf8');
    const suites = (xml.match(/<testsuite[\s>]/g) ?? []).length;
    const suite = / {2}<testsuite\s[\s\S]*<\/testsuite>\n/.exec(junitXml([{ name: 'ledger', timeSec: 0, properties: { verdict: section.verdict, verdictLine: line }, cases }]))?.[0] ?? '';
    const add = (attr: string, n: number) => (text: string): string =>
      text.replace(new RegExp(`(<testsuites[^>]*\\s${attr}=")(\\d+)(")`), (_m, a: string, v: string, b: string) => `${a}${Number(v) + n}${b}`);
    let out = xml.replace('</testsuites>', `${suite.replace(/ id="\d+"/, ` id="${suites}"`)}</testsuites>`);
    out = add('tests', cases.length)(out);
    out = add('errors', cases.filter((c) => c.status === 'error').length)(out);
    writeAtomic(path, out);
  }
  for (const name of files.md ?? []) {
    const path = join(dir, name);
    if (!existsSync(path)) continue;
    const rows = section.unresolved.map((u) => `| \`${u.correlationId}\` | \`${u.operationId}\` | ${u.lastOutcome} |`);
    const md = [
      '',
      '## Ledger (money safety)',
      '',
      `${line}; charged ${formatCharged(section.charged)}; \`${section.file ?? LEDGER_FILE}\``,
      ...(section.spendCap === undefined ? [] : ['', `Spend cap ${formatMoney(section.spendCap.amount, section.spendCap.currency)}${section.refused ? `; ${section.refused} charging requests not sent` : ''}.`]),
      ...(section.balance === undefined ? [] : ['', `Balance before ${section.balance.before}, after ${section.balance.after} (moved ${section.balance.moved}).`]),
      ...(rows.length === 0 ? [] : ['', '| correlationId | operation | last outcome |', '|---|---|---|', ...rows]),
      '',
    ].join('\n');
    writeAtomic(path, readFileSync(path, 'utf8').replace(/\s*$/, '\n') + md);
  }
}

/**
 * Adds the run's fault counts (api/faults.ts) to report files a command wrote: a `faults` member in JSON files and a
 * line in Markdown files. Faults are counted, never judged here: the command's own checks already saw each one.
 */
export function attachFaultCounts(dir: string, counts: FaultCounts, files: { readonly json?: readonly string[]; readonly md?: readonly string[] }): void {
  const total = FAULT_KINDS.reduce((sum, k) => sum + counts[k], 0);
  for (const name of files.json ?? []) {
    const path = join(dir, name);
    if (!existsSync(path)) continue;
    const report = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    report.faults = { ...counts, total };
    writeAtomic(path, `${JSON.stringify(report, null, 2)}\n`);
  }
  for (const name of files.md ?? []) {
    const path = join(dir, name);
    if (!existsSync(path)) continue;
    writeAtomic(path, `${readFileSync(path, 'utf8').replace(/\s*$/, '\n')}\nFaults seen (responses that were no gateway answer): ${faultLine(counts)}.\n`);
  }
}
