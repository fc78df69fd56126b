// Wires one scenario into a k6 script: options from the profile (read from __ENV at init), setup, the async default
// function and handleSummary. Every load/*.load.ts entry is this call; k6 and the Node engine run them unchanged.
import exec from 'k6/execution';
import { HarnessError } from '../api/errors.ts';
import { consoleHost, createGateRoute, engineHost, maxVUsOf, type GateRoute } from '../ledger/bundle-host.ts';
import { createEntryIds, runtimeToken } from '../ledger/entry.ts';
import { chargingRefusal, rawNetworkRefusal } from '../ledger/guard.ts';
import { composeHooks, createMoneyHooks, isMoneyRefusal, type MoneyHooks, type MoneyRefusal } from '../ledger/hooks.ts';
import { decodeBundleMoney, type BundleMoneySettings } from '../ledger/money-settings.ts';
import { EMPTY_PRICE_BOOK, type PriceBook } from '../ledger/price-book.ts';
import { instanceToken, createCorrelationIds } from './correlation.ts';
import type { FlowContext, FlowRecorder, LoadScenario } from './flows/context.ts';
import { createK6Client } from './k6-client.ts';
import { GateRefusal } from './k6-transport.ts';
import { recordRefusal, recordStatusConfirms, recordTransaction } from './k6-metrics.ts';
import { waitMs } from './k6-wait.ts';
import type { ClientCore } from '../api/client-core.ts';
import { retryRead } from '../api/faults.ts';
import { getOperation, type Operation } from '../api/operations.ts';
import { printable } from '../api/printable.ts';
import { createChargeLearning, type ChargeLearning, type ProbeRead } from '../target/discover/charge-learning.ts';

import type { K6Options } from './profiles.ts';
import { k6OptionsOf } from './run-options.ts';
import { LOAD_ENV, readRunSettings, type RunSettings } from './run-settings.ts';
import { SCENARIOS, SCRIPT_DECLARATION_GLOBAL, scenarioOperations, versionsOf, type ScenarioMeta } from './scenarios.ts';
import { declaredOperationsGuard, type ScriptGuard } from './script-guard.ts';
import type { K6SummaryData } from '../reports/k6-summary.ts';
import { summaryFiles, type SummaryRun } from './summary/handle-summary.ts';

export interface LoadTest<D> {
  readonly options: K6Options;
  setup(): Promise<D>;
  iteration(data: D): Promise<void>;
  handleSummary(data: K6SummaryData): Record<string, string>;
}

/** The client with idempotent reads retried on a fault (setup's catalog discovery). */
function withReadRetries(client: ClientCore, pauseMs: number): ClientCore {
  const retry = { attempts: 5, waitMs: pauseMs, sleep: waitMs };
  return {
    ...client,
    call: (operationId, input, options) =>
      getOperation(operationId).method === 'GET'
        ? retryRead(() => client.call(operationId, input, options), retry)
        : client.call(operationId, input, options),
  };
}

/**
 * `resultValue` of a VU's flows: learned on its first charge through the probes' client (answers counted, not judged),
 * each finding said once with the config line that keeps it (as gate and conformance print it).
 */
function learnedValues(learning: ChargeLearning, probes: ClientCore, record: FlowRecorder): NonNullable<FlowContext['resultValue']> {
  return async (request) => {
    const probe: ProbeRead = async (operationId, input) => (await probes.call(operationId, input)).response;
    const value = await learning.resultValue({ ...request, probe });
    for (const f of learning.findings()) {
      const field = f.key.split('.').pop() ?? '';
      const keep =
        f.status === 'learned'
          ? `; keep it in gateway-harness.config.json: ${JSON.stringify({ fieldMapping: { transaction: { [field]: f.value } } })}`
          : '';
      record.warnOnce(
        `learned-${f.key}`,
        printable(`load: ${f.key} ${f.status === 'learned' ? `= "${String(f.value)}"` : f.status}: ${f.evidence}${keep}`),
      );
    }
    return value;
  };
}

/** A built-in scenario's test (load/*.load.ts). */
export function defineLoadTest<D>(scenario: LoadScenario<D>): LoadTest<D> {
  return defineTestOf(SCENARIOS[scenario.name], scenario);
}

