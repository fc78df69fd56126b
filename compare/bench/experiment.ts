// The comparison's proof runs: pairs of real load runs (the CLI on the Node engine, in child processes) against a
// fresh embedded sandbox each, judged by the comparison. A/A (no change), A/B slow-op, A/B fail-op; counts of verdicts.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../../sandbox/server.ts';
import { LOAD_SANDBOX_FUNDS } from '../../sandbox/behaviour.ts';
import type { ComparisonSection } from '../../reports/model.ts';
import { comparisonOf } from '../compare-runs.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'bin', 'gateway-harness.mjs');

export interface ExperimentSize {
  readonly scenario: string;
  /** v1, v2 or both: one version halves the operations, so each gets twice the samples. */
  readonly api: string;
  readonly vus: number;
  readonly duration: string;
  /**
   * A response latency every operation gets on both sides (uniform ms..ms+jitter, as a network and a real gateway
   * add): without it a +25 % of the embedded sandbox's ~2 ms is below the +5 ms practical threshold by design.
   */
  readonly latencyMs: number;
  readonly jitterMs: number;
}

/** One load run against a sandbox of the given profile; returns its report dir. */
export async function loadRun(dir: string, profile: string, size: ExperimentSize): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const sandbox = await startSandbox({
    profile,
    funds: LOAD_SANDBOX_FUNDS,
    behaviour: { responseLatencyMs: size.latencyMs, responseLatencyJitterMs: size.jitterMs },
  });
  try {
    const args = [
      CLI,
      'load',
      '--scenario',
      size.scenario,
      '--engine',
      'node',
      '--api',
      size.api,
      '--vus',
      String(size.vus),
      '--duration',
      size.duration,
      '--target',
      sandbox.url,
      '--report-dir',
      dir,
    ];
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err = (err + c).slice(-2000)));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', resolve);
    });
    // 0 pass, 1 a failed check (fail-op's business failures), 99 thresholds: every one of them is a complete run.
    if (code !== 0 && code !== 1 && code !== 99) throw new Error(`load run in ${dir} exited ${String(code)}: ${err}`);
    return dir;
  } finally {
    await sandbox.close();
  }
}

export interface PairOutcome {
  readonly kind: 'A/A' | 'A/B slow' | 'A/B fail';
  readonly section: ComparisonSection;
  /** Operations judged regression. */
  readonly regressed: readonly string[];
  readonly incomplete: readonly string[];
}

/** A pair's comparison as the experiment counts it. */
export function outcome(kind: PairOutcome['kind'], section: ComparisonSection): PairOutcome {
  const of = (v: string): string[] => section.operations.filter((o) => o.verdict === v).map((o) => o.operation);
  return { kind, section, regressed: of('regression'), incomplete: of('incomplete') };
}

export interface ExperimentPlan {
  readonly dir: string;
  readonly pairs: number;
  readonly size: ExperimentSize;
  /** The operation slowed (slow-op) and failed (fail-op). */
  readonly operation: string;
  readonly slowPct: number;
  readonly failPct: number;
  /** How many of the pairs also get a fail-op run (it costs one more run per pair). */
  readonly failPairs: number;
  /**
   * Run a pair's runs at the same time (each against its own sandbox) instead of one after the other: on a shared
   * machine whose load drifts by the minute, sequential runs measure that drift as much as the statistics.
   */
  readonly concurrent?: boolean;
  readonly onPair?: (pair: PairOutcome, index: number) => void;
}

/**
 * Per pair i: baseline A, second A (A/A), slow-op B (A/B slow against the baseline), and for the first failPairs a
 * fail-op B (A/B fail against the same baseline). Runs interleave so a drift of the machine hits every kind alike.
 */
export async function runExperiment(plan: ExperimentPlan): Promise<PairOutcome[]> {
  const out: PairOutcome[] = [];
  const record = (pair: PairOutcome, i: number): void => {
    out.push(pair);
    plan.onPair?.(pair, i);
  };
  for (let i = 0; i < plan.pairs; i++) {
    const at = (name: string): string => join(plan.dir, `${i}-${name}`);
    const withFail = i < plan.failPairs;
    const runs: Array<[string, string]> = [
      ['a1', 'faithful'],
      ['a2', 'faithful'],
      ['slow', `slow-op:${plan.operation}:${plan.slowPct}%`],
      ...(withFail ? [['fail', `fail-op:${plan.operation}:${plan.failPct}%`] as [string, string]] : []),
    ];
    const dirs: string[] = [];
    if (plan.concurrent === true) dirs.push(...(await Promise.all(runs.map(([name, profile]) => loadRun(at(name), profile, plan.size)))));
    else for (const [name, profile] of runs) dirs.push(await loadRun(at(name), profile, plan.size));
    const [baseline = '', again = '', slow = '', failing] = dirs;
    record(outcome('A/A', await comparisonOf({ baselineDir: baseline, candidateDir: again })), i);
    record(outcome('A/B slow', await comparisonOf({ baselineDir: baseline, candidateDir: slow })), i);
    if (failing !== undefined) record(outcome('A/B fail', await comparisonOf({ baselineDir: baseline, candidateDir: failing })), i);
  }
  return out;
}

/** The figures: A/A pairs with no regression; A/B pairs flagged on the changed operation and on no other. */
export function tally(
  pairs: readonly PairOutcome[],
  operation: string,
  failOperation = operation,
): Record<PairOutcome['kind'], { pairs: number; right: number; incomplete: number }> {
  const kinds: PairOutcome['kind'][] = ['A/A', 'A/B slow', 'A/B fail'];
  const changed = (p: PairOutcome): string => (p.kind === 'A/B fail' ? failOperation : operation);
  const right = (p: PairOutcome): boolean =>
    p.kind === 'A/A' ? p.regressed.length === 0 : p.regressed.length === 1 && p.regressed[0] === changed(p);
  return Object.fromEntries(
    kinds.map((k) => {
      const of = pairs.filter((p) => p.kind === k);
      return [k, { pairs: of.length, right: of.filter(right).length, incomplete: of.filter((p) => p.incomplete.length > 0).length }];
    }),
  ) as Record<PairOutcome['kind'], { pairs: number; right: number; incomplete: number }>;
}
