// Wallet balance (v1 and v2). Spec Balance: "With prepaid terms the balance is returned with a negative sign to
// indicate available funds"; the payload is a number (double).
import type { RouteContext, RouteTable } from './context.ts';
import { ok } from './context.ts';

function balance(ctx: RouteContext): ReturnType<typeof ok> {
  // Exact (money rule): the balance moves by exactly each charge's invoiceAmount.
  const funds = ctx.env.store.availableFunds;
  // 0 - 0 is -0, which JSON prints as 0 anyway; written out so the sign rule is visible here.
  return ok(ctx.env, funds === 0 ? 0 : -funds);
}

export const ACCOUNT_ROUTES: RouteTable = {
  'v1.account.balance': balance,
  'v2.account.balance': balance,
};
