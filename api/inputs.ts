// The one builder of valid requests: reads an operation's input rule (its catalog entry's `inputs`) against what the
// target's catalog offers. Conformance, drift, migrate and load all build their inputs here; none keeps a table of its own.
import { SANDBOX_LOOKUP_COUNTRIES, isFaceRange, isRange, validAmount, type CatalogSku, type ValidAmount } from './catalog-facts.ts';
import { readTransaction, type FieldMapping } from './field-mapping.ts';
import type { InputCategory, InputLink, InputRule, InputSetting, InputSource, ResultField } from './input-rules.ts';
import { OPERATIONS, type ApiVersion, type Operation } from './operations.ts';
import type { RequestInput } from './request-builder.ts';

export type { InputCategory, InputLink, InputRule, InputSetting, InputSource, ResultField } from './input-rules.ts';

/** A SKU as the builder needs it; each runtime adapts its own view of the catalog to this. */
export interface InputSku {
  readonly skuId: number;
  readonly productId?: number;
  readonly countryCode?: string;
  readonly categoryId?: number;
  /** The smallest amount the SKU's bounds accept (api/catalog-facts.ts validAmount). */
  readonly amount?: ValidAmount;
  /** Open range of amounts: never a bundle, so never subject to a loan. */
  readonly range?: boolean;
  readonly requireFetchBundle?: boolean;
  /** Its smallest wallet price (faceValueInWalletCurrency of the minimum): a charging write picks the cheaper first. */
  readonly price?: number;
}

/**
 * A charging write picks among this many candidates at random (a load run), the cheapest of their kind first: what a
 * run may spend is then known before it starts (ledger/funds.ts prices the same first candidates).
 */
export const CHARGING_PICKS = 3;

/** A SKU of the target's catalog (api/catalog-facts.ts) as the builder sees it. */
export function inputSkuOf(sku: CatalogSku): InputSku {
  const amount = validAmount(sku);
  return {
    skuId: sku.skuId,
    range: isRange(sku) || isFaceRange(sku),
    ...(sku.productId === undefined ? {} : { productId: sku.productId }),
    ...(sku.countryCode === undefined ? {} : { countryCode: sku.countryCode }),
    ...(sku.categoryId === undefined ? {} : { categoryId: sku.categoryId }),
    ...(amount === undefined ? {} : { amount }),
    ...(sku.requireFetchBundle === undefined ? {} : { requireFetchBundle: sku.requireFetchBundle }),
    ...(sku.minWalletAmount === undefined ? {} : { price: sku.minWalletAmount }),
  };
}

/** What the target's catalog and the run's settings offer the builder. */
export interface InputWorld {
  /** SKUs of a category (gift cards from the gift card list), or every SKU of the catalog ('any'). */
  skus(category: InputCategory | 'any'): readonly InputSku[];
  /** A fresh valid number of the country; undefined when the target gives no plan for it. */
  mobile(countryCode: string): string | undefined;
  setting(name: InputSetting): string | number;
  correlationId(): string;
  readonly mapping: FieldMapping;
}

/** A finished write of this run that later reads may take values from. */
export interface EarlierTransaction {
  readonly version: ApiVersion;
  readonly purpose: string;
  readonly correlationId: string;
  /** The final result payload. */
  readonly result: unknown;
}

export interface BuiltInput {
  readonly input: RequestInput;
  /** The SKU the input was built around, when the rule names one. */
  readonly sku?: InputSku;
}

/** Why no input could be built: said in reports, never counted as a call. */
export interface NoInput {
  readonly unavailable: string;
}

export const isNoInput = (value: unknown): value is NoInput =>
  value !== null && typeof value === 'object' && 'unavailable' in (value as Record<string, unknown>);

export interface BuildOptions {
  /** How many different inputs (one per candidate SKU or country) at most; default 1. */
  readonly max?: number;
  /** Candidate SKUs instead of the rule's category (conformance's CATEGORY cases: a SKU of another category). */
  readonly skus?: readonly InputSku[];
  /** The run's earlier transactions, for the reads that link to one. */
  readonly transactions?: readonly EarlierTransaction[];
  /** A load run's randomness: a random candidate of the best kind, and each filter half the time. Default: stable order, no filters. */
  readonly random?: () => number;
  /** With `random`: add the rule's optional filters (default true); off where two calls must get the same input. */
  readonly filters?: boolean;
}

