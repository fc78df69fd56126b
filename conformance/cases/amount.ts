// AMOUNT: a top-up's denomination bounds hold for any SKU, not only the trigger's: below the minimum and above the
// maximum → '001' with the spec's message naming that denomination's bounds, nothing charged; at either bound → accepted.
import type { ApiVersion } from '../../api/operations.ts';
import { describeResponse } from '../../api/describe.ts';
import { MESSAGE_001, responseCodeIs, successful } from '../checks.ts';
import { SANDBOX_LOOKUP_COUNTRIES, type CatalogSku } from '../../api/catalog-facts.ts';
import type { Fixtures, SkuFixture } from '../../target/fixtures.ts';
import type { CaseContext, ConformanceCase, Exchange } from '../types.ts';
import { ASSUMED, SECTION, V, VERSIONS, submitAndFinish } from './common.ts';
import { expectAllRefused } from './len.ts';
import { TRIGGER_SKU_ID } from './trg.ts';

const RULE =
  "Limits: Top-up amount bounds | per denomination, reported in the 001 message. Errors: 001 | Amount outside the allowed range of the denomination | Message has the shape 'The charge amount for Denomination <name> should be between <min> <currency> and <max> <currency>'. Top-up request: amount | number double | yes | In the customer wallet currency when transactionCurrencyCode is absent; otherwise in the currency named by transactionCurrencyCode";

export type Currency = 'WALLET' | 'FACE';
export type Boundary = 'BELOW-MIN' | 'AT-MIN' | 'AT-MAX' | 'ABOVE-MAX';
const BOUNDARIES: readonly Boundary[] = ['BELOW-MIN', 'AT-MIN', 'AT-MAX', 'ABOVE-MAX'];

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** A denomination's bounds in one currency; `currency` undefined = the wallet currency (no transactionCurrencyCode). */
export interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly currency?: string;
}

export function boundsOf(sku: SkuFixture, currency: Currency): Bounds | undefined {
  if (currency === 'WALLET') {
    if (sku.minWalletAmount === undefined || sku.maxWalletAmount === undefined || !(sku.maxWalletAmount > sku.minWalletAmount))
      return undefined;
    return { min: sku.minWalletAmount, max: sku.maxWalletAmount };
  }
  const code = sku.faceValueCurrency;
  if (code === undefined || sku.minFaceValue === undefined || sku.maxFaceValue === undefined || !(sku.maxFaceValue > sku.minFaceValue))
    return undefined;
  if (sku.maxFaceValueCurrency !== undefined && sku.maxFaceValueCurrency !== code) return undefined;
  return { min: sku.minFaceValue, max: sku.maxFaceValue, currency: code };
}

/**
 * Each side steps by its own bound's unit: a whole bound by 1 (some currencies take no decimals, and a gateway may refuse
 * cents for that reason rather than for the bound: #31 item 6), a bound with cents by a cent.
 */
export function amountAt(bounds: Bounds, boundary: Boundary): number | undefined {
  const unit = (bound: number): number => (Number.isInteger(bound) ? 1 : 0.01);
  switch (boundary) {
    case 'AT-MIN':
      return bounds.min;
    case 'AT-MAX':
      return bounds.max;
    case 'BELOW-MIN':
      return bounds.min - unit(bounds.min) > 0 ? round2(bounds.min - unit(bounds.min)) : undefined;
    case 'ABOVE-MAX':
      return round2(bounds.max + unit(bounds.max));
  }
}

/** A candidate of an AMOUNT case: an open-range RTR SKU (not the trigger's) with its bounds in the case's currency. */
export interface AmountTarget<T extends CatalogSku = CatalogSku> {
  readonly sku: T;
  readonly bounds: Bounds;
}

