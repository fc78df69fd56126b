// `conformance --under-load [profile]`: after the idle pass, the suite's second pass under the mixed scenario's load on
// the same target (gate/under-load-gate.ts, shared with the gate): the conformance section with `underLoad`, and the load's section.
import type { ResolvedTargetConfig } from '../../api/target-config.ts';
import type { ApiSelection } from '../../conformance/plan.ts';
import type { RunResult } from '../../conformance/types.ts';
import type { SuiteRequest } from '../../conformance/run-suite.ts';
import { conformanceSection } from '../../conformance/section.ts';
import { loadedPass, type LoadedPart } from '../../gate/under-load-gate.ts';
import type { ProfileName } from '../../load/profiles.ts';
import type { ConformanceSection } from '../../reports/model.ts';
import type { Progress } from '../../reports/progress.ts';
import type { RunInterrupt } from '../../reports/interrupt-watch.ts';
import type { RunningSandbox } from '../../sandbox/server.ts';
import { HarnessError } from '../../api/errors.ts';
import { parseUnderLoadProfile } from '../../gate/under-load.ts';

/** --under-load [profile] (gate and conformance): the load profile of the mixed scenario held under the second pass (default load). */
export function underLoadProfile(value: string | true | undefined): ProfileName | undefined {
  try {
    return parseUnderLoadProfile(value);
  } catch (error) {
    throw new HarnessError('GH_ERR_USAGE', (error as Error).message);
  }
}

export interface ConformanceUnderLoad {
  readonly profile: ProfileName;
  readonly api: ApiSelection;
  readonly runId: string;
  readonly reportDir: string;
  readonly allowSkips: boolean;
  readonly secrets: readonly string[];
  readonly progress: Progress;
  readonly interrupt: RunInterrupt;
  readonly resolved: ResolvedTargetConfig;
  readonly sandbox?: RunningSandbox;
  readonly sandboxProfile: string;
  readonly suite: SuiteRequest;
}

/** The second pass under load, after an idle pass that ran whole (neither interrupted nor silent). */
export async function conformanceUnderLoad(
  request: ConformanceUnderLoad,
  idle: RunResult,
): Promise<{ readonly conformance: ConformanceSection; readonly load: LoadedPart }> {
  request.interrupt.enter('load');
  return loadedPass({
    ...request,
    engine: 'auto',
    cwd: process.cwd(),
    env: process.env,
    idle: conformanceSection(idle, { allowSkips: request.allowSkips, secrets: request.secrets }),
    idleMs: idle.durationMs,
    startedAt: idle.startedAt,
    notRun: [],
  });
}
