// The harness half of the k6 ledger: lines k6 logs (logfmt as k6 v0.48 and v2 print them, JSON, raw) are persisted
// before the rest of the chunk is forwarded, and are not echoed; everything else passes through unchanged.
import { describe, expect, it } from 'vitest';
import { asciiJson, CONSOLE_PREFIX, type LedgerOutcomeLine } from './entry.ts';
import { createLedgerCapture, goUnquote, ledgerJsonOf } from './k6-capture.ts';

const line: LedgerOutcomeLine = {
  v: 1,
  type: 'outcome',
  entry: 'e-1',
  correlationId: 'c"1\\x',
  operationId: 'v2.transaction.topup',
  outcome: 'Successful',
  final: true,
  rule: 'success-000',
  source: 'response',
  at: 'é€ 2026',
};
const json = asciiJson(line);
/** Go's %q of a string, as logrus writes msg="..." (the test's copy of the quoting, checked on a real k6 below). */
const goQuote = (text: string): string => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const logfmt = `time="2026-11-22T16:23:08Z" level=info msg=${goQuote(CONSOLE_PREFIX + json)} source=console`;

describe('ledgerJsonOf', () => {
  it('reads the ledger line out of k6 logfmt, JSON and raw log lines', () => {
    for (const text of [logfmt, JSON.stringify({ level: 'info', msg: CONSOLE_PREFIX + json, source: 'console' }), CONSOLE_PREFIX + json]) {
      expect(JSON.parse(ledgerJsonOf(text) as string)).toEqual(line);
    }
  });

  it('reads a line quoted the way k6 v0.48 and v2.2 print console output (format copied from their stderr)', () => {
    const real = String.raw`time="2026-11-22T16:23:08Z" level=info msg="GH-LEDGER {\"v\":1,\"type\":\"outcome\",\"entry\":\"e\\\"1\",\"operationId\":\"op\",\"outcome\":\"Unknown\",\"final\":false,\"rule\":\"client-timeout\",\"source\":\"response\",\"at\":\"x\"}" source=console`;
    expect(JSON.parse(ledgerJsonOf(real) as string)).toMatchObject({ entry: 'e"1', outcome: 'Unknown' });
  });

  it('passes over other lines, and a prefixed line that is not a ledger line', () => {
    expect(ledgerJsonOf('time="x" level=info msg="plain line" source=console')).toBeUndefined();
    expect(ledgerJsonOf(`time="x" level=info msg="${CONSOLE_PREFIX}{not json}" source=console`)).toBeUndefined();
    expect(ledgerJsonOf(`${CONSOLE_PREFIX}{"v":1,"type":"other"}`)).toBeUndefined();
  });

  it('undoes Go quoting escapes', () => {
    expect(goUnquote(String.raw`a\"b\\c\n\t\x41\u00e9\101`)).toBe('a"b\\c\n\tAéA');
  });
});

describe('createLedgerCapture', () => {
  it('persists the ledger lines of a chunk before forwarding the rest, and does not echo them', () => {
    const events: string[] = [];
    const capture = createLedgerCapture({
      persist: (lines) => events.push(`persist ${lines.length}`),
      forward: (text) => events.push(`forward ${text}`),
    });
    capture.onChunk(`before\n${logfmt}\n${logfmt}\nafter\n`);
    expect(events).toEqual(['persist 2', 'forward before\nafter\n']);
    expect(capture.captured).toBe(2);
  });

  it('joins lines split across chunks, and handles a last line without a newline at the end', () => {
    const persisted: string[] = [];
    const forwarded: string[] = [];
    const capture = createLedgerCapture({ persist: (lines) => persisted.push(...lines), forward: (t) => forwarded.push(t) });
    const cut = Math.floor(logfmt.length / 2);
    capture.onChunk(logfmt.slice(0, cut));
    expect(persisted).toHaveLength(0);
    capture.onChunk(`${logfmt.slice(cut)}\ntail without newline`);
    expect(persisted).toHaveLength(1);
    capture.end();
    expect(forwarded.join('')).toBe('tail without newline\n');
  });
});
