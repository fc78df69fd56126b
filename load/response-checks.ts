// What the load suites judge on every response: HTTP status, envelope schema, payload kind, the payload checks
// (api/payload-checks.ts: spec, observed, baseline), outcome from the one classifier. A pure function of the exchange
// (runtime-neutral), so the k6 hook records it and tests prove each check fires.
import type { CoreExchange } from '../api/client-core.ts';
import { assumedPathMissing } from '../api/assumed-path.ts';
import type { Outcome } from '../api/outcome.ts';
import { checkResponseBody, type PayloadCheckOptions, type PayloadViolation } from '../api/payload-checks.ts';
import { CHECKS, type CheckKey } from './checks.ts';

export interface CheckResult {
  readonly key: CheckKey;
  readonly name: string;
  readonly ok: boolean;
}

export interface Inspection {
  readonly operation: string;
  readonly api: string;
  /** The outcome counted for this response (the classifier's; see `metricOutcome`). */
  readonly outcome: Outcome;
  readonly failed: boolean;
  /**
   * Whether the target answered at all (a whole HTTP response). Without an answer only "http status is 200" is judged
   * (and fails): an outcome check or a failure rate built on no answer would show green for a silent target.
   */
  readonly answered: boolean;
  readonly checks: readonly CheckResult[];
  /** One line naming the envelope/payload problems (errors only), when a schema check failed. */
  readonly schemaProblem?: string;
  /** Every envelope and payload violation, one per JSON path, errors first (warnings are reported, never failing). */
  readonly violations: readonly PayloadViolation[];
  /**
   * The operation's assumed path answered 404 without an envelope (api/assumed-path.ts): the harness's gap, so nothing
   * is judged (no check, no outcome, no gateway_failed sample); the run counts it in gateway_path_unverified instead.
   */
  readonly pathMissing?: true;
}

/** Passed to the payload checks as they are (built once per VU, not per response). */
export interface InspectOptions extends PayloadCheckOptions {
  readonly schemaChecks: boolean;
  /** Status-check codes meaning "no such transaction" (config `poll.notFoundCodes`). */
  readonly notFoundCodes: readonly string[];
}

/** number | object | array, as the spec names payload kinds; undefined for anything else (null, string, boolean). */
export function payloadKindOf(value: unknown): 'number' | 'object' | 'array' | undefined {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return 'number';
  if (value !== null && typeof value === 'object') return 'object';
  return undefined;
}

/**
 * The outcome a response counts as. The classifier's, except a status check answering "not found": whether that is a
 * failure depends on when the transaction was submitted (api/poll.ts), which only the poller knows, so a single status
 * response counts it Unknown; the transaction's final outcome is recorded by the flow that followed it.
 */
export function metricOutcome(exchange: CoreExchange, notFoundCodes: readonly string[]): Outcome {
  const { response, operation } = exchange;
  const code = response.envelope?.responseCode;
  if (operation.group === 'status' && code !== undefined && notFoundCodes.includes(code)) return 'Unknown';
  return response.classification.outcome;
}

export function inspectExchange(exchange: CoreExchange, options: InspectOptions): Inspection {
  const { operation, response } = exchange;
  const outcome = metricOutcome(exchange, options.notFoundCodes);
  if (assumedPathMissing(operation, response)) {
    return {
      operation: operation.id,
      api: operation.version,
      outcome,
      failed: false,
      answered: true,
      checks: [],
      violations: [],
      pathMissing: true,
    };
  }
  const checks: CheckResult[] = [{ key: 'httpStatus', name: CHECKS.httpStatus.name, ok: response.httpStatus === 200 }];
  let schemaProblem: string | undefined;
  let violations: readonly PayloadViolation[] = [];
  // Spec Errors 3: for statuses other than 200 the "Body shape for those statuses: not shown": nothing to validate.
  if (options.schemaChecks && response.httpStatus === 200 && response.bodyText !== undefined) {
    if (response.envelope === undefined) {
      schemaProblem = response.parseError ?? 'no envelope';
      violations = [{ layer: 'envelope', severity: 'error', path: '$', pointer: '', message: schemaProblem }];
      checks.push({ key: 'envelope', name: CHECKS.envelope.name, ok: false });
    } else {
      violations = checkResponseBody(operation, response.envelope, options, response.bodyText);
      const errors = violations.filter((v) => v.severity === 'error');
      if (errors.length > 0) schemaProblem = errors.map((v) => v.message.replace(/\s+/g, ' ').trim()).join('; ');
      checks.push({ key: 'envelope', name: CHECKS.envelope.name, ok: !errors.some((v) => v.layer === 'envelope') });
      if (response.envelope.responseCode === '000') {
        checks.push({
          key: 'payloadKind',
          name: CHECKS.payloadKind.name,
          ok: payloadKindOf(response.envelope.payLoad) === operation.payloadKind,
        });
        if (options.envelopeOnly !== true)
          checks.push({ key: 'payload', name: CHECKS.payload.name, ok: !errors.some((v) => v.layer !== 'envelope') });
      }
    }
  }
  const answered = response.httpStatus !== undefined && !response.timedOut && response.transportError === undefined;
  if (answered) checks.push({ key: 'outcome', name: CHECKS.outcome.name, ok: outcome !== 'Failed' });
  return {
    operation: operation.id,
    api: operation.version,
    outcome,
    failed: outcome === 'Failed',
    answered,
    checks,
    violations,
    ...(schemaProblem === undefined ? {} : { schemaProblem }),
  };
}
