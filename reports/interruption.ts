// What an interrupted run says in every report (verdict line, summary.md, report.html, JUnit, stdout): by which signal,
// after how long, during which part, what did not run, and the command that finishes the money left open.
import type { ReportInterruption } from '../schemas/generated/types.ts';
import { formatMs } from './sections.ts';

export type { ReportInterruption };

/** Why a part left when the run was interrupted (a migrate pair, a baseline operation) was not run. */
export const INTERRUPTED_REASON = 'not run: the run was interrupted';

/** "by SIGINT after 2.51 s during load; not run: drift; open charges: gateway-harness reconcile /r/ledger.jsonl" */
export function interruptionText(interruption: ReportInterruption): string {
  const by = interruption.signal === undefined ? 'the engine was aborted by a signal sent to it' : `by ${interruption.signal}`;
  const parts = [`${by} after ${formatMs(interruption.afterMs)} during ${interruption.during}`];
  if (interruption.forced === true) parts[0] += ' (a second signal aborted it at once: results not collected)';
  else parts[0] += ' (results up to then)';
  if (interruption.notRun !== undefined && interruption.notRun.length > 0) parts.push(`not run: ${interruption.notRun.join(', ')}`);
  if (interruption.reconcile !== undefined) parts.push(`charging requests still open, finish with: ${interruption.reconcile}`);
  return parts.join('; ');
}

/** How long each open charging request is polled after an interruption (real ms): a cancelled job must end soon. */
export const INTERRUPT_RECONCILE_MS = 5_000;

/** The line an interrupted run prints for the charges still open after that bound. */
export function stillOpenLine(open: number, command: string): string {
  return `money: ${open} charging request${open === 1 ? '' : 's'} still open; finish with: ${command}`;
}

/** The exact command that reconciles a ledger (quoted when the path needs it in a POSIX shell). */
export function reconcileCommand(ledgerPath: string): string {
  const quoted = /^[\w./:@%+=,-]+$/.test(ledgerPath) ? ledgerPath : `'${ledgerPath.replace(/'/g, "'\\''")}'`;
  return `gateway-harness reconcile ${quoted}`;
}
