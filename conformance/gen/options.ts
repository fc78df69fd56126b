// GEN's run options: the seed, the budget (runs per property, or a wall-time bound), and a replay of one counterexample.
// Parsed once from the command line (conformance, gate, fuzz) so every command speaks the same `--gen-budget`/`--replay`.
import { HarnessError } from '../../api/errors.ts';

/** How much one GEN property may do: at most `runs` generated inputs, and at most `timeLimitMs` of wall time (shrinking included). */
export interface GenBudget {
  readonly runs: number;
  readonly timeLimitMs?: number;
}

/** A counterexample to run again exactly: fast-check's seed and the path to the shrunk value (`<seed>:<path>`). */
export interface GenReplay {
  readonly seed: number;
  readonly path: string;
  /** Model-based sequences: fast-check's replay path of the commands (`@<replayPath>` after the path). */
  readonly commands?: string;
}

export interface GenOptions {
  readonly seed: number;
  readonly budget: GenBudget;
  readonly replay?: GenReplay;
  /**
   * Runs of each property that charges the wallet, when a wallet too small for the whole budget cut them
   * (conformance/money-plan.ts fits them to the balance); absent: the budget's runs.
   */
  readonly chargingRuns?: number;
}

/** Runs of a property that charges: the budget's, or the smaller charging budget a wallet fitted. */
export function chargingRuns(options: GenOptions): number {
  return options.chargingRuns === undefined ? options.budget.runs : Math.min(options.budget.runs, options.chargingRuns);
}

/**
 * The gate's and conformance's default: enough runs that each planted GEN bug is found for nearly every seed (the proof
 * meta-test measures it), few enough that the gate on the embedded sandbox stays well under a minute on 2 cores. The
 * time bound keeps a slow real sandbox (time scale 1) from running long: each property stops after it, shrinking included.
 */
export const DEFAULT_GEN_BUDGET: GenBudget = Object.freeze({ runs: 30, timeLimitMs: 20_000 });

/** `gateway-harness fuzz`'s default: GEN alone, a larger budget. */
export const FUZZ_GEN_BUDGET: GenBudget = Object.freeze({ runs: 300, timeLimitMs: 120_000 });

function usage(message: string): HarnessError {
  return new HarnessError('GH_ERR_USAGE', message);
}

/** `200` (runs per property) or a duration `90s` / `2m` / `1500ms` (wall time per property; runs then unbounded up to 100 000). */
export function parseGenBudget(value: string | undefined, fallback: GenBudget): GenBudget {
  if (value === undefined) return fallback;
  const runs = /^(\d{1,6})$/.exec(value);
  if (runs !== null) {
    const n = Number(runs[1]);
    if (n < 1) throw usage('--gen-budget: at least 1 run');
    return { runs: n, ...(fallback.timeLimitMs === undefined ? {} : { timeLimitMs: Math.max(fallback.timeLimitMs, n * 200) }) };
  }
  const duration = /^(\d{1,7})(ms|s|m)$/.exec(value);
  if (duration !== null) {
    const ms = Number(duration[1]) * (duration[2] === 'ms' ? 1 : duration[2] === 's' ? 1_000 : 60_000);
    if (ms < 100) throw usage('--gen-budget: at least 100ms');
    return { runs: 100_000, timeLimitMs: ms };
  }
  throw usage(`--gen-budget must be a number of runs (e.g. 200) or a duration (e.g. 90s, 2m, 1500ms), got "${value.slice(0, 20)}"`);
}

/** A GEN seed: a whole number from 0 to 2147483647; absent → a fresh one (reported, so the run can be repeated). */
export function parseGenSeed(value: string | undefined, fresh: () => number = () => Math.floor(Math.random() * 2 ** 31)): number {
  if (value === undefined) return fresh();
  if (!/^\d{1,10}$/.test(value) || Number(value) > 2 ** 31 - 1)
    throw usage('--gen-seed/--seed must be a whole number from 0 to 2147483647');
  return Number(value);
}

/** `--replay <seed>:<path>` as a failing GEN case reports it (path: fast-check's counterexample path, e.g. `3:0:1`). */
export function parseReplay(value: string | undefined): GenReplay | undefined {
  if (value === undefined) return undefined;
  const m = /^(-?\d{1,11}):(\d+(?::\d+)*)(?:@(\S+))?$/.exec(value);
  if (m === null) throw usage(`--replay must be <seed>:<path> as a GEN failure prints it (e.g. 42:3:0:1), got "${value.slice(0, 40)}"`);
  return { seed: Number(m[1]), path: m[2] as string, ...(m[3] === undefined ? {} : { commands: m[3] }) };
}

/** The budget as a report line says it. */
export function describeBudget(budget: GenBudget): string {
  const runs = budget.runs >= 100_000 ? 'runs until the time bound' : `${budget.runs} runs`;
  return budget.timeLimitMs === undefined ? runs : `${runs}, at most ${Math.round(budget.timeLimitMs / 100) / 10} s per property`;
}