/** The candidates of the given countries (each country's RTR SKUs in rtrSkusOf order, countries in the order given). */
export function amountCandidates<T extends CatalogSku>(
  rtrSkus: (countryCode: string) => readonly T[],
  countries: readonly string[],
  currency: Currency,
): Array<AmountTarget<T>> {
  return countries.flatMap((code) =>
    rtrSkus(code).flatMap((sku) => {
      const bounds = boundsOf(sku, currency);
      return bounds !== undefined && sku.skuId !== TRIGGER_SKU_ID ? [{ sku, bounds }] : [];
    }),
  );
}

/**
 * The candidate a case takes. In the face value currency, a SKU whose face bounds differ from its wallet bounds comes
 * first: the currency then matters. A case that charges a bound takes the SKU whose bound is cheapest in the wallet
 * (AT-MAX: the smallest maximum; AT-MIN: the smallest minimum): a test run spends little. The refused ones take the first.
 */
export function amountPick<T extends CatalogSku>(
  found: ReadonlyArray<AmountTarget<T>>,
  currency: Currency,
  boundary: Boundary,
): AmountTarget<T> | undefined {
  const distinct = (t: AmountTarget<T>): boolean => t.bounds.min !== t.sku.minWalletAmount || t.bounds.max !== t.sku.maxWalletAmount;
  const pool = currency === 'FACE' && found.some(distinct) ? found.filter(distinct) : found;
  const walletAt = (t: AmountTarget<T>): number =>
    (boundary === 'AT-MAX' ? t.sku.maxWalletAmount : t.sku.minWalletAmount) ?? Number.POSITIVE_INFINITY;
  if (boundary !== 'AT-MAX' && boundary !== 'AT-MIN') return pool[0];
  return pool.reduce<AmountTarget<T> | undefined>((best, t) => (best === undefined || walletAt(t) < walletAt(best) ? t : best), undefined);
}

/** The body an AMOUNT case sends for a candidate (without number and correlationId), or undefined when it has none. */
export function amountBody(
  target: AmountTarget,
  boundary: Boundary,
): { skuId: number; amount: number; transactionCurrencyCode?: string } | undefined {
  const amount = amountAt(target.bounds, boundary);
  if (amount === undefined) return undefined;
  return {
    skuId: target.sku.skuId,
    amount,
    ...(target.bounds.currency === undefined ? {} : { transactionCurrencyCode: target.bounds.currency }),
  };
}

/** The case's candidate among the lookup countries with a number plan, and a number of its country. */
function target(
  ctx: CaseContext,
  fx: Fixtures,
  currency: Currency,
  boundary: Boundary,
): { sku: SkuFixture; bounds: Bounds; mobile: string } {
  const mobiles = new Map<string, string>();
  for (const code of SANDBOX_LOOKUP_COUNTRIES) {
    const mobile = fx.mobile(code);
    if (mobile !== undefined) mobiles.set(code, mobile);
  }
  const pick = amountPick(
    amountCandidates((code) => fx.rtrSkus(code), [...mobiles.keys()], currency),
    currency,
    boundary,
  );
  const mobile = pick?.sku.countryCode === undefined ? undefined : mobiles.get(pick.sku.countryCode);
  if (pick !== undefined && mobile !== undefined) return { ...pick, mobile };
  return ctx.skip(
    `the catalog has no open-range RTR denomination with readable ${currency === 'WALLET' ? 'wallet-currency' : 'face value'} bounds in ${SANDBOX_LOOKUP_COUNTRIES.join('/')}`,
  );
}

export interface MessageVerdict {
  readonly message: string;
  readonly expected: string;
  readonly received: string;
}

/**
 * The '001' message names the denomination's bounds: the shape, and <min>/<max> equal to the catalog's bounds in the
 * currency it names (the face value currency, else taken as the wallet currency). Undefined when it holds.
 */
