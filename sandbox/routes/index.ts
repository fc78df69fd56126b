// The route table of the sandbox: one module per endpoint group (the catalog's `group` field), keyed by operation id.
// app.ts walks OPERATIONS and looks each one up here; a test fails while any catalog operation has no handler.
import type { Operation, OperationGroup } from '../../api/operations.ts';
import type { RouteHandler, RouteTable } from './context.ts';
import { ACCOUNT_ROUTES } from './account.ts';
import { BILLPAY_ROUTES } from './billpay.ts';
import { CATALOG_ROUTES } from './catalog.ts';
import { ESIM_ROUTES } from './esim.ts';
import { ESTIMATED_COST_ROUTES } from './estimated-cost.ts';
import { GIFTCARD_ROUTES } from './giftcard.ts';
import { LOOKUP_ROUTES } from './lookup.ts';
import { PIN_ROUTES } from './pin.ts';
import { PROMOTION_ROUTES } from './promotion.ts';
import { SIM_ROUTES } from './sim.ts';
import { STATUS_ROUTES } from './status.ts';
import { TOPUP_ROUTES } from './topup.ts';

export const ROUTE_MODULES: Readonly<Record<OperationGroup, RouteTable>> = {
  account: ACCOUNT_ROUTES,
  catalog: CATALOG_ROUTES,
  lookup: LOOKUP_ROUTES,
  promotion: PROMOTION_ROUTES,
  esim: ESIM_ROUTES,
  billpay: BILLPAY_ROUTES,
  status: STATUS_ROUTES,
  giftcard: GIFTCARD_ROUTES,
  sim: SIM_ROUTES,
  topup: TOPUP_ROUTES,
  pin: PIN_ROUTES,
  'estimated-cost': ESTIMATED_COST_ROUTES,
};

/** The handler of an operation, from the route module of its group; undefined when none is written yet. */
export function handlerFor(op: Operation): RouteHandler | undefined {
  return ROUTE_MODULES[op.group][op.id];
}
