// A load scenario's setup and iterations run in one Node process through the client core, with no engine: what the
// flows' tests and the recipe's probe (scripts/recipe/probe.ts) use to see exactly what a scenario sends.
import { setTimeout as delay } from 'node:timers/promises';
import { createClientCore, type CoreExchange, type TransactionResult } from '../../api/client-core.ts';
import { DEFAULT_FIELD_MAPPING } from '../../api/field-mapping.ts';
import { CONFIG_DEFAULTS } from '../../api/target-config.ts';
import type { NodeTransport } from '../../client/node-transport.ts';
import { createCorrelationIds, instanceToken } from '../correlation.ts';
import { readRunSettings, runEnvironment } from '../run-settings.ts';
import { SCENARIOS, versionsOf, type ApiSelection, type ScenarioName } from '../scenarios.ts';
import { catalogBrowse } from '../flows/catalog-browse.ts';
import type { FlowContext, LoadScenario } from '../flows/context.ts';
import { giftcardFlow } from '../flows/giftcard-flow.ts';
import { lookup } from '../flows/lookup.ts';
import { mixed } from '../flows/mixed.ts';
import { topupFlow } from '../flows/topup-flow.ts';
import { v1v2 } from '../flows/v1-v2.ts';

export const FLOWS: Readonly<Record<ScenarioName, LoadScenario<unknown>>> = {
  'catalog-browse': catalogBrowse as LoadScenario<unknown>,
  'topup-flow': topupFlow as LoadScenario<unknown>,
  'giftcard-flow': giftcardFlow as LoadScenario<unknown>,
  lookup: lookup as LoadScenario<unknown>,
  mixed: mixed as LoadScenario<unknown>,
  'v1-v2': v1v2 as LoadScenario<unknown>,
};

export interface InProcessTarget {
  readonly url: string;
  readonly user: string;
  readonly password: string;
  readonly transport: NodeTransport;
}

export interface InProcessRun {
  readonly exchanges: CoreExchange[];
  readonly transactions: TransactionResult[];
  readonly warnings: string[];
  readonly confirmations: boolean[];
  readonly notFoundCodes: readonly string[];
}

/** The scenario's smoke iterations (those `only` keeps, default all) against a sandbox target, time scale 0.01. */
export async function runInProcess(
  name: ScenarioName,
  target: InProcessTarget,
  api: ApiSelection = 'both',
  only: (iteration: number) => boolean = () => true,
): Promise<InProcessRun> {
  const settings = readRunSettings(
    runEnvironment({
      baseUrl: target.url,
      user: target.user,
      password: target.password,
      environment: 'sandbox',
      timeScale: 0.01,
      profile: 'smoke',
      api,
      config: { timeouts: CONFIG_DEFAULTS.timeouts, poll: CONFIG_DEFAULTS.poll, fieldMapping: DEFAULT_FIELD_MAPPING },
      targetLabel: 'test',
      runId: 't',
      reportDir: '',
    }),
  );
  const run: InProcessRun = {
    exchanges: [],
    transactions: [],
    warnings: [],
    confirmations: [],
    notFoundCodes: settings.status.notFoundCodes,
  };
  const client = createClientCore({
    target: settings.target,
    transport: target.transport,
    timings: settings.timings,
    status: settings.status,
    now: () => Date.now(),
    sleep: (ms) => delay(ms),
    hooks: { afterResponse: (exchange) => void run.exchanges.push(exchange) },
  });
  const ids = createCorrelationIds(instanceToken());
  const context = (iteration: number): FlowContext => ({
    client,
    settings,
    versions: versionsOf(settings.api),
    iteration,
    record: {
      transaction: (result) => void run.transactions.push(result),
      statusConfirms: (ok) => void run.confirmations.push(ok),
      warnOnce: (_key, message) => void run.warnings.push(message),
    },
    correlationId: () => ids.next(1, iteration),
    random: Math.random,
  });
  const flow = FLOWS[name];
  const data = await flow.setup(context(0));
  for (let i = 0; i < SCENARIOS[name].smokeIterations; i++) if (only(i)) await flow.iteration(context(i), data);
  return run;
}
