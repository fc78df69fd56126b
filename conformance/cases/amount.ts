// AMOUNT: a top-up's denomination bounds hold for any SKU, not only the trigger's: below the minimum and above the
// maximum → '001' with the spec's message naming that denomination's bounds, nothing charged; at either bound → accepted.
import type { ApiVersion } from '../../api/operations.ts';
import { describeResponse } from '../../api/describe.ts';
import { MESSAGE_001, responseCodeIs, successful } from '../checks.ts';
import { SANDBOX_LOOKUP_COUNTRIES } from '../../api/catalog-facts.ts';
import type { Fixtures, SkuFixture } from '../../target/fixtures.ts';
import type { CaseContext, ConformanceCase, Exchange } from '../types.ts';
import { ASSUMED, SECTION, V, VERSIONS, submitAndFinish } from './common.ts';
import { expectAllRefused } from './len.ts';
import { TRIGGER_SKU_ID } from './trg.ts';

const RULE =
  "Limits: Top-up amount bounds | per denomination, reported in the 001 message. Errors: 001 | Amount outside the allowed range of the denomination | Message has the shape 'The charge amount for Denomination <name> should be between <min> <currency> and <max> <currency>'. Top-up request: amount | number double | yes | In the customer wallet currency when transactionCurrencyCode is absent; otherwise in the currency named by transactionCurrencyCode";

type Currency = 'WALLET' | 'FACE';
type Boundary = 'BELOW-MIN' | 'AT-MIN' | 'AT-MAX' | 'ABOVE-MAX';
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

/**
 * An open-range RTR denomination (not the trigger's SKU) of a lookup country with a number plan, and a number. In the
 * face value currency, a SKU whose face bounds differ from its wallet bounds comes first: the currency then matters.
 */
function target(ctx: CaseContext, fx: Fixtures, currency: Currency): { sku: SkuFixture; bounds: Bounds; mobile: string } {
  const found: Array<{ sku: SkuFixture; bounds: Bounds; mobile: string }> = [];
  for (const code of SANDBOX_LOOKUP_COUNTRIES) {
    const mobile = fx.mobile(code);
    if (mobile === undefined) continue;
    for (const sku of fx.rtrSkus(code)) {
      const bounds = boundsOf(sku, currency);
      if (bounds !== undefined && sku.skuId !== TRIGGER_SKU_ID) found.push({ sku, bounds, mobile });
    }
  }
  const distinct = (t: { sku: SkuFixture; bounds: Bounds }): boolean =>
    t.bounds.min !== t.sku.minWalletAmount || t.bounds.max !== t.sku.maxWalletAmount;
  const pick = currency === 'FACE' ? (found.find(distinct) ?? found[0]) : found[0];
  if (pick !== undefined) return pick;
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
      const { sku, bounds, mobile } = target(ctx, await ctx.fixtures(), currency);
      const amount = amountAt(bounds, boundary);
      if (amount === undefined) return ctx.skip(`SKU ${sku.skuId}: no positive amount below its minimum ${bounds.min}`);
      const body = {
        skuId: sku.skuId,
        mobile,
        correlationId: ctx.correlationId(),
        amount,
        ...(bounds.currency === undefined ? {} : { transactionCurrencyCode: bounds.currency }),
      };
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
