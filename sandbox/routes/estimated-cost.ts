// Estimated cost (v2 only, path assumed): what a transaction of this SKU and amount would cost, never charged or stored.
// Spec: transactionCurrencyCode "must be upper case" (schema) and, as for a top-up, one of the SKU's FaceValueCurrency.
import type { EstimatedCostRequest } from '../../schemas/generated/types.ts';
import { convert, costOf, toWalletAmount } from '../data/money.ts';
import type { RouteReply } from '../envelope.ts';
import type { RouteContext, RouteTable } from './context.ts';
import { ok } from './context.ts';
import {
  amountCurrency,
  boundsRefusal,
  currencyRefusal,
  faceAmount,
  isRefusal,
  isReply,
  refusalReply,
  resolveSku,
  validBody,
} from './transactions.ts';

function estimate(ctx: RouteContext): RouteReply {
  const valid = validBody<EstimatedCostRequest>(ctx);
  if (isReply(valid)) return valid;
  const { env } = ctx;
  const body = valid.body;
  const found = resolveSku(ctx, body.skuId, () => true, 'any SKU');
  if (isRefusal(found)) return refusalReply(env, found);
  const currency = body.transactionCurrencyCode;
  const refusal = currencyRefusal(ctx, found.meta, currency) ?? boundsRefusal(ctx, found.sku, found.meta, body.amount, currency);
  if (refusal !== undefined) return refusalReply(env, refusal);
  const { sku, meta } = found;
  const walletAmount = toWalletAmount(meta, body.amount, currency);
  const face = faceAmount(meta, body.amount, currency);
  return ok(env, {
    skuId: sku.skuId,
    productName: sku.productName,
    amount: body.amount,
    currencyCode: amountCurrency(env, currency),
    faceValue: face,
    faceValueCurrency: sku.min.faceValueCurrency,
    deliveredAmount: convert(face, meta.deliveryPerFaceUnit),
    deliveryCurrencyCode: sku.min.deliveryCurrencyCode,
    discount: sku.discount,
    fee: sku.fee,
    salesTax: sku.isSalesTaxCharged ? sku.salesTax : 0,
    estimatedCost: costOf(sku, walletAmount),
    costCurrency: env.data.walletCurrency,
  });
}

export const ESTIMATED_COST_ROUTES: RouteTable = {
  'v2.transaction.estimated-cost': estimate,
};
