// Mobile top-up (v1 and v2): RTR SKU, the country's number format, FaceValueCurrency, amount bounds ('001'),
// the spec's sandbox triggers (delays, 510, 500, 001), the two-step bundle loan, funds and charge on success.
import { loanFor, loanInFaceCurrency } from '../data/lookup.ts';
import {
  convert,
  costOf,
  denominationRangeMessage,
  isWalletCurrency,
  moneySub,
  round2,
  shiftBounds,
  toWalletAmount,
  withinBounds,
} from '../data/money.ts';
import type { Sku, SkuMeta } from '../data/types.ts';
import type { TopupRequest } from '../../schemas/generated/types.ts';
import type { RouteContext, RouteTable } from './context.ts';
import type { Decision, Refusal } from './transactions.ts';
import {
  boundsFor,
  currencyRefusal,
  digitsFor,
  faceAmount,
  isRefusal,
  matchTrigger,
  numberRefusal,
  ofCategory,
  resolveSku,
  runWrite,
  transactionPayload,
  walletCost,
} from './transactions.ts';

/** The loan a bundle top-up to this number must carry, in the currency of the amount; undefined when none is due. */
function dueLoan(ctx: RouteContext, meta: SkuMeta, mobile: string, currency: string | null | undefined): number | undefined {
  const { env } = ctx;
  if (!env.behaviour.enforceLoans || !meta.isBundle) return undefined;
  const loan = loanFor(env.data, mobile);
  if (loan === undefined || env.store.isLoanCleared(loan.mobile)) return undefined;
  return isWalletCurrency(currency) ? loan.amountInWalletCurrency : loanInFaceCurrency(meta, loan);
}

/** Amount bounds with the loan rule: face value + loan clears it; face value alone is refused while dues exist. */
function amountRefusal(ctx: RouteContext, sku: Sku, meta: SkuMeta, body: TopupRequest, loan: number | undefined): Refusal | undefined {
  const bounds = boundsFor(sku, meta, body.transactionCurrencyCode);
  const cost = walletCost(sku, meta, body.amount, body.transactionCurrencyCode);
  if (loan !== undefined) {
    const withLoan = shiftBounds(bounds, loan);
    if (withinBounds(body.amount, withLoan)) return undefined;
    if (withinBounds(body.amount, bounds) || !ctx.env.behaviour.checkAmountBounds) {
      return {
        refuse: 'loanDue',
        message: `The number has an outstanding loan of ${loan.toFixed(2)} ${bounds.currency}: send the face value plus the loan amount`,
        cost,
      };
    }
    return { refuse: 'amountOutOfRange', message: denominationRangeMessage(sku, withLoan), cost };
  }
  if (!ctx.env.behaviour.checkAmountBounds || withinBounds(body.amount, bounds)) return undefined;
  return { refuse: 'amountOutOfRange', message: denominationRangeMessage(sku, bounds), cost };
}

function decideTopup(ctx: RouteContext, body: TopupRequest): Decision {
  const { env } = ctx;
  const found = resolveSku(ctx, body.skuId, ofCategory('Rtr'), 'an RTR SKU');
  if (isRefusal(found)) return found;
  const { sku, meta } = found;
  const currency = body.transactionCurrencyCode;
  const refusedNumber = numberRefusal(ctx, body.mobile, sku.countryCode, 'mobile');
  if (refusedNumber !== undefined) return refusedNumber;
  const refusedCurrency = currencyRefusal(ctx, meta, currency);
  if (refusedCurrency !== undefined) return refusedCurrency;

  const bounds = boundsFor(sku, meta, currency);
  const trigger = matchTrigger(env, { purpose: ctx.op.purpose, mobile: body.mobile, skuId: sku.skuId, amount: body.amount, bounds });
  if (trigger !== undefined && 'respond' in trigger.effect) {
    const key = trigger.effect.respond;
    const message = key === 'amountOutOfRange' ? denominationRangeMessage(sku, bounds) : undefined;
    return { refuse: key, message, cost: walletCost(sku, meta, body.amount, currency) };
  }

  const loan = dueLoan(ctx, meta, body.mobile, currency);
  const refusedAmount = amountRefusal(ctx, sku, meta, body, loan);
  if (refusedAmount !== undefined) return refusedAmount;

  const walletAmount = toWalletAmount(meta, body.amount, currency);
  const cost = costOf(sku, walletAmount);
  const face = faceAmount(meta, loan === undefined ? body.amount : moneySub(body.amount, loan), currency);
  return {
    cost,
    holdMs: trigger !== undefined && 'delayMs' in trigger.effect ? trigger.effect.delayMs : undefined,
    build: (txn) => {
      if (loan !== undefined) {
        const owed = loanFor(env.data, body.mobile);
        if (owed !== undefined) env.store.clearLoan(owed.mobile);
      }
      const local = convert(face, meta.deliveryPerFaceUnit);
      const salesTax = sku.isSalesTaxCharged ? round2((local * sku.salesTax) / 100) : 0;
      return {
        payload: transactionPayload(
          env,
          txn,
          sku,
          { invoiceAmount: cost, faceValue: face },
          {
            topupDetail: {
              localCurrencyAmount: local,
              salesTaxAmount: salesTax,
              localCurrencyAmountExcludingTax: moneySub(local, salesTax),
              destinationCurrency: sku.min.deliveryCurrencyCode,
              operatorTransactionId: `OP${digitsFor(env, txn.transactionId, 1, 12)}`,
            },
          },
        ),
      };
    },
  };
}

const topup = (ctx: RouteContext): ReturnType<typeof runWrite> => runWrite<TopupRequest>(ctx, { decide: decideTopup });

export const TOPUP_ROUTES: RouteTable = {
  'v1.transaction.topup': topup,
  'v2.transaction.topup': topup,
};
