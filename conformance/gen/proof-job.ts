// A GEN proof job for the proof pool (conformance/proof/): some GEN cases of one seed and budget against one profile,
// named by a string (`gen|<profile>|<seed>|<runs>|<case ids or *>`) so the pool hands it out like a profile name.
import { runPlanAgainst, type ProfileOutcome } from '../proof/profile-run.ts';
import { genCases } from './cases.ts';

export interface GenJob {
  readonly profile: string;
  readonly seed: number;
  readonly runs: number;
  /** GEN case ids to run; empty: all of them. */
  readonly ids: readonly string[];
}

export const genJobName = (job: GenJob): string =>
  `gen|${job.profile}|${job.seed}|${job.runs}|${job.ids.length === 0 ? '*' : job.ids.join(',')}`;

export const isGenJob = (name: string): boolean => name.startsWith('gen|');

export function parseGenJob(name: string): GenJob {
  const [, profile, seed, runs, ids] = name.split('|');
  return {
    profile: profile as string,
    seed: Number(seed),
    runs: Number(runs),
    ids: ids === '*' || ids === undefined ? [] : ids.split(','),
  };
}

/** The proof's budget is the gate's in runs; no time bound, so a busy machine does not decide whether a bug is found. */
export async function runGenJob(name: string): Promise<ProfileOutcome> {
  const job = parseGenJob(name);
  const cases = genCases({ seed: job.seed, budget: { runs: job.runs } }).filter((c) => job.ids.length === 0 || job.ids.includes(c.id));
  const outcome = await runPlanAgainst(job.profile, cases);
  return { ...outcome, profile: name };
}
