// LEN: every length rule of the spec at its boundaries. Within the limit → accepted; over it → not successful and
// nothing charged (balance unchanged, status not successful). Over-limit cases read the balance, so they run alone.
import type { ApiVersion } from '../../api/operations.ts';
import { describeResponse } from '../../api/describe.ts';
import { notSuccessful, successful } from '../checks.ts';
import { faceAmount, type ValidAmount } from '../../api/catalog-facts.ts';
import type { Fixtures } from '../../target/fixtures.ts';
import type { CaseContext, ConformanceCase, Exchange } from '../types.ts';
import {
  ASSUMED,
  SECTION,
  V,
  VERSIONS,
  firstSku,
  guardAssumedPath,
  need,
  rtrTarget,
  submitAndFinish,
  topupBody,
  validWriteBody,
} from './common.ts';
import { getOperation } from '../../api/operations.ts';
import { freshCorrelationId } from '../fresh-id.ts';

interface LengthRule {
  /** Id stem, e.g. 'LEN-CORR'. */
  readonly stem: string;
  readonly field: string;
  readonly rule: string;
  readonly section: string;
  /** Operation purpose the request goes to. */
  readonly write: 'topup' | 'billpay' | 'sim-portin';
  readonly within: readonly number[];
  readonly over: readonly number[];
  /** The request body with the field at the given length. */
  body(ctx: CaseContext, fx: Fixtures, version: ApiVersion, length: number): Record<string, unknown> | Promise<Record<string, unknown>>;
  readonly assumed?: readonly string[];
}

const digitsOf = (n: number): string => '1234567890'.repeat(6).slice(0, n);

const RULES: readonly LengthRule[] = [
  {
    stem: 'LEN-CORR',
    field: 'correlationId',
    rule: 'correlationId | string, 1..50 chars | yes | Unique id from the client system (Limits: correlationId length 1 to 50 characters)',
    section: `${SECTION.requests} (Top-up request); ${SECTION.limits}`,
    write: 'topup',
    within: [1, 50],
    over: [0, 51],
    async body(ctx, fx, version, length) {
      const { sku, mobile } = rtrTarget(ctx, fx);
      // A short id may name an earlier run's transaction on a real sandbox: one the target does not know is used.
      return topupBody(ctx, sku, mobile, { correlationId: await freshCorrelationId(ctx, version, length) });
    },
  },
  {
    stem: 'LEN-PIN',
    field: 'operatorPin',
    rule: 'operatorPin | string or null, 0..6 chars | no | 4 to 6 digit PIN (Limits: operatorPin length 0 to 6 characters)',
    section: `${SECTION.requests} (Top-up request); ${SECTION.limits}`,
    write: 'topup',
    within: [6],
    over: [7],
    body(ctx, fx, _version, length) {
      const { sku, mobile } = rtrTarget(ctx, fx);
      return topupBody(ctx, sku, mobile, { operatorPin: digitsOf(length) });
    },
  },
  {
    stem: 'LEN-BILLCUR',
    field: 'transactionCurrencyCode',
    rule: 'Bill payment: transactionCurrencyCode | string or null, max 3 chars (Limits: transactionCurrencyCode (bill payment) at most 3 characters)',
    section: `${SECTION.requests} (Bill payment request); ${SECTION.limits}`,
    write: 'billpay',
    within: [3],
    over: [4],
    assumed: [
      'the Bill Pay SKU accepts its FaceValueCurrency as transactionCurrencyCode',
      'settings.billpayAccountNumber is a payable account',
    ],
    body(ctx, fx, _version, length) {
      const sku = firstSku(
        ctx,
        fx.skusOf('Bill Pay').filter((s) => faceAmount(s) !== undefined && s.faceValueCurrency?.length === 3),
        'a Bill Pay SKU with a 3-letter FaceValueCurrency',
      );
      const amount = faceAmount(sku) as ValidAmount;
      const code = (amount.transactionCurrencyCode as string) + 'XYZ'.slice(0, Math.max(0, length - 3));
      return {
        skuId: sku.skuId,
        accountNumber: ctx.settings.billpayAccountNumber,
        correlationId: ctx.correlationId(),
        amount: amount.amount,
        transactionCurrencyCode: code.slice(0, length),
      };
    },
  },
  {
    stem: 'LEN-AREA',
    field: 'areaCode',
    rule: 'SIM port-in request: … in this request areaCode is at most 3 chars (Limits: areaCode (SIM port-in) at most 3 characters)',
    section: `${SECTION.requests} (SIM port-in request); ${SECTION.limits}`,
    write: 'sim-portin',
    within: [3],
    over: [4],
    body(ctx, fx, version, length) {
      const body = validWriteBody(ctx, fx, getOperation(`${version}.transaction.sim-portin`));
      return { ...body, areaCode: digitsOf(length) };
    },
  },
];

