// Discovery against the shape profiles finds each one's declared truth (mapping, write paths, cursor meaning); against
// the faithful sandbox and every benign profile it changes nothing. Real sandboxes on 127.0.0.1 port 0.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeFieldMapping } from '../../api/field-mapping.ts';
import { OPERATIONS } from '../../api/operations.ts';
import { selectCases } from '../../conformance/plan.ts';
import { runConformanceSuite } from '../../conformance/run-suite.ts';
import { createProgress } from '../../reports/progress.ts';
import { DEFAULT_SETTINGS } from '../settings.ts';
import { createChargeLearning } from './charge-learning.ts';
import { loadConfig } from '../../config/load-config.ts';
import { BENIGN_PROFILES } from '../../sandbox/profiles/benign.ts';
import { OTHER_WRITE_PATHS, SHAPE_PROFILES } from '../../sandbox/profiles/shapes.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { CURSOR_MEANING_KEY } from './paging.ts';
import { discoverTarget, type Discovery } from './run.ts';
import { candidatePaths, refusableBody } from './write-paths.ts';

const running: RunningSandbox[] = [];
afterAll(async () => {
  for (const sandbox of running) await sandbox.close();
});

async function discoverProfile(profile: string, environment: 'sandbox' | 'production' = 'sandbox', probeWrites = true): Promise<Discovery> {
  const sandbox = await startSandbox({ port: 0, profile, timeScale: 0.01 });
  running.push(sandbox);
  const config = loadConfig({ cwd: '/nonexistent-dir', env: {}, flags: { target: sandbox.url, timeScale: 0.01, env: environment } });
  return discoverTarget({ ...config, baseUrl: sandbox.url }, { probeWrites });
}

describe('discover against the shape profiles', () => {
  it.each(SHAPE_PROFILES.map((p) => [p.name, p] as const))(
    '%s: finds the declared mapping, write paths and cursor meaning',
    async (name, profile) => {
      const truth = profile.shape?.truth;
      const discovery = await discoverProfile(name);
      // Transaction results exist only after a successful write, which discovery never makes: unknown, or spelled by
      // the catalog's snake_case convention, and then as the truth says.
      const { transaction: expectedTransaction, ...expected } = truth?.fieldMapping ?? {};
      const { transaction, ...learned } = discovery.config.fieldMapping;
      expect(learned).toEqual(expected);
      if (transaction !== undefined) expect(transaction).toEqual(expectedTransaction);
      expect(discovery.config.writePaths).toEqual(truth?.writePaths);
      expect(discovery.findings.find((f) => f.key === CURSOR_MEANING_KEY)?.value).toBe(truth?.giftcardCursorMeaning);
      expect(discovery.config.paging).toEqual({ giftcardCursor: truth?.giftcardCursorMeaning });
      expect(discovery.findings.filter((f) => f.status === 'ambiguous')).toEqual([]);
    },
  );

  it('shape-snake: the transaction fields, which no read shows, are spelled by the catalog convention and say so', async () => {
    const discovery = await discoverProfile('shape-snake');
    const id = discovery.findings.find((f) => f.key === 'fieldMapping.transaction.transactionId');
    expect(id?.value).toBe('transaction_id');
    expect(id?.evidence).toMatch(/convention.*confirmed by no value/);
    const renamed = await discoverProfile('shape-renamed');
    const renamedId = renamed.findings.find((f) => f.key === 'fieldMapping.transaction.transactionId');
    expect(renamedId?.status).toBe('unknown');
    expect(renamedId?.evidence).toMatch(/discovery never charges: learned on the first charge/);
  });

  // The rest of the truth: what discovery cannot read without a charge, the run's own first charges teach.
  it('shape-renamed: the transaction keys learned on the first charge of a conformance run are the declared truth', async () => {
    const profile = SHAPE_PROFILES.find((p) => p.name === 'shape-renamed');
    const sandbox = await startSandbox({ port: 0, profile: 'shape-renamed', timeScale: 0.01 });
    running.push(sandbox);
    const given = loadConfig({ cwd: '/nonexistent-dir', env: {}, flags: { target: sandbox.url, timeScale: 0.01 } });
    const discovery = await discoverTarget({ ...given, baseUrl: sandbox.url }, { probeWrites: true });
    const config = { ...given, baseUrl: sandbox.url, fieldMapping: mergeFieldMapping(given.fieldMapping, discovery.config.fieldMapping) };
    const learning = createChargeLearning(config.fieldMapping);
    const cases = selectCases({ grep: '^(ENV-v[12]\\.transaction\\.(giftcard-fetch|sim-portin-status)|GIFT-852-FINAL-V[12]) ' });
    expect(cases).toHaveLength(6);
    const progress = createProgress({ stream: { write: () => true }, tty: false });
    const outcome = await runConformanceSuite({ config, settings: DEFAULT_SETTINGS, cases, api: 'both', progress, learning });
    if (outcome.kind !== 'run') throw new Error(`unusable: ${outcome.reason}`);
    expect(outcome.run.cases.map((r) => [r.id, r.status, r.skipReason])).toEqual(cases.map((c) => [c.id, 'passed', undefined]));
    const learnedKeys = Object.fromEntries(learning.findings().map((f) => [f.key.split('.').pop(), f.value]));
    expect({ ...discovery.config.fieldMapping, transaction: learnedKeys }).toEqual(profile?.shape?.truth.fieldMapping);
    expect(learning.findings().map((f) => f.status)).toEqual(['learned']);
    // Before (no learning on the run's charges): the same six were not verified, naming the key.
    const before = await runConformanceSuite({ config, settings: DEFAULT_SETTINGS, cases, api: 'both', progress });
    if (before.kind !== 'run') throw new Error(`unusable: ${before.reason}`);
    for (const r of before.run.cases)
      expect([r.status, r.skipReason]).toEqual([
        'skipped',
        expect.stringContaining("at 'transactionId' (fieldMapping.transaction.transactionId)"),
      ]);
  }, 120_000);
});