/** The operation's input rule; throws naming the operation when its catalog entry has none. */
export function inputRuleOf(op: Operation): InputRule {
  if (op.inputs === undefined) throw new Error(`${op.id} has no input rule (api/operations.ts: its catalog entry's \`inputs\`)`);
  return op.inputs;
}

const isLink = (source: InputSource): source is InputLink => typeof source === 'object' && 'from' in source;

/** The links of a rule: the parameters a read takes from an earlier transaction. */
export function linksOf(op: Operation): Array<{ readonly param: string; readonly link: InputLink }> {
  const params = op.inputs?.params ?? {};
  return Object.entries(params).flatMap(([param, source]) => (isLink(source) ? [{ param, link: source }] : []));
}

/** True when a valid request needs a value from an earlier transaction. */
export function needsTransaction(op: Operation): boolean {
  return linksOf(op).length > 0;
}

/** The writes (same version) whose results a linked read can take its value from; '*' is every charging write. */
export function sourceWrites(op: Operation): Operation[] {
  const purposes = new Set(linksOf(op).map(({ link }) => link.from));
  return OPERATIONS.filter(
    (w) => w.version === op.version && w.method === 'POST' && (purposes.has(w.purpose) || (purposes.has('*') && w.charges)),
  );
}

/** The write a linked read is best prepared with: the first source write in catalog order. */
export function prerequisiteWrite(op: Operation): Operation | undefined {
  return sourceWrites(op)[0];
}

/** The reads (same version) that link to this write: what follows it in a flow. '*' links follow the first charging write only. */
export function followUps(write: Operation): Operation[] {
  return OPERATIONS.filter((read) => read.version === write.version && read.method === 'GET' && prerequisiteWrite(read)?.id === write.id);
}

/** The words for what a link needs, e.g. "the transactionId of an earlier transaction.giftcard". */
export function describeLink(link: InputLink): string {
  const what = link.from === '*' ? 'an earlier charging transaction' : `an earlier ${link.from}`;
  return `the ${link.field} of ${what}`;
}

/** A link's value from one earlier transaction, read through the field mapping. */
function linkValue(link: InputLink, txn: EarlierTransaction, mapping: FieldMapping): string | number | undefined {
  if (link.field === 'correlationId') return txn.correlationId;
  const view = readTransaction(txn.result, mapping.transaction);
  const value = view[link.field as ResultField];
  return value === undefined ? undefined : value;
}

function linked(op: Operation, rule: InputRule, world: InputWorld, options: BuildOptions): BuiltInput[] | NoInput {
  const max = options.max ?? 1;
  const writes = new Set(sourceWrites(op).map((w) => w.purpose));
  const txns = (options.transactions ?? []).filter((t) => t.version === op.version && writes.has(t.purpose));
  const out: BuiltInput[] = [];
  for (const txn of txns) {
    const values: Record<string, string | number> = {};
    let complete = true;
    for (const [param, source] of Object.entries(rule.params ?? {})) {
      const value = isLink(source) ? linkValue(source, txn, world.mapping) : fill(source, undefined, world, undefined);
      if (value === undefined) complete = false;
      else values[param] = value;
    }
    if (complete) out.push({ input: place(op, values, undefined) });
    if (out.length >= max) break;
  }
  if (out.length > 0) return out;
  const needs = linksOf(op)
    .map(({ link }) => describeLink(link))
    .join(' and ');
  return { unavailable: `needs ${needs}, and no successful ${[...writes].join('/')} in this run gave one` };
}

