// ENV: every operation with valid input answers HTTP 200, a valid envelope and a payload of the documented kind.
// Generated from OPERATIONS; reads that need an earlier transaction (status, fetch, port-in, eSIM) make it first.
import { OPERATIONS, type ApiVersion, type Operation } from '../../api/operations.ts';
import { http200, successful } from '../checks.ts';
import type { CaseContext, ConformanceCase, Exchange } from '../types.ts';
import {
  ASSUMED,
  SECTION,
  guardAssumedPath,
  idAt,
  need,
  requireSuccess,
  submitAndFinish,
  validReadInput,
  validWriteBody,
} from './common.ts';

const READ_RULE =
  'All responses are the envelope described above with HTTP 200; payload shapes per operation are listed as kinds only. (payLoad: Carries the result only when responseCode is \'000\')';
const WRITE_RULE = "Write operations (POST, JSON body, Content-Type application/json) … Payload kind of each is an object. A transaction is successful only if HTTP status is 200 and responseCode is '000'.";

function expectSuccess(ctx: CaseContext, exchange: Exchange): void {
  guardAssumedPath(ctx, exchange);
  ctx.check(http200, exchange);
  ctx.check(successful, exchange);
}

/** Runs the write the read depends on and returns the path parameters the read needs. */
async function prerequisite(ctx: CaseContext, op: Operation): Promise<Record<string, string | number>> {
  const fx = await ctx.fixtures();
  const version: ApiVersion = op.version;
  const fields = ctx.settings.fields;
  if (op.purpose === 'transaction.status') {
    const write = OPERATIONS.find((o) => o.version === version && o.purpose === 'transaction.topup') as Operation;
    const body = validWriteBody(ctx, fx, write);
    requireSuccess(ctx, await ctx.call(write.id, { body }), 'the top-up to check');
    return { correlationId: String(body.correlationId) };
  }
  const purpose = op.purpose === 'giftcard.fetch' ? 'transaction.giftcard' : op.purpose === 'sim.portin-status' ? 'transaction.sim-portin' : 'transaction.esim';
  const write = OPERATIONS.find((o) => o.version === version && o.purpose === purpose) as Operation;
  const { submitted, final } = await submitAndFinish(ctx, version, write.id, validWriteBody(ctx, fx, write));
  requireSuccess(ctx, final ?? submitted, `the ${write.id} this read depends on`);
  const payloads = [final?.response.envelope?.payLoad, submitted.response.envelope?.payLoad];
  if (op.purpose === 'esim.status') {
    const iccid = need(ctx, payloads.map((p) => idAt(p, fields.esimIccid)).find((v) => v !== undefined), `an ICCID at '${fields.esimIccid}' of the eSIM result (assumed field)`);
    return { Iccid: iccid };
  }
  const id = need(ctx, payloads.map((p) => idAt(p, fields.transactionId)).find((v) => v !== undefined), `a transaction id at '${fields.transactionId}' (assumed field)`);
  return { id };
}

function readCase(op: Operation): ConformanceCase {
  const needsTransaction = ['transaction.status', 'giftcard.fetch', 'sim.portin-status', 'esim.status'].includes(op.purpose);
  return {
    kind: 'scenario',
    id: `ENV-${op.id}`,
    group: 'ENV',
    title: `${op.method} ${op.path} with valid input → HTTP 200, '000', payLoad ${op.payloadKind}`,
    specSection: op.specSection,
    rule: READ_RULE,
    api: op.version,
    ...(needsTransaction
      ? { assumed: [op.purpose === 'esim.status' ? 'ICCID read from the eSIM result at settings.fields.esimIccid' : op.purpose === 'transaction.status' ? ASSUMED.skuFields : ASSUMED.transactionId] }
      : {}),
    async scenario(ctx) {
      const fx = await ctx.fixtures();
      const input = needsTransaction ? { path: await prerequisite(ctx, op) } : validReadInput(ctx, fx, op) ?? {};
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
