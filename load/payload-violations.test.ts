// Proof that the payload checks bite under load: against sandbox profiles that corrupt payloads at a set rate, the
// violations a run reports per operation and JSON path EQUAL the corrupted responses the sandbox says it served, on the
// Node engine and on each real k6 found; benign profiles and another seed's catalog give none.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.ts';
import { readBaseline } from '../drift/baseline-files.ts';
import { baselineValidatorsModule } from '../drift/baseline-validators.ts';
import { recordBaseline } from '../drift/run.ts';
import { openTargetSession } from '../target/session.ts';
import type { RunReport } from '../reports/model.ts';
import { BENIGN_PROFILES } from '../sandbox/profiles/benign.ts';
import { allCorruptions, PAYLOAD_CORRUPTION_PROFILES, type CorruptionProfile } from '../sandbox/profiles/payload-corruptions.ts';
import type { SandboxProfile } from '../sandbox/profiles/types.ts';
import { runSmokeOn, startLoadSandbox, type TestTarget } from './fixtures/smoke-on-engine.ts';
import { supportedK6s } from './runner/k6-binaries.ts';
import type { ScenarioName } from './scenarios.ts';

const USER = 'payload-agent';
const PASSWORD = 'payload-secret-7d1e';
const TIME_SCALE = 0.01;
const SANDBOX: TestTarget = { user: USER, password: PASSWORD, timeScale: TIME_SCALE };
/** Denser than the profiles' 10%, so a short run serves every corruption several times. */
const TEST_RATE = 0.5;
const RUN_TIMEOUT_MS = 300_000;

const binaries = supportedK6s();
if (binaries.length === 0) console.warn('load/payload-violations.test.ts: no k6 found (K6_BIN or PATH): the real-k6 runs are SKIPPED');

const workDir = mkdtempSync(join(tmpdir(), 'gh-payload-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** A baseline recorded from the faithful sandbox of this seed (what `gateway-harness baseline record` writes). */
async function recordFaithful(seed: number): Promise<string> {
  const dir = join(workDir, `baseline-seed-${seed}`);
  const session = await openTargetSession(loadConfig({ cwd: workDir, env: {} }), { profile: 'faithful', seed });
  try {
    await recordBaseline(session, dir);
  } finally {
    await session.close();
  }
  return dir;
}

let baselineDir: string;
let baselineModule: string;
beforeAll(async () => {
  baselineDir = await recordFaithful(1);
  baselineModule = baselineValidatorsModule(readBaseline(baselineDir));
}, 120_000);

type Engine = { readonly kind: 'node' } | { readonly kind: 'k6'; readonly path: string; readonly version: string };

interface Observed {
  readonly report: RunReport;
  /** What the sandbox served corrupted: operation → path → count. */
  readonly served: Record<string, Record<string, number>>;
  /** What the run reported as violations (errors): operation → path → count. */
  readonly violations: Record<string, Record<string, number>>;
  readonly warnings: Record<string, Record<string, number>>;
  readonly output: string;
}

function byOperation(entries: readonly { operation: string; path: string; count: number }[]): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const e of entries) (out[e.operation] ??= {})[e.path] = (out[e.operation]?.[e.path] ?? 0) + e.count;
  return out;
}

async function runAgainst(
  profile: string | SandboxProfile,
  scenario: ScenarioName,
  engine: Engine,
  options: { baseline?: boolean; seed?: number; label: string },
): Promise<Observed> {
  const sandbox = await startLoadSandbox(SANDBOX, { profile, seed: options.seed ?? 1 });
  try {
    const reportDir = join(workDir, options.label);
    const outcome = await runSmokeOn(engine, scenario, sandbox.url, {
      target: SANDBOX,
      cwd: workDir,
      reportDir,
      flags: {
        // A second of constant VUs sends hundreds of responses at the test rate on a quiet machine. The Node engine's runs
        // get three: beside the suite's other heavy files (this one starts first) a second of the mixed scenario made 40
        // iterations, and operations with no sample leave the run incomplete, whatever the payloads.
        duration: engine.kind === 'node' ? '3s' : '1s',
        ...(options.baseline === true ? { baseline: baselineDir } : {}),
      },
      io: options.baseline === true ? { baselineModule } : {},
    });
    const checks = outcome.report.load?.payloadChecks;
    if (checks === undefined)
      throw new Error(`${options.label}: no payload checks in the report: ${outcome.report.verdictLine}\n${outcome.output().slice(-3000)}`);
    return {
      report: outcome.report,
      served: sandbox.app.stats.snapshot().corruptions,
      violations: byOperation(checks.byPath.filter((e) => e.severity === 'error')),
      warnings: byOperation(checks.byPath.filter((e) => e.severity === 'warning')),
      output: outcome.output(),
    };
  } finally {
    await sandbox.close();
  }
}

const atRate = (profile: CorruptionProfile): SandboxProfile => ({
  ...profile,
  corruptions: profile.corruptions.map((c) => ({ ...c, rate: TEST_RATE })),
});
const scenarioFor = (profile: CorruptionProfile): ScenarioName =>
  profile.corruptions[0].operations.includes('v2.lookup.mobile') ? 'lookup' : 'catalog-browse';
