// SIM activation, SIM port-in (both v1 and v2, paths assumed) and port-in status by transaction id.
// Port-in progress states are "not shown" by the spec: assumed Pending until portinProcessingMs (scaled), then Completed.
import { getOperation } from '../../api/operations.ts';
import { costOf, moneyTimes } from '../data/money.ts';
import type { SimActivationRequest, SimPortinRequest } from '../../schemas/generated/types.ts';
import type { RouteReply } from '../envelope.ts';
import type { RouteContext, RouteTable } from './context.ts';
import { fail, idArg, ok, scaled } from './context.ts';
import type { Decision } from './transactions.ts';
import { assignedNumber, isRefusal, skuWithOptionalNumber, ofCategory, resolveSku, runWrite, transactionPayload } from './transactions.ts';

/** The kind of transaction portin/status serves: the port-in's catalog purpose (getOperation throws if it is renamed). */
const PORTIN = getOperation('v2.transaction.sim-portin').purpose;

function decideActivation(ctx: RouteContext, body: SimActivationRequest): Decision {
  const { env } = ctx;
  const found = resolveSku(ctx, body.skuId, ofCategory('Sim'), 'a Sim SKU');
  if (isRefusal(found)) return found;
  const { sku } = found;
  const months = body.numberOfPlanMonths !== undefined && body.numberOfPlanMonths > 1 ? body.numberOfPlanMonths : 1;
  const face = moneyTimes(sku.min.faceValue, months);
  const cost = costOf(sku, moneyTimes(sku.min.faceValueInWalletCurrency, months));
  return {
    cost,
    build: (txn) => ({
      payload: transactionPayload(
        env,
        txn,
        sku,
        { invoiceAmount: cost, faceValue: face },
        {
          simInfo: {
            simNumber: body.simNumber,
            language: body.language ?? null,
            zipCode: body.zipCode,
            mobileNumber: assignedNumber(env, sku.countryCode, txn.transactionId),
          },
        },
      ),
    }),
  };
}

function decidePortin(ctx: RouteContext, body: SimPortinRequest): Decision {
  const { env } = ctx;
  const found = skuWithOptionalNumber(ctx, body.skuId, 'Sim', { value: body.mobileNumber, field: 'mobileNumber' });
  if (isRefusal(found)) return found;
  const { sku } = found;
  const months = body.numberOfPlanMonths !== undefined && body.numberOfPlanMonths > 1 ? body.numberOfPlanMonths : 1;
  const cost = costOf(sku, moneyTimes(sku.min.faceValueInWalletCurrency, months));
  return {
    cost,
    build: (txn) => {
      const mobileNumber = body.mobileNumber || assignedNumber(env, sku.countryCode, txn.transactionId);
      return {
        payload: transactionPayload(
          env,
          txn,
          sku,
          { invoiceAmount: cost, faceValue: moneyTimes(sku.min.faceValue, months) },
          {
            simInfo: { simNumber: body.simNumber, language: body.language ?? null, zipCode: body.zipCode, mobileNumber },
          },
        ),
        details: {
          transactionId: txn.transactionId,
          correlationId: txn.correlationId,
          skuId: sku.skuId,
          mobileNumber,
          simNumber: body.simNumber,
          operatorCode: body.operatorCode ?? null,
        },
      };
    },
  };
}

const activate = (ctx: RouteContext): ReturnType<typeof runWrite> => runWrite<SimActivationRequest>(ctx, { decide: decideActivation });
const portin = (ctx: RouteContext): ReturnType<typeof runWrite> => runWrite<SimPortinRequest>(ctx, { decide: decidePortin });

function portinStatus(ctx: RouteContext): RouteReply {
  const { env } = ctx;
  const id = idArg(ctx, 'id');
  const txn = id === undefined ? undefined : env.store.byTransactionId(id);
  if (txn === undefined || txn.kind !== PORTIN) return fail(env, 'notFound', 'No port-in found with this id');
  if (txn.details === undefined) return fail(env, 'notFound', 'The port-in did not succeed: no port-in to follow');
  const completesAt = txn.createdAt + scaled(env, env.behaviour.portinProcessingMs);
  const completed = env.store.now() >= completesAt;
  return ok(env, {
    ...txn.details,
    status: completed ? 'Completed' : 'Pending',
    message: completed ? 'The number has been ported in' : 'The port-in request is being processed by the carrier',
  });
}

export const SIM_ROUTES: RouteTable = {
  'v1.transaction.sim-portin-status': portinStatus,
  'v2.transaction.sim-portin-status': portinStatus,
  'v1.transaction.sim-activation': activate,
  'v2.transaction.sim-activation': activate,
  'v1.transaction.sim-portin': portin,
  'v2.transaction.sim-portin': portin,
};
