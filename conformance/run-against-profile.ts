// Test helper shared by the profile meta-tests (planted bugs, benign changes): the whole conformance plan against an
// embedded sandbox started with one named profile, through the real runner, a few profiles side by side.
import { DEFAULT_FIELD_MAPPING } from '../api/field-mapping.ts';
import { CONFIG_DEFAULTS, type ResolvedTargetConfig } from '../api/target-config.ts';
import { startSandbox } from '../sandbox/server.ts';
import { ALL_CASES } from './plan.ts';
import { formatCaseFailure } from './report.ts';
import { runCases } from './runner.ts';
import { DEFAULT_SETTINGS, mergeSettings } from './settings.ts';
import { createNodeConformanceTarget, timingFor } from './target.ts';
import type { RunResult } from './types.ts';

/** Small enough to keep the run short, large enough that the delay triggers' timeouts (600/800 ms) beat a busy CPU. */
export const META_TIME_SCALE = 0.02;
/** Profiles run side by side (each is one in-process sandbox + one client). */
const PARALLEL = 4;

export interface ProfileRunnerOptions {
  /** Runs at a time in this process (default 4): fewer means less event-loop lag per request on a busy machine. */
  readonly parallel?: number;
  /** Default META_TIME_SCALE; a larger one gives every real-time timeout more room against CPU lag. */
  readonly timeScale?: number;
}

/** A function that runs every case of the plan against a sandbox with the named profile, a few profiles at a time. */
export function profileRunner(options: ProfileRunnerOptions = {}): (profile: string) => Promise<RunResult> {
  const timeScale = options.timeScale ?? META_TIME_SCALE;
  const waiting: Array<() => void> = [];
  let free = options.parallel ?? PARALLEL;
  const withSlot = async <T>(work: () => Promise<T>): Promise<T> => {
    if (free === 0) await new Promise<void>((resolve) => waiting.push(resolve));
    else free -= 1;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next === undefined) free += 1;
      else next();
    }
  };

  return (profile) =>
    withSlot(async () => {
      const sandbox = await startSandbox({ port: 0, timeScale, profile });
      const config: ResolvedTargetConfig = {
        baseUrl: sandbox.url,
        user: 'user',
        password: 'pass',
        environment: 'sandbox',
        timeScale,
        timeouts: CONFIG_DEFAULTS.timeouts,
        poll: CONFIG_DEFAULTS.poll,
        writePaths: {},
        fieldMapping: DEFAULT_FIELD_MAPPING,
        sandbox: { seed: 1 },
      };
      // Fewer POLL top-ups than the CLI's 50 (every kind still twice) and less polling slack: same checks, less time.
      const settings = mergeSettings(DEFAULT_SETTINGS, {
        loanNumbers: [...sandbox.app.data.samples.loanNumbers],
        pollLoadTransactions: 12,
        pollSlackMs: 1_500,
      });
      const target = createNodeConformanceTarget(config);
      try {
        return await runCases(ALL_CASES, { target, settings, timing: timingFor(config, settings), mapping: DEFAULT_FIELD_MAPPING });
      } finally {
        await target.close();
        await sandbox.close();
      }
    });
}

/** The planted-bug meta-test's runner: time scale 0.02, four profiles at a time. */
export const runAgainst = profileRunner();

/** The named cases of a run, one line each: the failure with expected/received, or the status and skip reason. */
export function explain(result: RunResult, ids: readonly string[]): string {
  return result.cases
    .filter((c) => ids.includes(c.id))
    .map((c) => (c.status === 'failed' ? formatCaseFailure(c) : `${c.id}: ${c.status}${c.skipReason === undefined ? '' : ` (${c.skipReason})`}`))
    .join('\n');
}
