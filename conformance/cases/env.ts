// ENV: every operation with valid input answers HTTP 200, a valid envelope and a payload of the documented kind.
// Generated from OPERATIONS; reads that need an earlier transaction (status, fetch, port-in, eSIM) make it first.
import { OPERATIONS, type ApiVersion, type Operation } from '../../api/operations.ts';
import { envelopeMatchesSchema, http200, successful } from '../checks.ts';
import type { CaseContext, ConformanceCase, Exchange } from '../types.ts';
import {
  ASSUMED,
  SECTION,
  guardAssumedPath,
  need,
  requireSuccess,
  submitAndFinish,
  transactionOf,
  validReadInput,
  validWriteBody,
} from './common.ts';

const READ_RULE =
  'All responses are the envelope described above with HTTP 200; payload shapes per operation are listed as kinds only. (payLoad: Carries the result only when responseCode is \'000\')';
const WRITE_RULE = "Write operations (POST, JSON body, Content-Type application/json) … Payload kind of each is an object. A transaction is successful only if HTTP status is 200 and responseCode is '000'.";

function expectSuccess(ctx: CaseContext, exchange: Exchange): void {
  guardAssumedPath(ctx, exchange);
  ctx.check(http200, exchange);
  ctx.check(envelopeMatchesSchema, exchange);
  ctx.check(successful, exchange);
}

/** Operations whose valid input needs an earlier transaction: the write that makes it. */
export const PREREQUISITE_WRITE: Readonly<Record<string, string>> = {
  'transaction.status': 'transaction.topup',
  'giftcard.fetch': 'transaction.giftcard',
  'sim.portin-status': 'transaction.sim-portin',
  'esim.status': 'transaction.esim',
};

/**
 * Runs the write a read depends on and returns the read's path parameters. Strict (ENV): a failing write fails the
 * case. Quiet (AUTH): returns undefined instead, so the caller can fall back to a placeholder.
 */
export async function prerequisite(ctx: CaseContext, op: Operation, strict = true): Promise<Record<string, string | number> | undefined> {
  const fx = await ctx.fixtures();
  const version: ApiVersion = op.version;
  const write = OPERATIONS.find((o) => o.version === version && o.purpose === PREREQUISITE_WRITE[op.purpose]) as Operation;
  const body = validWriteBody(ctx, fx, write);
  const step = `the ${write.id} this read depends on`;
  if (op.purpose === 'transaction.status') {
    const exchange = await ctx.call(write.id, { body });
    if (exchange.response.classification.outcome !== 'Successful') {
      if (strict) requireSuccess(ctx, exchange, step);
      return undefined;
    }
    return { correlationId: String(body.correlationId) };
  }
  const { submitted, final } = await submitAndFinish(ctx, version, write.id, body);
  if ((final ?? submitted).response.classification.outcome !== 'Successful') {
    if (strict) requireSuccess(ctx, final ?? submitted, step);
    return undefined;
  }
  const result = transactionOf(ctx, final, submitted);
  const esim = op.purpose === 'esim.status';
  const value = esim ? result.esimIccid : result.transactionId;
  if (value === undefined && !strict) return undefined;
  const key = esim ? 'esimIccid' : 'transactionId';
  const id = need(ctx, value, `${esim ? 'an ICCID' : 'a transaction id'} at '${ctx.mapping.transaction[key]}' (fieldMapping.transaction.${key}) of the ${write.id} result`);
  return op.purpose === 'esim.status' ? { Iccid: id } : { id };
}

function readCase(op: Operation): ConformanceCase {
  const needsTransaction = op.purpose in PREREQUISITE_WRITE;
  return {
    kind: 'scenario',
    id: `ENV-${op.id}`,
    group: 'ENV',
    title: `${op.method} ${op.path} with valid input → HTTP 200, '000', payLoad ${op.payloadKind}`,
    specSection: op.specSection,
    rule: READ_RULE,
    api: op.version,
    ...(needsTransaction
      ? { assumed: [op.purpose === 'esim.status' ? 'ICCID read from the eSIM result at fieldMapping.transaction.esimIccid' : op.purpose === 'transaction.status' ? ASSUMED.skuFields : ASSUMED.transactionId] }
      : {}),
    async scenario(ctx) {
      const fx = await ctx.fixtures();
      const input = needsTransaction ? { path: (await prerequisite(ctx, op)) ?? {} } : validReadInput(ctx, fx, op) ?? {};
      expectSuccess(ctx, await ctx.call(op.id, input));
    },
  };
}

function writeCase(op: Operation): ConformanceCase {
  return {
    kind: 'scenario',
    id: `ENV-${op.id}`,
    group: 'ENV',
    title: `POST ${op.path} with a valid body → final '000' with an object payLoad`,
    specSection: SECTION.writes,
    rule: WRITE_RULE,
    api: op.version,
    assumed: [ASSUMED.skuFields, ...(op.pathAssumed ? [ASSUMED.writePath(op)] : [])],
    async scenario(ctx) {
      const fx = await ctx.fixtures();
      const { submitted, final } = await submitAndFinish(ctx, op.version, op.id, validWriteBody(ctx, fx, op));
      expectSuccess(ctx, final ?? submitted);
    },
  };
}

export const ENV_CASES: readonly ConformanceCase[] = OPERATIONS.map((op) => (op.method === 'GET' ? readCase(op) : writeCase(op)));
