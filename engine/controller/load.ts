// The first step of a run: bundle the script, run its init context once on the controller's thread (VU 0, like k6's
// options-reading VU), consolidate options and parse thresholds. Fails early with k6's code (107 script, 104 options).
import { dirname } from 'node:path';
import { bundleScript, compileFactory, ScriptLoadError } from '../bundle.ts';
import { EXPECTED_RESPONSE_SUBMETRIC, type MetricDef, type SubmetricDef } from '../metrics/store.ts';
import { consolidateOptions, OptionsError, type ConsolidatedOptions, type RunOverrides } from '../options.ts';
import { EngineRuntime } from '../runtime.ts';
import { parseThresholds, ThresholdError, type MetricThresholds } from '../thresholds.ts';
import { VU } from '../vu.ts';
import { errorText, EXIT_CODES, type EarlyFailure } from './exit-codes.ts';

/** Who aborted the test and why (exec.test.abort() in any thread), read when the exit code is decided. */
export interface AbortState {
  reason: string | undefined;
  byScript: boolean;
}

export interface LoadedScript {
  readonly source: string;
  readonly scriptPath: string;
  readonly env: Record<string, string>;
  readonly options: ConsolidatedOptions;
  /** The controller's runtime: its store receives the merged metrics, its groups the merged checks. */
  readonly runtime: EngineRuntime;
  /** The controller's VU 0: its exports name setup, teardown, handleSummary. */
  readonly vu0: VU;
  readonly thresholds: MetricThresholds[];
  readonly submetrics: SubmetricDef[];
  /** Every metric defined by the init context (built-in and custom), for merged snapshots. */
  readonly customDefs: MetricDef[];
  readonly abortState: AbortState;
}

export async function loadScript(
  scriptPath: string,
  envOverrides: Record<string, string> | undefined,
  overrides: RunOverrides | undefined,
): Promise<LoadedScript | EarlyFailure> {
  let source: string;
  try {
    source = await bundleScript(scriptPath);
  } catch (error) {
    return { exitCode: EXIT_CODES.scriptException, text: error instanceof ScriptLoadError ? error.message : errorText(error) };
  }
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  Object.assign(env, envOverrides ?? {});

  let options: ConsolidatedOptions;
  let runtime: EngineRuntime;
  let vu0: VU;
  const abortState: AbortState = { reason: undefined, byScript: false };
  try {
    const factory = compileFactory(source, scriptPath);
    // The options are read from a first init run with provisional settings, then the real runtime is built.
    const probe = new EngineRuntime({ factory, options: consolidateOptions({}), env, scriptDir: dirname(scriptPath), submetrics: [] });
    const probeVU = new VU(probe, { idInTest: 0, idInInstance: 0 });
    probeVU.init();
    options = consolidateOptions(probeVU.exports.options, overrides);
    runtime = new EngineRuntime({
      factory,
      options,
      env,
      scriptDir: dirname(scriptPath),
      submetrics: [],
      onAbort: (reason) => {
        abortState.reason = reason;
        abortState.byScript = true;
      },
    });
    vu0 = new VU(runtime, { idInTest: 0, idInInstance: 0 });
    vu0.init();
    for (const sc of options.scenarios) {
      if (typeof vu0.exports[sc.exec] !== 'function') {
        throw new OptionsError(`scenario ${sc.name}: function '${sc.exec}' not found in exports (export it, or set the scenario's exec)`);
      }
    }
  } catch (error) {
    if (error instanceof OptionsError) return { exitCode: EXIT_CODES.invalidConfig, text: error.message };
    return { exitCode: EXIT_CODES.scriptException, text: errorText(error) };
  }

  let thresholds: MetricThresholds[];
  try {
    thresholds = parseThresholds(options.thresholds, runtime.store.typeOf);
  } catch (error) {
    return { exitCode: EXIT_CODES.invalidConfig, text: error instanceof ThresholdError ? error.message : errorText(error) };
  }
  const submetrics: SubmetricDef[] = [EXPECTED_RESPONSE_SUBMETRIC];
  for (const t of thresholds) {
    if (t.tags.length > 0)
      submetrics.push({ metric: t.metric, name: t.summaryName, suffix: t.summaryName.slice(t.metric.length + 1, -1), tags: t.tags });
  }
  for (const s of submetrics) runtime.store.addSubmetric(s);
  return { source, scriptPath, env, options, runtime, vu0, thresholds, submetrics, customDefs: runtime.store.defs(), abortState };
}