describe('discover changes nothing where the defaults hold', () => {
  it.each(['faithful', ...BENIGN_PROFILES.map((p) => p.name)])('%s: the defaults come back', async (name) => {
    const discovery = await discoverProfile(name);
    const { paging, ...rest } = discovery.config;
    expect(rest).toEqual({ fieldMapping: {}, writePaths: {} });
    // The faithful next_cursor is where the next page starts; a list in another order leaves it unlearned (the spec's walk).
    expect(paging?.giftcardCursor ?? 'spec').toBe(/list-order|combined/.test(name) ? 'spec' : 'next-start');
  });
});

describe('write-path probes', () => {
  it('every request body requires skuId, so the probe body (no skuId, no amount) cannot be valid', () => {
    for (const op of OPERATIONS.filter((o) => o.pathAssumed)) {
      const schema = JSON.parse(
        readFileSync(new URL(`../../schemas/${op.id.split('.')[2] ?? ''}-request.schema.json`, import.meta.url), 'utf8'),
      ) as { required?: string[] };
      expect(schema.required, op.id).toContain('skuId');
    }
    expect(Object.keys(refusableBody()).sort()).toEqual(['correlationId']);
  });

  it("the candidates of each assumed write start with its assumed path and include the shape profile's path", () => {
    for (const op of OPERATIONS.filter((o) => o.pathAssumed)) {
      const paths = candidatePaths(op);
      expect(paths[0]).toBe(op.path);
      expect(paths).toContain(OTHER_WRITE_PATHS[op.id]);
    }
  });

  it('a production target without the money allowance gets no probe: the paths stay unknown', async () => {
    const discovery = await discoverProfile('shape-write-paths', 'production', false);
    const paths = discovery.findings.filter((f) => f.key.startsWith('writePaths.'));
    expect(paths.length).toBe(OPERATIONS.filter((o) => o.pathAssumed).length);
    for (const f of paths) expect(f.status).toBe('unknown');
    expect(discovery.config.writePaths).toEqual({});
  });
});
