// One proof run: the whole conformance plan against the embedded sandbox under one profile, reduced to what the
// meta-test compares (status per case id, and a readable explanation of every case that did not pass).
import { DEFAULT_FIELD_MAPPING } from '../../api/field-mapping.ts';
import { addProfiles } from '../../sandbox/profiles/registry.ts';
import { startSandbox } from '../../sandbox/server.ts';
import { ALL_CASES } from '../plan.ts';
import { formatCaseFailure } from '../report.ts';
import { runCases } from '../runner.ts';
import { DEFAULT_SETTINGS, mergeSettings } from '../../target/settings.ts';
import { createNodeConformanceTarget, sandboxTargetConfig, timingFor } from '../target.ts';
import type { SandboxProfile } from '../../sandbox/profiles/types.ts';
import type { CaseStatus, ConformanceCase, GenCoverage } from '../types.ts';
import { PLANTED_BUG_PROFILES } from './planted-bugs.ts';
import { GEN_BUG_PROFILES } from './gen-bugs.ts';

// A proof worker gets profile names: the planted bugs must be found by name in its process too.
addProfiles(PLANTED_BUG_PROFILES);
addProfiles(GEN_BUG_PROFILES);

/**
 * Small enough to keep a run short (the 120 s trigger takes 4.8 s), large enough that the delay triggers' client
 * timeouts (1.2 s / 1.6 s) and a fast answer stay far apart on a busy, shared 2-core machine.
 */
export const PROOF_TIME_SCALE = 0.04;

export interface CaseOutcome {
  readonly id: string;
  readonly status: CaseStatus;
  /** Why it did not pass (failed: the checks that fired; skipped: the reason). */
  readonly explanation?: string;
  /** What the case noted (GEN: its seed, budget and time to the first failure). */
  readonly notes?: readonly string[];
  /** GEN cases: their reach (conformance/types.ts GenCoverage). */
  readonly gen?: GenCoverage;
}

export interface ProfileOutcome {
  readonly profile: string;
  readonly durationMs: number;
  readonly cases: readonly CaseOutcome[];
}

/** `cases`: a part of the plan (default the whole plan); `profile` by name or as a profile object (a test's variant). */
export async function runPlanAgainst(
  profile: string | SandboxProfile,
  cases: readonly ConformanceCase[] = ALL_CASES,
): Promise<ProfileOutcome> {
  const started = Date.now();
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, timeScale: PROOF_TIME_SCALE, profile });
  const config = sandboxTargetConfig(sandbox.url, PROOF_TIME_SCALE);
  // Fewer POLL top-ups than the CLI's 50 (every kind still present): same checks, less time. Many runs share the
  // machine, so an ordinary answer may wait long for the CPU: a generous real-time floor keeps that from being a
  // "timeout" (the trigger delays' own client timeouts are never floored, so they still fire).
  const settings = mergeSettings(DEFAULT_SETTINGS, {
    loanNumbers: [...sandbox.app.data.samples.loanNumbers],
    pollLoadTransactions: 12,
    minRequestTimeoutMs: 30_000,
  });
  const target = createNodeConformanceTarget(config);
  try {
    const result = await runCases(cases, { target, settings, timing: timingFor(config, settings), mapping: DEFAULT_FIELD_MAPPING });
    return {
      profile: typeof profile === 'string' ? profile : profile.name,
      durationMs: Date.now() - started,
      cases: result.cases.map((c) => ({
        id: c.id,
        status: c.status,
        ...(c.notes.length === 0 ? {} : { notes: c.notes }),
        ...(c.gen === undefined ? {} : { gen: c.gen }),
        ...(c.status === 'failed'
          ? { explanation: formatCaseFailure(c) }
          : c.status === 'skipped'
            ? { explanation: `${c.id}: skipped (${c.skipReason ?? '?'})` }
            : {}),
      })),
    };
  } finally {
    await target.close();
    await sandbox.close();
  }
}
