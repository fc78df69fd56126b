// Progress on long work (conformance groups, polling waits, load scenarios): a live block redrawn in place on a
// TTY, plain timestamped lines otherwise (CI logs), never an ANSI escape code when the stream is not a terminal.
import { printable } from '../api/printable.ts';

/** The part of a writable stream progress needs (process.stderr fits; tests pass a fake). */
export interface ProgressStream {
  write(chunk: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface ProgressOptions {
  /** Default process.stderr: stdout stays for results (its first line is the verdict). */
  readonly stream?: ProgressStream;
  /** Live display or plain lines; default: the stream's own isTTY. */
  readonly tty?: boolean;
  /** Clock (epoch ms); tests pass a fake. */
  readonly now?: () => number;
  /** Plain mode: at most one update line per task this often (start, milestones and done always print). Default 10 s. */
  readonly plainIntervalMs?: number;
  /** Live mode: redraws at most this often; a pending redraw runs on a timer. Default 100 ms. */
  readonly redrawMs?: number;
}

export interface TaskSpec {
  /** What is being done, e.g. "conformance" or "load mixed/smoke". */
  readonly label: string;
  /** Units to do (cases, groups, iterations); absent for open-ended waits. */
  readonly total?: number;
  /** Unit word for done/total ("cases"), 'ms' to show the numbers as time (polling waits), '%' for a percentage (total 100). */
  readonly unit?: string;
}

export interface TaskUpdate {
  readonly done?: number;
  readonly total?: number;
  /** What is happening now ("waiting for TRG-666666-V2 (12 s of 185 s)"). */
  readonly detail?: string;
}

export interface TaskHandle {
  update(update: TaskUpdate): void;
  /** Ends the task with its final line; ok false marks it failed. */
  done(result?: { readonly ok?: boolean; readonly detail?: string }): void;
}

export interface Progress {
  start(task: TaskSpec | string): TaskHandle;
  /** A message that stays (above the live block on a TTY; a timestamped line otherwise). */
  line(text: string): void;
  /** Ends the display: clears the live block; tasks still open are listed as unfinished. */
  done(): void;
}

const ESC = '\u001b[';
const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const BAR_WIDTH = 20;
const MILESTONES = [0.25, 0.5, 0.75];

interface TaskState {
  readonly spec: TaskSpec;
  readonly startedAt: number;
  done: number;
  total: number | undefined;
  detail: string;
  lastPrinted: number;
  milestone: number;
  finished: boolean;
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

function amount(task: TaskState): string {
  const unit = task.spec.unit;
  if (unit === 'ms') return task.total === undefined ? seconds(task.done) : `${seconds(task.done)} of ${seconds(task.total)}`;
  if (unit === '%') return `${task.done}%`;
  const suffix = unit === undefined || unit === '' ? '' : ` ${unit}`;
  return task.total === undefined ? `${task.done}${suffix}` : `${task.done}/${task.total}${suffix}`;
}

function bar(task: TaskState): string {
  if (task.total === undefined || task.total <= 0) return '';
  const filled = Math.round(Math.min(1, Math.max(0, task.done / task.total)) * BAR_WIDTH);
  return `${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)} `;
}

/** Cuts a line to the terminal width so the block's height is known (a wrapped line would break the redraw). */
function fit(text: string, columns: number | undefined): string {
  const width = columns !== undefined && columns > 10 ? columns - 1 : 120;
  const chars = Array.from(text);
  return chars.length <= width ? text : `${chars.slice(0, width - 1).join('')}…`;
}

/** What the task handles and the display share: the mode, the clock, the open tasks and how each mode writes. */
interface Display {
  readonly live: boolean;
  readonly now: () => number;
  readonly plainInterval: number;
  readonly tasks: TaskState[];
  closed: boolean;
  /** A timestamped line (plain mode). */
  plain(text: string): void;
  readonly block: LiveBlock;
}

/** The live block of a TTY: the open tasks, one line each, redrawn in place. */
interface LiveBlock {
  redraw(): void;
  /** Redraws now, or on a timer when the last redraw is younger than redrawMs (updates can come in bursts). */
  scheduleRedraw(): void;
  /** Writes lines that stay, above the live block, then draws the block again. */
  permanent(text: string): void;
  /** Stops a pending redraw and writes `text` where the block was. */
  close(text: string): void;
}

function createLiveBlock(stream: ProgressStream, now: () => number, redrawMs: number, tasks: readonly TaskState[]): LiveBlock {
  let drawnLines = 0;
  let lastDraw = Number.NEGATIVE_INFINITY;
  let frame = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const clearBlock = (): string => (drawnLines === 0 ? '' : `${ESC}${drawnLines}F${ESC}J`);
  const blockText = (): string => {
    const active = tasks.filter((t) => !t.finished);
    frame = (frame + 1) % SPINNER.length;
    drawnLines = active.length;
    return active
      .map(
        (t) =>
          `${fit(`${SPINNER[frame]} ${t.spec.label}  ${bar(t)}${amount(t)}  ${seconds(now() - t.startedAt)}${t.detail === '' ? '' : `  ${t.detail}`}`, stream.columns)}\n`,
      )
      .join('');
  };
  const redraw = (): void => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    const clear = clearBlock();
    stream.write(clear + blockText());
    lastDraw = now();
  };
  return {
    redraw,
    scheduleRedraw(): void {
      if (now() - lastDraw >= redrawMs) redraw();
      else if (timer === undefined) {
        timer = setTimeout(redraw, redrawMs);
        (timer as { unref?: () => void }).unref?.();
      }
    },
    permanent(text: string): void {
      const clear = clearBlock();
      drawnLines = 0;
      stream.write(`${clear}${text}\n${blockText()}`);
      lastDraw = now();
    },
    close(text: string): void {
      if (timer !== undefined) clearTimeout(timer);
      const clear = clearBlock();
      drawnLines = 0;
      stream.write(clear + text);
    },
  };
}

function startTask(display: Display, task: TaskSpec | string): TaskHandle {
  const spec = typeof task === 'string' ? { label: task } : task;
  const { now } = display;
  const state: TaskState = {
    spec,
    startedAt: now(),
    done: 0,
    total: spec.total,
    detail: '',
    lastPrinted: now(),
    milestone: 0,
    finished: false,
  };
  display.tasks.push(state);
  if (display.live) display.block.redraw();
  else display.plain(`${spec.label}: started${state.total === undefined ? '' : ` (${amount(state).replace(/^0\//, '')})`}`);
  return {
    update: (update) => updateTask(display, state, update),
    done: (result = {}) => finishTask(display, state, result),
  };
}

/** Live: a redraw. Plain: a line only at a new milestone or after plainInterval, so CI logs stay short. */
function updateTask(display: Display, state: TaskState, update: TaskUpdate): void {
  if (state.finished || display.closed) return;
  if (update.done !== undefined) state.done = update.done;
  if (update.total !== undefined) state.total = update.total;
  if (update.detail !== undefined) state.detail = printable(update.detail);
  if (display.live) {
    display.block.scheduleRedraw();
    return;
  }
  const fraction = state.total === undefined || state.total <= 0 ? 0 : state.done / state.total;
  const milestone = MILESTONES.filter((m) => fraction >= m).length;
  if (milestone > state.milestone || display.now() - state.lastPrinted >= display.plainInterval) {
    state.milestone = Math.max(state.milestone, milestone);
    state.lastPrinted = display.now();
    display.plain(`${state.spec.label}: ${amount(state)}${state.detail === '' ? '' : ` — ${state.detail}`}`);
  }
}

function finishTask(display: Display, state: TaskState, result: { readonly ok?: boolean; readonly detail?: string }): void {
  if (state.finished) return;
  state.finished = true;
  const ok = result.ok ?? true;
  const text = `${state.spec.label}: ${ok ? 'done' : 'FAILED'}${state.total === undefined ? '' : ` (${amount(state)})`} in ${seconds(display.now() - state.startedAt)}${result.detail === undefined ? '' : ` — ${result.detail}`}`;
  if (display.live) display.block.permanent(`${ok ? '✓' : '✗'} ${printable(text)}`);
  else display.plain(text);
}

/** Ends the display once: the live block cleared, the tasks still open listed as unfinished. */
function closeDisplay(display: Display): void {
  if (display.closed) return;
  display.closed = true;
  const open = display.tasks.filter((t) => !t.finished);
  if (display.live) display.block.close(open.map((t) => `… ${t.spec.label}: unfinished (${amount(t)})\n`).join(''));
  else for (const t of open) display.plain(`${t.spec.label}: unfinished (${amount(t)})`);
}

export function createProgress(options: ProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? Date.now;
  const tasks: TaskState[] = [];
  const display: Display = {
    live: options.tty ?? stream.isTTY === true,
    now,
    plainInterval: options.plainIntervalMs ?? 10_000,
    tasks,
    closed: false,
    plain(text: string): void {
      stream.write(`[${new Date(now()).toISOString()}] ${printable(text)}\n`);
    },
    block: createLiveBlock(stream, now, options.redrawMs ?? 100, tasks),
  };
  return {
    start: (task) => startTask(display, task),
    line(text: string): void {
      if (display.closed) return;
      if (display.live) display.block.permanent(printable(text));
      else display.plain(text);
    },
    done: () => closeDisplay(display),
  };
}
