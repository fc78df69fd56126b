// The engine's own output (a real k6 or the Node engine, piped) turned into the harness's progress display: one task per
// scenario with its percentage, the "running (...)" line as detail; every other line (warnings, errors) kept as a line.
import type { Progress, TaskHandle } from '../../reports/progress.ts';

/** `mixed ✓ [ 100% ] 2 VUs  00m00.4s/10m0s  62/62 shared iters` (k6) or `mixed [100%] shared-iterations, ...` (engine). */
const SCENARIO_LINE = /^\s*([A-Za-z0-9_.-]+)\s+(?:[✓✗↓]\s+)?\[\s*(\d{1,3})%\s*\]\s*(.*)$/;
/** `running (00m05.0s), 2/2 VUs, 62 complete and 0 interrupted iterations` (both engines). */
const RUNNING_LINE = /^\s*running \(([^)]*)\), (\d+\/\d+ VUs, \d+ complete and \d+ interrupted iterations)/;
/**
 * Lines that say nothing to a reader of the harness's output: k6's logo, its Babel source-map notice, and the verdict
 * line handleSummary prints for bare `k6 run`s (the command prints the run's verdict itself, first on stdout).
 */
const NOISE = [
  /^(PASS|FAIL|INCOMPLETE|UNUSABLE TARGET|THRESHOLDS CROSSED): load \S+\/\S+ \(/,
  /^k6 summary data: /,
  /^[\s/\\|‾_().'-]*(?:Grafana|\.io)?[\s/\\|‾_().'-]*$/,
  /needs to go through babel but is over 0 bytes/,
];

export interface EngineProgress {
  /** Output of the engine, in chunks as they come (stdout and stderr alike). */
  write(chunk: string): void;
  /** Ends the scenario tasks: ok false marks them failed. */
  finish(result: { readonly ok: boolean; readonly detail?: string }): void;
}

/**
 * `label` names a scenario's task (e.g. "load mixed/smoke"). The tasks update at most as often as the engine prints
 * (k6 about every second when piped, the engine every 10 s); a 1 s ticker keeps a live display's elapsed time moving.
 */
export function engineProgress(progress: Progress, label: (scenario: string) => string, expected: readonly string[] = []): EngineProgress {
  const tasks = new Map<string, TaskHandle>();
  let pending = '';
  let running = '';
  const ticker = setInterval(() => {
    for (const task of tasks.values()) task.update({});
  }, 1_000);
  ticker.unref();

  const task = (scenario: string): TaskHandle => {
    let t = tasks.get(scenario);
    if (t === undefined) {
      t = progress.start({ label: label(scenario), total: 100, unit: '%' });
      tasks.set(scenario, t);
    }
    return t;
  };

  for (const name of expected) task(name);

  const onLine = (raw: string): void => {
    const line = raw.replace(/\s+$/, '');
    if (line.trim() === '' || NOISE.some((re) => re.test(line))) return;
    const scenario = SCENARIO_LINE.exec(line);
    if (scenario !== null) {
      const name = scenario[1] as string;
      task(name).update({
        done: Math.min(100, Number(scenario[2])),
        detail: `${(scenario[3] ?? '').replace(/\s+/g, ' ').trim()}${running === '' ? '' : ` · ${running}`}`,
      });
      return;
    }
    const run = RUNNING_LINE.exec(line);
    if (run !== null) {
      running = `${run[2] ?? ''} (${run[1] ?? ''})`;
      return;
    }
    progress.line(line.trim());
  };

  return {
    write(chunk: string): void {
      pending += chunk.replace(/\r/g, '\n');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    },
    finish(result): void {
      clearInterval(ticker);
      if (pending !== '') onLine(pending);
      pending = '';
      for (const t of tasks.values()) t.done({ ok: result.ok, ...(result.detail === undefined ? {} : { detail: result.detail }) });
    },
  };
}
