// The verdict rules of each section and the words every report uses for them.
import { describe, expect, it } from 'vitest';
import type { LoadSection } from './model.ts';
import {
  driftLine,
  driftSection,
  driftSkipped,
  formatCount,
  formatMs,
  formatObserved,
  ledgerLine,
  ledgerSection,
  loadLine,
  loadVerdict,
  migrationLine,
  migrationSection,
  migrationSkipped,
  nameSome,
  remoteWriteLine,
} from './sections.ts';
import { SAMPLE_DRIFT_FINDINGS, SAMPLE_MIGRATION_PAIRS } from './fixtures/sample-runs.ts';

const threshold = (ok: boolean) => ({ metric: 'http_req_duration', expression: 'p(95)<500', ok, observed: 612.4 });
const check = (fails: number) => ({ name: 'HTTP 200', path: '::HTTP 200', passes: 10, fails });

describe('loadVerdict', () => {
  it.each([
    ['all met, requests made', [threshold(true)], [check(0)], 10, 'pass'],
    ['a threshold crossed', [threshold(false)], [check(0)], 10, 'thresholds'],
    ['a check failed', [threshold(true)], [check(1)], 10, 'fail'],
    ['both: the failure outranks', [threshold(false)], [check(1)], 10, 'fail'],
    ['no request (iterations or not): nothing measured', [], [], 0, 'incomplete'],
  ] as const)('%s → %s', (_name, thresholds, checks, count, expected) => {
    expect(loadVerdict({ thresholds: [...thresholds], checks: [...checks], requests: { count, rate: 0 } })).toBe(expected);
  });

  it('the line names the crossed threshold with its observed value and the failing check', () => {
    const section: LoadSection = {
      verdict: 'fail',
      scenario: 'mixed',
      profile: 'smoke',
      engine: 'node',
      durationMs: 1,
      requests: { count: 11, rate: 1 },
      thresholds: [threshold(false)],
      checks: [check(3)],
      metrics: {},
    };
    expect(loadLine(section)).toBe(
      "load mixed/smoke (node): 1 of 1 threshold crossed (http_req_duration p(95)<500, observed 612 ms), check 'HTTP 200' failed 3 of 13 times",
    );
  });
});

