// The outcome classifier against every row of the spec's "States and transitions" table (each row quoted), plus the
// two harness rules for what the table does not name. Status-check rows use the same classifier (api/poll.ts adds
// only the "the check itself got no envelope" case).
import { describe, expect, it } from 'vitest';
import { classifyOutcome, isFinalOutcome, type Observation, type Outcome, type OutcomeRule } from './outcome.ts';

interface Row {
  /** The table row, quoted: State | Trigger | Condition | Next state | Else happens. */
  readonly row: string;
  readonly observations: readonly Observation[];
  readonly outcome: Outcome;
  readonly rule: OutcomeRule;
}

const ok = (responseCode: string | null | undefined, httpStatus = 200): Observation => ({ httpStatus, responseCode, timedOut: false });

const TABLE: readonly Row[] = [
  {
    row: "Submitted | Response received | HTTP 200 and responseCode '000' | Successful | payLoad carries the result; the account is charged",
    observations: [ok('000')],
    outcome: 'Successful',
    rule: 'success-000',
  },
  {
    row: "Submitted | Response received | HTTP 200 and responseCode not '000' and not '852' | Failed | payLoad is null; responseMessage explains",
    observations: [ok('001'), ok('500'), ok('501'), ok('510'), ok('851'), ok('999'), ok(''), ok('0000')],
    outcome: 'Failed',
    rule: 'failure-code',
  },
  {
    row: 'Submitted | Response received | HTTP status other than 200 | Failed | Treated as failed by the client',
    observations: [ok('000', 201), ok('000', 500), ok('852', 503), ok(undefined, 401), ok(undefined, 404), ok(null, 302)],
    outcome: 'Failed',
    rule: 'http-not-200',
  },
  {
    row: "Submitted | Gift card response | responseCode '852' | In progress | Client must poll the status endpoint with the correlationId",
    observations: [ok('852')],
    outcome: 'InProgress',
    rule: 'in-progress-852',
  },
  {
    row: "Submitted | Client-side timeout | No response in the client's timeout | Unknown (not failed; the account may be charged) | Client polls the status endpoint with the correlationId",
    // A timeout wins even over a status line that arrived before the body stalled.
    observations: [{ timedOut: true }, { httpStatus: 200, timedOut: true }, { httpStatus: 500, responseCode: '001', timedOut: true }],
    outcome: 'Unknown',
    rule: 'client-timeout',
  },
  {
    row: "Unknown / In progress | Status check | responseCode '852' | In progress | Poll again until final",
    observations: [ok('852')],
    outcome: 'InProgress',
    rule: 'in-progress-852',
  },
  {
    row: "Unknown / In progress | Status check | responseCode '000' | Successful |",
    observations: [ok('000')],
    outcome: 'Successful',
    rule: 'success-000',
  },
  {
    row: 'Unknown / In progress | Status check | any other responseCode | Failed |',
    observations: [ok('001'), ok('510'), ok('404')],
    outcome: 'Failed',
    rule: 'failure-code',
  },
];

const HARNESS_RULES: readonly Row[] = [
  {
    row: 'harness rule: no response at all (connection reset or refused) -> Unknown, poll (never "failed" while the account may be charged)',
    observations: [{ timedOut: false }, { httpStatus: undefined, responseCode: undefined, timedOut: false }],
    outcome: 'Unknown',
    rule: 'no-response',
  },
  {
    row: 'harness rule: HTTP 200 whose body carries no responseCode (not JSON, truncated, no envelope) -> Unknown, poll',
    observations: [ok(undefined), ok(null)],
    outcome: 'Unknown',
    rule: 'no-response-code',
  },
];

describe('classifyOutcome: spec "States and transitions"', () => {
  it.each(TABLE)('$row', ({ observations, outcome, rule }) => {
    for (const observation of observations) {
      expect(classifyOutcome(observation), JSON.stringify(observation)).toEqual({ outcome, rule, final: isFinalOutcome(outcome) });
    }
  });
});

describe('classifyOutcome: harness rules', () => {
  it.each(HARNESS_RULES)('$row', ({ observations, outcome, rule }) => {
    for (const observation of observations) {
      expect(classifyOutcome(observation), JSON.stringify(observation)).toEqual({ outcome, rule, final: false });
    }
  });
});

describe('final states', () => {
  it('Successful and Failed are final; InProgress and Unknown need polling', () => {
    expect(isFinalOutcome('Successful')).toBe(true);
    expect(isFinalOutcome('Failed')).toBe(true);
    expect(isFinalOutcome('InProgress')).toBe(false);
    expect(isFinalOutcome('Unknown')).toBe(false);
  });

  it('no observation is ever Failed while it may still have charged (timeouts and missing responses)', () => {
    const unsure: Observation[] = [{ timedOut: true }, { timedOut: false }, ok(undefined)];
    for (const o of unsure) expect(classifyOutcome(o).outcome).not.toBe('Failed');
  });
});
