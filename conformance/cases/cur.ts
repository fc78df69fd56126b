// CUR: currency rules — estimated cost needs an upper-case currency; a top-up's transactionCurrencyCode must be one
// of the SKU's FaceValueCurrency. Refused top-ups must charge nothing, so those cases run alone.
import { notSuccessful, successful } from '../checks.ts';
import type { Fixtures, SkuFixture } from '../../target/fixtures.ts';
import type { CaseContext, ConformanceCase } from '../types.ts';
import { SANDBOX_LOOKUP_COUNTRIES } from '../../api/catalog-facts.ts';
import { ASSUMED, SECTION, V, VERSIONS, need, submitAndFinish } from './common.ts';
import { expectNothingCharged } from './len.ts';
import { faceAmount, type CatalogSku } from '../../api/catalog-facts.ts';

const EST_RULE = 'Estimated cost request (v2): transactionCurrencyCode | string or null | no | Destination currency; must be upper case';
const TOPUP_RULE =
  'Top-up request: transactionCurrencyCode | ISO currency code of the destination country, to send amount in destination currency; allowed values are those in the FaceValueCurrency field of the SKU catalog';

/** The face-amount SKU of a country's RTR SKUs (rtrSkusOf order): what CUR-TOPUP-FACE sends, and what the money plan prices. */
export const faceSkuOf = <T extends CatalogSku>(rtrSkus: readonly T[]): T | undefined => rtrSkus.find((s) => faceAmount(s) !== undefined);

/** An RTR SKU with a face amount, plus a valid number of its country. */
function faceTarget(ctx: CaseContext, fx: Fixtures): { sku: SkuFixture; mobile: string } {
  for (const code of SANDBOX_LOOKUP_COUNTRIES) {
    const sku = faceSkuOf(fx.rtrSkus(code));
    const mobile = fx.mobile(code);
    if (sku !== undefined && mobile !== undefined) return { sku, mobile };
  }
  return ctx.skip('the catalog has no RTR SKU with a readable face value and FaceValueCurrency in JM/IN/PK/MX');
}

/** A currency code used by the catalog that is not this SKU's FaceValueCurrency (else ISO's test code XTS). */
function foreignCurrency(fx: Fixtures, sku: SkuFixture): string {
  // The max bound may name a second face value currency (observed SKU records carry one per bound).
  const own = new Set([sku.faceValueCurrency, sku.maxFaceValueCurrency].filter((c): c is string => c !== undefined));
  const other = [...fx.faceCurrencies].sort().find((c) => !own.has(c) && /^[A-Z]{3}$/.test(c));
  return other ?? 'XTS';
}

function estimatedCostCase(id: string, title: string, lower: boolean): ConformanceCase {
  return {
    kind: 'scenario',
    id,
    group: 'CUR',
    title,
    specSection: `${SECTION.requests} (Estimated cost request (v2))`,
    rule: EST_RULE,
    api: 'v2',
    assumed: [ASSUMED.skuFields, 'write path of estimated cost (spec: "not shown"; writePaths.v2.transaction.estimated-cost)'],
    async scenario(ctx) {
      const { sku } = faceTarget(ctx, await ctx.fixtures());
      const amount = need(ctx, faceAmount(sku), `face amount of SKU ${sku.skuId}`);
      const currency = amount.transactionCurrencyCode as string;
      need(ctx, /[A-Z]/.test(currency) ? currency : undefined, 'a FaceValueCurrency with letters');
      const body = {
        skuId: sku.skuId,
        amount: amount.amount,
        transactionCurrencyCode: lower ? currency.toLowerCase() : currency.toUpperCase(),
      };
      const { submitted, final } = await submitAndFinish(ctx, 'v2', 'v2.transaction.estimated-cost', body);
      ctx.check(lower ? notSuccessful : successful, final ?? submitted);
    },
  };
}

export const CUR_CASES: readonly ConformanceCase[] = [
  estimatedCostCase('CUR-EST-LOWER', 'estimated cost with a lower-case transactionCurrencyCode is rejected', true),
  estimatedCostCase('CUR-EST-UPPER', 'estimated cost with the upper-case FaceValueCurrency is accepted', false),
  ...VERSIONS.flatMap((version): ConformanceCase[] => [
    {
      kind: 'scenario',
      id: `CUR-TOPUP-FACE-${V(version)}`,
      group: 'CUR',
      title: "top-up in the SKU's FaceValueCurrency is accepted",
      specSection: `${SECTION.requests} (Top-up request)`,
      rule: TOPUP_RULE,
      api: version,
      assumed: [ASSUMED.skuFields],
      async scenario(ctx) {
        const { sku, mobile } = faceTarget(ctx, await ctx.fixtures());
        const body = { skuId: sku.skuId, mobile, correlationId: ctx.correlationId(), ...faceAmount(sku) };
        const { submitted, final } = await submitAndFinish(ctx, version, `${version}.transaction.topup`, body);
        ctx.check(successful, final ?? submitted);
      },
    },
    {
      kind: 'scenario',
      id: `CUR-TOPUP-OUTSIDE-${V(version)}`,
      group: 'CUR',
      title: "top-up with a transactionCurrencyCode outside the SKU's FaceValueCurrency is rejected, nothing charged",
      specSection: `${SECTION.requests} (Top-up request)`,
      rule: TOPUP_RULE,
      api: version,
      exclusive: true,
      assumed: [ASSUMED.skuFields],
      async scenario(ctx) {
        const fx = await ctx.fixtures();
        const { sku, mobile } = faceTarget(ctx, fx);
        const amount = need(ctx, faceAmount(sku), `face amount of SKU ${sku.skuId}`);
        const currency = foreignCurrency(fx, sku);
        ctx.note(`SKU ${sku.skuId} FaceValueCurrency ${String(sku.faceValueCurrency)}; sent ${currency}`);
        const body = {
          skuId: sku.skuId,
          mobile,
          correlationId: ctx.correlationId(),
          amount: amount.amount,
          transactionCurrencyCode: currency,
        };
        await expectNothingCharged(ctx, version, `${version}.transaction.topup`, body, { statusCheck: true });
      },
    },
  ]),
];
