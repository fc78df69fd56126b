// The comparison's proof on simulated runs: k6 NDJSON streams written by the synthetic generator (latency waves, slow
// bursts that make samples autocorrelated, seeded), read by the real reader and judged. Cheap enough for many pairs.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeSyntheticK6 } from '../../reports/fixtures/synthetic-k6.ts';
import { comparisonOf } from '../compare-runs.ts';
import { outcome, type PairOutcome } from './experiment.ts';

export interface SimulationPlan {
  readonly dir: string;
  readonly pairs: number;
  readonly durationS: number;
  /** Requests per second over all operations (SYNTHETIC_OPERATIONS, picked at random). */
  readonly rps: number;
  /** Chance per second of a slow second (latency × burstFactor): within-run autocorrelation. */
  readonly burstRate: number;
  readonly burstFactor: number;
  /** The operation slowed in the slow run and failed in the failing run (failOperation, when given, instead). */
  readonly operation: string;
  readonly failOperation?: string;
  /** 1.25: the operation 25 % slower in the slow run. */
  readonly slowFactor: number;
  /** 0.02: 2 % of the operation's responses fail in the failing run (none in the others). */
  readonly failShare: number;
  /** First seed; each run of each pair gets its own. */
  readonly seed?: number;
  readonly onPair?: (pair: PairOutcome, index: number) => void;
}

async function write(
  dir: string,
  plan: SimulationPlan,
  seed: number,
  change: { latencyFactor?: Record<string, number>; businessFailures?: Record<string, number> },
): Promise<string> {
  mkdirSync(dir, { recursive: true });
  await writeSyntheticK6(join(dir, 'metrics.ndjson'), {
    durationS: plan.durationS,
    rps: plan.rps,
    seed,
    burstRate: plan.burstRate,
    burstFactor: plan.burstFactor,
    // A steady load (no wave): the bursts are the autocorrelation, random and different in every run.
    waveAmplitude: 0,
    businessFailures: change.businessFailures ?? {},
    ...(change.latencyFactor === undefined ? {} : { latencyFactor: change.latencyFactor }),
  });
  return dir;
}

/** Per pair: A, A' (A/A), B slow (A/B against A), B failing (A/B against A); every run its own seed. */
export async function simulateExperiment(plan: SimulationPlan): Promise<PairOutcome[]> {
  const out: PairOutcome[] = [];
  const first = plan.seed ?? 1000;
  for (let i = 0; i < plan.pairs; i++) {
    const at = (name: string): string => join(plan.dir, `${i}-${name}`);
    const seed = first + 4 * i;
    const a = await write(at('a1'), plan, seed, {});
    const again = await write(at('a2'), plan, seed + 1, {});
    const slow = await write(at('slow'), plan, seed + 2, { latencyFactor: { [plan.operation]: plan.slowFactor } });
    const failing = await write(at('fail'), plan, seed + 3, {
      businessFailures: { [plan.failOperation ?? plan.operation]: plan.failShare },
    });
    for (const [kind, candidate] of [
      ['A/A', again],
      ['A/B slow', slow],
      ['A/B fail', failing],
    ] as const) {
      const pair = outcome(kind, await comparisonOf({ baselineDir: a, candidateDir: candidate }));
      out.push(pair);
      plan.onPair?.(pair, i);
    }
  }
  return out;
}
