// PIN purchase (v1 and v2, path assumed): a Pin SKU, an optional SMS recipient of the PIN product's country,
// charged at the denomination's price; the result carries the PIN(s) in the observed `pins` block.
import { costOf } from '../data/money.ts';
import type { PinRequest } from '../../schemas/generated/types.ts';
import type { RouteContext, RouteTable } from './context.ts';
import type { Decision } from './transactions.ts';
import { digitsFor, isRefusal, skuWithOptionalNumber, runWrite, transactionPayload } from './transactions.ts';

const PIN_VALIDITY_DAYS = 365;

function decidePin(ctx: RouteContext, body: PinRequest): Decision {
  const { env } = ctx;
  // Spec: recipient "must belong to the country of the PIN product".
  const found = skuWithOptionalNumber(ctx, body.skuId, 'Pin', { value: body.recipient, field: 'recipient' });
  if (isRefusal(found)) return found;
  const { sku } = found;
  const cost = costOf(sku, sku.min.faceValueInWalletCurrency);
  return {
    cost,
    build: (txn) => ({
      payload: transactionPayload(
        env,
        txn,
        sku,
        { invoiceAmount: cost, faceValue: sku.min.faceValue },
        {
          pins: [
            {
              pinNumber: digitsFor(env, txn.transactionId, 2, 14),
              controlNumber: digitsFor(env, txn.transactionId, 3, 10),
              deliveredAmount: sku.min.deliveredAmount,
              deliveredCurrencyCode: sku.min.deliveryCurrencyCode,
              expirationDate: new Date(env.store.now() + PIN_VALIDITY_DAYS * 86_400_000).toISOString().slice(0, 10),
            },
          ],
        },
      ),
    }),
  };
}

const pin = (ctx: RouteContext): ReturnType<typeof runWrite> => runWrite<PinRequest>(ctx, { decide: decidePin });

export const PIN_ROUTES: RouteTable = {
  'v1.transaction.pin': pin,
  'v2.transaction.pin': pin,
};
