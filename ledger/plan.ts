// --dry-run: what a command would send that charges — operations, how many, the worst-case spend — printed instead of
// running. Nothing is sent (not even a catalog read), so amounts are bounded by the cap, never guessed.
import type { Operation } from '../api/operations.ts';
import { chargingRefusal } from './guard.ts';
import { formatMoney, type MoneySettings } from './money-settings.ts';

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
}

export function planLines(plan: MoneyPlan, settings: MoneySettings): string[] {
  const lines = [`dry run: ${plan.what} against ${plan.target} (${settings.environment}); nothing was sent`];
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
  const counted = plan.total ?? (plan.items.every((i) => i.count !== undefined) ? plan.items.reduce((n, i) => n + (i.count ?? 0), 0) : undefined);
  lines.push(`charging requests: ${counted === undefined ? 'bounded by time and the cap' : `at most ${counted}`}`);
  const refusal = chargingRefusal(plan.what, plan.items.map((i) => i.operation), settings);
  if (refusal !== undefined) {
    lines.push('worst-case spend: none — the run would be refused (production target, no --allow-charges --max-spend)');
  } else if (settings.cap !== undefined) {
    lines.push(
      `worst-case spend: ${formatMoney(settings.cap.amount, settings.cap.currency)} (the cap: each request reserves its worst case, from its amount or the SKU's ` +
        'price in the target\'s catalog read at the start, and is not sent when that would cross the cap)',
    );
  } else {
    lines.push('worst-case spend: nothing real (sandbox target: "No real charge is made")');
  }
  return lines;
}
