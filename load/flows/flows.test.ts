// Every scenario's setup and smoke iterations, run in Node through the same client core against the embedded sandbox:
// each sends every operation the scenario declares, every response passes every check, every transaction ends final.
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientCore, type CoreExchange, type TransactionResult } from '../../api/client-core.ts';
import { createNodeTransport, type NodeTransport } from '../../client/node-transport.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { createCorrelationIds, instanceToken } from '../correlation.ts';
import { inspectExchange } from '../response-checks.ts';
import { readRunSettings, runEnvironment } from '../run-settings.ts';
import { SCENARIOS, SCENARIO_NAMES, scenarioOperations, versionsOf, type ScenarioName } from '../scenarios.ts';
import { catalogBrowse } from './catalog-browse.ts';
import type { FlowContext, LoadScenario } from './context.ts';
import { giftcardFlow } from './giftcard-flow.ts';
import { lookup } from './lookup.ts';
import { mixed } from './mixed.ts';
import { topupFlow } from './topup-flow.ts';
import { v1v2 } from './v1-v2.ts';
import { DEFAULT_FIELD_MAPPING } from '../../api/field-mapping.ts';
import { CONFIG_DEFAULTS } from '../../api/target-config.ts';

const FLOWS: Record<ScenarioName, LoadScenario<unknown>> = {
  'catalog-browse': catalogBrowse as LoadScenario<unknown>,
  'topup-flow': topupFlow as LoadScenario<unknown>,
  'giftcard-flow': giftcardFlow as LoadScenario<unknown>,
  lookup: lookup as LoadScenario<unknown>,
  mixed: mixed as LoadScenario<unknown>,
  'v1-v2': v1v2 as LoadScenario<unknown>,
};

let sandbox: RunningSandbox;
let transport: NodeTransport;

beforeAll(async () => {
  sandbox = await startSandbox({ host: '127.0.0.1', port: 0, timeScale: 0.01, user: 'flow-user', password: 'flow-pass', behaviour: { initialBalance: 1e9 } });
  transport = createNodeTransport();
});

afterAll(async () => {
  await transport.close();
  await sandbox.close();
});

async function runSmoke(name: ScenarioName, url = sandbox.url) {
  const settings = readRunSettings(
    runEnvironment({
      baseUrl: url,
      user: 'flow-user',
      password: 'flow-pass',
      environment: 'sandbox',
      timeScale: 0.01,
      profile: 'smoke',
      api: 'both',
      config: { timeouts: CONFIG_DEFAULTS.timeouts, poll: CONFIG_DEFAULTS.poll, fieldMapping: DEFAULT_FIELD_MAPPING },
      targetLabel: 'test',
      runId: 't',
      reportDir: '',
    }),
  );
  const exchanges: CoreExchange[] = [];
  const transactions: TransactionResult[] = [];
  const warnings: string[] = [];
  const confirmations: boolean[] = [];
  const client = createClientCore({
    target: settings.target,
    transport,
    timings: settings.timings,
    status: settings.status,
    now: () => Date.now(),
    sleep: (ms) => delay(ms),
    hooks: { afterResponse: (exchange) => void exchanges.push(exchange) },
  });
  const ids = createCorrelationIds(instanceToken());
  const context = (iteration: number): FlowContext => ({
    client,
    settings,
    versions: versionsOf(settings.api),
    iteration,
    record: {
      transaction: (result) => void transactions.push(result),
      statusConfirms: (ok) => void confirmations.push(ok),
      warnOnce: (_key, message) => void warnings.push(message),
    },
    correlationId: () => ids.next(1, iteration),
    random: Math.random,
  });
  const flow = FLOWS[name];
  const data = await flow.setup(context(0));
  for (let i = 0; i < SCENARIOS[name].smokeIterations; i++) await flow.iteration(context(i), data);
  return { exchanges, transactions, warnings, confirmations, notFoundCodes: settings.status.notFoundCodes };
}

describe.each(SCENARIO_NAMES)('scenario %s (smoke iterations in Node)', (name) => {
  it('sends every declared operation, passes every check, leaves nothing unresolved', async () => {
    const { exchanges, transactions, warnings, confirmations, notFoundCodes } = await runSmoke(name);
    expect(warnings).toEqual([]);
    const sent = new Set(exchanges.map((e) => e.operation.id));
    expect(scenarioOperations(name, 'both').map((op) => op.id).filter((id) => !sent.has(id))).toEqual([]);
    expect([...sent].filter((id) => !scenarioOperations(name, 'both').some((op) => op.id === id))).toEqual([]);
    const failedChecks = exchanges.flatMap((e) =>
      inspectExchange(e, { schemaChecks: true, notFoundCodes })
        .checks.filter((c) => !c.ok)
        .map((c) => `${e.operation.id}: ${c.name} (${e.response.envelope?.responseCode ?? e.response.transportError?.message ?? e.response.httpStatus})`),
    );
    expect(failedChecks).toEqual([]);
    expect(transactions.filter((t) => !t.final)).toEqual([]);
    expect(SCENARIOS[name].followsTransactions).toBe(transactions.length > 0);
    expect(confirmations.every((ok) => ok)).toBe(true);
    expect(SCENARIOS[name].readsBackStatus).toBe(confirmations.length > 0);
  });
});

describe('a drained wallet', () => {
  it("answers the flow's top-ups '009' and every one counts as a failure (never hidden)", async () => {
    const poor = await startSandbox({ host: '127.0.0.1', port: 0, timeScale: 0.01, user: 'flow-user', password: 'flow-pass', behaviour: { initialBalance: 1 } });
    try {
      const { exchanges, transactions, notFoundCodes } = await runSmoke('topup-flow', poor.url);
      const topups = exchanges.filter((e) => e.operation.id.endsWith('.transaction.topup'));
      expect(topups.length).toBe(SCENARIOS['topup-flow'].smokeIterations);
      for (const e of topups) {
        expect(e.response.envelope?.responseCode).toBe('009');
        expect(inspectExchange(e, { schemaChecks: true, notFoundCodes })).toMatchObject({ outcome: 'Failed', failed: true });
      }
      expect(transactions.every((t) => t.final && t.outcome === 'Failed')).toBe(true);
    } finally {
      await poor.close();
    }
  });
});
