// Input spaces of the GEN properties, derived from schemas/<body>-request.schema.json (lengths, required fields, types,
// int32 bounds) and the target's catalog (SKUs of each category, their amount bounds and currencies, number plans).
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { CHEAP_AMOUNT_SPAN, isFaceRange, isRange, validAmount, type ValidAmount } from '../../api/catalog-facts.ts';
import type { ApiVersion, RequestBodyName } from '../../api/operations.ts';
import { skusFor } from '../bodies.ts';
import type { Fixtures, SkuFixture } from '../../target/fixtures.ts';
import { bodyFacts, formatRow, type BodyFacts } from '../request-rules.ts';
import { ID_CLASSES, IdsExhausted, type IdClass } from '../correlation-ids.ts';
import { freshCorrelationId } from '../fresh-id.ts';
import type { CaseContext } from '../types.ts';

// ---------------------------------------------------------------------------------------------------------------
// correlationIds of every valid length and character class

/** The shape of a correlationId (what fast-check generates and shrinks); the id itself is made unique when sent. */
export interface IdShape {
  readonly length: number;
  readonly chars: IdClass;
}

export const idShape = (minLength: number, maxLength: number): fc.Arbitrary<IdShape> =>
  fc.record({ length: fc.integer({ min: minLength, max: maxLength }), chars: fc.constantFrom(...ID_CLASSES) });

/**
 * A correlationId of the shape that this run has not sent before and the target does not know as a success, from the
 * run's one id maker (the spec: "Unique id from the client system"; shrinking sends the same shape many times). When
 * no such id is left (10 one-digit ids), the input is skipped (fast-check's precondition).
 */
export async function uniqueId(
  shape: IdShape,
  probe: Pick<CaseContext, 'correlationId' | 'call'>,
  version: ApiVersion = 'v2',
): Promise<string> {
  try {
    return await freshCorrelationId(probe, version, shape.length, shape.chars);
  } catch (err) {
    if (err instanceof IdsExhausted) fc.pre(false);
    throw err;
  }
}

export const showId = (shape: IdShape): string => `correlationId of ${shape.length} ${shape.chars} character(s)`;

// ---------------------------------------------------------------------------------------------------------------
// Amounts within (and outside) a SKU's bounds, to the cent

const cents = (n: number): number => Math.round(n * 100);

/** Bounds of the amount a body sends for this SKU, and the currency it is in (absent: the wallet currency). */
export interface AmountBounds {
  readonly min: number;
  readonly max: number;
  readonly transactionCurrencyCode?: string;
}

/** Wallet range first (no currency sent), then a face value range, then the fixed face value (api/catalog-facts.ts validAmount's order). */
export function amountBounds(sku: SkuFixture): AmountBounds | undefined {
  if (isRange(sku)) return { min: sku.minWalletAmount as number, max: sku.maxWalletAmount as number };
  const valid = validAmount(sku);
  if (valid === undefined) return undefined;
  if (valid.transactionCurrencyCode !== undefined && isFaceRange(sku)) {
    return { min: sku.minFaceValue as number, max: sku.maxFaceValue as number, transactionCurrencyCode: valid.transactionCurrencyCode };
  }
  return {
    min: valid.amount,
    max: valid.amount,
    ...(valid.transactionCurrencyCode === undefined ? {} : { transactionCurrencyCode: valid.transactionCurrencyCode }),
  };
}

/**
 * Every currency the SKU's amount may be sent in, with its bounds: the wallet currency (no transactionCurrencyCode) and
 * each code of its FaceValueCurrency (spec: "allowed values are those in the FaceValueCurrency field of the SKU catalog").
 */
export function amountChoices(sku: SkuFixture): AmountBounds[] {
  const out: AmountBounds[] = [];
  if (sku.minWalletAmount !== undefined) out.push({ min: sku.minWalletAmount, max: sku.maxWalletAmount ?? sku.minWalletAmount });
  if (sku.minFaceValue !== undefined) {
    for (const code of new Set([sku.faceValueCurrency, sku.maxFaceValueCurrency])) {
      if (code !== undefined) out.push({ min: sku.minFaceValue, max: sku.maxFaceValue ?? sku.minFaceValue, transactionCurrencyCode: code });
    }
  }
  return out.length > 0 ? out : [amountBounds(sku)].filter((b): b is AmountBounds => b !== undefined);
}

/** Any amount within the bounds, cents included. */
export function amountWithin(b: AmountBounds): fc.Arbitrary<ValidAmount> {
  const [lo, hi] = [cents(b.min), cents(b.max)];
  // Mostly the lower twentieth of the range (at least a unit above the minimum), so a run's generated writes stay within a
  // test wallet; the whole range a fifth of the time.
  const low = Math.min(hi, lo + Math.max(100, Math.round((hi - lo) / 20)));
  return fc
    .oneof({ weight: 4, arbitrary: fc.integer({ min: lo, max: low }) }, { weight: 1, arbitrary: fc.integer({ min: lo, max: hi }) })
    .map((c) => withCurrency(c / 100, b));
}

