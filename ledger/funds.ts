// A run's plan priced against the wallet before the first charge: a wallet that cannot cover it stops the command with
// the amount needed and what to do, never a run of 'Insufficient funds'. Runtime-neutral: the reads are injected.
import { CHEAP_AMOUNT_SPAN, faceAmount, validAmount, type CatalogSku } from '../api/catalog-facts.ts';
import { EXIT, HarnessError } from '../api/errors.ts';
import { DEFAULT_FIELD_MAPPING } from '../api/field-mapping.ts';
import { buildInputs, CHARGING_PICKS, inputSkuOf, isNoInput, type InputWorld } from '../api/inputs.ts';
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
    return {
      said: `balance ${balance} read as the amount owed (walletTerms credit): the credit limit is not shown, so the plan is not priced against it`,
    };
  }
  if (terms === 'prepaid' || balance < 0) {
    const available = Math.max(0, -balance);
    return {
      available,
      said: `balance ${balance} read as available funds ${available} (prepaid terms: "returned with a negative sign"${terms === 'prepaid' ? ', walletTerms prepaid' : ''})`,
    };
  }
  return {
    said:
      `balance ${balance} is not negative: under the spec's sign rule that is an empty prepaid wallet or a credit account's amount owed, ` +
      'so the plan is not priced against it (set walletTerms "prepaid" or "credit" in the config, or GATEWAY_WALLET_TERMS, to say which)',
  };
}

/**
 * What a line's requests send. 'smallest' / 'highest': a SKU the one builder picks (api/inputs.ts, its first
 * CHARGING_PICKS candidates, among which a load picks at random) at its smallest valid amount / its highest price (a
 * case that sends a loan); 'first': the one request a conformance case builds (the builder's first candidate, as
 * conformance/bodies.ts takes it), bounded over which countries the target gives numbers for (the first candidate of
 * each country alone: the case takes the first whose country has one); 'near-smallest': any SKU of the category, up to CHEAP_AMOUNT_SPAN above its smallest amount
 * (GEN's top-ups); 'face': any SKU of the category at its amount in its face value currency
 * (api/catalog-facts.ts faceAmount); 'body': a request whose body is known before the run (migrate's planned charges),
 * priced as the guard reserves it; 'picks': the bodies a case may send, given the SKUs of its operation's category (the
 * case's own pick, one per way the target may leave it; the most expensive counts).
 */
export type PlannedAmount =
  | 'smallest'
  | 'first'
  | 'highest'
  | 'near-smallest'
  | 'face'
  | { readonly body: unknown }
  | {
      readonly picks: (skus: readonly CatalogSku[], numbered: boolean) => ReadonlyArray<Readonly<Record<string, unknown>>>;
    };

/**
 * At most `count` charging requests, each one of `operations` (the most expensive counts): one priced item of a plan.
 * A new kind of charging work joins the plan as one more line (with `elastic` when it can run smaller).
 */
export interface FundsLine {
  readonly operations: readonly Operation[];
  readonly count: number;
  readonly amount: PlannedAmount;
  /** Who sends them, in words ("POLL-MIXED-V1", "load mixed (smoke)"). */
  readonly what: string;
  /** The line's count follows an elastic part of the plan (`count` is its count at the part's full value). */
  readonly elastic?: { readonly part: string; readonly count: (value: number) => number };
  /** Its requests take only SKUs of countries the plan's `numbered` names (conformance: numbers from its number plans). */
  readonly numbered?: boolean;
}

/**
 * A part of the plan that may run smaller when the wallet cannot cover the whole plan (GEN's runs per charging
 * property, the POLL top-ups): its lines' counts follow its value, from `full` down to `min`.
 */
export interface ElasticPart {
  readonly part: string;
  readonly full: number;
  readonly min: number;
  /** The unit of its value, in words ("runs per charging property"). */
  readonly unit: string;
  /**
   * Cut with the others, then raised again as far as what the others leave allows (the gate's smoke load: it takes the
   * money left after conformance). Its `min` may be 0: the part then does not run, and the command says why.
   */
  readonly fill?: boolean;
}

