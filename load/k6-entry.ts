// Wires one scenario into a k6 script: options from the profile (read from __ENV at init), setup, the async default
// function and handleSummary. Every load/*.load.ts entry is this call; k6 and the Node engine run them unchanged.
import exec from 'k6/execution';
import { HarnessError } from '../api/errors.ts';
import { chargingRefusal } from './charges-guard.ts';
import { instanceToken, createCorrelationIds } from './correlation.ts';
import type { FlowContext, FlowRecorder, LoadScenario } from './flows/context.ts';
import { createK6Client } from './k6-client.ts';
import { recordStatusConfirms, recordTransaction } from './k6-metrics.ts';
import { buildK6Options, type K6Options } from './profiles.ts';
import { LOAD_ENV, readRunSettings } from './run-settings.ts';
import { SCENARIOS, versionsOf } from './scenarios.ts';
import type { K6SummaryData } from '../reports/k6-summary.ts';
import { summaryFiles, type SummaryRun } from './summary/handle-summary.ts';

export interface LoadTest<D> {
  readonly options: K6Options;
  setup(): Promise<D>;
  iteration(data: D): Promise<void>;
  handleSummary(data: K6SummaryData): Record<string, string>;
}

export function defineLoadTest<D>(scenario: LoadScenario<D>): LoadTest<D> {
  const settings = readRunSettings(__ENV);
  const meta = SCENARIOS[scenario.name];
  // Refused in init, before setup() sends anything (the CLI refuses earlier still; this covers a direct `k6 run`).
  const refusal = chargingRefusal(scenario.name, settings.api, settings.environment);
  if (refusal !== undefined) throw new HarnessError('GH_ERR_USAGE', refusal);
  if (meta.requiresBothVersions && settings.api !== 'both') {
    throw new HarnessError('GH_ERR_USAGE', `scenario ${scenario.name} compares v1 and v2: it needs GATEWAY_LOAD_API=both (--api both)`);
  }
  const versions = versionsOf(settings.api);
  const client = createK6Client(settings);
  // One token per VU runtime, made in the init context; with __VU and __ITER it keeps ids unique across pods.
  const ids = createCorrelationIds(instanceToken());
  const warned = new Set<string>();
  const record: FlowRecorder = {
    transaction: recordTransaction,
    statusConfirms: recordStatusConfirms,
    warnOnce(key, message) {
      if (warned.has(key)) return;
      warned.add(key);
      console.warn(`gateway-harness: ${message}`);
    },
  };
  const context = (iteration: number): FlowContext => ({
    client,
    settings,
    versions,
    iteration,
    record,
    correlationId: () => ids.next(__VU, __ITER),
    random: Math.random,
  });
  // The CLI names the engine (k6 with its version, or the Node engine); a bare `k6 run` leaves it as plain k6.
  const engine = __ENV[LOAD_ENV.engine];
  const run: SummaryRun = {
    scenario: scenario.name,
    profile: settings.profile,
    engine: engine !== undefined && /^(k6 v[0-9][^ ]*|k6|node)$/.test(engine) ? engine : 'k6',
  };
  return {
    options: buildK6Options({
      scenario: scenario.name,
      profile: settings.profile,
      api: settings.api,
      overrides: settings.overrides,
      thresholdOverrides: settings.thresholdOverrides,
      schemaChecks: settings.schemaChecks,
      timeToFinalBudgetMs: settings.status.serviceTimeoutMs + settings.data.pollSlackMs,
      iterationGraceMs: settings.iterationGraceMs,
    }),
    setup: () => scenario.setup(context(0)),
    iteration: (data) => scenario.iteration(context(exec.scenario.iterationInTest), data),
    handleSummary: (data) => summaryFiles(data, run, settings.reportDir),
  };
}
