// GEN-AUTH: the spec's Authentication over its space, on one operation of every kind (catalog read, lookup, status, a
// charging write) of both versions: every near miss of the right credentials is refused and charges nothing; the right ones pass.
import fc from 'fast-check';
import { OPERATIONS, type ApiVersion, type Operation } from '../../api/operations.ts';
import type { RequestInput } from '../../api/request-builder.ts';
import { noPayload, rejected, successful } from '../checks.ts';
import { SECTION, submitAndFinish, validReadInput, validWriteBody } from '../cases/common.ts';
import { expectStatusNotSuccessful } from '../cases/len.ts';
import type { Fixtures } from '../../target/fixtures.ts';
import { VariantUnavailable, type CaseContext, type ConformanceCase, type CredentialVariant, type Exchange } from '../types.ts';
import { chargingRuns, type GenOptions } from './options.ts';
import { genCase } from './property.ts';

/** Authentication, items 1 to 3, verbatim. */
const RULE =
  'Every call uses HTTP Basic Authentication with a user id and password issued to the agent by the service operator. ' +
  'The client sends header Authorization: Basic <BASE64_CREDENTIALS>, where <BASE64_CREDENTIALS> is the base64 encoding of the text userId:password. ' +
  'The header is required on every request, including every catalog and lookup call.';

/** One generated credential: none at all, the right ones, or a variant the runner derives from them. */
type Sent = 'none' | 'right' | CredentialVariant;

/** Schemes other than Basic (the scheme word is case-insensitive by RFC 7617, so `basic` is not among them). */
const OTHER_SCHEMES = ['Bearer', 'Digest', 'Token', 'Negotiate', 'Basic2', 'Bas', 'NTLM'];
const NOT_BASE64 = ['!', '*', '@', ' ', ':', 'é', '%'];

/** The kinds of sentSpace the coverage table counts (other-environment only where configured). */
const SENT_KINDS = [
  'none',
  'right',
  'scheme',
  'empty-user',
  'empty-password',
  'unknown-user',
  'password-prefix',
  'password-extension',
  'password-case',
  'no-colon',
  'not-base64',
];

/** Every point of the space; the password's near misses (the ones a sloppy comparison lets through) three times as often. */
function sentSpace(otherEnvironment: boolean): fc.Arbitrary<Sent> {
  const once = (arbitrary: fc.Arbitrary<Sent>): fc.WeightedArbitrary<Sent> => ({ weight: 1, arbitrary });
  const thrice = (arbitrary: fc.Arbitrary<Sent>): fc.WeightedArbitrary<Sent> => ({ weight: 3, arbitrary });
  return fc.oneof(
    once(fc.constant('none' as const)),
    once(fc.constant('right' as const)),
    once(fc.constantFrom(...OTHER_SCHEMES).map((scheme) => ({ kind: 'scheme' as const, scheme }))),
    once(fc.constant({ kind: 'empty-user' as const })),
    once(fc.constant({ kind: 'empty-password' as const })),
    once(fc.stringMatching(/^[a-z0-9]{1,16}$/).map((user) => ({ kind: 'unknown-user' as const, user }))),
    thrice(fc.integer({ min: 1, max: 40 }).map((cut) => ({ kind: 'password-prefix' as const, cut }))),
    thrice(fc.stringMatching(/^[A-Za-z0-9!-]{1,8}$/).map((extra) => ({ kind: 'password-extension' as const, extra }))),
    thrice(fc.nat(63).map((at) => ({ kind: 'password-case' as const, at }))),
    once(fc.constant({ kind: 'no-colon' as const })),
    once(
      fc
        .tuple(fc.stringMatching(/^[A-Za-z0-9]{0,12}$/), fc.constantFrom(...NOT_BASE64))
        .map(([a, b]) => ({ kind: 'not-base64' as const, token: `${a}${b}` })),
    ),
    ...(otherEnvironment ? [once(fc.constant({ kind: 'other-environment' as const }))] : []),
  );
}

const showSent = (sent: Sent): string => {
  if (sent === 'none') return 'no Authorization header';
  if (sent === 'right') return 'the right credentials';
  switch (sent.kind) {
    case 'scheme':
      return `scheme ${sent.scheme} with the right token`;
    case 'unknown-user':
      return `unknown user "${sent.user}" with the right password`;
    case 'password-prefix':
      return `a non-empty proper prefix of the right password (cut ${sent.cut})`;
    case 'password-extension':
      return `the right password followed by ${sent.extra.length} character(s) (an extension)`;
    case 'password-case':
      return `the right password with one letter's case changed (from position ${sent.at})`;
    case 'not-base64':
      return `a token that is not base64 (${JSON.stringify(sent.token)})`;
    default:
      return sent.kind;
  }
};

