// TRG: each row of the catalog's sandbox trigger tables (api/triggers.ts; the spec's, on v1 and v2 top-up). Delays: the
// client gives up well before the delay, treats the outcome as Unknown, polls status until final, and checks it holds.
import { CATALOG_TRIGGERS, OPERATIONS, getOperation, type Operation } from '../../api/operations.ts';
import type { TriggerRow } from '../../api/triggers.ts';
import { describeResponse } from '../../api/describe.ts';
import { clientTimedOut, message001Shape, responseCodeIs } from '../checks.ts';
import { STATUS_RULE, expectFinalHolds, finalOf } from './final.ts';
import { SANDBOX_LOOKUP_COUNTRIES, SPEC_JAMAICA_PLAN, makeMobile, validAmount } from '../../api/catalog-facts.ts';
import type { CaseContext, ConformanceCase } from '../types.ts';
import { ASSUMED, SECTION, V, VERSIONS, need, rtrTarget, validWriteBody } from './common.ts';

/** A trigger row as the cases use it: the number's suffix, and the purpose of the writes it applies to. */
export interface TriggerSpec extends TriggerRow {
  readonly purpose: string;
  readonly suffix: string;
}

const specOf = (row: TriggerRow & { readonly purpose: string }): TriggerSpec => ({ ...row, suffix: row.match.mobileSuffix });

/** The spec's table (top-up), which the POLL, STATUS and BAL cases mix into their top-ups. */
export const TRIGGERS: readonly TriggerSpec[] = CATALOG_TRIGGERS.filter((row) => row.purpose === 'transaction.topup').map(specOf);

/** Hard-coded on purpose: the spec's trigger names skuId 193 (the only SKU id the suite may hard-code). */
export const TRIGGER_SKU_ID = TRIGGERS.find((t) => t.match.skuId !== undefined)?.match.skuId;

/** The body fields the write's input rule fills with the mobile number. */
function mobileFields(op: Operation, mobile: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(op.inputs?.body ?? {})
      .filter(([, source]) => source === 'mobile')
      .map(([field]) => [field, mobile]),
  );
}

/**
 * The body that fires the trigger, for `op` (by default the v2 write of the trigger's purpose; both versions take one body): its valid body on an RTR
 * SKU of a lookup country, with a number of that country ending in the suffix; a row naming a SKU and a prefix (001)
 * sends that SKU, a number of that plan and the settings' amount below its minimum.
 */
export async function triggerBody(
  ctx: CaseContext,
  trigger: TriggerSpec,
  op: Operation = getOperation(`v2.${trigger.purpose}`),
): Promise<Record<string, unknown>> {
  const { skuId, mobilePrefix } = trigger.match;
  if (skuId !== undefined && mobilePrefix !== undefined) {
    const mobile = makeMobile({ ...SPEC_JAMAICA_PLAN, prefix: mobilePrefix }, { suffix: trigger.suffix });
    return { skuId, mobile, amount: ctx.settings.trigger001Amount, correlationId: ctx.correlationId() };
  }
  const fx = await ctx.fixtures();
  const { sku, mobile } = rtrTarget(ctx, fx, SANDBOX_LOOKUP_COUNTRIES, trigger.suffix);
  // The amount as a top-up case sends it (the SKU's smallest, in the wallet currency for a range): a trigger fires on
  // an ordinary request, so a bug in ordinary amounts shows in the trigger cases too.
  const { amount: _amount, transactionCurrencyCode: _currency, ...body } = validWriteBody(ctx, fx, op, [sku]);
  const amount = op.inputs?.body?.amount === undefined ? {} : need(ctx, validAmount(sku), `amount bounds of SKU ${sku.skuId}`);
  return { ...body, ...mobileFields(op, mobile), ...amount };
}

function codeTriggerCase(op: Operation, trigger: TriggerSpec & { effect: { code: string } }): ConformanceCase {
  const version = op.version;
  return {
    kind: 'scenario',
    id: `TRG-${trigger.key}-${V(version)}`,
    group: 'TRG',
    title: `${noun(op)} to a number ending ${trigger.suffix}${trigger.key === '001' ? ' (skuId 193, amount below 5.00 USD)' : ''} → '${trigger.effect.code}'`,
    specSection: `${SECTION.triggers}; ${SECTION.writes} (Per-operation rules: Status check)`,
    rule: `${trigger.rule}. ${STATUS_RULE}`,
    api: version,
    assumed: trigger.key === '001' ? [ASSUMED.walletUsd] : [ASSUMED.skuFields],
    async scenario(ctx) {
      const body = await triggerBody(ctx, trigger, op);
      const exchange = await ctx.call(op.id, { body });
      const ok = ctx.check(responseCodeIs(trigger.effect.code), exchange);
      if (trigger.key === '001') ctx.check(message001Shape, exchange);
      // The status check then reports the same outcome class (Failed); another code is only a warning (STATUS rule).
      if (ok)
        await expectFinalHolds(
          ctx,
          version,
          String(body.correlationId),
          { outcome: 'Failed', code: trigger.effect.code },
          'after the final answer',
        );
    },
  };
}

function delayTriggerCase(op: Operation, trigger: TriggerSpec & { effect: { delayMs: number } }): ConformanceCase {
  const version = op.version;
  const delayMs = trigger.effect.delayMs;
  return {
    kind: 'scenario',
    id: `TRG-${trigger.key}-${V(version)}`,
    group: 'TRG',
    title: `${noun(op)} to a number ending ${trigger.suffix}: client times out (Unknown), polls status to a final result`,
    specSection: `${SECTION.triggers}; ${SECTION.states}`,
    rule: `${trigger.rule}. Client-side timeout → Unknown (not failed; the account may be charged) → client polls the status endpoint with the correlationId`,
    api: version,
    assumed: [ASSUMED.skuFields],
    async scenario(ctx) {
      const body = await triggerBody(ctx, trigger, op);
      const correlationId = String(body.correlationId);
      const started = Date.now();
      const timeoutMs = ctx.timing.delayTimeoutMs(delayMs);
      ctx.note(`client timeout ${timeoutMs} ms for a documented delay of ${delayMs / 1000} s (scaled ${ctx.timing.scaled(delayMs)} ms)`);
      const submitted = await ctx.call(op.id, { body }, { timeoutMs });
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

/** What the case sends, in its title: the spec's word for top-up, the catalog's summary for any other write. */
const noun = (op: Operation): string => (op.purpose === 'transaction.topup' ? 'top-up' : op.summary);

function triggerCase(op: Operation, trigger: TriggerSpec): ConformanceCase {
  return 'code' in trigger.effect
    ? codeTriggerCase(op, trigger as TriggerSpec & { effect: { code: string } })
    : delayTriggerCase(op, trigger as TriggerSpec & { effect: { delayMs: number } });
}

/** The writes with trigger rows, per version, and each row's case (`TRG-<key>-V1`). */
export const TRG_CASES: readonly ConformanceCase[] = VERSIONS.flatMap((version) =>
  OPERATIONS.filter((op) => op.version === version && op.triggers !== undefined).flatMap((op) =>
    CATALOG_TRIGGERS.filter((row) => row.purpose === op.purpose).map((row) => triggerCase(op, specOf(row))),
  ),
);

/** The write a TRG case sends, by case id (the money plan counts it). */
export function triggerCaseOperation(caseId: string): Operation | undefined {
  return OPERATIONS.find((op) => op.triggers?.some((row) => caseId === `TRG-${row.key}-${V(op.version)}`));
}