/** One source's value for a candidate, or undefined when the candidate cannot give it. */
function fill(source: InputSource, sku: InputSku | undefined, world: InputWorld, country: string | undefined): string | number | undefined {
  if (typeof source === 'object') return 'value' in source ? source.value : undefined;
  switch (source) {
    case 'sku.skuId':
      return sku?.skuId;
    case 'sku.productId':
      return sku?.productId;
    case 'sku.countryCode':
      return sku?.countryCode;
    case 'sku.amount':
      return sku?.amount?.amount;
    case 'sku.currency':
      return sku?.amount?.transactionCurrencyCode;
    case 'mobile':
      return country === undefined ? undefined : world.mobile(country);
    case 'new.correlationId':
      return world.correlationId();
    default:
      return world.setting(source.slice('settings.'.length) as InputSetting);
  }
}

/** Sources that may be absent without spoiling the input (the currency of a wallet-currency amount). */
const MAY_BE_ABSENT: ReadonlySet<InputSource> = new Set<InputSource>(['sku.currency']);

/** Puts parameter values where the catalog says each goes (path, query, header). */
function place(op: Operation, params: Record<string, string | number>, body: Record<string, unknown> | undefined): RequestInput {
  const path: Record<string, string | number> = {};
  const query: Record<string, string | number> = {};
  let acceptLanguage: string | undefined;
  for (const [name, value] of Object.entries(params)) {
    const spec = op.params.find((p) => p.name === name);
    if (spec?.in === 'path') path[name] = value;
    else if (spec?.in === 'header' && name.toLowerCase() === 'accept-language') acceptLanguage = String(value);
    else query[name] = value;
  }
  return {
    ...(Object.keys(path).length > 0 ? { path } : {}),
    ...(Object.keys(query).length > 0 ? { query } : {}),
    ...(acceptLanguage === undefined ? {} : { acceptLanguage }),
    ...(body === undefined ? {} : { body }),
  };
}

const countryRank = (sku: InputSku): number => {
  const i = (SANDBOX_LOOKUP_COUNTRIES as readonly string[]).indexOf(sku.countryCode?.toUpperCase() ?? '');
  return i === -1 ? SANDBOX_LOOKUP_COUNTRIES.length : i;
};

/** The kind of a candidate: readable amount, then open range (a fixed SKU may be a bundle whose number owes a loan). */
const tier = (sku: InputSku): number => Number(sku.amount === undefined) * 2 + Number(sku.range !== true);

const priceOf = (sku: InputSku): number => sku.price ?? Number.POSITIVE_INFINITY;

/**
 * Candidates in a stable order: bundle products first when the rule prefers them, then by tier, numbers of the four
 * lookup countries (Jamaica first: the spec's own example), for a charging write the cheapest first (a test run spends
 * little), skuId; with several wanted, one per category before seconds.
 */
function ordered(skus: readonly InputSku[], preferBundles: boolean, spread: boolean, cheapFirst: boolean): InputSku[] {
  const sorted = [...skus].sort(
    (a, b) =>
      (preferBundles ? Number(b.requireFetchBundle === true) - Number(a.requireFetchBundle === true) : 0) ||
      tier(a) - tier(b) ||
      countryRank(a) - countryRank(b) ||
      (cheapFirst ? priceOf(a) - priceOf(b) : 0) ||
      a.skuId - b.skuId,
  );
  if (!spread) return sorted;
  const seen = new Map<number | undefined, number>();
  const rank = new Map(
    sorted.map((sku) => {
      const n = seen.get(sku.categoryId) ?? 0;
      seen.set(sku.categoryId, n + 1);
      return [sku, n] as const;
    }),
  );
  return sorted
    .map((sku, i) => ({ sku, i }))
    .sort((a, b) => (rank.get(a.sku) as number) - (rank.get(b.sku) as number) || a.i - b.i)
    .map((x) => x.sku);
}

/** A random rotation of the candidates of the best tier, followed by the rest in order (so a failing pick falls back). */
function shuffledStart<T>(items: readonly T[], best: number, random: () => number): T[] {
  if (best <= 1) return [...items];
  const start = Math.floor(random() * best) % best;
  const head = items.slice(0, best);
  return [...head.slice(start), ...head.slice(0, start), ...items.slice(best)];
}