function withinCase(rule: LengthRule, version: ApiVersion, length: number): ConformanceCase {
  const op = getOperation(`${version}.transaction.${rule.write}`);
  return {
    kind: 'scenario',
    id: `${rule.stem}-${length}-${V(version)}`,
    group: 'LEN',
    title: `${rule.field} of ${length} chars (within the limit) is accepted`,
    specSection: rule.section,
    rule: rule.rule,
    api: version,
    assumed: [ASSUMED.skuFields, ...(rule.assumed ?? []), ...(op.pathAssumed ? [ASSUMED.writePath(op)] : [])],
    async scenario(ctx) {
      const body = await rule.body(ctx, await ctx.fixtures(), version, length);
      const { submitted, final } = await submitAndFinish(ctx, version, op.id, body);
      ctx.check(successful, final ?? submitted);
    },
  };
}

/** The spec's "A transaction proceeds only if…"/States table: a refused request changes no balance and leaves no success. */
export async function expectNothingCharged(
  ctx: CaseContext,
  version: ApiVersion,
  operationId: string,
  body: Record<string, unknown>,
  options: { statusCheck: boolean },
): Promise<void> {
  const before = await ctx.balance(version);
  const submittedAt = Date.now();
  const exchange = await ctx.call(operationId, { body });
  guardAssumedPath(ctx, exchange);
  ctx.check(notSuccessful, exchange);
  const correlationId = typeof body.correlationId === 'string' ? body.correlationId : '';
  if (exchange.response.classification.outcome === 'Unknown' || exchange.response.classification.outcome === 'InProgress') {
    // No answer yet: only the status endpoint can tell; it must not end in success.
    if (correlationId !== '') {
      const poll = await ctx.pollStatus(version, correlationId, { submittedAt });
      if (poll.outcome === 'Successful' && poll.last !== undefined) ctx.check(notSuccessful, poll.last);
    }
  }
  const after = await ctx.balance(version);
  if (before !== undefined && after !== undefined && Math.abs(after - before) > 1e-9) {
    ctx.fail({
      check: 'no-charge',
      operation: operationId,
      message: 'a refused request changed the balance',
      expected: `balance ${before}`,
      received: `balance ${after}`,
      request: exchange.request,
    });
  }
  if (options.statusCheck && correlationId !== '') await expectStatusNotSuccessful(ctx, version, correlationId);
}

/** A refused transaction leaves no success behind: the status of its correlationId is not a success. */
export async function expectStatusNotSuccessful(ctx: CaseContext, version: ApiVersion, correlationId: string): Promise<void> {
  const status = await ctx.call(`${version}.transaction.status`, { path: { correlationId } });
  if (status.response.classification.outcome !== 'Successful') return;
  ctx.fail({
    check: 'status-not-successful',
    operation: status.request.operationId,
    message: `the status endpoint reports the refused transaction ${correlationId} as successful`,
    expected: 'not a success',
    received: describeResponse(status.response),
    request: status.request,
  });
}

/** One request of a refusal case: what was broken, and the body. */
export interface Attempt {
  readonly label: string;
  readonly body: Record<string, unknown>;
}

