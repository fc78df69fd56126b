// AUTH: every operation of the catalog, without credentials and with wrong credentials, must not succeed nor leak data.
// Generated from OPERATIONS, so a new catalog entry is covered without touching this file.
import { OPERATIONS, type Operation } from '../../api/operations.ts';
import { noPayload, rejected } from '../checks.ts';
import type { ConformanceCase, Credentials } from '../types.ts';
import { ASSUMED, SECTION, placeholderReadInput, validReadInput, validWriteBody } from './common.ts';
import { prerequisite } from './env.ts';

const RULE =
  "Every call uses HTTP Basic Authentication with a user id and password issued to the agent by the service operator. … The header is required on every request, including every catalog and lookup call.";

const VARIANTS: ReadonlyArray<{ credentials: Exclude<Credentials, 'valid'>; tag: string; title: string }> = [
  { credentials: 'none', tag: 'NONE', title: 'without an Authorization header' },
  { credentials: 'wrong', tag: 'WRONG', title: 'with a wrong password' },
];

function authCase(op: Operation, variant: (typeof VARIANTS)[number]): ConformanceCase {
  return {
    kind: 'scenario',
    id: `AUTH-${variant.tag}-${op.id}`,
    group: 'AUTH',
    title: `${op.method} ${op.path} ${variant.title} is refused`,
    specSection: SECTION.auth,
    rule: RULE,
    api: op.version,
    ...(op.pathAssumed ? { assumed: [ASSUMED.writePath(op)] } : {}),
    async scenario(ctx) {
      const fx = await ctx.fixtures();
      // A request that would succeed with the right credentials, so a gateway that ignores them is caught.
      let input = op.method === 'POST' ? { body: validWriteBody(ctx, fx, op) } : validReadInput(ctx, fx, op);
      if (input === undefined) {
        // Reads of an earlier transaction: make a real one, so a refusal is about the credentials, not a missing record.
        const path = await prerequisite(ctx, op, false);
        if (path === undefined) ctx.note('no earlier transaction could be made; a placeholder id is used');
        input = path === undefined ? placeholderReadInput(ctx, op) : { path };
      }
      const exchange = await ctx.call(op.id, input, { credentials: variant.credentials });
      ctx.check(rejected, exchange);
      ctx.check(noPayload, exchange);
    },
  };
}

export const AUTH_CASES: readonly ConformanceCase[] = OPERATIONS.flatMap((op) => VARIANTS.map((variant) => authCase(op, variant)));
