// The one builder of a load run's bundle environment from the load flags and the target config: `load` (run-load.ts)
// and `k6-operator` (distributed/k6-operator/plan.ts) both use it, so a flag or config key means the same on pods.
import type { TargetConfig } from '../../api/target-config.ts';
import { runEnvironment } from '../run-settings.ts';
import type { LoadFlags } from './load-options.ts';

/** Where the bundle runs: the target it reaches, how it is named, the run's id and where handleSummary writes. */
export interface EnvironmentPlace {
  readonly baseUrl: string;
  readonly targetLabel: string;
  readonly runId: string;
  readonly reportDir: string;
}

/** The user's -e variables, then the harness's own settings over them (GATEWAY_*, refused as -e keys, are never the user's). */
export function loadEnvironment(flags: LoadFlags, config: TargetConfig, place: EnvironmentPlace): Record<string, string> {
  return {
    ...flags.envVars,
    ...runEnvironment({
      baseUrl: place.baseUrl,
      user: config.user,
      password: config.password,
      environment: config.environment,
      timeScale: config.timeScale,
      profile: flags.profile,
      api: flags.api,
      ...(flags.vus === undefined ? {} : { vus: flags.vus }),
      ...(flags.duration === undefined ? {} : { duration: flags.duration }),
      ...(flags.rate === undefined ? {} : { rate: flags.rate }),
      ...(flags.iterations === undefined ? {} : { iterations: flags.iterations }),
      thresholds: flags.thresholds,
      ...(flags.promoteObserved === true ? { promoteObserved: true } : {}),
      config: {
        timeouts: config.timeouts,
        poll: config.poll,
        writePaths: config.writePaths,
        fieldMapping: config.fieldMapping,
        ...(config.paging === undefined ? {} : { paging: config.paging }),
      },
      targetLabel: place.targetLabel,
      runId: place.runId,
      reportDir: place.reportDir,
    }),
  };
}
