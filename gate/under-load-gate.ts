// The gate's `--under-load` part: after the idle pass, the suite runs again while the mixed scenario holds its load
// against the same target; the two passes are compared per case, and the load's own section replaces the smoke load's.
import { runConformanceSuite, type SuiteRequest } from '../conformance/run-suite.ts';
import { conformanceSection } from '../conformance/section.ts';
import { compareUnderLoad, withUnderLoad } from '../conformance/under-load/compare.ts';
import type { ApiSelection } from '../conformance/plan.ts';
import type { ResolvedTargetConfig } from '../api/target-config.ts';
import type { EngineChoice } from '../load/engine-select.ts';
import type { ProfileName } from '../load/profiles.ts';
import { interruptedSection, loadInterruption } from '../load/runner/load-report.ts';
import type { LoadRun } from '../load/runner/run-load.ts';
import type { ConformanceSection, LoadSection } from '../reports/model.ts';
import type { Progress } from '../reports/progress.ts';
import type { RunInterrupt } from '../reports/interrupt-watch.ts';
import type { ReportInterruption } from '../reports/interruption.ts';
import type { RunningSandbox } from '../sandbox/server.ts';
import { combineVerdicts } from '../reports/verdict.ts';
import { runUnderLoad, underLoadFlags, underLoadRun, underLoadSection } from './under-load.ts';

export interface LoadedPassRequest {
  readonly profile: ProfileName;
  readonly engine: EngineChoice;
  readonly api: ApiSelection;
  readonly reportDir: string;
  readonly runId: string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly progress: Progress;
  readonly allowSkips: boolean;
  readonly secrets: readonly string[];
  readonly interrupt?: RunInterrupt;
  readonly resolved: ResolvedTargetConfig;
  readonly sandbox?: RunningSandbox;
  /** The embedded sandbox's profile (reported with the load's target). */
  readonly sandboxProfile: string;
  /** The idle pass's suite request: the loaded pass runs the same plan, priced again against the balance then. */
  readonly suite: SuiteRequest;
  readonly idle: ConformanceSection;
  readonly idleMs: number;
  readonly startedAt: number;
  readonly notRun: readonly string[];
}

/** What the gate's load part returns, the same shape whether the smoke load or the load under the pass ran. */
export interface LoadedPart {
  readonly run: LoadRun;
  readonly section?: LoadSection;
  readonly error?: { readonly code: string; readonly message: string; readonly verdict?: 'fail' };
  readonly interruption?: ReportInterruption;
}

/** The loaded pass and its load: the conformance section with `underLoad`, and the load part for the report. */
export async function loadedPass(request: LoadedPassRequest): Promise<{ conformance: ConformanceSection; load: LoadedPart }> {
  const flags = underLoadFlags(request, request.idleMs);
  const { announce: _announce, ...suite } = request.suite;
  const sandbox = request.sandbox;
  const outcome = await runUnderLoad(
    flags,
    {
      resolved: request.resolved,
      cwd: request.cwd,
      env: request.env,
      runId: request.runId,
      progress: request.progress,
      ...(request.interrupt === undefined ? {} : { interrupt: request.interrupt }),
      ...(sandbox === undefined
        ? {}
        : {
            sandbox: {
              url: sandbox.url,
              profile: request.sandboxProfile,
              inFlight: () => sandbox.app.stats.inFlight,
              requestsSeen: () => sandbox.app.stats.snapshot().requestsTotal,
            },
          }),
    },
    (witness) => runConformanceSuite({ ...suite, beforeRequest: (caseId) => witness.beforeRequest(caseId) }),
  );
  // Stopped at the pass's end (k6's 105) is no interruption; a signal to the command, or an abort on the load's own, is.
  const byCommand = request.interrupt?.interruption(request.startedAt, { notRun: [...request.notRun] });
  const interruption = outcome.stoppedAtPassEnd
    ? byCommand
    : loadInterruption(outcome.run, request.interrupt, request.startedAt, { notRun: [...request.notRun] });
  const judged = await underLoadSection(outcome.run, flags, request.allowSkips);
  const section = judged.section === undefined ? undefined : interruptedSection(judged.section, interruption);
  const load: LoadedPart = {
    run: outcome.run,
    ...(section === undefined ? {} : { section }),
    ...(judged.error === undefined || interruption !== undefined
      ? {}
      : { error: { code: 'GH_ERR_INTERNAL', message: judged.error, verdict: 'fail' } }),
    ...(interruption === undefined ? {} : { interruption }),
  };
  if (outcome.pass.kind !== 'run' || interruption !== undefined) {
    const why = outcome.pass.kind === 'run' ? 'interrupted' : outcome.pass.reason;
    // Nothing to compare: the comparison is empty, says why, and the section is not verified under load (never a pass).
    const empty = compareUnderLoad(request.idle, { ...request.idle, cases: [] }, underLoadRun(outcome, flags.profile));
    const underLoad = { ...empty, notes: [...empty.notes, `the pass under load did not finish: ${why}`] };
    return { conformance: { ...request.idle, verdict: combineVerdicts([request.idle.verdict, 'incomplete']), underLoad }, load };
  }
  const loaded = conformanceSection(outcome.pass.run, { allowSkips: request.allowSkips, secrets: request.secrets });
  return { conformance: withUnderLoad(request.idle, compareUnderLoad(request.idle, loaded, underLoadRun(outcome, flags.profile))), load };
}
