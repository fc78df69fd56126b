// The conformance runner's progress events on the harness's one progress display (reports/progress.ts): a task with
// groups done/total, cases, failures and the status polls being waited for; failed and skipped cases kept as lines.
import type { Progress } from '../reports/progress.ts';
import type { ProgressEvent } from './runner.ts';
import type { CaseResult } from './types.ts';

export interface ConformanceProgress {
  onEvent(event: ProgressEvent): void;
  /** Ends the task (failed when a case failed) and stops the timer; call before printing the result. */
  finish(): void;
}

export interface ConformanceProgressOptions {
  /** Cases per group of the plan, for "groups done/total". */
  readonly groups: ReadonlyMap<string, number>;
  readonly now?: () => number;
  /** How often the waits are re-described while nothing else happens (real ms). Default 1 s. */
  readonly tickMs?: number;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function caseLine(r: CaseResult): string {
  const word = r.status === 'passed' ? 'PASS' : r.status === 'failed' ? 'FAIL' : 'SKIP';
  return `${word} ${r.id} (${r.durationMs} ms)${r.status === 'skipped' ? ` — ${r.skipReason ?? ''}` : ''}`;
}

type Poll = { caseId: string; since: number };

/** What the task line shows: cases done, failed and skipped, the phase, the status polls waited for. */
interface Tally {
  readonly totalCases: number;
  /** Cases left per group: a group is done at 0. */
  readonly left: Map<string, number>;
  readonly polls: Map<string, Poll>;
  done: number;
  failed: number;
  skipped: number;
  phase: string;
}

/** The status polls waited for, and the one waited for longest. */
function waitingText(polls: ReadonlyMap<string, Poll>, now: () => number): string {
  if (polls.size === 0) return '';
  let oldest: Poll | undefined;
  for (const p of polls.values()) if (oldest === undefined || p.since < oldest.since) oldest = p;
  const who =
    oldest === undefined
      ? ''
      : ` (longest: ${oldest.caseId === '' ? 'drain' : oldest.caseId}, ${((now() - oldest.since) / 1000).toFixed(0)} s)`;
  return `${plural(polls.size, 'status poll')} waiting${who}`;
}

function detailText(tally: Tally, now: () => number): string {
  const parts = [
    `cases ${tally.done}/${tally.totalCases}`,
    ...(tally.failed > 0 ? [`${tally.failed} failed`] : []),
    ...(tally.skipped > 0 ? [`${tally.skipped} skipped`] : []),
    ...(tally.phase === '' ? [] : [tally.phase]),
    ...(tally.polls.size > 0 ? [waitingText(tally.polls, now)] : []),
  ];
  return parts.join(' · ');
}

/** The drain between the phases: said as a line that stays, and as the phase while it lasts. */
function onDrain(tally: Tally, progress: Progress, event: Extract<ProgressEvent, { type: 'drain-start' | 'drain-end' }>): void {
  if (event.type === 'drain-start') {
    tally.phase = event.pending > 0 ? `draining ${plural(event.pending, 'open transaction')}` : 'waiting for the service-side timeout';
    progress.line(
      event.pending > 0
        ? `conformance: waiting for ${plural(event.pending, 'transaction')} of the concurrent phase to be final before the balance-reading cases`
        : 'conformance: waiting for the service-side timeout of the delayed transactions before the balance-reading cases',
    );
    return;
  }
  const n = event.report.unresolved.length;
  tally.phase = 'exclusive phase';
  progress.line(
    `conformance: drain done in ${(event.report.waitedMs / 1000).toFixed(1)} s${n > 0 ? `, ${n} still not final (reported, not verified)` : ''}`,
  );
}

function onCaseEnd(tally: Tally, progress: Progress, r: CaseResult): void {
  tally.done += 1;
  if (r.status === 'failed') tally.failed += 1;
  if (r.status === 'skipped') tally.skipped += 1;
  tally.left.set(r.group, (tally.left.get(r.group) ?? 1) - 1);
  // Only what needs attention stays on screen and in the log; the task counts the rest.
  if (r.status !== 'passed') progress.line(`conformance: ${caseLine(r)}`);
}

/** Counts one runner event into the tally; false when it changes nothing shown (a case's start). */
function countEvent(tally: Tally, progress: Progress, event: ProgressEvent, now: () => number): boolean {
  switch (event.type) {
    case 'phase':
      tally.phase = `${event.phase} phase`;
      break;
    case 'drain-start':
    case 'drain-end':
      onDrain(tally, progress, event);
      break;
    case 'case-start':
      return false;
    case 'case-end':
      onCaseEnd(tally, progress, event.result);
      break;
    case 'poll-start':
      tally.polls.set(`${event.caseId}\u0000${event.correlationId}`, { caseId: event.caseId, since: now() });
      break;
    case 'poll-end':
      tally.polls.delete(`${event.caseId}\u0000${event.correlationId}`);
      break;
  }
  return true;
}

export function conformanceProgress(progress: Progress, options: ConformanceProgressOptions): ConformanceProgress {
  const now = options.now ?? (() => Date.now());
  const tally: Tally = {
    totalCases: [...options.groups.values()].reduce((a, b) => a + b, 0),
    left: new Map(options.groups),
    polls: new Map(),
    done: 0,
    failed: 0,
    skipped: 0,
    phase: '',
  };
  const task = progress.start({ label: 'conformance', total: options.groups.size, unit: 'groups' });
  const refresh = (): void => {
    const groupsDone = [...tally.left.values()].filter((n) => n === 0).length;
    task.update({ done: groupsDone, detail: detailText(tally, now) });
  };
  // Long status polls produce no event for a while: the waits are re-described (a live display redraws, plain output
  // prints at most every 10 s), so a quiet run still shows what it waits for.
  const timer = setInterval(refresh, options.tickMs ?? 1_000);
  timer.unref();

  return {
    onEvent(event) {
      if (countEvent(tally, progress, event, now)) refresh();
    },
    finish() {
      clearInterval(timer);
      tally.polls.clear();
      tally.phase = '';
      refresh();
      task.done({ ok: tally.failed === 0, detail: `${plural(tally.done, 'case')}, ${tally.failed} failed, ${tally.skipped} skipped` });
    },
  };
}
