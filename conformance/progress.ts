// Progress of a conformance run on a stream (stderr): on a terminal one live line (groups and cases done, status polls
// waiting, failures above it); elsewhere plain timestamped lines, one per case, with no ANSI codes at all.
import type { ProgressEvent } from './runner.ts';
import type { CaseResult } from './types.ts';

export interface ProgressStream {
  write(text: string): unknown;
}

export interface ProgressOptions {
  readonly stream: ProgressStream;
  /** A terminal on both stdout and the stream: a redrawn live line and colour. Otherwise plain lines, no ANSI. */
  readonly interactive: boolean;
  /** Colour (interactive only; off with NO_COLOR). */
  readonly colour: boolean;
  /** Cases per group of the plan, for "groups done/total". */
  readonly groups: ReadonlyMap<string, number>;
  readonly now?: () => number;
  /** Plain mode: a line saying what is still awaited after this long without one (real ms). */
  readonly quietMs?: number;
}

export interface Progress {
  onEvent(event: ProgressEvent): void;
  /** Clears the live line / stops the timer; call before printing the result. */
  finish(): void;
}

const SGR = Object.freeze({ red: '\u001b[31m', green: '\u001b[32m', yellow: '\u001b[33m', dim: '\u001b[2m', reset: '\u001b[0m' });
const CLEAR_LINE = '\r\u001b[2K';
const REDRAW_MS = 100;

function statusWord(result: CaseResult): string {
  return result.status === 'passed' ? 'PASS' : result.status === 'failed' ? 'FAIL' : 'SKIP';
}

export function createProgress(options: ProgressOptions): Progress {
  const now = options.now ?? (() => Date.now());
  const { stream, interactive } = options;
  const colour = interactive && options.colour;
  const paint = (code: string, text: string): string => (colour ? `${code}${text}${SGR.reset}` : text);
  const totalCases = [...options.groups.values()].reduce((a, b) => a + b, 0);
  const left = new Map(options.groups);
  const polls = new Map<string, { caseId: string; since: number }>();
  let done = 0;
  let failed = 0;
  let skipped = 0;
  let phase = '';
  let drawn = false;
  let lastDraw = 0;
  let lastLine = now();

  const groupsDone = (): number => [...left.values()].filter((n) => n === 0).length;

  const waiting = (): string => {
    if (polls.size === 0) return '';
    let oldest: { caseId: string; since: number } | undefined;
    for (const p of polls.values()) if (oldest === undefined || p.since < oldest.since) oldest = p;
    const who = oldest === undefined ? '' : ` (longest: ${oldest.caseId === '' ? 'drain' : oldest.caseId} ${((now() - oldest.since) / 1000).toFixed(0)} s)`;
    return `${polls.size} status poll${polls.size === 1 ? '' : 's'} waiting${who}`;
  };

  const statusLine = (): string => {
    const parts = [
      `groups ${groupsDone()}/${options.groups.size}`,
      `cases ${done}/${totalCases}`,
      ...(failed > 0 ? [paint(SGR.red, `${failed} failed`)] : []),
      ...(skipped > 0 ? [paint(SGR.yellow, `${skipped} skipped`)] : []),
      ...(phase === '' ? [] : [phase]),
      ...(polls.size > 0 ? [waiting()] : []),
    ];
    return `conformance: ${parts.join(' · ')}`;
  };

  const draw = (force = false): void => {
    if (!interactive) return;
    const t = now();
    if (!force && t - lastDraw < REDRAW_MS) return;
    lastDraw = t;
    stream.write(`${CLEAR_LINE}${statusLine()}`);
    drawn = true;
  };

  /** A lasting line: above the live line on a terminal, timestamped otherwise. */
  const line = (text: string): void => {
    lastLine = now();
    if (interactive) {
      stream.write(`${drawn ? CLEAR_LINE : ''}${text}\n`);
      drawn = false;
      draw(true);
    } else {
      stream.write(`${new Date(lastLine).toISOString()} ${text}\n`);
    }
  };

  // Plain mode has no live line: when the run goes quiet (long status polls), say what it waits for, now and then.
  const quietMs = options.quietMs ?? 15_000;
  const timer = setInterval(
    () => {
      if (interactive) draw(true);
      else if (now() - lastLine >= quietMs) line(`conformance: ${[`cases ${done}/${totalCases}`, waiting() || 'waiting for running cases'].join(' · ')}`);
    },
    interactive ? 1_000 : Math.max(1_000, Math.floor(quietMs / 3)),
  );
  timer.unref();

  return {
    onEvent(event) {
      switch (event.type) {
        case 'phase':
          phase = `${event.phase} phase`;
          if (!interactive) line(`conformance: ${event.phase} phase, ${event.cases} case${event.cases === 1 ? '' : 's'}`);
          else draw(true);
          break;
        case 'drain-start':
          phase = event.pending > 0 ? `draining ${event.pending} open transaction${event.pending === 1 ? '' : 's'}` : 'waiting for the service-side timeout';
          line(
            event.pending > 0
              ? `conformance: waiting for ${event.pending} transaction${event.pending === 1 ? '' : 's'} of the concurrent phase to be final before the balance-reading cases`
              : 'conformance: waiting for the service-side timeout of the delayed transactions before the balance-reading cases',
          );
          break;
        case 'drain-end': {
          const n = event.report.unresolved.length;
          line(`conformance: drain done in ${(event.report.waitedMs / 1000).toFixed(1)} s${n > 0 ? paint(SGR.yellow, `, ${n} still not final (reported)`) : ''}`);
          break;
        }
        case 'case-start':
          break;
        case 'case-end': {
          const r = event.result;
          done += 1;
          if (r.status === 'failed') failed += 1;
          if (r.status === 'skipped') skipped += 1;
          left.set(r.group, (left.get(r.group) ?? 1) - 1);
          const word = statusWord(r);
          const painted = r.status === 'failed' ? paint(SGR.red, word) : r.status === 'skipped' ? paint(SGR.yellow, word) : paint(SGR.green, word);
          const text = `${painted} ${r.id} (${r.durationMs} ms)${r.status === 'skipped' ? ` — ${r.skipReason ?? ''}` : ''}`;
          // On a terminal only what needs attention stays on screen; the live line counts the rest.
          if (!interactive || r.status !== 'passed') line(text);
          else draw();
          break;
        }
        case 'poll-start':
          polls.set(`${event.caseId}\u0000${event.correlationId}`, { caseId: event.caseId, since: now() });
          draw();
          break;
        case 'poll-end':
          polls.delete(`${event.caseId}\u0000${event.correlationId}`);
          draw();
          break;
      }
    },
    finish() {
      clearInterval(timer);
      if (interactive && drawn) stream.write(CLEAR_LINE);
      drawn = false;
    },
  };
}
