// Bill payment (v1 and v2, path assumed) and the bill detail lookup (v1 transaction/, v2 lookup/ fetch-account-detail).
// A Bill Pay SKU, the amount within the biller's bounds ('001'), transactionCurrencyCode null/empty = wallet currency.
import { billDetailFor, isPlausibleAccountNumber } from '../data/billpay.ts';
import { formatExact } from '../data/money.ts';
import type { BillpayRequest } from '../../schemas/generated/types.ts';
import type { RouteReply } from '../envelope.ts';
import type { RouteContext, RouteTable } from './context.ts';
import { fail, intArg, ok, stringArg } from './context.ts';
import type { Decision } from './transactions.ts';
import { digitsFor, isRefusal, ofCategory, resolvePricedSku, runWrite, transactionPayload } from './transactions.ts';

function decideBillpay(ctx: RouteContext, body: BillpayRequest): Decision {
  const { env } = ctx;
  const priced = resolvePricedSku(ctx, body, ofCategory('Bill Pay'), 'a Bill Pay SKU');
  if (isRefusal(priced)) return priced;
  const { sku, cost, face } = priced;
  return {
    cost,
    build: (txn) => ({
      payload: transactionPayload(
        env,
        txn,
        sku,
        { invoiceAmount: cost, faceValue: face },
        {
          billPaymentDetail: {
            accountNumber: body.accountNumber,
            token: digitsFor(env, txn.transactionId, 4, 20),
            unit: null,
            receivedNarration: `Payment of ${formatExact(face)} ${sku.min.faceValueCurrency} received for account ${body.accountNumber}`,
          },
        },
      ),
    }),
  };
}

const billpay = (ctx: RouteContext): ReturnType<typeof runWrite> => runWrite<BillpayRequest>(ctx, { decide: decideBillpay });

/** Spec: query skuId and accountNumber, "both optional"; without both there is no bill to show (assumed failure). */
function fetchAccountDetail(ctx: RouteContext): RouteReply {
  const { env } = ctx;
  const skuId = intArg(ctx, 'skuId');
  const accountNumber = stringArg(ctx, 'accountNumber');
  if (skuId === undefined || accountNumber === undefined) {
    return fail(env, 'invalidRequest', 'Invalid request: skuId and accountNumber are needed to fetch a bill');
  }
  const sku = env.data.index.skuById.get(skuId);
  if (sku === undefined) return fail(env, 'unknownSku', `SKU ${skuId} does not exist`);
  if (sku.category !== 'Bill Pay' && env.behaviour.checkCategory) {
    return fail(env, 'wrongCategory', `SKU ${skuId} is of category ${sku.category}; this operation needs a Bill Pay SKU`);
  }
  if (!isPlausibleAccountNumber(accountNumber)) {
    return fail(env, 'notFound', 'No bill found: accountNumber must be 1 to 40 letters, digits or dashes');
  }
  const detail = billDetailFor(sku, accountNumber, env.data.generatedAt);
  return detail === undefined ? fail(env, 'notFound', 'No bill found for this account') : ok(env, detail);
}

export const BILLPAY_ROUTES: RouteTable = {
  'v1.transaction.billpay-fetch-account-detail': fetchAccountDetail,
  'v2.lookup.billpay-fetch-account-detail': fetchAccountDetail,
  'v1.transaction.billpay': billpay,
  'v2.transaction.billpay': billpay,
};
