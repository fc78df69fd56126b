// Runs inside a copy of the tree that has the made-up operations (scripts/recipe/made-up-operation.ts): shows each
// exercised by conformance (AUTH, ENV, REQ, and a charging write's trigger rows with their derived planted bug and the
// money plan), the mixed load scenario, drift and the OpenAPI export; prints one JSON line.
import { tmpdir } from 'node:os';
import { getOperation } from '../../api/operations.ts';
import { createNodeTransport } from '../../client/node-transport.ts';
import { loadConfig } from '../../config/load-config.ts';
import { ALL_CASES } from '../../conformance/plan.ts';
import { conformanceFundsLines } from '../../conformance/money-plan.ts';
import { PLANTED_BUG_PROFILES } from '../../conformance/proof/planted-bugs.ts';
import { triggerCaseOperation } from '../../conformance/cases/trg.ts';
import type { ConformanceCase } from '../../conformance/types.ts';
import { addProfiles } from '../../sandbox/index.ts';
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

const GROUPS = ['AUTH', 'ENV', 'REQ', 'CATEGORY'];

/** The operation's cases: its AUTH, ENV, REQ and CATEGORY cases, and the TRG cases of its trigger rows. */
function casesOf(id: string): ConformanceCase[] {
  return ALL_CASES.filter((c) => (c.id.endsWith(`-${id}`) && GROUPS.includes(c.group)) || triggerCaseOperation(c.id)?.id === id);
}

/** The cases' statuses on the embedded sandbox with this profile, each version's cases run in that version. */
async function conformance(ids: readonly string[], profile: string): Promise<Record<string, string>> {
  const config = loadConfig({ cwd: tmpdir(), env: {} });
  const sandbox = await startEmbeddedSandbox(config, { profile, seed: 1 });
  const statuses: Record<string, string> = {};
  try {
    for (const id of ids) {
      const outcome = await runConformanceSuite({
        config: { ...config, baseUrl: sandbox.url },
        settings: settingsForSandbox(DEFAULT_SETTINGS, sandbox),
        cases: casesOf(id),
        api: getOperation(id).version,
        progress: createProgress({ stream: { write: () => true }, tty: false }),
      });
      if (outcome.kind !== 'run') return { unusable: outcome.reason };
      for (const c of outcome.run.cases) statuses[c.id] = c.status;
    }
    return statuses;
  } finally {
    await sandbox.close();
  }
}

/** The money plan's lines of the operation's cases: which cases charge, and through which operation. */
function moneyPlan(id: string): Record<string, string[]> {
  const lines = conformanceFundsLines(casesOf(id), DEFAULT_SETTINGS, undefined);
  return Object.fromEntries(lines.map((line) => [line.what, line.operations.map((op) => op.id)]));
}

/** The mixed scenario in the operation's version: setup, then the iterations of one schedule cycle whose action is the operation's purpose. */
async function mixedScenario(id: string): Promise<{ inScenario: boolean; sent: string[]; warnings: string[] }> {
  const op = getOperation(id);
  const sandbox = await startSandbox({
    host: '127.0.0.1',
    port: 0,
    timeScale: 0.01,
    user: 'u',
    password: 'p',
    behaviour: { initialBalance: 1e9 },
  });
  const transport = createNodeTransport();
  try {
    const run = await runInProcess(
      'mixed',
      { url: sandbox.url, user: 'u', password: 'p', transport },
      op.version,
      (i) => entryFor([op.version], i).action === op.purpose,
    );
    const sent = run.exchanges.filter((e) => e.operation.id === id).map((e) => e.response.classification.outcome);
    return { inScenario: scenarioOperations('mixed', op.version).some((o) => o.id === id), sent, warnings: run.warnings };
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

/** Everything the test reads, for one operation; a charging write's trigger rows also under their derived planted bug. */
async function probeOperation(id: string): Promise<Record<string, unknown>> {
  const op = getOperation(id);
  const bug =
    op.triggers === undefined
      ? []
      : PLANTED_BUG_PROFILES.filter((p) => p.plantedBug?.expectedFailingCases.some((c) => triggerCaseOperation(c)?.id === id));
  const underBug: Record<string, Record<string, string>> = {};
  for (const profile of bug) underBug[profile.name] = await conformance([id], profile.name);
  return {
    conformance: await conformance([id], 'faithful'),
    underBug,
    moneyPlan: moneyPlan(id),
    mixed: await mixedScenario(id),
    drift: await drift(id),
    openapi: openapi(id),
  };
}

async function main(): Promise<void> {
  const ids = process.argv.slice(2);
  if (ids.length === 0) throw new Error('usage: probe.ts <operation id>...');
  addProfiles(PLANTED_BUG_PROFILES);
  const result: Record<string, unknown> = {};
  for (const id of ids) result[id] = await probeOperation(id);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

await main();