const usesSku = (sources: readonly InputSource[]): boolean => sources.some((s) => typeof s === 'string' && s.startsWith('sku.'));

type Candidate = { sku?: InputSku; country?: string };
type Entries = ReadonlyArray<readonly [string, InputSource]>;

/**
 * What to build inputs around, best first: the rule's SKUs when a required value (or a chosen filter) comes from one,
 * else the lookup countries when a number is needed, else one candidate with neither.
 */
function candidatesOf(
  op: Operation,
  rule: InputRule,
  world: InputWorld,
  options: BuildOptions,
  required: InputSource[],
  filters: Entries,
): Candidate[] {
  const max = options.max ?? 1;
  const random = options.random;
  const choice = rule.sku;
  if (choice !== undefined && (usesSku(required) || (filters.length > 0 && usesSku(filters.map(([, s]) => s))))) {
    let skus = options.skus ?? world.skus(choice.category);
    if (choice.lookupCountry === true) skus = skus.filter((s) => countryRank(s) < SANDBOX_LOOKUP_COUNTRIES.length);
    const sorted = ordered(skus, choice.preferBundles === true, max > 1, op.charges);
    const tied = sorted.filter((s) => tier(s) === tier(sorted[0] as InputSku)).length;
    const best = op.charges ? Math.min(tied, CHARGING_PICKS) : tied;
    const picked = random === undefined ? sorted : shuffledStart(sorted, best, random);
    const candidates: Candidate[] = picked.map((sku) => ({
      sku,
      ...(sku.countryCode === undefined ? {} : { country: sku.countryCode.toUpperCase() }),
    }));
    // A filter-only SKU is optional: without one, the request goes without the filter.
    if (!usesSku(required)) candidates.push({});
    return candidates;
  }
  if (required.includes('mobile')) {
    const countries = [...SANDBOX_LOOKUP_COUNTRIES];
    return (random === undefined ? countries : shuffledStart(countries, countries.length, random)).map((country) => ({ country }));
  }
  return [{}];
}

/** One candidate's request; undefined when a required parameter or body field gets no value from it. */
function fillCandidate(
  op: Operation,
  rule: { readonly params: Entries; readonly filters: Entries; readonly body: Entries | undefined },
  world: InputWorld,
  { sku, country }: Candidate,
): BuiltInput | undefined {
  const values: Record<string, string | number> = {};
  let complete = true;
  for (const [name, source] of rule.params) {
    const value = fill(source, sku, world, country);
    if (value === undefined) complete = false;
    else values[name] = value;
  }
  for (const [name, source] of rule.filters) {
    const value = fill(source, sku, world, country);
    if (value !== undefined) values[name] = value;
  }
  let built: Record<string, unknown> | undefined;
  const body = rule.body;
  if (body !== undefined) {
    built = {};
    for (const [field, source] of body) {
      const value = fill(source, sku, world, country);
      if (value !== undefined) built[field] = value;
      else if (!MAY_BE_ABSENT.has(source)) complete = false;
    }
    // An amount in the SKU's face value currency is only valid with that currency beside it.
    if (
      sku?.amount?.transactionCurrencyCode !== undefined &&
      body.some(([, s]) => s === 'sku.amount') &&
      !body.some(([, s]) => s === 'sku.currency')
    )
      complete = false;
  }
  if (!complete) return undefined;
  return { input: place(op, values, built), ...(sku === undefined ? {} : { sku }) };
}

/**
 * Valid inputs of the operation from its input rule: one per candidate SKU (or lookup country, when the rule wants a
 * number and no SKU) whose every source can be filled, up to `max`. A read that links to an earlier transaction takes
 * its values from `transactions`. Never invents a value: without a candidate, says what the catalog lacks.
 */