const total = (counts: Record<string, Record<string, number>>): number =>
  Object.values(counts).reduce((n, paths) => n + Object.values(paths).reduce((a, b) => a + b, 0), 0);

describe('payload corruption under load: violations = corrupted responses served, per operation and path (Node engine)', () => {
  for (const profile of PAYLOAD_CORRUPTION_PROFILES) {
    const { path, operations } = profile.corruptions[0];
    const withBaseline = profile.caughtBy === 'baseline';
    it(
      `${profile.name}: ${operations.join(', ')} ${path} (${withBaseline ? 'with the baseline' : 'spec rules alone, no baseline'})`,
      async () => {
        const observed = await runAgainst(
          atRate(profile),
          scenarioFor(profile),
          { kind: 'node' },
          { baseline: withBaseline, label: `node-${profile.name}` },
        );
        const why = observed.output.slice(-2000);
        expect(total(observed.served), `${profile.name} served no corrupted payload: the run proves nothing\n${why}`).toBeGreaterThan(0);
        expect(observed.violations, why).toEqual(observed.served);
        // gateway_schema_violations counts them all (its threshold, none allowed, is crossed: exit 99).
        expect(observed.report.load?.metrics.gateway_schema_violations?.values.count).toBe(total(observed.served));
        expect(observed.report.verdict).toBe('thresholds');
        const samples = observed.report.load?.payloadChecks?.samples.filter((s) => s.path === path) ?? [];
        expect(samples.length).toBeGreaterThan(0);
        expect(samples.length).toBeLessThanOrEqual(3);
        for (const sample of samples) expect(sample.received.length).toBeLessThanOrEqual(301);
      },
      RUN_TIMEOUT_MS,
    );
  }

  it(
    'corrupt-nested-removed without a baseline: no violation, one observed-payload warning per corrupted response',
    async () => {
      const profile = PAYLOAD_CORRUPTION_PROFILES.find((p) => p.name === 'corrupt-nested-removed') as CorruptionProfile;
      const observed = await runAgainst(atRate(profile), scenarioFor(profile), { kind: 'node' }, { label: 'node-nested-no-baseline' });
      expect(total(observed.served)).toBeGreaterThan(0);
      expect(observed.violations).toEqual({});
      expect(observed.warnings).toEqual(observed.served);
      expect(observed.report.verdict).toBe('pass');
    },
    RUN_TIMEOUT_MS,
  );
});

describe.each(binaries.map((b) => ({ name: b.version, binary: b })))(
  'every corruption at once on real $name: violations = corrupted responses served',
  ({ binary }) => {
    it(
      'mixed scenario with the baseline: equal per operation and path',
      async () => {
        const observed = await runAgainst(
          allCorruptions(TEST_RATE),
          'mixed',
          { kind: 'k6', path: binary.path, version: binary.version },
          { baseline: true, label: `k6-${binary.version}-all` },
        );
        expect(total(observed.served), observed.output.slice(-2000)).toBeGreaterThan(0);
        expect(observed.violations, observed.output.slice(-2000)).toEqual(observed.served);
        expect(observed.report.load?.metrics.gateway_schema_violations?.values.count).toBe(total(observed.served));
        expect(observed.report.load?.payloadChecks?.samples.length).toBeGreaterThan(0);
      },
      RUN_TIMEOUT_MS,
    );
  },
);

describe('no false violations', () => {
  it(
    'every corruption at once on the Node engine too (the run the real-k6 tests mirror)',
    async () => {
      const observed = await runAgainst(allCorruptions(TEST_RATE), 'mixed', { kind: 'node' }, { baseline: true, label: 'node-all' });
      expect(Object.keys(observed.served).length).toBeGreaterThanOrEqual(5);
      expect(observed.violations).toEqual(observed.served);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'faithful sandbox, mixed scenario, with the baseline: no violation and no warning',
    async () => {
      const observed = await runAgainst('faithful', 'mixed', { kind: 'node' }, { baseline: true, label: 'node-faithful' });
      expect(observed.violations).toEqual({});
      expect(observed.warnings).toEqual({});
      expect(observed.report.verdict, observed.output.slice(-2000)).toBe('pass');
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "a baseline recorded on seed 1, checked under load against seed 2's catalog: no violation (data changes are not drift)",
    async () => {
      const observed = await runAgainst('faithful', 'mixed', { kind: 'node' }, { baseline: true, seed: 2, label: 'node-seed-2' });
      expect(observed.violations).toEqual({});
      expect(observed.report.verdict, observed.output.slice(-2000)).toBe('pass');
    },
    RUN_TIMEOUT_MS,
  );

  for (const profile of BENIGN_PROFILES) {
    it(
      `${profile.name}: no violation with the baseline (${profile.benign?.change ?? ''})`,
      async () => {
        const observed = await runAgainst(profile.name, 'mixed', { kind: 'node' }, { baseline: true, label: `node-${profile.name}` });
        expect(observed.violations, observed.output.slice(-2000)).toEqual({});
      },
      RUN_TIMEOUT_MS,
    );
  }
});