export function withCurrency(amount: number, b: AmountBounds): ValidAmount {
  return b.transactionCurrencyCode === undefined ? { amount } : { amount, transactionCurrencyCode: b.transactionCurrencyCode };
}

/** Below the minimum by any distance — a cent, a little, to zero and negative amounts; or above the maximum by any distance. */
export const amountOutside = (b: AmountBounds): fc.Arbitrary<{ amount: number; side: 'below' | 'above' }> =>
  fc.oneof(
    fc.integer({ min: 1, max: cents(b.min) + 100_000 }).map((d) => ({ amount: (cents(b.min) - d) / 100, side: 'below' as const })),
    fc.integer({ min: 1, max: cents(b.max) * 10 + 100_000 }).map((d) => ({ amount: (cents(b.max) + d) / 100, side: 'above' as const })),
  );

// ---------------------------------------------------------------------------------------------------------------
// Valid bodies from the schema and the catalog

/**
 * SKUs of the body's category whose amount bounds are readable and whose country has a number plan. Bundles that need
 * the bundles call first are left out: the spec's two-step purchase may ask for a loan on top of the face value (LOAN's).
 */
export function usableSkus(fx: Fixtures, facts: BodyFacts): SkuFixture[] {
  return skusFor(fx, facts).filter(
    (s) =>
      s.requireFetchBundle !== true &&
      amountBounds(s) !== undefined &&
      (s.countryCode === undefined || fx.plan(s.countryCode) !== undefined),
  );
}

/** A generated valid write: its SKU, an amount at the cheap end of its bounds, a correlationId shape. Mobile numbers come from the plan when sent. */
export interface ValidWrite {
  readonly sku: SkuFixture;
  readonly amount: ValidAmount;
  readonly id: IdShape;
}

/**
 * The cheap end of the bounds: from the minimum up to CHEAP_AMOUNT_SPAN above it, every cent in between (what GEN's
 * planted bugs turn on: cents, ids, order), so a generated run spends little and its plan is priced in advance
 * (conformance/money-plan.ts). The bounds themselves are AMOUNT's cases.
 */
export function cheapBounds(b: AmountBounds): AmountBounds {
  return { ...b, max: Math.min(b.max, b.min + CHEAP_AMOUNT_SPAN) };
}

/** SKUs of each kind a charging GEN case writes with: the cheapest (api/catalog-facts.ts cheapestSkus), priced in advance. */
export const GEN_MONEY_SKUS = 5;

export const showWrite = (w: ValidWrite): string =>
  `SKU ${w.sku.skuId} (${w.sku.countryCode ?? '?'}), amount ${w.amount.amount}${w.amount.transactionCurrencyCode === undefined ? '' : ` ${w.amount.transactionCurrencyCode}`}, ${showId(w.id)}`;

// ---------------------------------------------------------------------------------------------------------------
// What the schema says about each field (lengths and types beyond request-rules.ts's facts)

export interface FieldSchema {
  readonly type?: string | readonly string[];
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly pattern?: string;
  readonly items?: unknown;
  readonly description?: string;
}

export function fieldSchemas(name: RequestBodyName): Readonly<Record<string, FieldSchema>> {
  const url = new URL(`../../schemas/${name}-request.schema.json`, import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { properties?: Record<string, FieldSchema> }).properties ?? {};
}

// ---------------------------------------------------------------------------------------------------------------
// Invalid bodies: a valid body with exactly one stated rule broken

export type BreakKind = 'over-long' | 'empty' | 'null' | 'missing' | 'wrong-type' | 'int32-overflow' | 'pattern';

/** One broken rule: which field, how, and the spec row it breaks. */
export interface Break {
  readonly kind: BreakKind;
  readonly field: string;
  /** The broken value (absent for 'missing'); for an over-long correlationId its shape. */
  readonly value?: unknown;
  readonly label: string;
}

/** The valid body with the break applied; an over-long correlationId is made unique at its length. */
export async function applyBreak(
  body: Record<string, unknown>,
  broken: Break,
  probe: Pick<CaseContext, 'correlationId' | 'call'>,
  version: ApiVersion = 'v2',
): Promise<Record<string, unknown>> {
  const out = { ...body };
  if (broken.kind === 'missing') delete out[broken.field];
  else if (broken.kind === 'over-long' && broken.field === 'correlationId')
    out.correlationId = await uniqueId(broken.value as IdShape, probe, version);
  else out[broken.field] = broken.value;
  return out;
}

/** The spec rows a set of breaks can break, quoted as the table prints them. */
export function quotedRows(name: RequestBodyName, fields?: readonly string[]): string {
  const facts = bodyFacts(name);
  return Object.values(facts.rows)
    .filter((row) => fields === undefined || fields.includes(row.field))
    .map(formatRow)
    .join('; ');
}
