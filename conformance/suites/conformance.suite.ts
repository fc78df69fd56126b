// The conformance suite as vitest tests: one test per case, named `<case id> <title>`, grouped by case group.
// The runner executes the whole plan once (concurrent cases, then exclusive ones); each test awaits its own case.
import { afterAll, beforeAll, describe, test } from 'vitest';
import { runCases, type ProgressEvent } from '../runner.ts';
import { selectCases } from '../plan.ts';
import { buildSummary, formatCaseFailure, writeSummary, type SummaryMeta } from '../report.ts';
import { sessionFromEnv, settingsForSandbox, startEmbeddedSandbox, withUrl } from '../session.ts';
import { createNodeConformanceTarget, timingFor, type NodeConformanceTarget } from '../target.ts';
import { CASE_GROUPS, type CaseResult, type RunResult } from '../types.ts';
import type { RunningSandbox } from '../../sandbox/server.ts';

const session = sessionFromEnv(process.env, process.cwd());
const cases = selectCases({ api: session.api, ...(session.grep === undefined ? {} : { grep: session.grep }) });

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A test that never awaits its case (filtered out by vitest) must not leave an unhandled rejection behind.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

const results = new Map(cases.map((c) => [c.id, deferred<CaseResult>()]));
let run: Promise<RunResult> | undefined;
let target: NodeConformanceTarget | undefined;
let sandbox: RunningSandbox | undefined;
let startError: unknown;
let meta: SummaryMeta | undefined;

beforeAll(async () => {
  try {
    let config = session.config;
    let settings = session.settings;
    if (config.baseUrl === undefined) {
      sandbox = await startEmbeddedSandbox(config, session.sandbox ?? { profile: 'faithful', seed: config.sandbox.seed });
      config = withUrl(config, sandbox.url);
      settings = settingsForSandbox(settings, sandbox);
    }
    const resolved = withUrl(config, config.baseUrl as string);
    target = createNodeConformanceTarget(resolved);
    const timing = timingFor(resolved, settings);
    const onProgress = (event: ProgressEvent): void => {
      if (event.type === 'case-end') results.get(event.result.id)?.resolve(event.result);
    };
    // Not awaited: each test waits for its own case, so results show up while the plan runs.
    run = runCases(cases, { target, settings, timing, mapping: resolved.fieldMapping, onProgress });
    run.catch((error: unknown) => {
      for (const d of results.values()) d.reject(error);
    });
    meta = {
      runId: session.runId,
      target: sandbox === undefined ? session.targetLabel : `embedded sandbox (${sandbox.url}, profile ${session.sandbox?.profile ?? 'faithful'})`,
      timeScale: resolved.timeScale,
      api: session.api,
      ...(session.grep === undefined ? {} : { grep: session.grep }),
      timeouts: { requestMs: timing.requestTimeoutMs, pollIntervalMs: timing.pollIntervalMs, pollDeadlineMs: timing.pollDeadlineMs },
    };
  } catch (error) {
    startError = error;
    for (const d of results.values()) d.reject(error);
  }
});

afterAll(async () => {
  try {
    const result = await run;
    if (result !== undefined && meta !== undefined) writeSummary(session.reportDir, buildSummary(result, meta));
  } finally {
    await target?.close();
    await sandbox?.close();
  }
});

for (const group of CASE_GROUPS) {
  const inGroup = cases.filter((c) => c.group === group);
  if (inGroup.length === 0) continue;
  describe(group, () => {
    for (const c of inGroup) {
      test(`${c.id} ${c.title}`, async (ctx) => {
        if (startError !== undefined) throw startError;
        const result = await (results.get(c.id) as Deferred<CaseResult>).promise;
        if (result.status === 'skipped') ctx.skip(`skipped: ${result.skipReason ?? ''}`);
        if (result.status === 'failed') {
          const error = new Error(formatCaseFailure(result));
          // The stack would only point at this wrapper; the message carries expected vs received and the request.
          error.stack = error.message;
          throw error;
        }
      });
    }
  });
}
