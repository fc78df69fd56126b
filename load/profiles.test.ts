// Profiles → k6 options: executors, CLI overrides and the thresholds each profile sets (latency per operation tag,
// envelope-aware metrics, one per check), so a scenario × profile always produces the run the docs describe.
import { describe, expect, it } from 'vitest';
import { buildK6Options, overrideProblem, PROFILES, PROFILE_NAMES, type BuildOptionsInput } from './profiles.ts';
import { mixOperations, scheduledOperations } from './mix.ts';
import { SCENARIOS, scenarioNameOf, scenarioOperations } from './scenarios.ts';

const base: BuildOptionsInput = {
  scenario: 'topup-flow',
  profile: 'smoke',
  api: 'both',
  schemaChecks: true,
  timeToFinalBudgetMs: 6_200,
  iterationGraceMs: 16_000,
};

function executor(input: Partial<BuildOptionsInput>): Record<string, unknown> {
  const options = buildK6Options({ ...base, ...input });
  return options.scenarios[scenarioNameOf(input.scenario ?? base.scenario)] as Record<string, unknown>;
}

describe('executors', () => {
  it("smoke runs the scenario's smoke iterations, shared by 2 VUs", () => {
    expect(executor({})).toMatchObject({
      executor: 'shared-iterations',
      vus: 2,
      iterations: SCENARIOS['topup-flow'].smokeIterations,
      gracefulStop: '16s',
    });
  });

  it('smoke with -i/--iterations runs that many, shared by its VUs (never more VUs than iterations), within -d if given', () => {
    expect(executor({ overrides: { iterations: 40 } })).toMatchObject({
      executor: 'shared-iterations',
      vus: 2,
      iterations: 40,
      maxDuration: '600s',
    });
    expect(executor({ overrides: { iterations: 1 } })).toMatchObject({ executor: 'shared-iterations', vus: 1, iterations: 1 });
    expect(executor({ overrides: { iterations: 12, vus: 4, durationSec: 30 } })).toMatchObject({
      executor: 'shared-iterations',
      vus: 4,
      iterations: 12,
      maxDuration: '30s',
    });
  });

  it('--iterations applies to iteration profiles only, and never below --vus', () => {
    expect(overrideProblem('load', { iterations: 10 })).toMatch(/--iterations applies to the iteration profiles \(smoke\), not to load/);
    expect(overrideProblem('smoke', { iterations: 2, vus: 5 })).toMatch(/--iterations \(2\) must be at least --vus \(5\)/);
    expect(overrideProblem('smoke', { iterations: 5, vus: 5 })).toBeUndefined();
  });

  it('smoke with --duration becomes constant VUs for that long', () => {
    expect(executor({ overrides: { durationSec: 30, vus: 3 } })).toMatchObject({ executor: 'constant-vus', vus: 3, duration: '30s' });
  });

  it('smoke never asks for fewer iterations than VUs (k6 refuses that)', () => {
    expect(executor({ scenario: 'v1-v2', overrides: { vus: 5 } })).toMatchObject({ vus: 5, iterations: 5 });
  });

  it('load ramps to the target rate, holds it, ramps down', () => {
    expect(executor({ profile: 'load' })).toMatchObject({
      executor: 'ramping-arrival-rate',
      startRate: 0,
      timeUnit: '1s',
      stages: [
        { target: 10, duration: '54s' },
        { target: 10, duration: '288s' },
        { target: 0, duration: '18s' },
      ],
    });
  });

  it('--rate scales and --duration stretches the shape; --vus sets the VU pool', () => {
    expect(executor({ profile: 'stress', overrides: { rate: 5, durationSec: 100, vus: 40 } })).toMatchObject({
      preAllocatedVUs: 40,
      maxVUs: 40,
      stages: [
        { target: 5, duration: '5s' },
        { target: 5, duration: '15s' },
        { target: 10, duration: '5s' },
        { target: 10, duration: '15s' },
        { target: 15, duration: '5s' },
        { target: 15, duration: '15s' },
        { target: 20, duration: '5s' },
        { target: 20, duration: '15s' },
        { target: 0, duration: '10s' },
      ],
    });
  });

  it('counts fractional rates per minute (k6 rates are whole numbers per time unit)', () => {
    expect(executor({ profile: 'spike', overrides: { rate: 3 } })).toMatchObject({
      timeUnit: '1m',
      stages: expect.arrayContaining([{ target: 18, duration: '12s' }]),
    });
  });

  it('refuses --rate for the iteration profile', () => {
    expect(overrideProblem('smoke', { rate: 5 })).toMatch(/--rate applies to the arrival-rate profiles/);
    expect(overrideProblem('load', { rate: 5 })).toBeUndefined();
  });
});

