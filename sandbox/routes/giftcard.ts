// Gift card purchase (v1 and v2, path assumed) and gift card fetch by transaction id. Spec: the purchase may answer
// '852' while processing; the final result comes from the status endpoint, the card details from giftcard/fetch/{id}.
import { getOperation } from '../../api/operations.ts';
import type { GiftcardRequest } from '../../schemas/generated/types.ts';
import type { RouteReply } from '../envelope.ts';
import type { RouteContext, RouteTable } from './context.ts';
import { fail, idArg, ok } from './context.ts';
import type { Decision } from './transactions.ts';
import { digitsFor, isRefusal, resolvePricedSku, runWrite, transactionPayload } from './transactions.ts';

const CARD_VALIDITY_DAYS = 365;
/** The kind of transaction giftcard/fetch serves: the purchase's catalog purpose (getOperation throws if it is renamed). */
const GIFTCARD_PURCHASE = getOperation('v2.transaction.giftcard').purpose;

function decideGiftcard(ctx: RouteContext, body: GiftcardRequest): Decision {
  const { env } = ctx;
  const priced = resolvePricedSku(ctx, body, (meta) => meta.isGiftcard, 'a gift card SKU');
  if (isRefusal(priced)) return priced;
  const { sku, cost, face } = priced;
  return {
    cost,
    build: (txn) => {
      const cardNumber = digitsFor(env, txn.transactionId, 6, 16);
      const pin = digitsFor(env, txn.transactionId, 7, 8);
      const certificateLink = `https://giftcards.sandbox.example/certificates/${txn.transactionId}`;
      const expirationDate = new Date(env.store.now() + CARD_VALIDITY_DAYS * 86_400_000).toISOString().slice(0, 10);
      return {
        payload: transactionPayload(
          env,
          txn,
          sku,
          { invoiceAmount: cost, faceValue: face },
          {
            giftCardDetail: { cardNumber, pin, certificateLink },
          },
        ),
        details: {
          transactionId: txn.transactionId,
          skuId: sku.skuId,
          productName: sku.productName,
          faceValue: face,
          faceValueCurrency: sku.min.faceValueCurrency,
          recipient: body.recipient ?? null,
          cardNumber,
          pin,
          expirationDate,
          certificateLink,
        },
      };
    },
  };
}

const giftcard = (ctx: RouteContext): ReturnType<typeof runWrite> => runWrite<GiftcardRequest>(ctx, { decide: decideGiftcard });

function fetchGiftcard(ctx: RouteContext): RouteReply {
  const { env } = ctx;
  const id = idArg(ctx, 'id');
  const txn = id === undefined ? undefined : env.store.byTransactionId(id);
  if (txn === undefined || txn.kind !== GIFTCARD_PURCHASE) return fail(env, 'notFound', 'No gift card transaction found with this id');
  if (txn.result === undefined) return fail(env, 'inProgress', 'Gift card transaction is in progress');
  if (txn.details === undefined) return fail(env, 'notFound', 'The gift card transaction did not succeed: no card to fetch');
  return ok(env, txn.details);
}

export const GIFTCARD_ROUTES: RouteTable = {
  'v1.transaction.giftcard-fetch': fetchGiftcard,
  'v2.transaction.giftcard-fetch': fetchGiftcard,
  'v1.transaction.giftcard': giftcard,
  'v2.transaction.giftcard': giftcard,
};
