// ENV: every operation with valid input answers HTTP 200, a valid envelope and a payload of the documented kind.
// Generated from OPERATIONS; reads that need an earlier transaction (status, fetch, port-in, eSIM) make it first.
import { linksOf, needsTransaction, prerequisiteWrite } from '../../api/inputs.ts';
import { OPERATIONS, type ApiVersion, type Operation } from '../../api/operations.ts';
import { envelopeMatchesSchema, http200, successful } from '../checks.ts';
import type { CaseContext, ConformanceCase, Exchange } from '../types.ts';
import {
  ASSUMED,
  SECTION,
  guardAssumedPath,
  requireSuccess,
  resultFieldOf,
  submitAndFinish,
  transactionOf,
  validReadInput,
  validWriteBody,
} from './common.ts';

const READ_RULE =
  "All responses are the envelope described above with HTTP 200; payload shapes per operation are listed as kinds only. (payLoad: Carries the result only when responseCode is '000')";
const WRITE_RULE =
  "Write operations (POST, JSON body, Content-Type application/json) … Payload kind of each is an object. A transaction is successful only if HTTP status is 200 and responseCode is '000'.";

function expectSuccess(ctx: CaseContext, exchange: Exchange): void {
  guardAssumedPath(ctx, exchange);
  ctx.check(http200, exchange);
  ctx.check(envelopeMatchesSchema, exchange);
  ctx.check(successful, exchange);
}

/**
 * Runs the write a read depends on and returns the read's path parameters, each from the result field its input link
 * names. Strict (ENV): a failing write fails the case. Quiet (AUTH): returns undefined instead, so the caller can fall
 * back to a placeholder.
 */
export async function prerequisite(ctx: CaseContext, op: Operation, strict = true): Promise<Record<string, string | number> | undefined> {
  const fx = await ctx.fixtures();
  const version: ApiVersion = op.version;
  const write = prerequisiteWrite(op) as Operation;
  const body = validWriteBody(ctx, fx, write);
  const step = `the ${write.id} this read depends on`;
  const links = linksOf(op);
  // A correlationId is known once the write is accepted; result fields need its final result.
  if (links.every(({ link }) => link.field === 'correlationId')) {
    const exchange = await ctx.call(write.id, { body });
    if (exchange.response.classification.outcome !== 'Successful') {
      if (strict) requireSuccess(ctx, exchange, step);
      return undefined;
    }
    return Object.fromEntries(links.map(({ param }) => [param, String(body.correlationId)]));
  }
  const { submitted, final } = await submitAndFinish(ctx, version, write.id, body);
  if ((final ?? submitted).response.classification.outcome !== 'Successful') {
    if (strict) requireSuccess(ctx, final ?? submitted, step);
    return undefined;
  }
  const params: Record<string, string | number> = {};
  for (const { param, link } of links) {
    if (link.field === 'correlationId') {
      params[param] = String(body.correlationId);
      continue;
    }
    const value = transactionOf(ctx, final, submitted)[link.field];
    if (value === undefined && !strict) return undefined;
    // Through the mapping, else learned on this charge (the read's own answers say which field it takes).
    params[param] = value ?? (await resultFieldOf(ctx, write.id, op, link.field, final, submitted));
  }
  return params;
}

/** What a linked read assumes about the result it takes its value from. */
function linkAssumption(op: Operation): string {
  const field = linksOf(op)[0]?.link.field;
  if (field === 'esimIccid') return 'ICCID read from the eSIM result at fieldMapping.transaction.esimIccid';
  return field === 'correlationId' ? ASSUMED.skuFields : ASSUMED.transactionId;
}

function readCase(op: Operation): ConformanceCase {
  const linked = needsTransaction(op);
  return {
    kind: 'scenario',
    id: `ENV-${op.id}`,
    group: 'ENV',
    title: `${op.method} ${op.path} with valid input → HTTP 200, '000', payLoad ${op.payloadKind}`,
    specSection: op.specSection,
    rule: READ_RULE,
    api: op.version,
    ...(linked ? { assumed: [linkAssumption(op)] } : {}),
    async scenario(ctx) {
      const fx = await ctx.fixtures();
      const input = linked ? { path: (await prerequisite(ctx, op)) ?? {} } : (validReadInput(ctx, fx, op) ?? {});
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