/** The operation of each kind in a version: the first catalog read needing no input, the lookup, the status check, the first charging write. */
export function authOperations(version: ApiVersion): Operation[] {
  const ops = OPERATIONS.filter((op) => op.version === version);
  const kinds: Array<(op: Operation) => boolean> = [
    (op) => op.group === 'catalog' && op.method === 'GET' && op.params.every((p) => !p.required),
    (op) => op.group === 'lookup' && op.method === 'GET',
    (op) => op.group === 'status',
    (op) => op.charges,
  ];
  return kinds.map((kind) => ops.find(kind)).filter((op): op is Operation => op !== undefined);
}

/** A valid input of the operation: a status check reads a top-up this case made first (with the right credentials). */
async function validInput(ctx: CaseContext, fx: Fixtures, op: Operation): Promise<() => RequestInput> {
  if (op.method === 'POST') return () => ({ body: validWriteBody(ctx, fx, op) });
  if (op.group !== 'status') {
    const input = validReadInput(ctx, fx, op);
    if (input === undefined) ctx.skip(`no valid input for ${op.id}`);
    return () => input;
  }
  const write = authOperations(op.version).find((o) => o.charges) as Operation;
  const body = validWriteBody(ctx, fx, write);
  const { submitted, final } = await submitAndFinish(ctx, op.version, write.id, body);
  if (!ctx.check(successful, final ?? submitted)) ctx.skip(`the top-up whose status the case reads did not succeed`);
  return () => ({ path: { correlationId: body.correlationId as string } });
}

/** The call with the generated credentials; a variant the target's credentials cannot give is not an input (fast-check's precondition). */
async function callWith(probe: CaseContext, op: Operation, input: RequestInput, sent: Sent): Promise<Exchange> {
  try {
    return await probe.call(op.id, input, sent === 'right' ? {} : { credentials: sent });
  } catch (error) {
    if (error instanceof VariantUnavailable) fc.pre(false);
    throw error;
  }
}

function authGenCase(options: GenOptions, op: Operation): ConformanceCase {
  let make: (() => RequestInput) | undefined;
  return genCase<Sent>(op.charges ? { ...options, budget: { ...options.budget, runs: chargingRuns(options) } } : options, {
    id: `GEN-AUTH-${op.id}`,
    title: `${op.method} ${op.path}: every near miss of the right credentials (none, another scheme, empty or unknown user, a prefix, extension or case change of the password, no colon, not base64, another environment's) is refused${op.charges ? ' and charges nothing' : ''}; the right ones are accepted`,
    specSection: SECTION.auth,
    rule: RULE,
    api: op.version,
    ...(op.charges ? { exclusive: true } : {}),
    assumed: [
      'sandbox only: conformance refuses a production target and the runner never sends varied credentials to one (a near-miss password can lock an agent out)',
      "settings.otherEnvironment: the other environment's credentials, when the operator issued separate ones (else that variant is not generated)",
    ],
    async arbitrary(ctx, fx) {
      make = await validInput(ctx, fx, op);
      return sentSpace(ctx.settings.otherEnvironment !== undefined);
    },
    show: showSent,
    space: (ctx) => [...SENT_KINDS, ...(ctx.settings.otherEnvironment === undefined ? [] : ['other-environment'])],
    async run(probe, sent) {
      probe.cover(typeof sent === 'string' ? sent : sent.kind);
      const input = (make as () => RequestInput)();
      if (sent === 'right') {
        const { submitted, final } = op.charges
          ? await submitAndFinish(probe, op.version, op.id, input.body as Record<string, unknown>)
          : { submitted: await probe.call(op.id, input), final: undefined };
        probe.check(successful, final ?? submitted);
        return;
      }
      const before = op.charges ? await probe.balance(op.version) : undefined;
      const answer = await callWith(probe, op, input, sent);
      probe.check(rejected, answer);
      probe.check(noPayload, answer);
      if (!op.charges) return;
      await expectBalance(probe, op, before, answer);
      await expectStatusNotSuccessful(probe, op.version, (input.body as Record<string, unknown>).correlationId as string);
    },
  });
}

async function expectBalance(probe: CaseContext, op: Operation, before: number | undefined, answer: Exchange): Promise<void> {
  const after = await probe.balance(op.version);
  if (before === undefined || after === undefined || Math.abs(after - before) <= 1e-9) return;
  probe.fail({
    check: 'no-charge',
    operation: op.id,
    message: 'a request with wrong credentials changed the balance',
    expected: `balance ${before}`,
    received: `balance ${after}`,
    request: answer.request,
  });
}

/** GEN-AUTH-<op id> for each kind of operation of both versions. */
export function authGenCases(options: GenOptions): ConformanceCase[] {
  return (['v1', 'v2'] as const).flatMap((v) => authOperations(v).map((op) => authGenCase(options, op)));
}
