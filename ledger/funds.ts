// A run's plan priced against the wallet before the first charge: a wallet that cannot cover it stops the command with
// the amount needed and what to do, never a run of 'Insufficient funds'. Runtime-neutral: the reads are injected.
import { CHEAP_AMOUNT_SPAN, cheapestSkus, validAmount, type CatalogSku, type ValidAmount } from '../api/catalog-facts.ts';
import { EXIT, HarnessError } from '../api/errors.ts';
import { DEFAULT_FIELD_MAPPING } from '../api/field-mapping.ts';
import { buildInputs, inputSkuOf, isNoInput, type InputWorld } from '../api/inputs.ts';
import type { Operation } from '../api/operations.ts';
import type { WalletTerms } from '../api/target-config.ts';
import { formatMoney, fromCents, toCents } from './money-settings.ts';
import { estimateCharge, type PriceBook } from './price-book.ts';

/** What the balance says about available funds, and how it was read (said on the output, never a verdict). */
export interface FundsReading {
  /** Available funds in the wallet currency; undefined when the balance does not tell them. */
  readonly available?: number;
  readonly said: string;
}

/**
 * Spec (Balance): "With prepaid terms the balance is returned with a negative sign to indicate available funds; with
 * credit terms the balance is the amount owed." 'auto' (the default) reads a negative balance as prepaid funds; a
 * balance of 0 or above may be either (an empty prepaid wallet, or what a credit account owes), so it is not judged —
 * config `walletTerms: "prepaid"` (GATEWAY_WALLET_TERMS) reads it as prepaid.
 */
export function readFunds(balance: number | undefined, terms: WalletTerms = 'auto'): FundsReading {
  if (balance === undefined) return { said: 'the balance could not be read, so the plan is not priced against the wallet' };
  if (terms === 'credit') {
    return { said: `balance ${balance} read as the amount owed (walletTerms credit): the credit limit is not shown, so the plan is not priced against it` };
  }
  if (terms === 'prepaid' || balance < 0) {
    const available = Math.max(0, -balance);
    return { available, said: `balance ${balance} read as available funds ${available} (prepaid terms: "returned with a negative sign"${terms === 'prepaid' ? ', walletTerms prepaid' : ''})` };
  }
  return {
    said:
      `balance ${balance} is not negative: under the spec's sign rule that is an empty prepaid wallet or a credit account's amount owed, ` +
      'so the plan is not priced against it (set walletTerms "prepaid" or "credit" in the config, or GATEWAY_WALLET_TERMS, to say which)',
  };
}

/**
 * What a line's requests send. 'smallest' / 'highest': a SKU the one builder picks (api/inputs.ts, its first
 * PLANNED_PICKS candidates) at its smallest valid amount / its highest price (a case that sends a bound or a loan);
 * 'any-smallest': any SKU of the category at its smallest valid amount (a load picks at random among the builder's best);
 * 'near-smallest': any SKU of the category, up to CHEAP_AMOUNT_SPAN above its smallest amount (GEN's top-ups);
 * 'cheapest': one of the category's cheapest SKUs (cheapestSkus, twice GEN's number), up to CHEAP_AMOUNT_SPAN above.
 */
export type PlannedAmount = 'smallest' | 'highest' | 'any-smallest' | 'near-smallest' | { readonly cheapest: number };

/** Candidates of the builder priced per line: a run's picks may differ from the first (load picks at random among the best). */
export const PLANNED_PICKS = 3;

/** At most `count` charging requests, each one of `operations` (the most expensive counts). */
export interface FundsLine {
  readonly operations: readonly Operation[];
  readonly count: number;
  readonly amount: PlannedAmount;
  /** Who sends them, in words ("POLL-MIXED-V1", "load mixed (smoke)"). */
  readonly what: string;
}

export interface FundsPlan {
  /** The command in the user's words: "gate", "load mixed (smoke)". */
  readonly what: string;
  readonly lines: readonly FundsLine[];
  /** Parts whose charges have no bound (said, not priced). */
  readonly unbounded: readonly string[];
  /** How to run a smaller plan, in words ("a smaller GEN budget (--gen-budget 5)"). */
  readonly smaller?: string;
}

export interface PricedPlan {
  /** Worst case of the plan in the wallet currency, each request rounded up to the cent as the guard reserves it. */
  readonly worst: number;
  readonly currency: string;
  readonly requests: number;
  /** Lines whose SKUs have no price in the target's catalog (said; counted at nothing). */
  readonly unpriced: readonly string[];
}

/** The SKUs an operation's valid requests may use (its input rule's category in the target's catalog). */
export type SkusOf = (operation: Operation) => readonly CatalogSku[];

/** The builder's view of a plain SKU list: every source filled, so only the SKUs and their amounts decide. */
function planWorld(skus: readonly CatalogSku[]): InputWorld {
  const views = skus.map(inputSkuOf);
  return { skus: () => views, mobile: () => '10000000', setting: (name) => (name === 'zipCode' ? 10001 : 'plan'), correlationId: () => 'plan', mapping: DEFAULT_FIELD_MAPPING };
}