describe('drift, migration and ledger sections', () => {
  it('breaking drift fails; additions alone pass; nothing compared is incomplete', () => {
    expect(driftSection({ baselineDir: 'b', findings: SAMPLE_DRIFT_FINDINGS }).verdict).toBe('fail');
    const added = driftSection({
      baselineDir: 'b',
      compared: ['v2.catalog.skus'],
      findings: SAMPLE_DRIFT_FINDINGS.filter((f) => f.kind === 'non-breaking'),
    });
    expect([added.verdict, driftLine(added)]).toEqual(['pass', 'drift: no breaking change in 1 operation (1 non-breaking change)']);
    expect(driftSection({ baselineDir: 'b', compared: [], findings: [] }).verdict).toBe('incomplete');
  });

  it('a regressed pair fails; no pair is incomplete', () => {
    const m = migrationSection(SAMPLE_MIGRATION_PAIRS);
    expect([m.verdict, migrationLine(m)]).toEqual(['fail', 'migration: 1 of 2 v1/v2 pairs regressed (account.balance)']);
    expect(migrationSection(SAMPLE_MIGRATION_PAIRS.filter((p) => !p.regression)).verdict).toBe('pass');
    expect(migrationSection([]).verdict).toBe('incomplete');
  });

  it('an operation of the baseline not checked now is incomplete unless accepted, and listed as not verified', () => {
    const input = {
      baselineDir: 'b',
      compared: ['v2.catalog.skus'],
      findings: [],
      notChecked: [
        { operationId: 'v2.transaction.topup', reason: 'charges money: not sent to a production target', skipped: true },
        { operationId: 'v2.catalog.bundles', reason: 'no shape in the baseline (unavailable)', skipped: false },
      ],
    };
    const strict = driftSection(input);
    expect([strict.verdict, driftLine(strict)]).toEqual([
      'incomplete',
      'drift: no breaking change in 1 operation; 1 operation of the baseline not checked, not verified (v2.transaction.topup)',
    ]);
    expect(driftSection(input, { allowSkips: true }).verdict).toBe('pass');
    expect(driftSkipped(strict)).toEqual([
      { section: 'drift', id: 'v2.transaction.topup', reason: 'charges money: not sent to a production target' },
    ]);
    expect(driftSection({ ...input, notChecked: input.notChecked.slice(1) }).verdict).toBe('pass');
  });

  it('a selected pair not compared is incomplete unless accepted, and listed as not verified', () => {
    const notCompared = [{ purpose: 'esim.status', v1: 'v1.esim.status', v2: 'v2.esim.status', reason: 'no eSIM order in this run' }];
    const pairs = SAMPLE_MIGRATION_PAIRS.filter((p) => !p.regression);
    const strict = migrationSection(pairs, { notCompared });
    expect([strict.verdict, migrationLine(strict)]).toEqual([
      'incomplete',
      'migration: 1 v1/v2 pair compared, no regression; 1 not compared, not verified (esim.status)',
    ]);
    expect(migrationSection(pairs, { notCompared, allowSkips: true }).verdict).toBe('pass');
    expect(migrationSkipped(strict)).toEqual([{ section: 'migration', id: 'esim.status', reason: 'no eSIM order in this run' }]);
    expect(migrationSection([], { notCompared, allowSkips: true }).verdict).toBe('incomplete');
  });

  it('an unresolved charge is incomplete unless accepted', () => {
    const input = {
      entries: 3,
      charged: [{ amount: 30, currency: 'USD' }],
      unresolved: [{ correlationId: 'c1', operationId: 'v1.transaction.topup', lastOutcome: 'Unknown' as const }],
    };
    expect(ledgerSection(input, { allowSkips: false }).verdict).toBe('incomplete');
    expect(ledgerSection(input, { allowSkips: true }).verdict).toBe('pass');
    expect(ledgerLine(ledgerSection({ ...input, unresolved: [] }, { allowSkips: false }))).toBe(
      'ledger: 3 charging requests recorded, all final',
    );
  });
});

describe('formatting', () => {
  it.each([
    [0.842, '0.84 ms'],
    [12.34, '12.3 ms'],
    [612.4, '612 ms'],
    [1_240, '1.24 s'],
    [185_000, '3 min 5 s'],
  ])('formatMs(%s) = %s', (ms, text) => expect(formatMs(ms)).toBe(text));

  it('counts, rates and lists read the same everywhere', () => {
    expect(formatCount(1_234_567)).toBe('1,234,567');
    expect(formatObserved(0.0123, 'http_req_failed')).toBe('1.23%');
    expect(formatObserved(12.5, 'http_req_duration{operation:v2.account.balance}')).toBe('12.5 ms');
    expect(nameSome(['a', 'b', 'c', 'd', 'e'])).toBe('a, b, c +2 more');
  });
});

describe('remoteWriteLine', () => {
  it('says where the series went, how trends were sent, and what was lost', () => {
    expect(
      remoteWriteLine({ url: 'http://p:9090/api/v1/write', trends: 'stats', failedPushes: 0, pushes: 3, series: 896, thresholdSeries: 24 }),
    ).toBe(
      'Prometheus remote write to http://p:9090/api/v1/write (trends as stats): 3 pushes, no push failed, 896 series, 24 threshold results at the end.',
    );
    expect(
      remoteWriteLine({ url: 'http://p/api/v1/write', trends: 'native-histogram', failedPushes: 1, lastError: 'connect ECONNREFUSED' }),
    ).toBe(
      'Prometheus remote write to http://p/api/v1/write (trends as native histograms): 1 push failed (the run went on; those samples are not in Prometheus); last error: connect ECONNREFUSED.',
    );
  });
});