/**
 * A user script's test: the same wiring as a built-in's, its client refusing what it did not declare (script-guard.ts).
 * The declaration is left on the global object, where `load --script` reads it by running the init context once.
 */
export function defineScriptTest<D>(meta: ScenarioMeta, flow: Pick<LoadScenario<D>, 'setup' | 'iteration'>): LoadTest<D> {
  (globalThis as Record<string, unknown>)[SCRIPT_DECLARATION_GLOBAL] = meta;
  // The k6 modules that send which the script's own files import (the bundler defines them; none: not defined).
  const rawNetwork = typeof __GATEWAY_HARNESS_SCRIPT_NETWORK__ === 'undefined' ? [] : __GATEWAY_HARNESS_SCRIPT_NETWORK__;
  return defineTestOf(meta, flow, { rawNetwork });
}

/** A user script's own (defineScriptTest): its client refuses what it did not declare; `rawNetwork`, see k6-globals.d.ts. */
interface DeclaredScript {
  readonly rawNetwork: readonly string[];
}

/**
 * The production guard (ledger/guard.ts), in init before setup() sends anything: the CLI refuses earlier still; this
 * covers a direct `k6 run`. Allowed charges go through the money hooks (cap, ledger). A charge the script did not
 * declare: through the harness client its guard refuses it at send; through k6/http of its own, nothing could see it,
 * so such a script is refused against production here as the CLI refuses it. A v1/v2 comparison needs both versions.
 */
function refuseUnrunnable(
  meta: ScenarioMeta,
  settings: RunSettings,
  money: BundleMoneySettings,
  charging: readonly Operation[],
  declared: DeclaredScript | undefined,
): void {
  const refusal =
    chargingRefusal(`load ${meta.name}`, charging, money) ?? rawNetworkRefusal(meta.name, declared?.rawNetwork ?? [], settings.environment);
  if (refusal !== undefined) throw new HarnessError('GH_ERR_CHARGES', refusal);
  if (meta.requiresBothVersions && settings.api !== 'both') {
    throw new HarnessError('GH_ERR_USAGE', `scenario ${meta.name} compares v1 and v2: it needs GATEWAY_LOAD_API=both (--api both)`);
  }
}

/** The money guard of a run that charges with a ledger or a cap (none otherwise), and on k6 the recording gate it sends through. */
function moneyGuardOf(
  settings: RunSettings,
  money: BundleMoneySettings,
  charging: readonly Operation[],
  options: K6Options,
): { readonly gate: GateRoute | undefined; readonly moneyHooks: MoneyHooks | undefined } {
  const guarded = charging.length > 0 && (money.ledger || money.cap !== undefined);
  const prices: PriceBook =
    guarded && money.pricesFile !== undefined ? (JSON.parse(open(money.pricesFile)) as PriceBook) : EMPTY_PRICE_BOOK;
  const onEngine = engineHost();
  // On k6 a guarded run's charging requests go through the runner's recording gate (ledger/recording-gate.ts).
  const gate = guarded && onEngine === undefined && money.recorder !== undefined ? createGateRoute(money.recorder) : undefined;
  const moneyHooks = guarded
    ? createMoneyHooks({
        settings: money,
        // The engine installs a host in every thread (shared cap, fsync'd ledger); on k6 each VU logs and spends its share.
        host: onEngine ?? consoleHost(money, maxVUsOf(options.scenarios), gate),
        prices,
        target: settings.targetLabel,
        runId: settings.runId,
        command: 'load',
        status: settings.status,
        mapping: settings.fieldMapping.transaction,
        now: () => Date.now(),
        newEntryId: createEntryIds(`k${runtimeToken()}-${__VU}`),
      })
    : undefined;
  return { gate, moneyHooks };
}

/** The flows' recorder: transactions and status confirmations into k6 metrics, each warning said once per VU. */
function flowRecorder(): FlowRecorder {
  const warned = new Set<string>();
  return {
    transaction: recordTransaction,
    statusConfirms: recordStatusConfirms,
    warnOnce(key, message) {
      if (warned.has(key)) return;
      warned.add(key);
      console.warn(`gateway-harness: ${message}`);
    },
  };
}

