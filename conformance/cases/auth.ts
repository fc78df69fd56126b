// AUTH: every operation of the catalog, without credentials and with a wrong password, must be refused and leak nothing.
// No catalog discovery: the inputs are placeholders, so AUTH runs against any gateway; generated from OPERATIONS.
import { OPERATIONS, type Operation, type ParamSpec } from '../../api/operations.ts';
import type { RequestInput } from '../../api/request-builder.ts';
import { describeResponse } from '../../api/describe.ts';
import { noPayload, rejected } from '../checks.ts';
import type { CaseContext, ConformanceCase, Credentials, Exchange } from '../types.ts';
import { ASSUMED, SECTION } from './common.ts';

/** Authentication, items 1 and 3, verbatim. */
const RULE =
  'Every call uses HTTP Basic Authentication with a user id and password issued to the agent by the service operator. … ' +
  'The header is required on every request, including every catalog and lookup call.';

/**
 * The spec does not say in which order a gateway judges a request; the comparison with the same request sent with
 * valid credentials relies on this (a request without valid credentials is refused for them, whatever its content).
 */
const ASSUMED_ORDER =
  'credentials are judged before the content of the request (the answer to a request without valid credentials does not depend on its body or parameters)';

const VARIANTS: ReadonlyArray<{ credentials: Exclude<Credentials, 'valid'>; tag: string; title: string }> = [
  { credentials: 'none', tag: 'NONE', title: 'without an Authorization header' },
  { credentials: 'wrong', tag: 'WRONG', title: 'with a wrong password' },
];

/** A value of the parameter's type; whether the gateway knows it does not matter (see `authCase`). */
function placeholder(ctx: CaseContext, param: ParamSpec): string | number {
  if (param.name === 'correlationId') return ctx.correlationId();
  return param.type === 'string' ? 'placeholder' : 1;
}

/**
 * Placeholder input: the required parameters with values of their type, and an empty JSON object as the body of a
 * write. An empty body cannot charge anything, even if a gateway ignored the credentials.
 */
export function placeholderInput(ctx: CaseContext, op: Operation): RequestInput {
  if (op.method === 'POST') return { body: {} };
  const path: Record<string, string | number> = {};
  const query: Record<string, string | number> = {};
  for (const param of op.params.filter((p) => p.required)) {
    if (param.in === 'path') path[param.name] = placeholder(ctx, param);
    else if (param.in === 'query') query[param.name] = placeholder(ctx, param);
  }
  return { ...(Object.keys(path).length > 0 ? { path } : {}), ...(Object.keys(query).length > 0 ? { query } : {}) };
}

/** The parts of an answer a refusal for the credentials would change. */
function answerOf(exchange: Exchange): string {
  const r = exchange.response;
  return JSON.stringify([r.httpStatus, r.envelope?.responseCode, r.envelope?.responseMessage ?? null]);
}

function authCase(op: Operation, variant: (typeof VARIANTS)[number]): ConformanceCase {
  return {
    kind: 'scenario',
    id: `AUTH-${variant.tag}-${op.id}`,
    group: 'AUTH',
    title: `${op.method} ${op.path} ${variant.title} is refused`,
    specSection: SECTION.auth,
    rule: RULE,
    api: op.version,
    assumed: [ASSUMED_ORDER, ...(op.pathAssumed ? [ASSUMED.writePath(op)] : [])],
    async scenario(ctx) {
      const input = placeholderInput(ctx, op);
      // The same request with valid credentials: what the gateway says about the request itself (never a charge).
      const control = await ctx.call(op.id, input, { checkEnvelope: false });
      const probe = await ctx.call(op.id, input, { credentials: variant.credentials });
      ctx.check(rejected, probe);
      ctx.check(noPayload, probe);
      if (control.response.httpStatus === undefined) {
        ctx.skip(
          `the same request with valid credentials got no answer (${describeResponse(control.response)}), so the refusal cannot be told apart from one about the request`,
        );
      }
      // Refused either way, for the same reason: the credentials made no difference, so they were not checked.
      if (probe.response.httpStatus !== undefined && answerOf(probe) === answerOf(control)) {
        ctx.fail({
          check: 'credentials-checked',
          operation: op.id,
          message: `the answer ${variant.title} is the same as with valid credentials: the credentials were not checked`,
          expected: 'a refusal for the credentials, unlike the answer with valid credentials',
          received: `${describeResponse(probe.response)} both ways`,
          request: probe.request,
        });
      }
    },
  };
}

export const AUTH_CASES: readonly ConformanceCase[] = OPERATIONS.flatMap((op) => VARIANTS.map((variant) => authCase(op, variant)));
