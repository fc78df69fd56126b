// Live progress: one line per scenario redrawn in place on a TTY, or a plain line every 10 s otherwise (CI logs).
import { formatDuration } from './durations.ts';
import type { ScenarioConfig } from './options.ts';
import { iterationGoal, scenarioDurationMs, scenarioMaxVUs } from './executors/registry.ts';

export type ProgressMode = 'tty' | 'plain' | 'none';

export interface ProgressView {
  elapsedMs: number;
  vusActive: number;
  vusMax: number;
  completed: number;
  interrupted: number;
  scenarios: Record<string, { iterations: number; dropped: number }>;
}

export class ProgressReporter {
  private drawn = 0;
  private lastPlain = 0;

  constructor(
    private readonly mode: ProgressMode,
    private readonly scenarios: ScenarioConfig[],
    private readonly out: NodeJS.WritableStream = process.stderr,
  ) {}

  private lines(v: ProgressView): string[] {
    const head = `running (${formatDuration(v.elapsedMs)}), ${v.vusActive}/${v.vusMax} VUs, ${v.completed} complete and ${v.interrupted} interrupted iterations`;
    return [
      head,
      ...this.scenarios.map((s) => {
        const c = v.scenarios[s.name] ?? { iterations: 0, dropped: 0 };
        const total = s.startTimeMs + scenarioDurationMs(s);
        const iterationsGoal = iterationGoal(s);
        const byTime = total === 0 ? 100 : (v.elapsedMs / total) * 100;
        const pct = Math.min(100, Math.floor(iterationsGoal > 0 ? Math.max(byTime, (c.iterations / iterationsGoal) * 100) : byTime));
        const dropped = c.dropped > 0 ? `, ${c.dropped} dropped` : '';
        return `${s.name} [${String(pct).padStart(3)}%] ${s.executor}, up to ${scenarioMaxVUs(s)} VUs, ${c.iterations} iterations${dropped}`;
      }),
    ];
  }

  update(v: ProgressView): void {
    if (this.mode === 'none') return;
    if (this.mode === 'plain') {
      if (v.elapsedMs - this.lastPlain < 10_000) return;
      this.lastPlain = v.elapsedMs;
      this.out.write(`${this.lines(v).join('\n')}\n`);
      return;
    }
    const lines = this.lines(v);
    const up = this.drawn > 0 ? `\x1b[${this.drawn}A` : '';
    this.out.write(`${up}${lines.map((l) => `\x1b[2K${l}`).join('\n')}\n`);
    this.drawn = lines.length;
  }

  finish(v: ProgressView): void {
    if (this.mode === 'none') return;
    if (this.mode === 'plain') {
      this.out.write(`${this.lines(v).join('\n')}\n`);
      return;
    }
    this.update(v);
    this.drawn = 0;
  }
}
