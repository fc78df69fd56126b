// AUTH without catalog discovery: every AUTH case passes against the faithful sandbox, fails against one that ignores
// credentials, never skips, and sends only requests to its own operation (no catalog read, nothing that can charge).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_FIELD_MAPPING } from '../../api/field-mapping.ts';
import { OPERATIONS } from '../../api/operations.ts';
import type { BuiltRequest } from '../../api/request-builder.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { addProfiles } from '../../sandbox/profiles/registry.ts';
import { PLANTED_BUG_PROFILES } from '../proof/planted-bugs.ts';
import { formatCaseFailure } from '../report.ts';
import { runCases } from '../runner.ts';
import { DEFAULT_SETTINGS } from '../../target/settings.ts';
import { createNodeConformanceTarget, sandboxTargetConfig, timingFor } from '../target.ts';
import type { RunResult } from '../types.ts';
import { AUTH_CASES } from './auth.ts';

// The planted bugs are selected by name here, as the CLI does (scripts/cli.ts).
addProfiles(PLANTED_BUG_PROFILES);

const TIME_SCALE = 0.02;

async function runAuth(
  profile: string,
): Promise<{ result: RunResult; sent: BuiltRequest[]; sandbox: RunningSandbox; fundsBefore: number }> {
  const sandbox = await startSandbox({ port: 0, timeScale: TIME_SCALE, profile });
  const fundsBefore = sandbox.app.store.availableFunds;
  const config = sandboxTargetConfig(sandbox.url, TIME_SCALE);
  const node = createNodeConformanceTarget(config);
  const sent: BuiltRequest[] = [];
  const target = {
    ...node,
    transport: {
      send: (built: BuiltRequest, options: Parameters<typeof node.transport.send>[1]) => (
        sent.push(built),
        node.transport.send(built, options)
      ),
    },
  };
  try {
    const result = await runCases(AUTH_CASES, {
      target,
      settings: DEFAULT_SETTINGS,
      timing: timingFor(config, DEFAULT_SETTINGS),
      mapping: DEFAULT_FIELD_MAPPING,
    });
    return { result, sent, sandbox, fundsBefore };
  } finally {
    await node.close();
  }
}

describe('AUTH cases', () => {
  const runs = new Map<string, Awaited<ReturnType<typeof runAuth>>>();
  beforeAll(async () => {
    for (const profile of ['faithful', 'bug-auth-not-required']) runs.set(profile, await runAuth(profile));
  }, 60_000);
  afterAll(async () => {
    for (const run of runs.values()) await run.sandbox.close();
  });

  test('two per operation of the catalog, ids AUTH-NONE-<op id> and AUTH-WRONG-<op id>', () => {
    expect(AUTH_CASES.map((c) => c.id)).toEqual(OPERATIONS.flatMap((op) => [`AUTH-NONE-${op.id}`, `AUTH-WRONG-${op.id}`]));
  });

  test('all pass against the faithful sandbox, none skipped', () => {
    const { result } = runs.get('faithful')!;
    const notPassed = result.cases.filter((c) => c.status !== 'passed');
    expect(
      notPassed.map((c) => c.id),
      notPassed.map(formatCaseFailure).join('\n'),
    ).toEqual([]);
  });

  test('all fail against a sandbox that ignores credentials, none skipped', () => {
    const { result } = runs.get('bug-auth-not-required')!;
    expect(result.cases.filter((c) => c.status !== 'failed').map((c) => c.id)).toEqual([]);
    // Writes are refused for their empty body either way: the comparison with valid credentials is what catches them.
    const topup = result.cases.find((c) => c.id === 'AUTH-NONE-v2.transaction.topup');
    expect(topup?.failures.map((f) => f.check)).toEqual(['credentials-checked']);
  });

  test('no catalog discovery: each case sends exactly two requests, both to its own operation', () => {
    for (const profile of runs.keys()) {
      const { result, sent } = runs.get(profile)!;
      expect(sent).toHaveLength(2 * AUTH_CASES.length);
      for (const c of result.cases) expect(c.requests, `${profile} ${c.id}`).toBe(2);
      const perOperation = new Map<string, number>();
      for (const built of sent) perOperation.set(built.operationId, (perOperation.get(built.operationId) ?? 0) + 1);
      expect(Object.fromEntries(perOperation)).toEqual(Object.fromEntries(OPERATIONS.map((op) => [op.id, 4])));
    }
  });

  test('nothing charged even where credentials are ignored: every write body is empty, the balance is unchanged', () => {
    const { sent, sandbox, fundsBefore } = runs.get('bug-auth-not-required')!;
    for (const built of sent.filter((b) => b.method === 'POST')) expect(built.body).toBe('{}');
    expect(sandbox.app.store.size).toBe(0);
    expect(sandbox.app.store.availableFunds).toBe(fundsBefore);
  });
});
