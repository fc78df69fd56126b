// How an interrupted load run is reported: by the harness's signal or by k6's own 105, the section marked interrupted
// (never a pass, never an unusable target because the signal cut setup() short), the reconcile command carried along.
import { describe, expect, it } from 'vitest';
import type { RunInterrupt } from '../../reports/interrupt-watch.ts';
import type { LoadSection } from '../../reports/model.ts';
import { interruptedSection, loadInterruption } from './load-report.ts';

const section: LoadSection = {
  verdict: 'unusable',
  scenario: 'mixed',
  profile: 'smoke',
  engine: 'node',
  durationMs: 1_000,
  requests: { count: 3, rate: 3 },
  thresholds: [],
  checks: [],
  metrics: {},
  setupCompleted: false,
};

function watch(received?: { signal: 'SIGINT' | 'SIGTERM'; at: number }): Pick<RunInterrupt, 'interruption'> {
  return {
    interruption: (startedAt, extra = {}) =>
      received === undefined ? undefined : { signal: received.signal, afterMs: received.at - startedAt, during: 'load', ...extra },
  };
}

describe('loadInterruption', () => {
  it('the harness got a signal: its interruption, with the reconcile command and what did not run', () => {
    const run = { engineExit: 105, durationMs: 900, reconcile: 'gateway-harness reconcile /r/ledger.jsonl' };
    expect(loadInterruption(run, watch({ signal: 'SIGTERM', at: 1_500 }) as RunInterrupt, 1_000, { notRun: ['drift'] })).toEqual({
      signal: 'SIGTERM',
      afterMs: 500,
      during: 'load',
      notRun: ['drift'],
      reconcile: 'gateway-harness reconcile /r/ledger.jsonl',
    });
  });

  it('k6 exited 105 (aborted by a signal sent to k6 itself) without one to the harness: interrupted, no signal', () => {
    expect(loadInterruption({ engineExit: 105, durationMs: 900 }, watch() as RunInterrupt, 1_000)).toEqual({
      afterMs: 900,
      during: 'load',
    });
    expect(loadInterruption({ engineExit: 105, durationMs: 900 }, undefined, 1_000)).toEqual({ afterMs: 900, during: 'load' });
  });

  it('no signal and another exit code: not interrupted', () => {
    for (const engineExit of [0, 99, 107])
      expect(loadInterruption({ engineExit, durationMs: 900 }, watch() as RunInterrupt, 1_000)).toBeUndefined();
  });
});

describe('interruptedSection', () => {
  it('marks the section interrupted; a setup() cut short is not an unusable target', () => {
    const marked = interruptedSection(section, { signal: 'SIGINT', afterMs: 10, during: 'load' });
    expect(marked.verdict).toBe('interrupted');
    expect(marked).not.toHaveProperty('setupCompleted');
    expect(interruptedSection({ ...section, verdict: 'pass', setupCompleted: true }, { afterMs: 10, during: 'load' })).toMatchObject({
      verdict: 'interrupted',
      setupCompleted: true,
    });
  });

  it('leaves a section that was not interrupted as it is', () => {
    expect(interruptedSection(section, undefined)).toBe(section);
  });
});
