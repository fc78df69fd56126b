// A correlationId the target has not seen: short ids (a handful of characters) may already name an earlier run's
// transaction on a real sandbox, which would make "refused → its status is not a success" or "valid → accepted" false.
import type { ApiVersion } from '../api/operations.ts';
import { IdsExhausted, type IdClass } from './correlation-ids.ts';
import type { CaseContext } from './types.ts';

/**
 * Ids at least this long are random over at least 62^12 values (or carry the run's tag): a collision with the target's
 * history is not a practical concern, so they are not asked about.
 */
export const FRESH_CHECK_BELOW = 12;
const ATTEMPTS = 20;

/**
 * An id of the shape, unique in the run, whose status the target does not report as a success or in progress (asked
 * through the status endpoint only when the id is shorter than FRESH_CHECK_BELOW). The spec names no "not found" code,
 * so any other answer counts as unknown to the target. Throws IdsExhausted when no such id was found.
 */
export async function freshCorrelationId(
  ctx: Pick<CaseContext, 'correlationId' | 'call'>,
  version: ApiVersion,
  length: number,
  chars?: IdClass,
): Promise<string> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const id = ctx.correlationId(length, chars);
    if (length === 0 || length >= FRESH_CHECK_BELOW) return id;
    const status = await ctx.call(`${version}.transaction.status`, { path: { correlationId: id } });
    const outcome = status.response.classification.outcome;
    if (outcome !== 'Successful' && outcome !== 'InProgress') return id;
  }
  throw new IdsExhausted(length, chars ?? 'alnum');
}