describe('thresholds', () => {
  it('put a latency budget on every operation the scenario sends, by operation tag', () => {
    const { thresholds } = buildK6Options(base);
    for (const op of scenarioOperations('topup-flow', 'both')) {
      expect(thresholds[`http_req_duration{operation:${op.id}}`], op.id).toEqual([op.method === 'POST' ? 'p(95)<5000' : 'p(95)<2000']);
    }
  });

  it('the mixed smoke with fewer iterations than its cycle (the gate cut to fit a wallet): no latency budget for an operation it never reaches', () => {
    const perOperation = (thresholds: Record<string, unknown>): string[] =>
      Object.keys(thresholds).filter((k) => k.includes('{operation:'));
    const whole = perOperation(buildK6Options({ ...base, scenario: 'mixed' }).thresholds);
    const cut = perOperation(buildK6Options({ ...base, scenario: 'mixed', overrides: { iterations: 5 } }).thresholds);
    const reached = scheduledOperations(['v1', 'v2'], 5).map((id) => `http_req_duration{operation:${id}}`);
    expect(whole).toHaveLength(mixOperations(['v1', 'v2']).length);
    expect(cut.sort()).toEqual([...reached].sort());
    expect(cut.length).toBeLessThan(whole.length);
    // A whole cycle or more reaches every operation; other scenarios keep every budget whatever the iterations.
    expect(perOperation(buildK6Options({ ...base, scenario: 'mixed', overrides: { iterations: 500 } }).thresholds)).toHaveLength(
      whole.length,
    );
    expect(perOperation(buildK6Options({ ...base, overrides: { iterations: 2 } }).thresholds)).toHaveLength(
      scenarioOperations('topup-flow', 'both').length,
    );
  });

  it('watch the envelope-aware metrics and every check', () => {
    const { thresholds } = buildK6Options(base);
    expect(thresholds).toMatchObject({
      gateway_failed: ['rate<=0'],
      gateway_schema_violations: ['count==0'],
      gateway_time_to_final: ['p(95)<6200'],
      gateway_unresolved: ['count==0'],
      'checks{check:http status is 200}': ['rate>=1'],
      'checks{check:envelope matches schema}': ['rate>=1'],
      'checks{check:payload kind matches}': ['rate>=1'],
      'checks{check:outcome is not Failed}': ['rate>=1'],
      'checks{check:status confirms the outcome}': ['rate>=1'],
    });
  });

  it('leave out transaction metrics for read-only scenarios and schema thresholds when schema checks are off', () => {
    const { thresholds } = buildK6Options({ ...base, scenario: 'catalog-browse', schemaChecks: false });
    expect(Object.keys(thresholds).filter((k) => !k.startsWith('http_req_duration'))).toEqual([
      'gateway_failed',
      'checks{check:http status is 200}',
      'checks{check:outcome is not Failed}',
    ]);
  });

  it("let --threshold replace a metric's list or add one", () => {
    const { thresholds } = buildK6Options({ ...base, thresholdOverrides: { gateway_failed: ['rate<0.5'], http_req_duration: ['max<0'] } });
    expect(thresholds.gateway_failed).toEqual(['rate<0.5']);
    expect(thresholds.http_req_duration).toEqual(['max<0']);
  });

  it('abort the breakpoint run at the first crossed threshold, and only that profile', () => {
    for (const name of PROFILE_NAMES) {
      const { thresholds } = buildK6Options({ ...base, profile: name });
      const first = thresholds.gateway_failed?.[0];
      if (name === 'breakpoint')
        expect(first).toEqual({ threshold: `rate<=${PROFILES.breakpoint.limits.failedRate}`, abortOnFail: true, delayAbortEval: '10s' });
      else expect(typeof first).toBe('string');
    }
  });

  it('ask k6 for the trend count, so a threshold without samples is told apart', () => {
    expect(buildK6Options(base).summaryTrendStats).toContain('count');
  });
});