/** The run as the summary names it; the CLI names the engine (k6 with its version, or the Node engine), a bare `k6 run` leaves it as plain k6. */
function summaryRunOf(meta: ScenarioMeta, settings: RunSettings): SummaryRun {
  const engine = __ENV[LOAD_ENV.engine];
  return {
    scenario: meta.name,
    profile: settings.profile,
    engine: engine !== undefined && /^(k6 v[0-9][^ ]*|k6|node)$/.test(engine) ? engine : 'k6',
  };
}

/**
 * One iteration of the scenario. A charge the money guard refused was not sent: counted (gateway_charges_refused), said
 * once per VU, and the VU pauses a poll interval so a reached cap does not turn the rest of the run into a busy loop.
 */
function iterationOf<D>(
  scenario: Pick<LoadScenario<D>, 'iteration'>,
  context: (iteration: number) => FlowContext,
  guard: ScriptGuard | undefined,
  record: FlowRecorder,
  gate: GateRoute | undefined,
  pauseMs: number,
): LoadTest<D>['iteration'] {
  return async (data) => {
    guard?.startIteration();
    try {
      await scenario.iteration(context(exec.scenario.iterationInTest), data);
    } catch (error) {
      if (!isMoneyRefusal(error)) throw error;
      const refused = error as MoneyRefusal;
      // The recording gate's own refusals are counted where they are made, by the runner (k6-transport.ts GateRefusal).
      if (!(error instanceof GateRefusal)) recordRefusal(refused.operationId ?? 'unknown', refused.reason ?? error.code);
      record.warnOnce(`money-${refused.reason ?? error.code}`, error.message);
      // The gate could not make a line durable: no charge may leave any more, so the run stops (the runner kills k6 too).
      if (gate !== undefined && refused.reason === 'ledger') exec.test.abort(error.message);
      await waitMs(pauseMs);
    }
  };
}

function defineTestOf<D>(
  meta: ScenarioMeta,
  scenario: Pick<LoadScenario<D>, 'setup' | 'iteration'>,
  declared?: DeclaredScript,
): LoadTest<D> {
  // This VU's one field mapping: what its first charges teach is written into it (money hooks and flows read it).
  const given = readRunSettings(__ENV);
  const learning = createChargeLearning(given.fieldMapping);
  const settings: RunSettings = { ...given, fieldMapping: learning.mapping };
  const money = decodeBundleMoney(__ENV, settings.environment);
  const operations = scenarioOperations(meta, settings.api);
  const charging = operations.filter((op) => op.charges);
  refuseUnrunnable(meta, settings, money, charging, declared);
  const versions = versionsOf(settings.api);
  const options = k6OptionsOf(meta, settings);
  const { gate, moneyHooks } = moneyGuardOf(settings, money, charging, options);
  // A user script's guard runs first: an undeclared operation is refused before the money guard would see it.
  const guard: ScriptGuard | undefined = declared === undefined ? undefined : declaredOperationsGuard(meta.name, operations);
  const hooks = guard === undefined ? moneyHooks : composeHooks(guard, moneyHooks);
  const client = createK6Client(settings, hooks, gate);
  // One token per VU runtime, made in the init context; with __VU and __ITER it keeps ids unique across pods.
  const ids = createCorrelationIds(instanceToken());
  const record = flowRecorder();
  const resultValue = learnedValues(learning, createK6Client(settings, hooks, gate, false), record);
  const context = (iteration: number): FlowContext => ({
    client,
    settings,
    versions,
    iteration,
    record,
    correlationId: () => ids.next(__VU, __ITER),
    random: Math.random,
    resultValue,
  });
  const run = summaryRunOf(meta, settings);
  return {
    options,
    // setup() reads the catalog: a faulted read is retried a few times (api/faults.ts), reads only, never a write.
    setup: () => scenario.setup({ ...context(0), client: withReadRetries(client, settings.timings.pollIntervalMs) }),
    iteration: iterationOf(scenario, context, guard, record, gate, settings.timings.pollIntervalMs),
    handleSummary: (data) => summaryFiles(data, run, settings.reportDir),
  };
}