export function judge001Message(message: unknown, sku: SkuFixture, sent: Bounds): MessageVerdict | undefined {
  const match = typeof message === 'string' ? MESSAGE_001.exec(message) : null;
  if (match === null) {
    return {
      message: "the '001' message does not have the documented shape",
      expected: "'The charge amount for Denomination <name> should be between <min> <currency> and <max> <currency>'",
      received: `responseMessage ${JSON.stringify(message)}`,
    };
  }
  const [min, max, currency] = [Number(match[2]), Number(match[4]), match[5] as string];
  const face = currency === sku.faceValueCurrency && sku.minFaceValue !== undefined && sku.maxFaceValue !== undefined;
  const catalog = face
    ? { min: sku.minFaceValue as number, max: sku.maxFaceValue as number }
    : { min: sku.minWalletAmount, max: sku.maxWalletAmount };
  const near = (a: number, b: number | undefined): boolean => b !== undefined && Math.abs(a - b) < 0.005;
  if (near(min, catalog.min) && near(max, catalog.max)) return undefined;
  return {
    message: "the '001' message does not name this denomination's bounds",
    expected: `between ${String(catalog.min)} and ${String(catalog.max)} ${face ? currency : `(wallet currency; amount sent ${sent.currency ?? 'without transactionCurrencyCode'})`}`,
    received: `between ${min} ${match[3] ?? ''} and ${max} ${currency}`,
  };
}

function amountCase(version: ApiVersion, currency: Currency, boundary: Boundary): ConformanceCase {
  const outside = boundary === 'BELOW-MIN' || boundary === 'ABOVE-MAX';
  const op = `${version}.transaction.topup`;
  const where = currency === 'WALLET' ? 'in the wallet currency (no transactionCurrencyCode)' : 'in the FaceValueCurrency';
  return {
    kind: 'scenario',
    id: `AMOUNT-${currency}-${boundary}-${V(version)}`,
    group: 'AMOUNT',
    title: outside
      ? `top-up ${where} ${boundary === 'BELOW-MIN' ? 'below the minimum' : 'above the maximum'} of an open-range denomination → '001' naming its bounds, nothing charged`
      : `top-up ${where} exactly ${boundary === 'AT-MIN' ? 'at the minimum' : 'at the maximum'} of an open-range denomination is accepted`,
    specSection: `${SECTION.limits}; ${SECTION.errors}; ${SECTION.requests} (Top-up request)`,
    rule: RULE,
    api: version,
    ...(outside ? { exclusive: true } : {}),
    assumed: [
      ASSUMED.skuFields,
      ...(currency === 'WALLET' ? ['the wallet-currency bounds are the SKU record’s faceValueInWalletCurrency (field mapping)'] : []),
    ],
    async scenario(ctx) {
      const { sku, bounds, mobile } = target(ctx, await ctx.fixtures(), currency, boundary);
      const sent = amountBody({ sku, bounds }, boundary);
      if (sent === undefined) return ctx.skip(`SKU ${sku.skuId}: no positive amount below its minimum ${bounds.min}`);
      const { amount } = sent;
      const body = { ...sent, mobile, correlationId: ctx.correlationId() };
      ctx.note(`SKU ${sku.skuId} bounds ${bounds.min}..${bounds.max} ${bounds.currency ?? '(wallet)'}; sent ${amount}`);
      if (!outside) {
        const { submitted, final } = await submitAndFinish(ctx, version, op, body);
        ctx.check(successful, final ?? submitted);
        return;
      }
      let answer: Exchange | undefined;
      await expectAllRefused(ctx, version, op, [{ label: `amount ${amount}`, body }], (exchange) => {
        answer = exchange;
      });
      if (answer === undefined || !ctx.check(responseCodeIs('001'), answer)) return;
      const verdict = judge001Message(answer.response.envelope?.responseMessage, sku, bounds);
      if (verdict !== undefined) ctx.fail({ check: 'message-001-bounds', operation: op, ...verdict, request: answer.request });
      else ctx.note(`001 message: ${describeResponse(answer.response)}`);
    },
  };
}

export const AMOUNT_CASES: readonly ConformanceCase[] = VERSIONS.flatMap((version) =>
  (['WALLET', 'FACE'] as const).flatMap((currency) => BOUNDARIES.map((boundary) => amountCase(version, currency, boundary))),
);
