// The target of one load run: the caller's embedded sandbox (the gate), one started here when no target is given, or
// the given URL behind the one preflight, so an unusable target is said in seconds instead of a run built on no answer.
import { describeTarget, type ResolvedTargetConfig, type TargetConfig } from '../../api/target-config.ts';
import type { FaultCounts } from '../../api/faults.ts';
import { preflightTarget } from '../../client/target-preflight.ts';
import type { Progress } from '../../reports/progress.ts';
import { LOAD_SANDBOX_FUNDS } from '../../sandbox/behaviour.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import type { LoadFlags } from './load-options.ts';

export interface LoadTarget {
  readonly target: { readonly url: string; readonly embedded: boolean; readonly profile?: string };
  /** How the target is named to the user and in the bundle (credentials never in it). */
  readonly label: string;
  readonly resolved: ResolvedTargetConfig;
  /** The sandbox this run started (closed by the run), if it started one. */
  readonly sandbox?: RunningSandbox;
}

/** The run's target; an embedded sandbox started here gets the run's funds (`--funds`, default LOAD_SANDBOX_FUNDS). */
export async function openLoadTarget(
  flags: LoadFlags,
  config: TargetConfig,
  given: { readonly url: string; readonly profile: string } | undefined,
  progress: Progress,
): Promise<LoadTarget> {
  if (given !== undefined) {
    const target = { url: given.url, embedded: true, profile: given.profile };
    return { target, label: `embedded sandbox (${given.url})`, resolved: { ...config, baseUrl: given.url } };
  }
  if (config.baseUrl !== undefined) {
    return {
      target: { url: config.baseUrl, embedded: false },
      label: describeTarget(config),
      resolved: { ...config, baseUrl: config.baseUrl },
    };
  }
  const funds = flags.funds ?? LOAD_SANDBOX_FUNDS;
  const profile = config.sandbox.profile ?? 'faithful';
  const sandbox = await startSandbox({
    host: '127.0.0.1',
    port: 0,
    timeScale: config.timeScale,
    seed: config.sandbox.seed,
    profile,
    user: config.user,
    password: config.password,
    writePaths: { ...config.writePaths },
    behaviour: { initialBalance: funds },
  });
  progress.line(`load: embedded sandbox on ${sandbox.url} (time scale ${config.timeScale}, funds ${funds} USD)`);
  return {
    target: { url: sandbox.url, embedded: true, profile },
    label: `embedded sandbox (${sandbox.url})`,
    resolved: { ...config, baseUrl: sandbox.url },
    sandbox,
  };
}

/**
 * One short, bounded balance read before any VU starts, for a target the harness did not start. Its faults join the
 * run's tally; `reason` says why the target cannot be used (nothing is run against it then).
 */
export async function preflightLoadTarget(
  loadTarget: LoadTarget,
  api: LoadFlags['api'],
): Promise<{ readonly faults?: FaultCounts; readonly reason?: string }> {
  if (loadTarget.target.embedded) return {};
  const check = await preflightTarget(loadTarget.resolved, api === 'v1' ? 'v1' : 'v2');
  return { faults: check.faults, ...(check.usable ? {} : { reason: check.reason }) };
}
