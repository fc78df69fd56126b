// LOAN: the spec's two-step bundle purchase — read the number's bundles (with loan information where dues exist),
// then top up the bundle for face value + loan. Which numbers carry a loan is not stated: settings.loanNumbers.
import { readNumber, readSku } from '../../api/field-mapping.ts';
import { successful } from '../checks.ts';
import { getOperation } from '../../api/operations.ts';
import { toCents } from '../../ledger/money-settings.ts';
import { buildPriceBook, costCurrencies, estimateCharge, priceOfV2Record } from '../../ledger/price-book.ts';
import type { CaseContext, ConformanceCase } from '../types.ts';
import { ASSUMED, SECTION, records, requireSuccess, submitAndFinish } from './common.ts';

/**
 * Why the loan top-up is not sent: it may cost more than settings.loanSpendLimit (the money plan prices the case at
 * that limit), priced as the money guard prices it (ledger/price-book.ts) from the bundle's and the catalog's record
 * of its SKU; or its cost cannot be told in the wallet currency. Undefined: within the limit.
 */
function overSpendLimit(body: Record<string, unknown>, records: readonly unknown[], ctx: CaseContext): string | undefined {
  const limit = ctx.settings.loanSpendLimit;
  const book = buildPriceBook(records.map((r) => priceOfV2Record(r, ctx.mapping.v2Sku)));
  const wallet = costCurrencies(records)[0] ?? '';
  const estimate = estimateCharge(getOperation('v2.transaction.topup'), body, book, wallet);
  const asked = `${String(body.amount)} ${String(body.transactionCurrencyCode ?? 'in the wallet currency')}`;
  if (!estimate.bounded)
    return `the loan top-up (${asked}) was not sent: its cost in the wallet currency cannot be told (${estimate.reason}), so settings.loanSpendLimit (${limit}) cannot be held`;
  if (toCents(estimate.wallet) <= toCents(limit)) return undefined;
  return `the loan top-up (${asked}, up to ${estimate.wallet.toFixed(2)} in the wallet currency) was not sent: it is over settings.loanSpendLimit (${limit}), what the run's money plan allows this case; raise the limit to verify it`;
}

export const LOAN_CASES: readonly ConformanceCase[] = [
  {
    kind: 'scenario',
    id: 'LOAN-TWO-STEP',
    group: 'LOAN',
    title: 'bundles of a number with dues carry loan information; a top-up of face value + loan succeeds',
    specSection: `${SECTION.overview} (Two-step bundle purchase with loan requirement)`,
    rule: 'Call the bundles endpoint (v2 GET catalog/bundles/{productId}/{mobileNumber}); it returns the bundles for the number and loan information if dues exist. If a loan payment is needed, call the top-up operation with the correct skuId, mobile, transactionCurrencyCode and an amount equal to the face value plus the loan amount.',
    api: 'v2',
    assumed: [
      'numbers with an outstanding loan: settings.loanNumbers',
      'loan amount in the face value currency at fieldMapping.bundle.loanInFaceCurrency of the bundle record',
      "the number's bundle product: an RTR SKU of its country with requireFetchBundle true",
      ASSUMED.skuFields,
    ],
    async scenario(ctx) {
      const mobile = ctx.settings.loanNumbers[0];
      if (mobile === undefined) return ctx.skip('no number with an outstanding loan is known for this target (set settings.loanNumbers)');
      const fx = await ctx.fixtures();
      const country = [...fx.countries]
        .filter(
          (c) => c.plan !== undefined && mobile.startsWith(c.plan.prefix) && mobile.length === c.plan.prefix.length + c.plan.nationalLength,
        )
        .sort((a, b) => (b.plan?.prefix.length ?? 0) - (a.plan?.prefix.length ?? 0))[0];
      if (country === undefined) return ctx.skip(`no country's number plan matches the loan number ${mobile}`);
      const products = [
        ...new Set(
          fx
            .rtrSkus(country.code)
            .filter((s) => s.requireFetchBundle === true)
            .map((s) => s.productId)
            .filter((id): id is number => id !== undefined),
        ),
      ];
      if (products.length === 0) return ctx.skip(`the catalog shows no ${country.code} RTR product with requireFetchBundle`);
      let loanBundle: Record<string, unknown> | undefined;
      let loan = 0;
      for (const productId of products) {
        const bundles = await ctx.call('v2.catalog.bundles', { path: { productId, mobileNumber: mobile } });
        requireSuccess(ctx, bundles, `bundles of product ${productId} for ${mobile}`);
        for (const record of records(bundles)) {
          const amount = readNumber(record, ctx.mapping.bundle.loanInFaceCurrency) ?? 0;
          if (amount > 0 && readSku(record, ctx.mapping.v2Sku).minFaceValue !== undefined) {
            loanBundle = record;
            loan = amount;
            break;
          }
        }
        if (loanBundle !== undefined) break;
      }
      if (loanBundle === undefined) {
        ctx.fail({
          check: 'loan-information',
          operation: 'v2.catalog.bundles',
          message: `no bundle of ${mobile} carries loan information although the number has dues`,
          expected: `a bundle record with ${ctx.mapping.bundle.loanInFaceCurrency} (fieldMapping.bundle.loanInFaceCurrency) > 0`,
          received: `products ${products.join(', ')}: no loan amount`,
        });
        return;
      }
      const sku = readSku(loanBundle, ctx.mapping.v2Sku);
      const faceValue = sku.minFaceValue as number;
      const amount = Math.round((faceValue + loan) * 100) / 100;
      ctx.note(`bundle ${String(sku.skuId)}: face value ${faceValue} + loan ${loan} = ${amount} ${String(sku.faceValueCurrency)}`);
      const currency = sku.faceValueCurrency === undefined ? {} : { transactionCurrencyCode: sku.faceValueCurrency };
      const body = { skuId: sku.skuId, mobile, correlationId: ctx.correlationId(), amount, ...currency };
      const over = overSpendLimit(body, [loanBundle, ...fx.skus.filter((s) => s.skuId === sku.skuId).map((s) => s.record)], ctx);
      if (over !== undefined) return ctx.skip(over);
      const { submitted, final } = await submitAndFinish(ctx, 'v2', 'v2.transaction.topup', body);
      ctx.check(successful, final ?? submitted);
    },
  },
];
