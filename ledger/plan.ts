// --dry-run: what a command would send that charges — operations, how many, the worst-case spend — printed instead of
// running. A plan whose requests are known in advance (migrate) is priced from the target's catalog (reads only), and
// refused before anything charging is sent when the cap cannot cover it; otherwise amounts are bounded by the cap.
import { EXIT, HarnessError } from '../api/errors.ts';
import type { Operation } from '../api/operations.ts';
import { chargingRefusal } from './guard.ts';
import { formatMoney, fromCents, toCents, type MoneySettings, type SpendCap } from './money-settings.ts';
import { estimateCharge, type PriceBook } from './price-book.ts';

export interface PlanItem {
  readonly operation: Operation;
  /** Most requests of it the run can send; undefined when only time and the cap bound it. */
  readonly count?: number;
  /** How the count comes about, in words ("1 per iteration, 40 iterations"). */
  readonly note: string;
}

export interface MoneyPlan {
  /** The command in the user's words: "load topup-flow (smoke)", "migrate", "baseline record". */
  readonly what: string;
  readonly target: string;
  readonly items: readonly PlanItem[];
  /** The most charging requests overall, when less than the items' sum (one per iteration, whichever operation). */
  readonly total?: number;
  /** The plan priced from the target's catalog (commands whose requests are known before they start). */
  readonly priced?: PlanCoverage;
  /** What the dry run read from the target, when it read something without pricing the plan (the wallet's currency). */
  readonly read?: string;
}

/** A charging request a plan sends `count` times at most, with its body. */
export interface PlannedRequest {
  readonly operation: Operation;
  readonly body: unknown;
  readonly count: number;
}

/** A plan priced against its cap. */
export interface PlanCoverage {
  /** Worst case of the whole plan in the wallet currency, as the guard reserves it (each request rounded up to the cent). */
  readonly worst: number;
  readonly currency: string;
  readonly requests: number;
  /** Requests whose charge cannot be bounded (the guard would not send them), in words. */
  readonly unbounded: readonly string[];
  /** Why the cap does not cover the plan (with what would), or undefined when it does. */
  readonly problem?: string;
}

/**
 * Prices a plan as the guard will reserve it (ledger/hooks.ts: estimateCharge per request, cents rounded up) and
 * judges it against the cap. `smaller()` may name a smaller plan the cap covers (e.g. "lower --requests to 4").
 */
export function pricePlan(
  requests: readonly PlannedRequest[],
  prices: PriceBook,
  cap: SpendCap,
  smaller?: () => string | undefined,
): PlanCoverage {
  const currency = prices.wallet ?? cap.currency;
  let cents = 0;
  let count = 0;
  const unbounded = new Set<string>();
  for (const r of requests) {
    count += r.count;
    const estimate = estimateCharge(r.operation, r.body, prices, currency);
    if (estimate.bounded) cents += toCents(estimate.wallet) * r.count;
    else unbounded.add(estimate.reason);
  }
  const worst = fromCents(cents);
  const capCents = toCents(cap.amount);
  const base = { worst, currency, requests: count, unbounded: [...unbounded] };
  if (unbounded.size > 0) {
    return {
      ...base,
      problem: `${[...unbounded][0]}: a request whose charge cannot be bounded is not sent under a cap, so a run could not complete`,
    };
  }
  if (cents <= capCents) return base;
  const instead = smaller?.();
  return {
    ...base,
    problem:
      `a complete run sends at most ${count} charging requests, worst case ${formatMoney(worst, currency)} (priced from the target's catalog), more than the cap ` +
      `${formatMoney(cap.amount, cap.currency)}; raise --max-spend to ${formatMoney(worst, currency)}${instead === undefined ? '' : ` or ${instead}`}`,
  };
}

/** Throws GH_ERR_SPEND_CAP (exit 2) when the cap cannot cover the priced plan: before anything charging is sent. */
export function assertPlanCovered(what: string, coverage: PlanCoverage): void {
  if (coverage.problem === undefined) return;
  throw new HarnessError(
    'GH_ERR_SPEND_CAP',
    `${what}: ${coverage.problem}: refused before anything charging was sent (a run the cap stops half way spends money and reaches no verdict)`,
    { exitCode: EXIT.usage },
  );
}

export function planLines(plan: MoneyPlan, settings: MoneySettings): string[] {
  const sent =
    plan.priced !== undefined
      ? 'nothing charging was sent (its catalog was read to price the plan)'
      : plan.read !== undefined
        ? `nothing charging was sent (${plan.read})`
        : 'nothing was sent';
  const lines = [`dry run: ${plan.what} against ${plan.target} (${settings.environment}); ${sent}`];
  if (plan.items.length === 0) {
    lines.push('charging operations: none (this plan sends no request that charges)');
    return lines;
  }
  lines.push('charging operations:');
  const width = Math.max(...plan.items.map((i) => i.operation.id.length));
  for (const item of plan.items) {
    const count = item.count === undefined ? 'unbounded by count' : `at most ${item.count}`;
    lines.push(`  ${item.operation.id.padEnd(width)}  ${count} (${item.note})`);
  }
  const counted =
    plan.total ?? (plan.items.every((i) => i.count !== undefined) ? plan.items.reduce((n, i) => n + (i.count ?? 0), 0) : undefined);
  lines.push(`charging requests: ${counted === undefined ? 'bounded by time and the cap' : `at most ${counted}`}`);
  const refusal = chargingRefusal(
    plan.what,
    plan.items.map((i) => i.operation),
    settings,
  );
  if (refusal !== undefined) {
    lines.push('worst-case spend: none — the run would be refused (production target, no --allow-charges --max-spend)');
  } else if (settings.cap !== undefined && plan.priced !== undefined) {
    const p = plan.priced;
    lines.push(
      `worst-case spend: ${formatMoney(p.worst, p.currency)} for ${p.requests} charging requests (priced from the target's catalog, which was read; nothing charging was sent)`,
    );
    lines.push(
      p.problem === undefined
        ? `the cap ${formatMoney(settings.cap.amount, settings.cap.currency)} covers a complete run`
        : `the cap does NOT cover a complete run: ${p.problem}; the run would be refused before anything charging is sent (exit 2)`,
    );
  } else if (settings.cap !== undefined) {
    lines.push(
      `worst-case spend: ${formatMoney(settings.cap.amount, settings.cap.currency)} (the cap: each request reserves its worst case, from its amount or the SKU's ` +
        "price in the target's catalog read at the start, and is not sent when that would cross the cap)",
    );
  } else {
    lines.push('worst-case spend: nothing real (sandbox target: "No real charge is made")');
  }
  return lines;
}
