// The one integration point of the Node engine: `gateway-harness load --engine node` (and `auto` without a k6) runs
// the same bundle on engine/run.ts with k6's semantics, so the runner treats both engines alike.
import { dirname } from 'node:path';
import { Writable } from 'node:stream';
import { bundleScript, compileFactory } from '../engine/bundle.ts';
import { consolidateOptions } from '../engine/options.ts';
import { runEngine } from '../engine/run.ts';
import { EngineRuntime } from '../engine/runtime.ts';
import { VU } from '../engine/vu.ts';
import type { LoopSample } from '../engine/loop-monitor.ts';
import type { HostModule } from '../engine/protocol.ts';
import type { RemoteWriteConfig } from '../engine/remote-write/config.ts';
import type { RemoteWriteStats } from '../engine/remote-write/output.ts';

// The remote-write output's settings, series names and push, for `load --out prometheus=URL` on either engine: a real
// k6 reads the same K6_PROMETHEUS_RW_* variables, and the threshold results are pushed the same way after any run.
export {
  displayUrl,
  remoteWriteConfigFromEnv,
  RW_ENV,
  splitUrlCredentials,
  type RemoteWriteConfig,
} from '../engine/remote-write/config.ts';
export { pushTimeSeries, type RemoteWriteStats } from '../engine/remote-write/output.ts';
export { METRIC_PREFIX } from '../engine/remote-write/series.ts';
export type { HostModule } from '../engine/protocol.ts';
// The live dashboard's threshold states, judged as the engine judges a run's end (load --dashboard, either engine).
export { LiveThresholds } from '../engine/live-thresholds.ts';
export type { PromTimeSeries } from '../engine/remote-write/wire.ts';

/** What the load runner hands to the engine (a subset of engine/run.ts `EngineRunOptions`). */
export interface NodeEngineRequest {
  /** Path of a load bundle or load/*.load.ts entry (the engine bundles it with its own k6 modules). */
  readonly script: string;
  /** The run's environment (load/run-settings.ts), as k6 would see it in __ENV. */
  readonly env: Readonly<Record<string, string>>;
  /** k6-compatible NDJSON metric stream (`--out json=FILE`). */
  readonly outJson?: string;
  /** The same NDJSON lines as text, as they are made (the runner's per-second aggregates). */
  readonly jsonLines?: (text: string) => void;
  /** k6's experimental-prometheus-rw output (engine/remote-write/). */
  readonly remoteWrite?: RemoteWriteConfig;
  readonly summaryExport?: string;
  readonly workers?: number;
  readonly progress?: boolean;
  readonly cwd: string;
  readonly overrides?: {
    readonly vus?: number;
    readonly duration?: string;
    readonly iterations?: number;
    readonly tags?: Readonly<Record<string, string>>;
  };
  /** The engine's stdout and stderr (progress, handleSummary's text, script errors); default the process's own. */
  readonly output?: (chunk: string) => void;
  /** Installed in every engine thread before the script (the money host: ledger appends, the shared spend counter). */
  readonly hostModules?: readonly HostModule[];
  /** Aborted: the run stops gracefully, like k6 on Ctrl-C (exit 105, summary over what was measured). */
  readonly interrupt?: AbortSignal;
  /** Each engine thread's second of event-loop delay and utilization, as it arrives. */
  readonly onLoop?: (sample: LoopSample) => void;
}

/** A stream handing every chunk to `onChunk` as text. */
function textSink(onChunk: (chunk: string) => void): Writable {
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      onChunk(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      done();
    },
  });
}

export interface NodeEngineResult {
  /** k6 semantics: 0 passed, 99 thresholds crossed, 107 script error, ... (engine/run.ts EXIT_CODES). */
  readonly exitCode: number;
  readonly summary?: unknown;
  readonly remoteWrite?: RemoteWriteStats;
  /** The engine threads' event loops per second (engine/loop-monitor.ts): the generator's own measurements. */
  readonly loop?: readonly LoopSample[];
}

function sinkTo(output: (chunk: string) => void): Writable {
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      output(chunk.toString());
      done();
    },
  });
}

export async function runNodeEngine(request: NodeEngineRequest): Promise<NodeEngineResult> {
  const piped = request.output === undefined ? {} : { stdout: sinkTo(request.output), stderr: sinkTo(request.output) };
  const result = await runEngine({
    ...piped,
    script: request.script,
    env: { ...request.env },
    cwd: request.cwd,
    ...(request.outJson === undefined ? {} : { outJson: request.outJson }),
    ...(request.jsonLines === undefined ? {} : { jsonLines: request.jsonLines }),
    ...(request.summaryExport === undefined ? {} : { summaryExport: request.summaryExport }),
    ...(request.workers === undefined ? {} : { workers: request.workers }),
    ...(request.progress === undefined ? {} : { progress: request.progress ? 'auto' : 'none' }),
    ...(request.remoteWrite === undefined ? {} : { remoteWrite: request.remoteWrite }),
    ...(request.overrides === undefined
      ? {}
      : { overrides: { ...request.overrides, ...(request.overrides.tags === undefined ? {} : { tags: { ...request.overrides.tags } }) } }),
    ...(request.output === undefined ? {} : { stdout: textSink(request.output), stderr: textSink(request.output) }),
    ...(request.hostModules === undefined ? {} : { hostModules: request.hostModules }),
    ...(request.interrupt === undefined ? {} : { interrupt: request.interrupt }),
    ...(request.onLoop === undefined ? {} : { onLoop: request.onLoop }),
  });
  return {
    exitCode: result.exitCode,
    summary: result.summary,
    ...(result.loop === undefined ? {} : { loop: result.loop }),
    ...(result.remoteWrite === undefined ? {} : { remoteWrite: result.remoteWrite }),
  };
}

/**
 * Runs a script's init context once on this thread, as the engine does to read its options (engine/controller/load.ts),
 * and returns the value it left on the global object under `globalName` (a user script's declaration), or undefined.
 * Nothing is sent: init contexts cannot make requests. Throws the script's own error, as a message.
 */
export async function readInitGlobal(script: string, env: Readonly<Record<string, string>>, globalName: string): Promise<unknown> {
  const source = await bundleScript(script);
  const global = globalThis as Record<string, unknown>;
  delete global[globalName];
  try {
    const runtime = new EngineRuntime({
      factory: compileFactory(source, script),
      options: consolidateOptions({}),
      env: { ...env },
      scriptDir: dirname(script),
      submetrics: [],
    });
    new VU(runtime, { idInTest: 0, idInInstance: 0 }).init();
    return global[globalName];
  } finally {
    delete global[globalName];
  }
}