export interface FundsPlan {
  /** The command in the user's words: "gate", "load mixed (smoke)". */
  readonly what: string;
  readonly lines: readonly FundsLine[];
  /** Parts whose charges have no bound (said, not priced). */
  readonly unbounded: readonly string[];
  /** How to run a smaller plan, in words ("a smaller GEN budget (--gen-budget 5)"). */
  readonly smaller?: string;
  /** The parts that may run smaller to fit the wallet (fitPlan); none: the plan runs whole or not at all. */
  readonly elastic?: readonly ElasticPart[];
  /**
   * The countries the run has numbers for, once known (conformance's discovered number plans): a `numbered` line is
   * priced over their SKUs only (and SKUs of no country), as its requests can take no other. Unknown: every SKU.
   */
  readonly numbered?: (countryCode: string) => boolean;
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
  return {
    skus: () => views,
    mobile: () => '10000000',
    setting: (name) => (name === 'zipCode' ? 10001 : 'plan'),
    correlationId: () => 'plan',
    mapping: DEFAULT_FIELD_MAPPING,
  };
}

/** The builder's first request of the operation when only `country` has numbers (every country: undefined). */
function firstBody(operation: Operation, skus: readonly CatalogSku[], country?: string): unknown {
  const world = planWorld(skus);
  const only = country === undefined ? world : { ...world, mobile: (code: string) => (code === country ? world.mobile(code) : undefined) };
  const built = buildInputs(operation, only);
  return isNoInput(built) ? undefined : built[0]?.input.body;
}

/**
 * 'first': the request a case builds takes the builder's first candidate whose country has a number. With the
 * countries known (`numbered`: the SKUs given are theirs), that one; else, whatever countries the target gives numbers
 * for, it is one of the first candidates of each country alone: each is priced.
 */
function firstBodies(operation: Operation, skus: readonly CatalogSku[], numbered: boolean): unknown[] {
  if (numbered) return [firstBody(operation, skus)].filter((b) => b !== undefined);
  const countries = [...new Set(skus.flatMap((s) => (s.countryCode === undefined ? [] : [s.countryCode.toUpperCase()])))];
  return [firstBody(operation, skus), ...countries.map((code) => firstBody(operation, skus, code))].filter((b) => b !== undefined);
}

/** The bodies a line's requests may send, priced as the guard reserves them (no amount: the SKU's highest price). */
function plannedBodies(operation: Operation, amount: PlannedAmount, skus: readonly CatalogSku[], numbered: boolean): unknown[] {
  const near = (sku: CatalogSku): unknown => {
    const valid = validAmount(sku);
    return { skuId: sku.skuId, ...(valid === undefined ? {} : { ...valid, amount: valid.amount + CHEAP_AMOUNT_SPAN }) };
  };
  if (amount === 'near-smallest') return skus.map(near);
  if (amount === 'first') return firstBodies(operation, skus, numbered);
  if (amount === 'face') return skus.flatMap((sku) => (faceAmount(sku) === undefined ? [] : [{ skuId: sku.skuId, ...faceAmount(sku) }]));
  if (typeof amount === 'object') {
    if ('body' in amount) return [amount.body];
    return [...amount.picks(skus, numbered)];
  }
  const built = buildInputs(operation, planWorld(skus), { max: CHARGING_PICKS });
  if (isNoInput(built)) return [];
  const picked = built.flatMap((b) => skus.filter((s) => s.skuId === b.sku?.skuId).slice(0, 1));
  return picked.map((sku) => (amount === 'highest' ? { skuId: sku.skuId } : { skuId: sku.skuId, ...(validAmount(sku) ?? {}) }));
}

/** The most one request of the line can cost in the wallet currency, or undefined when none of its SKUs has a price. */
export function unitPrice(
  operation: Operation,
  amount: PlannedAmount,
  skus: readonly CatalogSku[],
  prices: PriceBook,
  currency: string,
  numbered = false,
): number | undefined {
  let most: number | undefined;
  for (const body of plannedBodies(operation, amount, skus, numbered)) {
    const estimate = estimateCharge(operation, body, prices, currency);
    if (estimate.bounded) most = Math.max(most ?? 0, toCents(estimate.wallet));
  }
  return most === undefined ? undefined : fromCents(most);
}

/** A line's most expensive request in cents (0 when unpriced), and the line said when some of its operations have no price. */
interface LineUnit {
  readonly line: FundsLine;
  readonly cents: number;
  readonly unpriced?: string;
}

