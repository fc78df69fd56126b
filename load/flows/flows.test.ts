// Every scenario's setup and smoke iterations, run in Node through the same client core against the embedded sandbox:
// each sends every operation the scenario declares, every response passes every check, every transaction ends final.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeTransport, type NodeTransport } from '../../client/node-transport.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { inspectExchange } from '../response-checks.ts';
import { SCENARIOS, SCENARIO_NAMES, scenarioOperations, type ScenarioName } from '../scenarios.ts';
import { runInProcess } from '../runner/in-process.ts';

let sandbox: RunningSandbox;
let transport: NodeTransport;

beforeAll(async () => {
  sandbox = await startSandbox({
    host: '127.0.0.1',
    port: 0,
    timeScale: 0.01,
    user: 'flow-user',
    password: 'flow-pass',
    behaviour: { initialBalance: 1e9 },
  });
  transport = createNodeTransport();
});

afterAll(async () => {
  await transport.close();
  await sandbox.close();
});

function runSmoke(name: ScenarioName, url = sandbox.url) {
  return runInProcess(name, { url, user: 'flow-user', password: 'flow-pass', transport });
}

describe.each(SCENARIO_NAMES)('scenario %s (smoke iterations in Node)', (name) => {
  it('sends every declared operation, passes every check, leaves nothing unresolved', async () => {
    const { exchanges, transactions, warnings, confirmations, notFoundCodes } = await runSmoke(name);
    expect(warnings).toEqual([]);
    const sent = new Set(exchanges.map((e) => e.operation.id));
    expect(
      scenarioOperations(name, 'both')
        .map((op) => op.id)
        .filter((id) => !sent.has(id)),
    ).toEqual([]);
    expect([...sent].filter((id) => !scenarioOperations(name, 'both').some((op) => op.id === id))).toEqual([]);
    const failedChecks = exchanges.flatMap((e) =>
      inspectExchange(e, { schemaChecks: true, notFoundCodes })
        .checks.filter((c) => !c.ok)
        .map(
          (c) =>
            `${e.operation.id}: ${c.name} (${e.response.envelope?.responseCode ?? e.response.transportError?.message ?? e.response.httpStatus})`,
        ),
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
    const poor = await startSandbox({
      host: '127.0.0.1',
      port: 0,
      timeScale: 0.01,
      user: 'flow-user',
      password: 'flow-pass',
      behaviour: { initialBalance: 0 },
    });
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
