// GIFT: a gift card purchase may answer '852' (in progress); the final result comes from the status endpoint, and the
// card is then fetched by the transaction id. BAL: the balance moves by the charged amount on success, not at all on failure.
import { getOperation, type ApiVersion } from '../../api/operations.ts';
import { successful } from '../checks.ts';
import type { ConformanceCase } from '../types.ts';
import {
  ASSUMED,
  SECTION,
  V,
  VERSIONS,
  firstSku,
  need,
  requireSuccess,
  resultFieldOf,
  rtrTarget,
  submitAndFinish,
  topupBody,
  transactionOf,
} from './common.ts';
import { expectFinalHolds, finalOf } from './final.ts';
import { triggerBody, TRIGGERS } from './trg.ts';
import { expectNothingCharged } from './len.ts';
import { validAmount } from '../../api/catalog-facts.ts';

const GIFT_RULE =
  "Gift card: processing may be slow; responseCode '852' with a message that processing is in progress means the transaction is still running, and the final result must be obtained with the status endpoint. Any other code is final ('000' success, otherwise failure). The gift card fetch operation then returns gift card information for the transaction id received from the gift card operation.";

function giftCase(version: ApiVersion): ConformanceCase {
  return {
    kind: 'scenario',
    id: `GIFT-852-FINAL-${V(version)}`,
    group: 'GIFT',
    title: "gift card purchase: '852' → status polled to final '000' → fetch by transaction id",
    specSection: `${SECTION.writes} (Per-operation rules: Gift card); ${SECTION.states}`,
    rule: GIFT_RULE,
    api: version,
    assumed: [ASSUMED.writePath(getOperation(`${version}.transaction.giftcard`)), ASSUMED.transactionId, ASSUMED.skuFields],
    async scenario(ctx) {
      const fx = await ctx.fixtures();
      const sku = firstSku(
        ctx,
        fx.giftcards.filter((s) => validAmount(s) !== undefined),
        'a gift card SKU with amount bounds',
      );
      const body = { skuId: sku.skuId, correlationId: ctx.correlationId(), ...validAmount(sku) };
      const { submitted, final } = await submitAndFinish(ctx, version, `${version}.transaction.giftcard`, body);
      const first = submitted.response.envelope?.responseCode;
      ctx.note(first === '852' ? "answered '852' first" : `answered '${String(first)}' at once`);
      if (final === undefined) return; // submitAndFinish recorded why
      requireSuccess(ctx, final, 'the gift card purchase');
      const result = finalOf(final);
      if (first === '852' && result !== undefined)
        await expectFinalHolds(ctx, version, String(body.correlationId), result, 'after it was final');
      const id = await resultFieldOf(
        ctx,
        `${version}.transaction.giftcard`,
        getOperation(`${version}.transaction.giftcard-fetch`),
        'transactionId',
        final,
        submitted,
      );
      const fetched = await ctx.call(`${version}.transaction.giftcard-fetch`, { path: { id } });
      ctx.check(successful, fetched);
    },
  };
}

const BAL_RULE =
  "Balance: real-time balance of the wallet. With prepaid terms the balance is returned with a negative sign to indicate available funds; with credit terms the balance is the amount owed. (States: HTTP 200 and responseCode '000' → Successful, the account is charged; any other code → Failed)";

function chargeCase(version: ApiVersion): ConformanceCase {
  return {
    kind: 'scenario',
    id: `BAL-CHARGE-${V(version)}`,
    group: 'BAL',
    title: 'a successful top-up moves the balance by the charged amount (towards less available funds)',
    specSection: `${SECTION.writes} (Per-operation rules: Balance); ${SECTION.states}`,
    rule: BAL_RULE,
    api: version,
    exclusive: true,
    assumed: ['charged amount read from the result at fieldMapping.transaction.chargedAmount', ASSUMED.skuFields],
    async scenario(ctx) {
      const { sku, mobile } = rtrTarget(ctx, await ctx.fixtures());
      const before = need(ctx, await ctx.balance(version), 'a readable balance');
      const body = topupBody(ctx, sku, mobile);
      const { submitted, final } = await submitAndFinish(ctx, version, `${version}.transaction.topup`, body);
      requireSuccess(ctx, final ?? submitted, 'the top-up');
      const after = need(ctx, await ctx.balance(version), 'a readable balance');
      const delta = Math.round((after - before) * 100) / 100;
      // Prepaid: -available grows towards 0; credit: the amount owed grows. Either way a charge raises the figure.
      const charged = transactionOf(ctx, final, submitted).chargedAmount;
      ctx.note(`balance ${before} → ${after} (Δ ${delta}); charged amount in the result: ${String(charged)}`);
      if (!(delta > 0)) {
        ctx.fail({
          check: 'balance-moves-on-success',
          operation: `${version}.account.balance`,
          message: 'the balance did not move in the charge direction after a successful top-up',
          expected: `balance above ${before}`,
          received: `balance ${after}`,
        });
        return;
      }
      const amount = need(
        ctx,
        charged,
        `the charged amount at '${ctx.mapping.transaction.chargedAmount}' (fieldMapping.transaction.chargedAmount) of the top-up result`,
      );
      if (Math.abs(delta - amount) > 0.011) {
        ctx.fail({
          check: 'balance-moves-by-charge',
          operation: `${version}.account.balance`,
          message: 'the balance moved by another amount than the one charged',
          expected: `Δ ${amount}`,
          received: `Δ ${delta} (${before} → ${after})`,
        });
      }
    },
  };
}

function noChargeCase(version: ApiVersion, key: '510' | '500' | '001'): ConformanceCase {
  const trigger = TRIGGERS.find((t) => t.key === key)!;
  return {
    kind: 'scenario',
    id: `BAL-NOCHARGE-${key}-${V(version)}`,
    group: 'BAL',
    title: `a failed top-up (trigger ${key}) leaves the balance unchanged`,
    specSection: `${SECTION.writes} (Per-operation rules: Balance); ${SECTION.states}; ${SECTION.triggers}`,
    rule: `${BAL_RULE} ${trigger.rule}`,
    api: version,
    exclusive: true,
    assumed: [ASSUMED.skuFields],
    async scenario(ctx) {
      const body = await triggerBody(ctx, trigger);
      await expectNothingCharged(ctx, version, `${version}.transaction.topup`, body, { statusCheck: true });
    },
  };
}

export const GIFT_CASES: readonly ConformanceCase[] = VERSIONS.map(giftCase);

export const BAL_CASES: readonly ConformanceCase[] = VERSIONS.flatMap((version) => [
  chargeCase(version),
  ...(['510', '500', '001'] as const).map((key) => noChargeCase(version, key)),
]);
