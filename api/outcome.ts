// The one outcome classifier: (HTTP status, responseCode, timed out?) -> Successful | Failed | InProgress | Unknown.
// It encodes the spec's "States and transitions" table row by row; conformance, load metrics, ledger and reports all use it.

export type Outcome = 'Successful' | 'Failed' | 'InProgress' | 'Unknown';

/** What the client observed for one call (a transaction submission or a status check). */
export interface Observation {
  /** HTTP status; undefined when no response arrived (timeout, connection reset, refused). */
  readonly httpStatus?: number | undefined;
  /** The envelope's responseCode; undefined when the body was missing or not a parsable envelope. */
  readonly responseCode?: string | null | undefined;
  /** True when the client gave up waiting before a response arrived. */
  readonly timedOut: boolean;
}

export interface Classification {
  readonly outcome: Outcome;
  /** Which rule decided it: a row of the spec's table, or a harness rule for a case the table does not name. */
  readonly rule: OutcomeRule;
  /** Final states need no more polling; InProgress and Unknown do. */
  readonly final: boolean;
}

export type OutcomeRule =
  | 'client-timeout'
  | 'http-not-200'
  | 'success-000'
  | 'in-progress-852'
  | 'failure-code'
  | 'no-response'
  | 'no-response-code'
  /** Status check only: "not found" while the service-side timeout has not yet passed since submission (api/poll.ts). */
  | 'not-found-before-service-timeout'
  /**
   * Status check only, for money records (ledger/): "not found" once the service-side timeout has passed. The target has
   * no record of the transaction — never sent, or the wrong gateway asked — which is not an outcome of the money: not final.
   */
  | 'not-found-at-target';

export const SUCCESS_CODE = '000';
export const IN_PROGRESS_CODE = '852';

/**
 * Rows, in the order they are tried. The spec's table rows (States and transitions):
 *   client-side timeout                  -> Unknown (not failed; the account may be charged)
 *   HTTP status other than 200           -> Failed
 *   HTTP 200 and '000'                   -> Successful
 *   '852' (gift card response, status)   -> In progress
 *   HTTP 200, not '000' and not '852'    -> Failed
 * Two harness rules cover what the table does not name, both on the money-safe side (never "failed"
 * while the account may have been charged): no response at all (connection reset) and an HTTP 200
 * whose body carries no responseCode are Unknown, so the client polls the status endpoint.
 */
const RULES: ReadonlyArray<{ rule: OutcomeRule; outcome: Outcome; applies: (o: Observation) => boolean }> = [
  { rule: 'client-timeout', outcome: 'Unknown', applies: (o) => o.timedOut },
  { rule: 'no-response', outcome: 'Unknown', applies: (o) => o.httpStatus === undefined },
  { rule: 'http-not-200', outcome: 'Failed', applies: (o) => o.httpStatus !== 200 },
  { rule: 'no-response-code', outcome: 'Unknown', applies: (o) => typeof o.responseCode !== 'string' },
  { rule: 'success-000', outcome: 'Successful', applies: (o) => o.responseCode === SUCCESS_CODE },
  { rule: 'in-progress-852', outcome: 'InProgress', applies: (o) => o.responseCode === IN_PROGRESS_CODE },
  { rule: 'failure-code', outcome: 'Failed', applies: () => true },
];

export function classifyOutcome(observation: Observation): Classification {
  for (const row of RULES) {
    if (row.applies(observation)) {
      return { outcome: row.outcome, rule: row.rule, final: isFinalOutcome(row.outcome) };
    }
  }
  // Unreachable: the last row always applies. Kept so the function is total for the type checker.
  return { outcome: 'Failed', rule: 'failure-code', final: true };
}

export function isFinalOutcome(outcome: Outcome): boolean {
  return outcome === 'Successful' || outcome === 'Failed';
}
