// Tests of the operation-level check and the drift section's verdict: gone, failing, added, not checked; breaking fails,
// non-breaking passes, nothing checked or a skipped operation of the baseline is incomplete (unless skips are allowed).
import { describe, expect, it } from 'vitest';
import { DEFAULT_FIELD_MAPPING } from '../api/field-mapping.ts';
import type { Baseline } from './baseline-files.ts';
import { compareWithBaseline, type DriftCheckResult } from './check.ts';
import { driftReportSection } from './report.ts';
import type { OperationObservation } from './observe.ts';
import { buildBaseline } from './record.ts';

const ok = (operationId: string, payLoad: unknown): OperationObservation => ({
  operationId,
  state: 'observed',
  samples: [{ responseCode: '000', responseMessage: null, payLoad }],
  headerSets: [['content-type']],
  calls: 1,
});
const failed = (operationId: string, gone: boolean): OperationObservation => ({
  operationId,
  state: 'failed',
  reason: gone ? 'HTTP 404' : "responseCode '027'",
  ...(gone ? { gone: true } : {}),
  samples: [],
  headerSets: [],
  calls: 1,
});
const notRun = (operationId: string): OperationObservation => ({
  operationId,
  state: 'not-run',
  reason: 'charges money',
  samples: [],
  headerSets: [],
  calls: 0,
});

function baselineOf(observations: OperationObservation[]): Baseline {
  const built = buildBaseline(new Map(observations.map((o) => [o.operationId, o])), {
    target: 't',
    environment: 'sandbox',
    mapping: DEFAULT_FIELD_MAPPING,
  });
  return { dir: '/baseline', index: built.index, entries: new Map(built.entries.map((e) => [e.operationId, e])) };
}

const BASE = baselineOf([ok('v2.account.balance', -1), ok('v1.account.balance', -1), failed('v2.catalog.errors', true)]);
const check = (observations: OperationObservation[]): DriftCheckResult =>
  compareWithBaseline(BASE, new Map(observations.map((o) => [o.operationId, o])));
const changes = (r: DriftCheckResult) => r.findings.map((f) => `${f.operationId} ${f.change}`);

describe('compareWithBaseline: operations', () => {
  it('reports an operation answering HTTP 404/405 now as gone (breaking)', () => {
    const r = check([failed('v2.account.balance', true), ok('v1.account.balance', -2)]);
    expect(changes(r)).toEqual(['v2.account.balance operation-gone']);
    expect(r.findings[0]?.kind).toBe('breaking');
  });

  it('reports an operation failing now with an envelope as failing (breaking)', () => {
    expect(changes(check([failed('v2.account.balance', false), ok('v1.account.balance', -2)]))).toEqual([
      'v2.account.balance operation-failing',
    ]);
  });

  it('reports an operation unavailable in the baseline that answers now as added (non-breaking)', () => {
    const r = check([ok('v2.account.balance', -1), ok('v1.account.balance', -1), ok('v2.catalog.errors', [])]);
    expect(changes(r)).toEqual(['v2.catalog.errors operation-added']);
    expect(r.findings[0]?.kind).toBe('non-breaking');
  });

  it('lists an operation of the baseline that was not called now as a skip', () => {
    const r = check([notRun('v2.account.balance'), ok('v1.account.balance', -1)]);
    expect(r.findings).toEqual([]);
    expect(r.notChecked.find((n) => n.operationId === 'v2.account.balance')?.skipped).toBe(true);
  });
});

const driftVerdict = (r: DriftCheckResult, options: { allowSkips: boolean }): string => driftReportSection(r, options).verdict;

describe('the drift section verdict', () => {
  it('fails on a breaking finding', () => {
    expect(driftVerdict(check([failed('v2.account.balance', true), ok('v1.account.balance', -1)]), { allowSkips: true })).toBe('fail');
  });

  it('passes with only non-breaking findings', () => {
    expect(
      driftVerdict(check([ok('v2.account.balance', -1), ok('v1.account.balance', -1), ok('v2.catalog.errors', [])]), { allowSkips: false }),
    ).toBe('pass');
  });

  it('is incomplete when nothing could be checked', () => {
    expect(driftVerdict(check([]), { allowSkips: true })).toBe('incomplete');
  });

  it('is incomplete when an operation of the baseline was skipped, unless skips are allowed', () => {
    const r = check([notRun('v2.account.balance'), ok('v1.account.balance', -1)]);
    expect(driftVerdict(r, { allowSkips: false })).toBe('incomplete');
    expect(driftVerdict(r, { allowSkips: true })).toBe('pass');
  });
});

describe("operations outside the run's selection", () => {
  it('are listed as not checked without counting as skips (an --api v2 gate does not check v1)', () => {
    const r = compareWithBaseline(BASE, new Map([['v2.account.balance', ok('v2.account.balance', -1)]]), {
      selected: new Set(['v2.account.balance']),
    });
    expect(r.notChecked.find((n) => n.operationId === 'v1.account.balance')).toMatchObject({
      skipped: false,
      reason: expect.stringContaining('another API version'),
    });
    expect(driftVerdict(r, { allowSkips: false })).toBe('pass');
  });

  it('without a selection, an operation of the baseline that was not observed is a skip', () => {
    const r = compareWithBaseline(BASE, new Map([['v2.account.balance', ok('v2.account.balance', -1)]]));
    expect(r.notChecked.find((n) => n.operationId === 'v1.account.balance')?.skipped).toBe(true);
    expect(driftVerdict(r, { allowSkips: false })).toBe('incomplete');
  });
});
