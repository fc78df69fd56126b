// Transaction status by correlationId (v1 and v2): '852' while in progress, then the transaction's final envelope.
// An unknown correlationId answers '027' (assumed: the spec does not say what status answers for an id it never saw;
// a failure code, not '000' or '852', and overridable through behaviour.responseCodes.notFound, see error-codes.ts).
import type { RouteContext, RouteTable } from './context.ts';
import { fail, stringArg } from './context.ts';
import type { RouteReply } from '../envelope.ts';

const CORRELATION_ID_MAX = 50;

function status(ctx: RouteContext): RouteReply {
  const { env } = ctx;
  const correlationId = stringArg(ctx, 'correlationId') ?? '';
  if (correlationId.length > CORRELATION_ID_MAX) {
    return fail(env, 'invalidRequest', `Invalid request: correlationId must be at most ${CORRELATION_ID_MAX} characters`);
  }
  const txn = env.store.byCorrelationId(correlationId);
  if (txn === undefined) return fail(env, 'notFound', 'No transaction found with this correlationId');
  if (txn.result === undefined) return fail(env, 'inProgress', 'Transaction is in progress');
  return { envelope: txn.result };
}

export const STATUS_ROUTES: RouteTable = {
  'v1.transaction.status': status,
  'v2.transaction.status': status,
};