/** The SKUs a line's requests may use, each with the amount priced (undefined: the SKU's highest price). */
function pricedSkus(operation: Operation, amount: PlannedAmount, skus: readonly CatalogSku[]): Array<{ sku: CatalogSku; valid?: ValidAmount }> {
  const near = (sku: CatalogSku): { sku: CatalogSku; valid?: ValidAmount } => {
    const valid = validAmount(sku);
    return valid === undefined ? { sku } : { sku, valid: { ...valid, amount: valid.amount + CHEAP_AMOUNT_SPAN } };
  };
  if (amount === 'near-smallest') return skus.map(near);
  if (amount === 'any-smallest') return skus.map((sku) => ({ sku, ...(validAmount(sku) === undefined ? {} : { valid: validAmount(sku) as ValidAmount }) }));
  if (typeof amount === 'object') return cheapestSkus(skus, amount.cheapest * 2).map(near);
  const built = buildInputs(operation, planWorld(skus), { max: PLANNED_PICKS });
  if (isNoInput(built)) return [];
  const picked = built.flatMap((b) => skus.filter((s) => s.skuId === b.sku?.skuId).slice(0, 1));
  return picked.map((sku) => (amount === 'smallest' ? { sku, ...(validAmount(sku) === undefined ? {} : { valid: validAmount(sku) as ValidAmount }) } : { sku }));
}

/** The most one request of the line can cost in the wallet currency, or undefined when none of its SKUs has a price. */
export function unitPrice(operation: Operation, amount: PlannedAmount, skus: readonly CatalogSku[], prices: PriceBook, currency: string): number | undefined {
  let most: number | undefined;
  for (const { sku, valid } of pricedSkus(operation, amount, skus)) {
    const estimate = estimateCharge(operation, { skuId: sku.skuId, ...(valid ?? {}) }, prices, currency);
    if (estimate.bounded) most = Math.max(most ?? 0, toCents(estimate.wallet));
  }
  return most === undefined ? undefined : fromCents(most);
}

export function pricePlan(plan: FundsPlan, skusOf: SkusOf, prices: PriceBook, currency: string): PricedPlan {
  let cents = 0;
  let requests = 0;
  const unpriced: string[] = [];
  for (const line of plan.lines) {
    const units = line.operations.map((op) => unitPrice(op, line.amount, skusOf(op), prices, currency));
    const known = units.filter((u): u is number => u !== undefined);
    if (known.length < units.length) unpriced.push(`${line.what}: ${line.operations.filter((_, i) => units[i] === undefined).map((op) => op.id).join(', ')}`);
    requests += line.count;
    cents += toCents(Math.max(0, ...known)) * line.count;
  }
  return { worst: fromCents(cents), currency, requests, unpriced };
}

/** Why the funds cannot cover the plan, with what to do; undefined when they can or are not known. */
export function fundsProblem(plan: FundsPlan, priced: PricedPlan, funds: FundsReading, oneVersion?: PricedPlan): string | undefined {
  if (funds.available === undefined || toCents(priced.worst) <= toCents(funds.available)) return undefined;
  const short = fromCents(toCents(priced.worst) - toCents(funds.available));
  const todo = [`top up the wallet by ${formatMoney(short, priced.currency)}`];
  if (oneVersion !== undefined && oneVersion.requests < priced.requests) todo.push(`run one version (--api v2 needs up to ${formatMoney(oneVersion.worst, priced.currency)})`);
  todo.push(plan.smaller === undefined ? 'run a smaller plan' : `run a smaller plan (${plan.smaller})`);
  return (
    `${plan.what}: the wallet cannot cover this run: it needs up to ${formatMoney(priced.worst, priced.currency)} for ${priced.requests} charging requests ` +
    `(priced from the target's catalog at the amounts they send), the wallet holds ${formatMoney(funds.available, priced.currency)} (${funds.said}); ` +
    `${todo.join(', ')}; stopped before the first charge`
  );
}

/** Throws GH_ERR_FUNDS (exit 2) when the wallet cannot cover the plan: before anything charging is sent. */
export function assertFundsCover(plan: FundsPlan, priced: PricedPlan, funds: FundsReading, oneVersion?: PricedPlan): void {
  const problem = fundsProblem(plan, priced, funds, oneVersion);
  if (problem !== undefined) throw new HarnessError('GH_ERR_FUNDS', problem, { exitCode: EXIT.usage });
}

/** The plan's lines of one version (what `--api v2` would send). */
export function versionPlan(plan: FundsPlan, version: 'v1' | 'v2'): FundsPlan {
  const lines = plan.lines.map((l) => ({ ...l, operations: l.operations.filter((op) => op.version === version) })).filter((l) => l.operations.length > 0);
  return { ...plan, lines };
}

/** The line said when the plan was priced and the run goes ahead. */
export function fundsLine(plan: FundsPlan, priced: PricedPlan, funds: FundsReading): string {
  const gaps = [...priced.unpriced.map((u) => `not priced (no price in the catalog): ${u}`), ...plan.unbounded.map((u) => `not bounded: ${u}`)];
  const against = funds.available === undefined ? funds.said : `covered by the wallet (${funds.said})`;
  return `money: ${plan.what} needs up to ${formatMoney(priced.worst, priced.currency)} for ${priced.requests} charging requests: ${against}${gaps.length === 0 ? '' : `; ${gaps.join('; ')}`}`;
}
