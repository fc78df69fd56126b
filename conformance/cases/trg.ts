// TRG: each row of the spec's sandbox trigger table, on v1 and v2 top-up. Delays: the client gives up well before the
// delay, treats the outcome as Unknown, polls the status endpoint until final, and checks the final result holds.
import type { ApiVersion } from '../../api/operations.ts';
import { describeResponse } from '../../api/describe.ts';
import { clientTimedOut, message001Shape, responseCodeIs } from '../checks.ts';
import { STATUS_RULE, expectFinalHolds, finalOf } from './final.ts';
import { SPEC_JAMAICA_PLAN, makeMobile } from '../../api/catalog-facts.ts';
import { SPEC_DURATIONS } from '../timing.ts';
import type { CaseContext, ConformanceCase } from '../types.ts';
import { ASSUMED, SECTION, V, VERSIONS, rtrTarget, topupBody } from './common.ts';

/** The spec's trigger table as data. */
export interface TriggerSpec {
  readonly key: '510' | '500' | '001' | '555555' | '666666';
  readonly rule: string;
  readonly suffix: string;
  readonly effect: { readonly code: string } | { readonly delayMs: number };
}

/** Hard-coded on purpose: the spec's trigger names skuId 193 (the only SKU id the suite may hard-code). */
export const TRIGGER_SKU_ID = 193;

export const TRIGGERS: readonly TriggerSpec[] = [
  { key: '510', suffix: '510', rule: 'Mobile number ends with 510 | responseCode 510 (The SKU is out of stock)', effect: { code: '510' } },
  { key: '500', suffix: '500', rule: 'Mobile number ends with 500 | responseCode 500 (Account not activated)', effect: { code: '500' } },
  {
    key: '001',
    suffix: '888',
    rule: "Number starts with 1876 and ends with 888, skuId 193, amount below the minimum of that denomination (5.00 USD) | responseCode 001; message shape 'The charge amount for Denomination <name> should be between <min> <currency> and <max> <currency>'",
    effect: { code: '001' },
  },
  {
    key: '555555',
    suffix: '555555',
    rule: 'Mobile number ends with 555555 | Response delayed 90 seconds (same purpose: the final result is read via the status endpoint)',
    effect: { delayMs: SPEC_DURATIONS.delay555555Ms },
  },
  {
    key: '666666',
    suffix: '666666',
    rule: 'Mobile number ends with 666666 | Response delayed about 120 seconds (simulates a timeout; the final result is read via the status endpoint)',
    effect: { delayMs: SPEC_DURATIONS.delay666666Ms },
  },
];

/** The top-up body that fires a trigger. */
export async function triggerBody(ctx: CaseContext, trigger: TriggerSpec): Promise<Record<string, unknown>> {
  if (trigger.key === '001') {
    const mobile = makeMobile(SPEC_JAMAICA_PLAN, { suffix: trigger.suffix });
    return { skuId: TRIGGER_SKU_ID, mobile, amount: ctx.settings.trigger001Amount, correlationId: ctx.correlationId() };
  }
  const fx = await ctx.fixtures();
  const { sku, mobile } = rtrTarget(ctx, fx, ['JM', 'IN', 'PK', 'MX'], trigger.suffix);
  return topupBody(ctx, sku, mobile);
}

function codeTriggerCase(version: ApiVersion, trigger: TriggerSpec & { effect: { code: string } }): ConformanceCase {
  return {
    kind: 'scenario',
    id: `TRG-${trigger.key}-${V(version)}`,
    group: 'TRG',
    title: `top-up to a number ending ${trigger.suffix}${trigger.key === '001' ? ' (skuId 193, amount below 5.00 USD)' : ''} → '${trigger.effect.code}'`,
    specSection: `${SECTION.triggers}; ${SECTION.writes} (Per-operation rules: Status check)`,
    rule: `${trigger.rule}. ${STATUS_RULE}`,
    api: version,
    assumed: trigger.key === '001' ? [ASSUMED.walletUsd] : [ASSUMED.skuFields],
    async scenario(ctx) {
      const body = await triggerBody(ctx, trigger);
      const exchange = await ctx.call(`${version}.transaction.topup`, { body });
      const ok = ctx.check(responseCodeIs(trigger.effect.code), exchange);
      if (trigger.key === '001') ctx.check(message001Shape, exchange);
      // The status check then reports the same outcome class (Failed); another code is only a warning (STATUS rule).
      if (ok) await expectFinalHolds(ctx, version, String(body.correlationId), { outcome: 'Failed', code: trigger.effect.code }, 'after the final answer');
    },
  };
}

function delayTriggerCase(version: ApiVersion, trigger: TriggerSpec & { effect: { delayMs: number } }): ConformanceCase {
  const delayMs = trigger.effect.delayMs;
  return {
    kind: 'scenario',
    id: `TRG-${trigger.key}-${V(version)}`,
    group: 'TRG',
    title: `top-up to a number ending ${trigger.suffix}: client times out (Unknown), polls status to a final result`,
    specSection: `${SECTION.triggers}; ${SECTION.states}`,
    rule: `${trigger.rule}. Client-side timeout → Unknown (not failed; the account may be charged) → client polls the status endpoint with the correlationId`,
    api: version,
    assumed: [ASSUMED.skuFields],
    async scenario(ctx) {
      const body = await triggerBody(ctx, trigger);
      const correlationId = String(body.correlationId);
      const started = Date.now();
      const timeoutMs = ctx.timing.delayTimeoutMs(delayMs);
      ctx.note(`client timeout ${timeoutMs} ms for a documented delay of ${delayMs / 1000} s (scaled ${ctx.timing.scaled(delayMs)} ms)`);
      const submitted = await ctx.call(`${version}.transaction.topup`, { body }, { timeoutMs });
      ctx.check(clientTimedOut, submitted);
      // Polling starts one interval after the timeout, like any poll loop (and after the gateway has the request).
      await ctx.sleep(ctx.timing.pollIntervalMs);
      const poll = await ctx.pollStatus(version, correlationId, { submittedAt: started });
      if (!poll.final) {
        ctx.fail({
          check: 'final-within-deadline',
          operation: `${version}.transaction.status`,
          message: `no final status for ${correlationId} after ${poll.attempts} checks in ${poll.elapsedMs} ms`,
          expected: `a final responseCode within ${ctx.timing.pollDeadlineMs} ms`,
          received: poll.last === undefined ? 'no status response' : describeResponse(poll.last.response),
          ...(poll.last === undefined ? {} : { request: poll.last.request }),
        });
        return;
      }
      ctx.note(`final '${poll.responseCode ?? '?'}' after ${poll.attempts} status checks, ${Date.now() - started} ms`);
      // Re-read once the documented delay has surely passed: a final answer must not change afterwards.
      const settleAt = started + ctx.timing.scaled(delayMs) * 1.2 + ctx.timing.pollIntervalMs;
      await ctx.sleep(settleAt - Date.now());
      const final = finalOf(poll.last);
      if (final !== undefined) await expectFinalHolds(ctx, version, correlationId, final, 'once the documented delay has passed');
    },
  };
}

export const TRG_CASES: readonly ConformanceCase[] = VERSIONS.flatMap((version) =>
  TRIGGERS.map((trigger) =>
    'code' in trigger.effect
      ? codeTriggerCase(version, trigger as TriggerSpec & { effect: { code: string } })
      : delayTriggerCase(version, trigger as TriggerSpec & { effect: { delayMs: number } }),
  ),
);