function lineUnits(plan: FundsPlan, skusOf: SkusOf, prices: PriceBook, currency: string): LineUnit[] {
  const numbered = plan.numbered;
  return plan.lines.map((line) => {
    const only = line.numbered === true ? numbered : undefined;
    const skusFor = (op: Operation): readonly CatalogSku[] =>
      only === undefined ? skusOf(op) : skusOf(op).filter((s) => s.countryCode === undefined || only(s.countryCode));
    const units = line.operations.map((op) => unitPrice(op, line.amount, skusFor(op), prices, currency, only !== undefined));
    const known = units.filter((u): u is number => u !== undefined);
    const missing = line.operations.filter((_, i) => units[i] === undefined).map((op) => op.id);
    return {
      line,
      cents: toCents(Math.max(0, ...known)),
      ...(missing.length === 0 ? {} : { unpriced: `${line.what}: ${missing.join(', ')}` }),
    };
  });
}

/** A line's count with its elastic part at `values` (its full count when the part is not named). */
function countAt(line: FundsLine, values: ReadonlyMap<string, number>): number {
  const value = line.elastic === undefined ? undefined : values.get(line.elastic.part);
  return value === undefined || line.elastic === undefined ? line.count : line.elastic.count(value);
}

function priceUnits(units: readonly LineUnit[], currency: string, values: ReadonlyMap<string, number>): PricedPlan {
  let cents = 0;
  let requests = 0;
  for (const unit of units) {
    const count = countAt(unit.line, values);
    requests += count;
    cents += unit.cents * count;
  }
  return { worst: fromCents(cents), currency, requests, unpriced: units.flatMap((u) => (u.unpriced === undefined ? [] : [u.unpriced])) };
}

/** The one pricing of a plan: each line's count times its most expensive request, as the guard reserves it. */
export function pricePlan(plan: FundsPlan, skusOf: SkusOf, prices: PriceBook, currency: string): PricedPlan {
  return priceUnits(lineUnits(plan, skusOf, prices, currency), currency, new Map());
}

/** The plan with each elastic part at its value in `values` (its lines' counts follow; lines at 0 drop out). */
export function planAt(plan: FundsPlan, values: ReadonlyMap<string, number>): FundsPlan {
  return { ...plan, lines: plan.lines.map((l) => ({ ...l, count: countAt(l, values) })).filter((l) => l.count > 0) };
}

/** Share of the wallet a shrunk plan leaves unspent: its price is a bound of picks and rounding, kept off the edge. */
export const FUNDS_MARGIN = 0.1;

export interface FittedPlan {
  /** The plan the run executes: every elastic part at its fitted value. */
  readonly plan: FundsPlan;
  readonly priced: PricedPlan;
  /** The value each elastic part runs with (its full value when nothing was cut). */
  readonly values: ReadonlyMap<string, number>;
  /** What was cut and why, in words ("wallet 1000.00 USD: GEN charging budget 30 → 6 runs per charging property"); empty: nothing. */
  readonly cuts: readonly string[];
}

const valuesAt = (parts: readonly ElasticPart[], t: number): Map<string, number> =>
  new Map(parts.map((p) => [p.part, p.min + Math.floor(t * Math.max(0, p.full - p.min))]));

/**
 * Fits the plan to the wallet: the whole plan when the funds cover it (or are not known); else every elastic part cut
 * by the same share, as little as keeps the price within the funds less FUNDS_MARGIN; else (even every part at its
 * minimum does not fit) GH_ERR_FUNDS with the amount needed and what to do. Reads nothing: the prices are given.
 */
export function fitPlan(plan: FundsPlan, skusOf: SkusOf, prices: PriceBook, currency: string, funds: FundsReading): FittedPlan {
  const units = lineUnits(plan, skusOf, prices, currency);
  const parts = plan.elastic ?? [];
  const full = valuesAt(parts, 1);
  const whole = priceUnits(units, currency, full);
  if (funds.available === undefined || toCents(whole.worst) <= toCents(funds.available))
    return { plan: planAt(plan, full), priced: whole, values: full, cuts: [] };
  const room = toCents(funds.available * (1 - FUNDS_MARGIN));
  const fits = (t: number): boolean => toCents(priceUnits(units, currency, valuesAt(parts, t)).worst) <= room;
  const least = valuesAt(parts, 0);
  if (parts.length === 0 || !fits(0)) {
    // Even the smallest plan (every elastic part at its minimum) is over the margin: it runs if the funds cover it.
    const minimal = planAt(plan, least);
    const priced = priceUnits(units, currency, least);
    const said =
      parts.length === 0
        ? plan
        : { ...minimal, what: `${plan.what} (even at its smallest: ${parts.map((p) => `${p.part} ${p.min} ${p.unit}`).join(', ')})` };
    assertFundsCover(said, priced, funds, pricePlan(versionPlan(minimal, 'v2'), skusOf, prices, currency));
    return { plan: minimal, priced, values: least, cuts: cutWords(parts, least, whole, funds) };
  }
  let low = 0;
  let high = 1;
  for (let i = 0; i < 20; i++) {
    const mid = (low + high) / 2;
    if (fits(mid)) low = mid;
    else high = mid;
  }
  const values = filled(parts, valuesAt(parts, low), (v) => toCents(priceUnits(units, currency, v).worst) <= room);
  return { plan: planAt(plan, values), priced: priceUnits(units, currency, values), values, cuts: cutWords(parts, values, whole, funds) };
}