/**
 * Every attempt must be refused (none a success, none ending in success through the status check), and together
 * they must leave the balance where it was. Attempts go out together; the balance is read before (unless the caller
 * knows it) and after, and the balance after is returned.
 */
export async function expectAllRefused(
  ctx: CaseContext,
  version: ApiVersion,
  operationId: string,
  attempts: readonly Attempt[],
  onAnswer?: (exchange: Exchange, attempt: Attempt) => void,
  known: { readonly before?: number } = {},
): Promise<number | undefined> {
  // A caller that read the balance last (GEN's refusals, one after another in the exclusive phase) passes it on.
  const before = known.before ?? (await ctx.balance(version));
  const exchanges = await Promise.all(
    attempts.map(async (attempt) => {
      const submittedAt = Date.now();
      const exchange = await ctx.call(operationId, { body: attempt.body });
      return { attempt, exchange, submittedAt };
    }),
  );
  const accepted: string[] = [];
  for (const { attempt, exchange, submittedAt } of exchanges) {
    guardAssumedPath(ctx, exchange);
    onAnswer?.(exchange, attempt);
    let final = exchange;
    // '852' (in progress) or no answer is no refusal: only the status check can tell how it ended. A gateway that
    // took a numeric correlationId may know it as text.
    const pending = !exchange.response.classification.final;
    const id = attempt.body.correlationId;
    const pollId = typeof id === 'string' && id !== '' ? id : typeof id === 'number' ? String(id) : undefined;
    if (pending && pollId !== undefined) {
      const poll = await ctx.pollStatus(version, pollId, { submittedAt });
      if (poll.last !== undefined && poll.final) final = poll.last;
    }
    const outcome = final.response.classification.outcome;
    if (outcome === 'Failed') continue;
    accepted.push(attempt.label);
    ctx.fail({
      check: 'refused',
      operation: operationId,
      message:
        outcome === 'Successful'
          ? `${attempt.label}: the request was accepted although the rule forbids it`
          : `${attempt.label}: the request was not refused (${outcome === 'InProgress' ? "in progress: '852'" : 'no final answer'})`,
      expected: "a refusal: a final failure (HTTP 200 with a code other than '000' and '852', or an HTTP error)",
      received: describeResponse(final.response),
      request: exchange.request,
    });
  }
  ctx.note(`${attempts.length} request(s): ${attempts.map((a) => a.label).join('; ')}`);
  const after = await ctx.balance(version);
  if (before !== undefined && after !== undefined && Math.abs(after - before) > 1e-9) {
    ctx.fail({
      check: 'no-charge',
      operation: operationId,
      message: `refused requests changed the balance${accepted.length > 0 ? ` (accepted: ${accepted.join('; ')})` : ''}`,
      expected: `balance ${before}`,
      received: `balance ${after}`,
    });
  }
  return after;
}

function overCase(rule: LengthRule, version: ApiVersion, length: number): ConformanceCase {
  const op = getOperation(`${version}.transaction.${rule.write}`);
  return {
    kind: 'scenario',
    id: `${rule.stem}-${length}-${V(version)}`,
    group: 'LEN',
    title: `${rule.field} of ${length} chars (outside the limit) is not successful and charges nothing`,
    specSection: rule.section,
    rule: rule.rule,
    api: version,
    exclusive: true,
    assumed: [ASSUMED.skuFields, ...(rule.assumed ?? []), ...(op.pathAssumed ? [ASSUMED.writePath(op)] : [])],
    async scenario(ctx) {
      const body = await rule.body(ctx, await ctx.fixtures(), version, length);
      need(ctx, body, 'a request body');
      // Status by correlationId is documented for RTR/PIN/gift card transactions only.
      await expectNothingCharged(ctx, version, op.id, body, { statusCheck: rule.write === 'topup' });
    },
  };
}

export const LEN_CASES: readonly ConformanceCase[] = VERSIONS.flatMap((version) =>
  RULES.flatMap((rule) => [...rule.within.map((n) => withinCase(rule, version, n)), ...rule.over.map((n) => overCase(rule, version, n))]),
);
