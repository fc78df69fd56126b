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

export function conformanceProgress(progress: Progress, options: ConformanceProgressOptions): ConformanceProgress {
  const now = options.now ?? (() => Date.now());
  const totalCases = [...options.groups.values()].reduce((a, b) => a + b, 0);
  const left = new Map(options.groups);
  const polls = new Map<string, { caseId: string; since: number }>();
  let done = 0;
  let failed = 0;
  let skipped = 0;
  let phase = '';
  const task = progress.start({ label: 'conformance', total: options.groups.size, unit: 'groups' });

  const groupsDone = (): number => [...left.values()].filter((n) => n === 0).length;
  const waiting = (): string => {
    if (polls.size === 0) return '';
    let oldest: { caseId: string; since: number } | undefined;
    for (const p of polls.values()) if (oldest === undefined || p.since < oldest.since) oldest = p;
    const who =
      oldest === undefined
        ? ''
        : ` (longest: ${oldest.caseId === '' ? 'drain' : oldest.caseId}, ${((now() - oldest.since) / 1000).toFixed(0)} s)`;
    return `${plural(polls.size, 'status poll')} waiting${who}`;
  };
  const refresh = (): void => {
    const parts = [
      `cases ${done}/${totalCases}`,
      ...(failed > 0 ? [`${failed} failed`] : []),
      ...(skipped > 0 ? [`${skipped} skipped`] : []),
      ...(phase === '' ? [] : [phase]),
      ...(polls.size > 0 ? [waiting()] : []),
    ];
    task.update({ done: groupsDone(), detail: parts.join(' · ') });
  };
  // Long status polls produce no event for a while: the waits are re-described (a live display redraws, plain output
  // prints at most every 10 s), so a quiet run still shows what it waits for.
  const timer = setInterval(refresh, options.tickMs ?? 1_000);
  timer.unref();

  return {
    onEvent(event) {
      switch (event.type) {
        case 'phase':
          phase = `${event.phase} phase`;
          break;
        case 'drain-start':
          phase = event.pending > 0 ? `draining ${plural(event.pending, 'open transaction')}` : 'waiting for the service-side timeout';
          progress.line(
            event.pending > 0
              ? `conformance: waiting for ${plural(event.pending, 'transaction')} of the concurrent phase to be final before the balance-reading cases`
              : 'conformance: waiting for the service-side timeout of the delayed transactions before the balance-reading cases',
          );
          break;
        case 'drain-end': {
          const n = event.report.unresolved.length;
          phase = 'exclusive phase';
          progress.line(
            `conformance: drain done in ${(event.report.waitedMs / 1000).toFixed(1)} s${n > 0 ? `, ${n} still not final (reported, not verified)` : ''}`,
          );
          break;
        }
        case 'case-start':
          return;
        case 'case-end': {
          const r = event.result;
          done += 1;
          if (r.status === 'failed') failed += 1;
          if (r.status === 'skipped') skipped += 1;
          left.set(r.group, (left.get(r.group) ?? 1) - 1);
          // Only what needs attention stays on screen and in the log; the task counts the rest.
          if (r.status !== 'passed') progress.line(`conformance: ${caseLine(r)}`);
          break;
        }
        case 'poll-start':
          polls.set(`${event.caseId}\u0000${event.correlationId}`, { caseId: event.caseId, since: now() });
          break;
        case 'poll-end':
          polls.delete(`${event.caseId}\u0000${event.correlationId}`);
          break;
      }
      refresh();
    },
    finish() {
      clearInterval(timer);
      polls.clear();
      phase = '';
      refresh();
      task.done({ ok: failed === 0, detail: `${plural(done, 'case')}, ${failed} failed, ${skipped} skipped` });
    },
  };
}
