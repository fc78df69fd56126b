// End-to-end drift tests on the embedded sandbox (real sockets on 127.0.0.1): a baseline recorded and checked against
// the same sandbox or another seed's catalog gives no finding; each contract-change profile gives exactly its declared findings.
import { readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../api/operations.ts';
import { loadConfig } from '../config/load-config.ts';
import { CONTRACT_CHANGE_PROFILES } from '../sandbox/profiles/contract-changes.ts';
import { readBaseline } from './baseline-files.ts';
import type { DriftFinding } from './compare.ts';
import { checkBaseline, recordBaseline } from './run.ts';
import { openTargetSession } from '../target/session.ts';
import { tempDirsRemovedAfterAll } from '../scripts/fixtures/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterAll('gh-drift-');

/** The embedded sandbox's config: no target, default credentials, its fast time scale. */
const CONFIG = loadConfig({ cwd: tmpdir(), env: {} });

async function record(dir: string, profile = 'faithful', seed = 1): Promise<void> {
  const session = await openTargetSession(CONFIG, { profile, seed });
  try {
    await recordBaseline(session, dir);
  } finally {
    await session.close();
  }
}

async function check(dir: string, profile = 'faithful', seed = 1): Promise<{ findings: readonly DriftFinding[]; checked: number }> {
  const session = await openTargetSession(CONFIG, { profile, seed });
  try {
    const result = await checkBaseline(session, readBaseline(dir));
    return { findings: result.findings, checked: result.checked.length };
  } finally {
    await session.close();
  }
}

const key = (f: { operationId: string; path: string; kind: string; change: string }): string =>
  `${f.kind} ${f.change} ${f.operationId} ${f.path}`;

const baselines = new Map<string, string>();
beforeAll(async () => {
  for (const profile of new Set(['faithful', ...CONTRACT_CHANGE_PROFILES.map((p) => p.contractChange.baselineProfile)])) {
    const dir = tempDir();
    await record(dir, profile);
    baselines.set(profile, dir);
  }
}, 60_000);

describe('baseline record + check on the embedded sandbox', () => {
  it('records every catalog operation of a sandbox', () => {
    const baseline = readBaseline(baselines.get('faithful') as string);
    expect(
      baseline.index.operations
        .filter((o) => o.state === 'observed')
        .map((o) => o.operationId)
        .sort(),
    ).toEqual(OPERATIONS.map((op) => op.id).sort());
  });

  it('finds no difference against the same sandbox', async () => {
    const { findings, checked } = await check(baselines.get('faithful') as string);
    expect(findings).toEqual([]);
    expect(checked).toBe(OPERATIONS.length);
  });

  it("finds no difference against another seed's catalog: data changes are not drift", async () => {
    const { findings, checked } = await check(baselines.get('faithful') as string, 'faithful', 2);
    expect(findings).toEqual([]);
    expect(checked).toBe(OPERATIONS.length);
  });

  it('writes the same schema and header lines when re-recorded from the same sandbox', async () => {
    const again = tempDir();
    await record(again);
    const first = baselines.get('faithful') as string;
    for (const file of readdirSync(join(first, 'operations'))) {
      const parts = (dir: string) => {
        const doc = JSON.parse(readFileSync(join(dir, 'operations', file), 'utf8')) as Record<string, unknown>;
        return JSON.stringify([doc.schema, doc.responseHeaders]);
      };
      expect(parts(again), file).toBe(parts(first));
    }
    expect(readFileSync(join(again, 'index.json'), 'utf8')).toBe(readFileSync(join(first, 'index.json'), 'utf8'));
  });
});

describe('contract-change profiles: exactly the declared findings', () => {
  it.each(CONTRACT_CHANGE_PROFILES.map((p) => [p.name, p] as const))('%s', async (_name, profile) => {
    const dir = baselines.get(profile.contractChange.baselineProfile) as string;
    const { findings } = await check(dir, profile.name);
    expect(findings.map(key).sort()).toEqual(profile.contractChange.expectedFindings.map(key).sort());
    expect(findings.length).toBeGreaterThan(0);
  });
});
