// eSIM purchase (v1 and v2, path assumed) and eSIM status by ICCID with the remaining data balance.
// Assumed: the order's result carries `esimDetail` with the ICCID; a fresh eSIM has its whole allowance remaining.
import { costOf } from '../data/money.ts';
import type { EsimRequest } from '../../schemas/generated/types.ts';
import type { RouteReply } from '../envelope.ts';
import type { RouteContext, RouteTable } from './context.ts';
import { fail, ok, stringArg } from './context.ts';
import type { Decision } from './transactions.ts';
import { digitsFor, isRefusal, ofCategory, resolveSku, runWrite, transactionPayload } from './transactions.ts';

const DAY_MS = 86_400_000;
const SMDP_ADDRESS = 'smdp.sandbox.example';

function decideEsim(ctx: RouteContext, body: EsimRequest): Decision {
  const { env } = ctx;
  const found = resolveSku(ctx, body.skuId, ofCategory('eSim'), 'an eSim SKU');
  if (isRefusal(found)) return found;
  const { sku, meta } = found;
  const cost = costOf(sku, sku.min.faceValueInWalletCurrency);
  return {
    cost,
    build: (txn) => {
      // ICCIDs are 19 digits starting 89 (telecom) here; unique because the transaction id is part of them.
      const iccid = `89${String(txn.transactionId).padStart(9, '0')}${digitsFor(env, txn.transactionId, 8, 8)}`;
      const activationCode = `LPA:1$${SMDP_ADDRESS}$${digitsFor(env, txn.transactionId, 9, 16)}`;
      const now = env.store.now();
      env.store.registerEsim(iccid, txn.transactionId);
      return {
        payload: transactionPayload(
          env,
          txn,
          sku,
          { invoiceAmount: cost, faceValue: sku.min.faceValue },
          {
            esimDetail: { iccid, activationCode, smdpAddress: SMDP_ADDRESS, qrCodeUrl: `https://esim.sandbox.example/qr/${iccid}` },
          },
        ),
        details: {
          iccid,
          skuId: sku.skuId,
          productName: sku.productName,
          totalDataMb: meta.dataAllowanceMb ?? 0,
          activatedAt: new Date(now).toISOString(),
          expirationDate: meta.validityDays > 0 ? new Date(now + meta.validityDays * DAY_MS).toISOString() : null,
        },
      };
    },
  };
}

const order = (ctx: RouteContext): ReturnType<typeof runWrite> => runWrite<EsimRequest>(ctx, { decide: decideEsim });

function status(ctx: RouteContext): RouteReply {
  const { env } = ctx;
  const iccid = stringArg(ctx, 'Iccid') ?? '';
  const txn = env.store.esimTransaction(iccid);
  if (txn === undefined || txn.details === undefined) return fail(env, 'notFound', 'No eSIM found with this ICCID');
  const total = Number(txn.details['totalDataMb'] ?? 0);
  const expiration = txn.details['expirationDate'];
  const expired = typeof expiration === 'string' && Date.parse(expiration) <= env.store.now();
  // Nothing consumes data in the sandbox: the whole allowance remains until the bundle expires.
  return ok(env, [
    {
      ...txn.details,
      status: expired ? 'Expired' : 'Active',
      remainingDataMb: expired ? 0 : total,
      usedDataMb: 0,
    },
  ]);
}

export const ESIM_ROUTES: RouteTable = {
  'v1.esim.status': status,
  'v2.esim.status': status,
  'v1.transaction.esim': order,
  'v2.transaction.esim': order,
};
