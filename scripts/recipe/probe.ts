// Runs inside a copy of the tree that has a made-up operation (scripts/recipe/made-up-operation.ts): shows it exercised
// by conformance (AUTH, ENV, REQ), the mixed load scenario, drift and the OpenAPI export; prints one JSON line.
import { tmpdir } from 'node:os';
import { getOperation } from '../../api/operations.ts';
import { createNodeTransport } from '../../client/node-transport.ts';
import { loadConfig } from '../../config/load-config.ts';
import { ALL_CASES } from '../../conformance/plan.ts';
import { runConformanceSuite } from '../../conformance/run-suite.ts';
import { settingsForSandbox, startEmbeddedSandbox } from '../../target/embedded.ts';
import { DEFAULT_SETTINGS } from '../../target/settings.ts';
import { observeTarget } from '../../drift/run.ts';
import { openTargetSession } from '../../target/session.ts';
import { runInProcess } from '../../load/runner/in-process.ts';
import { entryFor } from '../../load/flows/mixed.ts';
import { scenarioOperations } from '../../load/scenarios.ts';
import { buildOpenApiDocument } from '../../openapi/build-document.ts';
import { createProgress } from '../../reports/progress.ts';
import { startSandbox } from '../../sandbox/server.ts';

const GROUPS = ['AUTH', 'ENV', 'REQ'];

/** The conformance cases of the operation in the AUTH, ENV and REQ groups, run on the embedded sandbox. */
async function conformance(id: string): Promise<Record<string, string>> {
  const config = loadConfig({ cwd: tmpdir(), env: {} });
  const cases = ALL_CASES.filter((c) => c.id.endsWith(`-${id}`) && GROUPS.includes(c.group));
  const sandbox = await startEmbeddedSandbox(config, { profile: 'faithful', seed: 1 });
  try {
    const outcome = await runConformanceSuite({
      config: { ...config, baseUrl: sandbox.url },
      settings: settingsForSandbox(DEFAULT_SETTINGS, sandbox),
      cases,
      api: 'v2',
      progress: createProgress({ stream: { write: () => true }, tty: false }),
    });
    if (outcome.kind !== 'run') return { unusable: outcome.reason };
    return Object.fromEntries(outcome.run.cases.map((c) => [c.id, c.status]));
  } finally {
    await sandbox.close();
  }
}

/** The mixed scenario on v2: setup, then the iterations of one schedule cycle whose action is the operation's purpose. */
async function mixedScenario(id: string): Promise<{ inScenario: boolean; sent: string[]; warnings: string[] }> {
  const op = getOperation(id);
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, timeScale: 0.01, user: 'u', password: 'p', behaviour: { initialBalance: 1e9 } });
  const transport = createNodeTransport();
  try {
    const run = await runInProcess('mixed', { url: sandbox.url, user: 'u', password: 'p', transport }, 'v2', (i) => entryFor(['v2'], i).action === op.purpose);
    const sent = run.exchanges.filter((e) => e.operation.id === id).map((e) => e.response.classification.outcome);
    return { inScenario: scenarioOperations('mixed', 'v2').some((o) => o.id === id), sent, warnings: run.warnings };
  } finally {
    await transport.close();
    await sandbox.close();
  }
}

/** Drift's representative-input step and observation of the one operation. */
async function drift(id: string): Promise<{ state: string; calls: number; reason?: string }> {
  const session = await openTargetSession(loadConfig({ cwd: tmpdir(), env: {} }), { profile: 'faithful', seed: 1 });
  try {
    const observed = await observeTarget(session, { operations: [getOperation(id)] });
    const obs = observed.get(id);
    return { state: obs?.state ?? 'missing', calls: obs?.calls ?? 0, ...(obs?.reason === undefined ? {} : { reason: obs.reason }) };
  } finally {
    await session.close();
  }
}

function openapi(id: string): { operationId?: unknown; requestBody: boolean } {
  const op = getOperation(id);
  const paths = buildOpenApiDocument().paths as Record<string, Record<string, { operationId?: unknown; requestBody?: unknown }>>;
  const entry = paths[op.path]?.[op.method.toLowerCase()];
  return { operationId: entry?.operationId, requestBody: entry?.requestBody !== undefined };
}

async function main(): Promise<void> {
  const id = process.argv[2];
  if (id === undefined) throw new Error('usage: probe.ts <operation id>');
  const result = { conformance: await conformance(id), mixed: await mixedScenario(id), drift: await drift(id), openapi: openapi(id) };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

await main();
