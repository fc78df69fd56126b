// The engine's entry: runEngine() bundles a k6 script for Node, reads options from an init run on the controller, runs
// setup/teardown on a lifecycle thread and the scenarios on worker threads (each a share of VUs and arrival rate), merges metrics exactly, evaluates thresholds
// (abortOnFail included), runs teardown and handleSummary, and returns k6's exit code with the summary data.
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { bundleScript, compileFactory, ScriptLoadError } from './bundle.ts';
import { helperCode } from './http/sync-client.ts';
import { scenarioMaxVUs, scenarioShare } from './executors/registry.ts';
import { executionTuple } from './execution-segment.ts';
import { GroupTree } from './metrics/groups.ts';
import { EXPECTED_RESPONSE_SUBMETRIC, MetricStore, type SubmetricDef } from './metrics/store.ts';
import { metricLine, NdjsonWriter, PointBuffer } from './ndjson.ts';
import type { RemoteWriteConfig } from './remote-write/config.ts';
import type { RemoteWriteStats } from './remote-write/output.ts';
import { RemoteWriteThread } from './remote-write/threaded.ts';
import { consolidateOptions, OptionsError, type ConsolidatedOptions, type RunOverrides } from './options.ts';
import { ProgressReporter, type ProgressMode } from './progress.ts';
import type { ControllerMessage, HostModule, WorkerInit, WorkerMessage, WorkerProgress } from './protocol.ts';
import { EngineRuntime, clock } from './runtime.ts';
import { buildSummaryData, renderTextSummary, summaryExport, type K6SummaryData } from './summary.ts';
import { evaluateThresholds, parseThresholds, ThresholdError, type MetricThresholds } from './thresholds.ts';
import { VU } from './vu.ts';

export type { K6SummaryData } from './summary.ts';

export interface EngineRunOptions {
  /** Path to a `.load.ts` entry or a k6 `.js` script (relative to cwd). */
  script: string;
  /** Becomes __ENV, merged over the process environment like `k6 run -e`. */
  env?: Record<string, string>;
  /** `--out json=FILE`: k6's NDJSON metric points (gzip when the name ends in .gz). */
  outJson?: string;
  /** `--out experimental-prometheus-rw`: k6's Prometheus remote-write output (engine/remote-write/). */
  remoteWrite?: RemoteWriteConfig;
  /** `--summary-export=FILE`: k6's flat summary JSON. */
  summaryExport?: string;
  /** Worker threads; 'auto' (default) uses the machine's cores but one, never more than the test's VUs. */
  workers?: number | 'auto';
  progress?: 'auto' | 'tty' | 'plain' | 'none';
  cwd?: string;
  /** Like k6's --vus/--duration/--iterations/--execution-segment/--execution-segment-sequence flags. */
  overrides?: RunOverrides;
  /** Where 'stdout'/'stderr' of handleSummary and the text summary go (tests capture them). Default the process's. */
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  /**
   * Modules every engine thread (VU workers and the setup/teardown thread) imports and calls `install(data)` of before
   * it compiles the script: how an embedding program gives the script's threads something of its own (the harness's
   * money host: ledger appends and a spend counter in shared memory). The controller's init run does not get them.
   */
  hostModules?: ReadonlyArray<HostModule>;
  /**
   * Like Ctrl-C to k6: when it aborts, the run stops gracefully (no new iteration, running ones interrupted, teardown,
   * thresholds and handleSummary over what was measured) and ends with k6's 105. The embedding program owns the signals.
   */
  interrupt?: AbortSignal;
}

export interface EngineRunResult {
  /** k6's codes (EXIT_CODES): 0 passed, 99 thresholds crossed (also when abortOnFail stopped the test, like k6),
   * 100/101 setup/teardown timed out, 104 invalid options, 107 script error (load/init/setup/teardown threw),
   * 105 interrupted (options.interrupt), 108 exec.test.abort(), 255 setup()/teardown() returned a promise that rejected. */
  exitCode: number;
  summary: K6SummaryData;
  /** What the remote-write output did (pushes, failures, series), when it was on. */
  remoteWrite?: RemoteWriteStats;
}