/** The `fill` parts raised, one after another, to the largest value that still `fits` (the others as cut). */
function filled(parts: readonly ElasticPart[], cut: ReadonlyMap<string, number>, fits: (values: ReadonlyMap<string, number>) => boolean) {
  const values = new Map(cut);
  for (const part of parts.filter((p) => p.fill === true)) {
    let low = values.get(part.part) ?? part.min;
    let high = part.full;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (fits(new Map(values).set(part.part, mid))) low = mid;
      else high = mid - 1;
    }
    values.set(part.part, low);
  }
  return values;
}

function cutWords(parts: readonly ElasticPart[], values: ReadonlyMap<string, number>, whole: PricedPlan, funds: FundsReading): string[] {
  const why = `wallet ${formatMoney(funds.available ?? 0, whole.currency)} < ${formatMoney(whole.worst, whole.currency)} for the full plan`;
  return parts
    .filter((p) => (values.get(p.part) ?? p.full) < p.full)
    .map((p) => `${why}: ${p.part} ${p.full} → ${values.get(p.part) ?? p.full} ${p.unit}`);
}

/** Why the funds cannot cover the plan, with what to do; undefined when they can or are not known. */
export function fundsProblem(plan: FundsPlan, priced: PricedPlan, funds: FundsReading, oneVersion?: PricedPlan): string | undefined {
  if (funds.available === undefined || toCents(priced.worst) <= toCents(funds.available)) return undefined;
  const short = fromCents(toCents(priced.worst) - toCents(funds.available));
  const todo = [`top up the wallet by ${formatMoney(short, priced.currency)}`];
  if (oneVersion !== undefined && oneVersion.requests < priced.requests)
    todo.push(`run one version (--api v2 needs up to ${formatMoney(oneVersion.worst, priced.currency)})`);
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
  const lines = plan.lines
    .map((l) => ({ ...l, operations: l.operations.filter((op) => op.version === version) }))
    .filter((l) => l.operations.length > 0);
  return { ...plan, lines };
}

/** A plan of counted charging requests (baseline's --dry-run plan; migrate's planned bodies) as lines to price. */
export function fundsPlanOf(
  what: string,
  items: ReadonlyArray<{ readonly operation: Operation; readonly count?: number; readonly body?: unknown }>,
): FundsPlan {
  const counted = items.filter((i): i is typeof i & { count: number } => i.count !== undefined && i.count > 0);
  return {
    what,
    lines: counted.map((i) => ({
      operations: [i.operation],
      count: i.count,
      amount: i.body === undefined ? 'smallest' : { body: i.body },
      what: i.operation.id,
    })),
    unbounded: items.filter((i) => i.count === undefined).map((i) => `${i.operation.id}: bounded by time only`),
  };
}

/** The line said when the plan was priced and the run goes ahead (with what was cut to fit the wallet, when anything was). */
export function fundsLine(plan: FundsPlan, priced: PricedPlan, funds: FundsReading, cuts: readonly string[] = []): string {
  const gaps = [
    ...cuts.map((c) => `cut to fit: ${c}`),
    ...priced.unpriced.map((u) => `not priced (no price in the catalog): ${u}`),
    ...plan.unbounded.map((u) => `not bounded: ${u}`),
  ];
  const against = funds.available === undefined ? funds.said : `covered by the wallet (${funds.said})`;
  return `money: ${plan.what} needs up to ${formatMoney(priced.worst, priced.currency)} for ${priced.requests} charging requests: ${against}${gaps.length === 0 ? '' : `; ${gaps.join('; ')}`}`;
}
