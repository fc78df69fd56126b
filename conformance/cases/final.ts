// The STATUS rule shared by every case that re-reads a transaction: once final, the status check keeps reporting the
// same outcome class. Whether it repeats the very code is not stated by the spec: a different code is a warning.
import type { ApiVersion } from '../../api/operations.ts';
import type { Outcome } from '../../api/outcome.ts';
import { describeResponse } from '../../api/describe.ts';
import type { CaseContext, Exchange } from '../types.ts';

/** The final result a later status read must agree with. */
export interface FinalResult {
  readonly outcome: Extract<Outcome, 'Successful' | 'Failed'>;
  /** The code that made it final (the original response, or the status answer that ended the polling). */
  readonly code?: string;
}

export const STATUS_RULE =
  "Status check: returns the final status of an earlier RTR or PIN (and gift card) transaction identified by its correlationId. '852' means in progress; poll repeatedly until another code is returned. '000' means success. (States: Unknown / In progress | Status check | responseCode '000' → Successful; any other responseCode → Failed)";

/** The final result an exchange shows, when it is final (HTTP 200 with '000', or any other final answer). */
export function finalOf(exchange: Exchange | undefined): FinalResult | undefined {
  const c = exchange?.response.classification;
  if (c === undefined || !c.final || (c.outcome !== 'Successful' && c.outcome !== 'Failed')) return undefined;
  const code = exchange?.response.envelope?.responseCode;
  return { outcome: c.outcome, ...(code === undefined ? {} : { code }) };
}

/**
 * Reads the status once and checks it against the final result: the outcome class must hold (a failed transaction
 * stays failed, a successful one successful, neither goes back to '852'); another code of the same class is a warning.
 * Returns the status exchange.
 */
export async function expectFinalHolds(
  ctx: CaseContext,
  version: ApiVersion,
  correlationId: string,
  final: FinalResult,
  when = 'a later read',
): Promise<Exchange> {
  const again = await ctx.call(`${version}.transaction.status`, { path: { correlationId } });
  const res = again.response;
  const said = final.code === undefined ? final.outcome : `${final.outcome} ('${final.code}')`;
  if (res.httpStatus !== 200 || res.envelope === undefined) {
    ctx.fail({
      check: 'status-readable',
      operation: again.request.operationId,
      message: `the status check of ${correlationId} (${when}) gave no envelope`,
      expected: `HTTP 200 with an envelope reporting ${said}`,
      received: describeResponse(res),
      request: again.request,
    });
  } else if (res.classification.outcome !== final.outcome) {
    ctx.fail({
      check: 'final-stays-final',
      operation: again.request.operationId,
      message: `the status of ${correlationId} left its final outcome ${final.outcome} (${when})`,
      expected: `outcome ${final.outcome}${final.outcome === 'Failed' ? " (any code but '000' and '852')" : " ('000')"}`,
      received: `${res.classification.outcome}: ${describeResponse(res)}`,
      request: again.request,
    });
  } else if (final.code !== undefined && res.envelope.responseCode !== final.code) {
    ctx.fail({
      check: 'status-code-differs',
      severity: 'warning',
      operation: again.request.operationId,
      message: `the status of ${correlationId} reports ${final.outcome} with another code than the final answer (the spec does not say it repeats the code)`,
      expected: `responseCode '${final.code}' (not required)`,
      received: describeResponse(res),
      request: again.request,
    });
  }
  return again;
}