/** k6's exit codes (errext/exitcodes). */
export const EXIT_CODES = { ok: 0, thresholdsFailed: 99, setupTimeout: 100, teardownTimeout: 101, invalidConfig: 104, externalAbort: 105, scriptException: 107, scriptAborted: 108, promiseRejected: 255 } as const;

/** How long a lifecycle thread still inside a timed-out setup() gets to hand over setup()'s metrics. */
const STUCK_SETUP_ANSWER_MS = 1_000;

/** How often abortOnFail thresholds are evaluated during the run (k6 uses 2 s). */
const THRESHOLD_EVAL_MS = 2_000;
/** A call shape of k6/http's blocking API in the bundle; a false positive (Map.get) only costs an idle thread. */
const SYNC_CALL = /\.(?:get|post|put|patch|del|head|options|request|batch)\(/;
const WORKER_BOOT = new URL('./worker-boot.mjs', import.meta.url);
const WORKER_ENTRY = new URL('./worker.ts', import.meta.url).href;

function emptySummary(): K6SummaryData {
  return {
    root_group: new GroupTree().toK6(),
    options: { summaryTrendStats: [], summaryTimeUnit: '', noColor: false },
    state: { isStdOutTTY: false, isStdErrTTY: false, testRunDurationMs: 0 },
    metrics: {},
  };
}

function progressMode(mode: EngineRunOptions['progress'], stderr: NodeJS.WritableStream): ProgressMode {
  if (mode === 'tty' || mode === 'plain' || mode === 'none') return mode;
  return (stderr as { isTTY?: boolean }).isTTY === true ? 'tty' : 'plain';
}

function workerCount(requested: EngineRunOptions['workers'], options: ConsolidatedOptions): number {
  const tuple = executionTuple(options.executionSegment, options.executionSegmentSequence);
  const vus = options.scenarios.reduce((sum, s) => sum + scenarioShare(s, tuple).vus(scenarioMaxVUs(s)), 0);
  if (typeof requested === 'number') {
    if (!Number.isInteger(requested) || requested < 1) throw new OptionsError(`workers must be a whole number ≥ 1 or 'auto', got ${requested}`);
    return requested;
  }
  // One core is left to the rest of the machine (the embedded sandbox usually runs beside the engine): measured on a
  // 2-core box, one worker beside the target outran two by far.
  return Math.max(1, Math.min(availableParallelism() - 1, vus));
}

/** Awaits a value that may be a promise, failing after `ms`. */
async function withTimeout<T>(value: T | Promise<T>, ms: number, what: string): Promise<T> {
  if (!(value instanceof Promise)) return value;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      value,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} execution timed out after ${ms / 1000} seconds`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

export async function runEngine(options: EngineRunOptions): Promise<EngineRunResult> {
  const cwd = options.cwd ?? process.cwd();
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const scriptPath = resolve(cwd, options.script);
  const logError = (text: string): void => {
    stderr.write(`time="${new Date().toISOString()}" level=error msg=${JSON.stringify(text)}\n`);
  };
  const fail = (exitCode: number, text: string): EngineRunResult => {
    logError(text);
    return { exitCode, summary: emptySummary() };
  };

  // ---- load: bundle and run the init context once on this thread (VU 0, like k6's options-reading VU) ----
  let source: string;
  try {
    source = await bundleScript(scriptPath);
  } catch (error) {
    return fail(EXIT_CODES.scriptException, error instanceof ScriptLoadError ? error.message : errorText(error));
  }
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  Object.assign(env, options.env ?? {});

  let consolidated: ConsolidatedOptions;
  let runtime: EngineRuntime;
  let vu0: VU;
  const abortState: { reason: string | undefined; byScript: boolean } = { reason: undefined, byScript: false };
  try {
    const factory = compileFactory(source, scriptPath);
    // The options are read from a first init run with provisional settings, then the real runtime is built.
    const probe = new EngineRuntime({ factory, options: consolidateOptions({}), env, scriptDir: dirname(scriptPath), submetrics: [] });
    const probeVU = new VU(probe, { idInTest: 0, idInInstance: 0 });
    probeVU.init();
    consolidated = consolidateOptions(probeVU.exports.options, options.overrides);
    runtime = new EngineRuntime({
      factory,
      options: consolidated,
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
    for (const sc of consolidated.scenarios) {
      if (typeof vu0.exports[sc.exec] !== 'function') {
        throw new OptionsError(`scenario ${sc.name}: function '${sc.exec}' not found in exports (export it, or set the scenario's exec)`);
      }
    }
  } catch (error) {
    if (error instanceof OptionsError) return fail(EXIT_CODES.invalidConfig, error.message);
    return fail(EXIT_CODES.scriptException, errorText(error));
  }

  let thresholds: MetricThresholds[];
  try {
    thresholds = parseThresholds(consolidated.thresholds, runtime.store.typeOf);
  } catch (error) {
    return fail(EXIT_CODES.invalidConfig, error instanceof ThresholdError ? error.message : errorText(error));
  }
  const submetrics: SubmetricDef[] = [EXPECTED_RESPONSE_SUBMETRIC];
  for (const t of thresholds) {
    if (t.tags.length > 0) submetrics.push({ metric: t.metric, name: t.summaryName, suffix: t.summaryName.slice(t.metric.length + 1, -1), tags: t.tags });
  }
  for (const s of submetrics) runtime.store.addSubmetric(s);
  const customDefs = runtime.store.defs();

  // ---- outputs: the workers' point lines go to the NDJSON file and the remote-write output alike ----
  let flushControllerPoints: () => void = () => undefined;
  let writer: NdjsonWriter | undefined;
  if (options.outJson !== undefined) {
    const describe = (name: string): string | undefined => {
      const def = runtime.store.get(name);
      if (def === undefined) return undefined;
      const sources = thresholds.filter((t) => t.summaryName === name).flatMap((t) => t.thresholds.map((x) => x.source));
      return metricLine(def, sources, runtime.store.submetricsOf(name));
    };
    writer = new NdjsonWriter(resolve(cwd, options.outJson), describe);
  }
  // Started with the test (below), on its own thread: cutting and aggregating every sample must not slow the controller,
  // where an embedded target may be serving.
  let remoteWrite: RemoteWriteThread | undefined;
  const deliverPoints = (names: readonly string[], text: string): void => {
    writer?.writeChunk(names, text);
    remoteWrite?.addPointLines(names, text);
  };
  const pointsWanted = writer !== undefined || options.remoteWrite !== undefined;
  if (pointsWanted) {
    const controllerPoints = new PointBuffer(deliverPoints, 64 * 1024);
    runtime.store.listener = (metric, value, tags, time) => controllerPoints.add(metric.name, value, tags, time);
    flushControllerPoints = () => controllerPoints.drain();
  }

  let exitCode: number = EXIT_CODES.ok;
  const count = (() => {
    try {
      return workerCount(options.workers ?? 'auto', consolidated);
    } catch (error) {
      return error as OptionsError;
    }
  })();
  if (count instanceof OptionsError) return fail(EXIT_CODES.invalidConfig, count.message);

  // ---- threads: the VU workers, and a lifecycle worker for setup()/teardown() (never the controller's thread, where an
  // embedded target may be serving: a blocking call there would deadlock) ----
  const shared = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * 2 * consolidated.scenarios.length);
  const mode = progressMode(options.progress, stderr);
  const reporter = new ProgressReporter(mode, consolidated.scenarios, stderr);
  const progressByWorker: WorkerProgress[] = [];
  const workers: Worker[] = [];
  const done: Array<Promise<void>> = [];
  let workerFailure: string | undefined;
  let thresholdAbort = false;
  let snapshotWaiters: Array<(m: Extract<WorkerMessage, { type: 'snapshot' }>) => void> = [];
  const broadcast = (m: ControllerMessage): void => {
    for (const w of workers) w.postMessage(m);
  };
  const abortAll = (): void => broadcast({ type: 'abort' });
  // An interruption (the embedding program got a signal) stops the run like k6's Ctrl-C; it is listened to once the
  // VU threads exist, so an abort reaches every one (a thread that has not started yet starts no iteration).
  let interrupted = false;
  let resolveInterrupt: () => void = () => undefined;
  const interruptedNow = new Promise<'interrupted'>((r) => (resolveInterrupt = () => r('interrupted')));
  const onInterrupt = (): void => {
    if (interrupted) return;
    interrupted = true;
    logError('test run interrupted by a signal: stopping gracefully (teardown, thresholds and handleSummary follow)');
    abortAll();
    resolveInterrupt();
  };

  interface Spawned {
    worker: Worker;
    ready: Promise<void>;
    done: Promise<void>;
    next: (type: 'setup-done' | 'teardown-done') => Promise<Extract<WorkerMessage, { type: 'setup-done' | 'teardown-done' }>>;
  }
  const spawn = (role: WorkerInit['role'], index: number): Spawned => {
    const init: WorkerInit = {
      entry: WORKER_ENTRY,
      role,
      source,
      scriptPath,
      scriptDir: dirname(scriptPath),
      options: consolidated,
      env,
      submetrics,
      segment: { index, count },
      sharedCounters: shared,
      ndjson: pointsWanted,
      syncHelperSource,
      ...(options.hostModules === undefined ? {} : { hostModules: options.hostModules }),
    };
    const worker = new Worker(WORKER_BOOT, { workerData: init, stdout: true, stderr: true });
    // The script's console goes where the run's output goes (as k6's does), so a caller that captures the output sees
    // it too: the load runner reads payload-violation samples from it (load/payload-samples.ts).
    worker.stdout.on('data', (chunk: Buffer) => stdout.write(chunk));
    worker.stderr.on('data', (chunk: Buffer) => stderr.write(chunk));
    let markReady: () => void = () => undefined;
    const ready = new Promise<void>((r) => (markReady = r));
    const waiting = new Map<string, (m: Extract<WorkerMessage, { type: 'setup-done' | 'teardown-done' }>) => void>();
    const finished = new Promise<void>((resolveDone) => {
      const lost = (message: string): void => {
        workerFailure ??= message;
        markReady();
        for (const [type, resolveWait] of waiting) resolveWait({ type: type as 'setup-done', error: message });
        abortAll();
        resolveDone();
      };
      worker.on('message', (m: WorkerMessage) => {
        switch (m.type) {
          case 'ready':
            markReady();
            break;
          case 'progress':
            if (role === 'vu') progressByWorker[index] = m.progress;
            break;
          case 'points':
            deliverPoints(m.metricNames, m.text);
            break;
          case 'snapshot':
            snapshotWaiters.forEach((f) => f(m));
            break;
          case 'abort':
            abortState.reason = m.reason;
            abortState.byScript = true;
            abortAll();
            break;
          case 'setup-done':
          case 'teardown-done':
            waiting.get(m.type)?.(m);
            waiting.delete(m.type);
            break;
          case 'done':
            runtime.store.mergeState(m.store);
            runtime.groups.mergeState(m.groups);
            resolveDone();
            break;
          case 'failed':
            lost(m.message);
            break;
        }
      });
      worker.on('error', (error) => lost(errorText(error)));
      worker.on('exit', () => {
        markReady();
        for (const [type, resolveWait] of waiting) resolveWait({ type: type as 'setup-done', error: 'the lifecycle thread exited' });
        resolveDone();
      });
    });
    const next = (type: 'setup-done' | 'teardown-done') => new Promise<Extract<WorkerMessage, { type: 'setup-done' | 'teardown-done' }>>((r) => waiting.set(type, r));
    return { worker, ready, done: finished, next };
  };

  // Scripts that look like they make synchronous requests get the helper started during init (see http/sync-client.ts).
  const syncHelperSource = SYNC_CALL.test(source) ? helperCode() : undefined;
  const hasLifecycle = typeof vu0.exports.setup === 'function' || typeof vu0.exports.teardown === 'function';
  const lifecycle = hasLifecycle ? spawn('lifecycle', 0) : undefined;
  const ready: Array<Promise<void>> = [];
  for (let index = 0; index < count; index++) {
    const w = spawn('vu', index);
    workers.push(w.worker);
    progressByWorker.push({ vusActive: 0, vusInitialized: 0, interrupted: 0, scenarios: {} });
    done.push(w.done);
    ready.push(w.ready);
  }
  if (options.interrupt?.aborted === true) onInterrupt();
  else options.interrupt?.addEventListener('abort', onInterrupt, { once: true });
  // ---- setup (lifecycle thread, VU 0), while the VU workers initialise ----
  const testStart = clock();
  runtime.testStartedAt = testStart;
  if (options.remoteWrite !== undefined) {
    remoteWrite = new RemoteWriteThread(options.remoteWrite, (name) => runtime.store.get(name), logError);
    remoteWrite.start();
  }
  let setupData: unknown;
  // k6 ends a test whose setup() failed like any other (no iterations, no teardown()): setup()'s metrics, thresholds
  // and handleSummary (no setup_data), with setup()'s exit code — 100 timed out, 108 aborted, 107 threw, 255 rejected.
  let setupFailure: { exitCode: number; text: string } | undefined;
  let setupTimedOut = false;
  if (lifecycle !== undefined && typeof vu0.exports.setup === 'function') {
    await lifecycle.ready;
    const reply = lifecycle.next('setup-done');
    lifecycle.worker.postMessage({ type: 'setup' } satisfies ControllerMessage);
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([reply, interruptedNow, new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), consolidated.setupTimeoutMs)))]);
    clearTimeout(timer);
    if (outcome === 'interrupted') {
      // setup() may still be running: its thread gets the short answer limit of a stuck setup.
      setupFailure = { exitCode: EXIT_CODES.externalAbort, text: 'test run interrupted during setup(): no scenario ran' };
      setupTimedOut = true;
    } else if (outcome === 'timeout') {
      setupFailure = { exitCode: EXIT_CODES.setupTimeout, text: `setup() execution timed out after ${consolidated.setupTimeoutMs / 1000} seconds` };
      setupTimedOut = true;
    } else if (abortState.byScript) {
      setupFailure = { exitCode: EXIT_CODES.scriptAborted, text: `test aborted in setup(): ${abortState.reason ?? ''}` };
    } else if (outcome.error !== undefined) {
      setupFailure = { exitCode: outcome.rejected === true ? EXIT_CODES.promiseRejected : EXIT_CODES.scriptException, text: `setup() failed: ${outcome.error}` };
    } else {
      setupData = outcome.type === 'setup-done' && outcome.dataJson !== undefined ? JSON.parse(outcome.dataJson) : undefined;
    }
  }
  const setupMs = clock() - testStart;
  runtime.setupDataJson = setupData === undefined ? undefined : JSON.stringify(setupData);
  if (setupFailure !== undefined) {
    logError(setupFailure.text);
    exitCode = setupFailure.exitCode;
    // No scenario runs: the VU threads go now (their `ready` and `done` settle when they exit).
    await Promise.all(workers.map((w) => w.terminate()));
  }

  // ---- the run ----
  await Promise.all(ready);
  runtime.phase = 'vu';
  if (interrupted && setupFailure === undefined) {
    // Interrupted while the VU threads were starting: no scenario runs.
    setupFailure = { exitCode: EXIT_CODES.externalAbort, text: 'test run interrupted before the scenarios started' };
    await Promise.all(workers.map((w) => w.terminate()));
  }
  const startAt = clock() + (setupFailure === undefined ? 20 : 0);
  if (setupFailure === undefined) broadcast({ type: 'start', startAt, setupDataJson: runtime.setupDataJson });


  const view = () => {
    const scenarios: Record<string, { iterations: number; dropped: number }> = {};
    let vusActive = 0;
    let vusMax = 0;
    let completed = 0;
    let interrupted = 0;
    for (const p of progressByWorker) {
      vusActive += p.vusActive;
      vusMax += p.vusInitialized;
      interrupted += p.interrupted;
      for (const [name, c] of Object.entries(p.scenarios)) {
        const agg = (scenarios[name] ??= { iterations: 0, dropped: 0 });
        agg.iterations += c.iterations;
        agg.dropped += c.dropped;
        completed += c.iterations;
      }
    }
    return { elapsedMs: Math.max(0, clock() - startAt), vusActive, vusMax, completed, interrupted, scenarios };
  };

  // vus / vus_max gauges every second, progress every 250 ms, abortOnFail thresholds every 2 s.
  const baseTags = { ...consolidated.tags };
  const gaugeTimer = setInterval(() => {
    const v = view();
    runtime.store.add('vus', v.vusActive, baseTags);
    runtime.store.add('vus_max', v.vusMax, baseTags);
  }, 1_000);
  const progressTimer = setInterval(() => reporter.update(view()), mode === 'tty' ? 250 : 1_000);
  const abortable = thresholds.some((t) => t.thresholds.some((x) => x.abortOnFail));
  const thresholdTimer = abortable
    ? setInterval(() => {
        void (async () => {
          const snaps = await new Promise<Array<Extract<WorkerMessage, { type: 'snapshot' }>>>((resolveSnaps) => {
            const got: Array<Extract<WorkerMessage, { type: 'snapshot' }>> = [];
            snapshotWaiters.push((m) => {
              got.push(m);
              if (got.length === workers.length) resolveSnaps(got);
            });
            broadcast({ type: 'snapshot' });
          });
          snapshotWaiters = [];
          const merged = new MetricStore(submetrics, customDefs);
          merged.mergeState(runtime.store.toState());
          for (const s of snaps) merged.mergeState(s.store);
          const elapsed = clock() - testStart;
          for (const set of thresholds) {
            const sink = merged.sinkOf(set.summaryName);
            if (sink === undefined) continue;
            const verdict = evaluateThresholds(set, sink.thresholdValues(elapsed, percentilesOf(set)), elapsed);
            if (verdict.abort && !thresholdAbort) {
              thresholdAbort = true;
              logError(`thresholds on metrics '${set.summaryName}' were crossed; at least one has abortOnFail enabled, stopping test prematurely`);
              abortAll();
            }
          }
        })();
      }, THRESHOLD_EVAL_MS)
    : undefined;

  await Promise.all(done);
  options.interrupt?.removeEventListener('abort', onInterrupt);
  clearInterval(gaugeTimer);
  clearInterval(progressTimer);
  if (thresholdTimer !== undefined) clearInterval(thresholdTimer);
  reporter.finish(view());
  const final = view();
  if (setupFailure === undefined) {
    runtime.store.add('vus', 0, baseTags);
    runtime.store.add('vus_max', final.vusMax, baseTags);
  }
  await Promise.all(workers.map((w) => w.terminate()));
  const runEnd = clock();
  if (workerFailure !== undefined) {
    logError(workerFailure);
    exitCode = EXIT_CODES.scriptException;
  }

  // ---- teardown (lifecycle thread; runs after an abort too, like k6) ----
  if (lifecycle !== undefined) {
    // Always asked, even without a teardown(): the thread's answer carries setup()'s metrics.
    const reply = lifecycle.next('teardown-done');
    lifecycle.worker.postMessage({ type: 'teardown', setupDataJson: runtime.setupDataJson, skip: setupFailure !== undefined } satisfies ControllerMessage);
    // After a setup() timeout the thread may still be inside setup(): awaiting, it answers at once; blocked (sleep, a
    // synchronous request), it cannot, and setup()'s metrics are lost with it.
    const limitMs = setupTimedOut ? STUCK_SETUP_ANSWER_MS : consolidated.teardownTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([reply, new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), limitMs)))]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      if (setupTimedOut) logError('setup() is still blocked: its metrics are not in the summary');
      else {
        logError(`teardown() execution timed out after ${consolidated.teardownTimeoutMs / 1000} seconds`);
        if (exitCode === EXIT_CODES.ok) exitCode = EXIT_CODES.teardownTimeout;
      }
    } else {
      if (outcome.error !== undefined) {
        logError(`teardown() failed: ${outcome.error}`);
        if (exitCode === EXIT_CODES.ok) exitCode = outcome.rejected === true ? EXIT_CODES.promiseRejected : EXIT_CODES.scriptException;
      }
      await lifecycle.done;
    }
    await lifecycle.worker.terminate();
  }
  const testRunDurationMs = setupMs + (runEnd - startAt) + (clock() - runEnd);

  // ---- thresholds and summary ----
  const thresholdResults = new Map<string, Record<string, { ok: boolean }>>();
  let thresholdsPassed = true;
  for (const set of thresholds) {
    const sink = runtime.store.sinkOf(set.summaryName);
    if (sink === undefined) continue;
    const verdict = evaluateThresholds(set, sink.thresholdValues(testRunDurationMs, percentilesOf(set)), testRunDurationMs);
    thresholdResults.set(set.summaryName, verdict.results);
    if (!verdict.passed) thresholdsPassed = false;
  }
  const summary = buildSummaryData({
    store: runtime.store,
    rootGroup: runtime.groups.toK6(),
    thresholds,
    thresholdResults,
    trendStats: consolidated.summaryTrendStats,
    summaryTimeUnit: consolidated.summaryTimeUnit,
    testRunDurationMs,
    setupData,
    isStdOutTTY: (stdout as { isTTY?: boolean }).isTTY === true,
    isStdErrTTY: (stderr as { isTTY?: boolean }).isTTY === true,
  });
  if (!thresholdsPassed) {
    const crossed = thresholds.filter((t) => Object.values(thresholdResults.get(t.summaryName) ?? {}).some((r) => !r.ok)).map((t) => t.summaryName);
    if (!thresholdAbort) logError(`thresholds on metrics '${crossed.join("', '")}' have been crossed`);
    if (exitCode === EXIT_CODES.ok) exitCode = EXIT_CODES.thresholdsFailed;
  }
  // k6 ends an interrupted run with 105 whatever its thresholds say: the run did not finish.
  if (interrupted && exitCode !== EXIT_CODES.scriptException) exitCode = EXIT_CODES.externalAbort;
  if (abortState.byScript && exitCode === EXIT_CODES.ok) {
    logError(`test aborted: ${abortState.reason ?? ''}`);
    exitCode = EXIT_CODES.scriptAborted;
  }

  flushControllerPoints();
  await writer?.close();
  const remoteWriteStats = await remoteWrite?.stop();
  if (options.summaryExport !== undefined) {
    const path = resolve(cwd, options.summaryExport);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify(summaryExport(summary), null, 2)}\n`);
  }

  runtime.phase = 'summary';
  let wroteSummary = false;
  if (typeof vu0.exports.handleSummary === 'function') {
    try {
      const outputs = await withTimeout((vu0.exports.handleSummary as (d: K6SummaryData) => unknown)(JSON.parse(JSON.stringify(summary)) as K6SummaryData), 120_000, 'handleSummary()');
      writeSummaryOutputs(outputs, cwd, stdout, stderr);
      wroteSummary = true;
    } catch (error) {
      logError(`handleSummary() failed: ${errorText(error)}; printing the default summary instead`);
    }
  }
  if (!wroteSummary) stdout.write(renderTextSummary(summary));
  await runtime.close();
  return { exitCode, summary, ...(remoteWriteStats === undefined ? {} : { remoteWrite: remoteWriteStats }) };
}

function percentilesOf(set: MetricThresholds): number[] {
  return set.thresholds.filter((t) => t.parsed.method === 'p').map((t) => t.parsed.percentile as number);
}

/** Writes handleSummary's map like k6: 'stdout'/'stderr' to the streams, other keys as paths relative to cwd. */
function writeSummaryOutputs(outputs: unknown, cwd: string, stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream): void {
  if (outputs === undefined || outputs === null) return;
  if (typeof outputs !== 'object') throw new Error('handleSummary() must return an object of destination → content');
  for (const [key, value] of Object.entries(outputs as Record<string, unknown>)) {
    const content = typeof value === 'string' ? value : value instanceof ArrayBuffer ? Buffer.from(value) : JSON.stringify(value);
    if (key === 'stdout') stdout.write(content);
    else if (key === 'stderr') stderr.write(content);
    else {
      const path = resolve(cwd, key);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
    }
  }
}