export function buildInputs(op: Operation, world: InputWorld, options: BuildOptions = {}): BuiltInput[] | NoInput {
  const rule = inputRuleOf(op);
  if (needsTransaction(op)) return linked(op, rule, world, options);
  const max = options.max ?? 1;
  const random = options.random;
  const params = Object.entries(rule.params ?? {});
  const body = rule.body === undefined ? undefined : Object.entries(rule.body);
  const required = [...params.map(([, s]) => s), ...(body ?? []).map(([, s]) => s)];
  // Drawn before the candidates: a load run's randomness is consumed in the same order as always (same seed, same inputs).
  const filters = random === undefined || options.filters === false ? [] : Object.entries(rule.filters ?? {}).filter(() => random() < 0.5);
  const out: BuiltInput[] = [];
  for (const candidate of candidatesOf(op, rule, world, options, required, filters)) {
    const built = fillCandidate(op, { params, filters, body }, world, candidate);
    if (built === undefined) continue;
    out.push(built);
    if (out.length >= max) break;
  }
  if (out.length > 0) return out;
  return { unavailable: missingWords(op, rule) };
}

function missingWords(op: Operation, rule: InputRule): string {
  const sources = [...Object.values(rule.params ?? {}), ...Object.values(rule.body ?? {})];
  const parts: string[] = [];
  if (rule.sku !== undefined && usesSku(sources)) {
    const what = rule.sku.category === 'any' ? 'SKU' : `${rule.sku.category} SKU`;
    parts.push(`${what}${rule.sku.lookupCountry === true ? ` of a lookup country (${SANDBOX_LOOKUP_COUNTRIES.join(', ')})` : ''}`);
    if (sources.includes('sku.amount')) parts.push('with readable amount bounds');
    if (sources.includes('mobile')) parts.push("and a number plan of the SKU's country");
  } else if (sources.includes('mobile')) {
    parts.push(`number plan of a lookup country (${SANDBOX_LOOKUP_COUNTRIES.join(', ')})`);
  }
  return parts.length === 0
    ? `no valid input could be built for ${op.id}`
    : `the target's catalog offers no ${parts.join(' ')} for ${op.id}`;
}

/** The first valid input, or what the catalog lacks. */
export function buildInput(op: Operation, world: InputWorld, options: Omit<BuildOptions, 'max'> = {}): BuiltInput | NoInput {
  const built = buildInputs(op, world, { ...options, max: 1 });
  return isNoInput(built) ? built : (built[0] as BuiltInput);
}

/**
 * What is wrong with the catalog's input rules, one line per problem naming the operation: an operation without a rule,
 * a required parameter without a source, a source naming a parameter the operation does not have, a link to a purpose
 * with no write, a write without a body rule. Empty when every operation can be built (api/operations.test.ts).
 */
export function inputRuleProblems(operations: readonly Operation[] = OPERATIONS): string[] {
  const problems: string[] = [];
  for (const op of operations) {
    const rule = op.inputs;
    if (rule === undefined) {
      problems.push(`${op.id}: no input rule (add \`inputs\` to its catalog entry in api/operations.ts)`);
      continue;
    }
    for (const param of op.params.filter((p) => p.required)) {
      if (rule.params?.[param.name] === undefined) problems.push(`${op.id}: required parameter '${param.name}' has no source`);
    }
    for (const name of [...Object.keys(rule.params ?? {}), ...Object.keys(rule.filters ?? {})]) {
      if (!op.params.some((p) => p.name === name))
        problems.push(`${op.id}: the rule names '${name}', which is not a parameter of the operation`);
    }
    if (op.requestBody !== undefined && rule.body === undefined) problems.push(`${op.id}: a write without a body rule`);
    if (op.requestBody === undefined && rule.body !== undefined)
      problems.push(`${op.id}: a body rule on an operation without a request body`);
    const sources = [...Object.values(rule.params ?? {}), ...Object.values(rule.body ?? {}), ...Object.values(rule.filters ?? {})];
    if (usesSku(sources) && rule.sku === undefined) problems.push(`${op.id}: sources read a SKU but the rule chooses none (\`sku\`)`);
    for (const { param, link } of linksOf(op)) {
      if (sourceWrites(op).length === 0)
        problems.push(`${op.id}: '${param}' links to '${link.from}', which no ${op.version} write has as its purpose`);
    }
  }
  return problems;
}
