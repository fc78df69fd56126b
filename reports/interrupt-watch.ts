// Watches SIGINT/SIGTERM for a command that judges a gateway, so an interrupted run ends like k6's: the running part
// stops gracefully, the partial reports say INTERRUPTED (exit 128 + signal), and a second signal aborts at once.
import { setMaxListeners } from 'node:events';
import type { ReportInterruption } from './interruption.ts';
import { INTERRUPT_SIGNALS, interruptedExitCode, type InterruptSignal } from './verdict.ts';

export interface RunInterrupt {
  /** Aborted on the first signal: the running part stops what it does (gracefully) and starts nothing new. */
  readonly signal: AbortSignal;
  /** Aborted on a second signal, before the process exits: a child process is killed at once (synchronously). */
  readonly forced: AbortSignal;
  /** The first signal received and when (epoch ms); undefined while none came. */
  received(): { readonly signal: InterruptSignal; readonly at: number } | undefined;
  /** Names the part now running (the report's `during`). */
  enter(part: string): void;
  /** What the report says, or undefined when no signal came. */
  interruption(startedAt: number, extra?: Pick<ReportInterruption, 'notRun' | 'reconcile' | 'forced'>): ReportInterruption | undefined;
  /**
   * What to do on the second signal, after `forced` aborted: write what can be written synchronously (the process
   * exits with 128 + signal right after; nothing asynchronous runs any more).
   */
  onForce(handler: (interruption: ReportInterruption) => void): void;
  /** Removes the signal handlers (the process's default behaviour again). */
  dispose(): void;
}

export interface WatchOptions {
  /** When the run started (epoch ms), for the forced report's `afterMs`. */
  readonly startedAt: number;
  /** Where the one line on the first signal goes (the command's progress on stderr). */
  readonly say?: (line: string) => void;
  /** Ends the process on the second signal (tests replace it). */
  readonly exit?: (code: number) => void;
  readonly now?: () => number;
}

export function watchInterrupts(options: WatchOptions): RunInterrupt {
  const now = options.now ?? Date.now;
  const graceful = new AbortController();
  const forced = new AbortController();
  // Every request in flight listens to the run's signal (discovery reads many at once): no listener limit to warn about.
  setMaxListeners(0, graceful.signal, forced.signal);
  let first: { signal: InterruptSignal; at: number } | undefined;
  let during = 'start-up';
  let forceHandler: ((interruption: ReportInterruption) => void) | undefined;
  const describe = (
    startedAt: number,
    extra: Pick<ReportInterruption, 'notRun' | 'reconcile' | 'forced'> = {},
  ): ReportInterruption | undefined =>
    first === undefined
      ? undefined
      : {
          signal: first.signal,
          afterMs: Math.max(0, first.at - startedAt),
          during,
          ...(extra.notRun === undefined || extra.notRun.length === 0 ? {} : { notRun: [...extra.notRun] }),
          ...(extra.forced === true ? { forced: true } : {}),
          ...(extra.reconcile === undefined ? {} : { reconcile: extra.reconcile }),
        };
  const handlers = new Map<InterruptSignal, () => void>();
  for (const name of Object.keys(INTERRUPT_SIGNALS) as InterruptSignal[]) {
    const handler = (): void => {
      if (first === undefined) {
        first = { signal: name, at: now() };
        options.say?.(`gateway-harness: ${name}: stopping the run; the partial reports follow (a second signal aborts at once)`);
        graceful.abort();
        return;
      }
      // The second signal: stop now. Whatever the handler writes says interrupted; the exit code is the first signal's.
      forced.abort();
      const interruption = describe(options.startedAt, { forced: true });
      try {
        if (interruption !== undefined) forceHandler?.(interruption);
      } finally {
        (options.exit ?? ((code: number) => process.exit(code)))(interruptedExitCode(first.signal));
      }
    };
    handlers.set(name, handler);
    process.on(name, handler);
  }
  return {
    signal: graceful.signal,
    forced: forced.signal,
    received: () => first,
    enter: (part) => {
      // The part running when the signal came stays the report's `during`.
      if (first === undefined) during = part;
    },
    interruption: describe,
    onForce: (handler) => {
      forceHandler = handler;
    },
    dispose: () => {
      for (const [name, handler] of handlers) process.off(name, handler);
    },
  };
}
