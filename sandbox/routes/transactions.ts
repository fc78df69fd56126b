// The one pipeline every write goes through: validate, refuse duplicates, decide, charge on success, store, answer.
// Route modules only supply the per-operation decision (which SKU category, which bounds, which payload).
import { validateRequestBody } from '../../api/validation.ts';
import type { ResponseCodeKey } from '../error-codes.ts';
import type { Envelope, RouteReply } from '../envelope.ts';
import { failure, successWith } from '../envelope.ts';
import type { AsyncPurpose, TriggerRule } from '../behaviour.ts';
import type { StoredTransaction } from '../store.ts';
import { createRng } from '../data/rng.ts';
import {
  amountBounds,
  costOf,
  denominationRangeMessage,
  formatExact,
  isWalletCurrency,
  round2,
  toWalletAmount,
  withinBounds,
} from '../data/money.ts';
import type { AmountBounds } from '../data/money.ts';
import { normalizeMobile, validCountryOfNumber } from '../data/number-plan.ts';
import type { CategoryName, Sku, SkuMeta } from '../data/types.ts';
import type { RouteContext, SandboxEnv } from './context.ts';
import { fail, scaled } from './context.ts';

/** A refusal decided before anything is charged; `cost` is what a chargeFailures bug would take anyway. */
export interface Refusal {
  readonly refuse: ResponseCodeKey;
  readonly message?: string;
  readonly cost?: number;
}

/** What the payload builder returns: the transaction result and what fetch-by-id endpoints will serve. */
export interface Built {
  readonly payload: Record<string, unknown>;
  readonly details?: Record<string, unknown>;
}

/** An accepted transaction: its cost, how to build its result, and whether it finishes later. */
export interface Acceptance {
  /** Charged to the wallet (wallet currency) when the transaction succeeds. */
  readonly cost: number;
  /** Builds the success payload; runs when the transaction completes (after funds are charged). */
  readonly build: (txn: StoredTransaction) => Built;
  /** Response held this long (real-time ms, unscaled; trigger delays): the socket waits, status answers '852'. */
  readonly holdMs?: number;
  /**
   * Answer '852' at once and finish after this long (real-time ms, unscaled). Default: behaviour.giftcardProcessingMs
   * when the operation's purpose is in behaviour.asyncOperations (the spec's gift card case), else immediate.
   */
  readonly asyncMs?: number;
}

export type Decision = Refusal | Acceptance;

export function isRefusal<T extends object>(value: T | Refusal): value is Refusal {
  return 'refuse' in value;
}

/** What a write module supplies; the stored transaction's kind is the operation's catalog purpose (ctx.op.purpose). */
export interface WriteSpec<Body> {
  /** Decides the outcome from a schema-valid body. */
  readonly decide: (ctx: RouteContext, body: Body) => Decision;
}

/** Validates the body against its schema; the failure is a clear message and nothing is stored or charged. */
export function validBody<Body>(ctx: RouteContext): { body: Body } | RouteReply {
  const name = ctx.op.requestBody;
  if (name === undefined) return fail(ctx.env, 'internalError', `operation ${ctx.op.id} has no request body`);
  if (ctx.env.behaviour.validateRequests) {
    const result = validateRequestBody(name, ctx.body);
    if (!result.valid) {
      const text = result.errors.map((issue) => issue.message).join('; ');
      return fail(ctx.env, 'invalidRequest', `Invalid request: ${text}`);
    }
  } else if (ctx.body === null || typeof ctx.body !== 'object' || Array.isArray(ctx.body)) {
    return fail(ctx.env, 'invalidRequest', 'Invalid request: the body must be a JSON object');
  }
  return { body: ctx.body as Body };
}

/** A refusal answered without storing anything (operations that are not transactions, e.g. estimated cost). */
export function refusalReply(env: SandboxEnv, refusal: Refusal): RouteReply {
  return { envelope: failure(env.codes, refusal.refuse, refusal.message) };
}

export function isReply(value: unknown): value is RouteReply {
  return typeof value === 'object' && value !== null && 'envelope' in value;
}

/** Runs a write of a body that carries a correlationId: duplicate check, decision, charge, store, answer. */
export function runWrite<Body extends { correlationId: string }>(
  ctx: RouteContext,
  spec: WriteSpec<Body>,
): RouteReply | Promise<RouteReply> {
  const valid = validBody<Body>(ctx);
  if (isReply(valid)) return valid;
  const { env } = ctx;
  const { store, behaviour } = env;
  const correlationId = String(valid.body.correlationId);
  if (behaviour.uniqueCorrelationIds && store.hasCorrelationId(correlationId)) {
    // Not stored: the original transaction's status must stay readable under this id.
    return fail(env, 'duplicateCorrelationId', `Duplicate correlationId: a transaction with this correlationId already exists`);
  }
  const decision = spec.decide(ctx, valid.body);
  const base = { correlationId, transactionId: store.nextTransactionId(), kind: ctx.op.purpose, operationId: ctx.op.id };

  if (isRefusal(decision)) {
    if (behaviour.chargeFailures && decision.cost !== undefined) store.charge(decision.cost);
    const result = failure(env.codes, decision.refuse, decision.message);
    store.recordFinal({ ...base, result });
    return { envelope: result };
  }

  // Funds are checked now (fail fast) and again when a held or asynchronous transaction completes.
  if (behaviour.checkFunds && !store.hasFunds(decision.cost)) {
    const result = insufficientFunds(env, decision.cost);
    store.recordFinal({ ...base, result });
    return { envelope: result };
  }

  const finish = (txn: StoredTransaction): Envelope => complete(env, decision, txn);
  if (decision.holdMs !== undefined) {
    const { done } = store.recordPending(base, scaled(env, decision.holdMs), finish);
    return done.then((envelope) => ({ envelope }));
  }
  const asyncMs = decision.asyncMs ?? (isAsync(env, ctx.op.purpose) ? behaviour.giftcardProcessingMs : undefined);
  if (asyncMs !== undefined) {
    store.recordPending(base, scaled(env, asyncMs), finish);
    return { envelope: failure(env.codes, 'inProgress', 'Transaction is in progress, check the status with the correlationId') };
  }
  const txn = store.recordFinal({ ...base, result: failure(env.codes, 'inProgress') });
  try {
    txn.result = complete(env, decision, txn);
  } catch (error) {
    // Never leave a stored transaction answering '852' because its payload builder failed.
    txn.result = failure(env.codes, 'internalError');
    throw error;
  }
  return { envelope: txn.result };
}

function insufficientFunds(env: SandboxEnv, cost: number): Envelope {
  return failure(
    env.codes,
    'insufficientFunds',
    `Insufficient funds: the transaction costs ${formatExact(cost)} ${env.data.walletCurrency}`,
  );
}

function complete(env: SandboxEnv, decision: Acceptance, txn: StoredTransaction): Envelope {
  if (env.behaviour.checkFunds && !env.store.hasFunds(decision.cost)) return insufficientFunds(env, decision.cost);
  env.store.charge(decision.cost);
  const built = decision.build(txn);
  txn.details = built.details;
  return successWith(env.codes, built.payload);
}

// ---------------------------------------------------------------------------------------------------------------
// Shared decision steps

/** The SKU and its internal facts, or a refusal (unknown SKU, wrong category). */
export function resolveSku(
  ctx: RouteContext,
  skuId: number,
  accepts: (meta: SkuMeta) => boolean,
  categoryText: string,
): { sku: Sku; meta: SkuMeta } | Refusal {
  const sku = ctx.env.data.index.skuById.get(skuId);
  const meta = ctx.env.data.index.skuMetaById.get(skuId);
  if (sku === undefined || meta === undefined) return { refuse: 'unknownSku', message: `SKU ${skuId} does not exist` };
  if (ctx.env.behaviour.checkCategory && !accepts(meta)) {
    return { refuse: 'wrongCategory', message: `SKU ${skuId} is of category ${meta.category}; this operation needs ${categoryText}` };
  }
  return { sku, meta };
}

export function ofCategory(category: CategoryName): (meta: SkuMeta) => boolean {
  return (meta) => meta.category === category && !meta.isGiftcard;
}

/** The transactionCurrencyCode rule: absent/empty means the wallet currency; otherwise one of the SKU's FaceValueCurrency. */
export function currencyRefusal(ctx: RouteContext, meta: SkuMeta, currency: string | null | undefined): Refusal | undefined {
  if (!ctx.env.behaviour.checkCurrency || isWalletCurrency(currency)) return undefined;
  if (meta.faceValueCurrencies.includes(currency as string)) return undefined;
  return {
    refuse: 'currencyNotAllowed',
    message: `transactionCurrencyCode ${JSON.stringify(String(currency).slice(0, 8))} is not allowed for SKU ${meta.skuId} (allowed: ${meta.faceValueCurrencies.join(', ')})`,
  };
}

/** Bounds for the amount as sent; a currency the SKU does not know falls back to the wallet bounds. */
export function boundsFor(sku: Sku, meta: SkuMeta, currency: string | null | undefined): AmountBounds {
  return amountBounds(sku, meta, currency) ?? (amountBounds(sku, meta, null) as AmountBounds);
}

/** The currency the amount is expressed in (for messages and payloads). */
export function amountCurrency(env: SandboxEnv, currency: string | null | undefined): string {
  return isWalletCurrency(currency) ? env.data.walletCurrency : String(currency);
}

/** The '001' refusal with the spec's exact message shape, or undefined when the amount fits. */
export function boundsRefusal(
  ctx: RouteContext,
  sku: Sku,
  meta: SkuMeta,
  amount: number,
  currency: string | null | undefined,
): Refusal | undefined {
  if (!ctx.env.behaviour.checkAmountBounds) return undefined;
  const bounds = boundsFor(sku, meta, currency);
  if (withinBounds(amount, bounds)) return undefined;
  return { refuse: 'amountOutOfRange', message: denominationRangeMessage(sku, bounds), cost: walletCost(sku, meta, amount, currency) };
}

export function walletCost(sku: Sku, meta: SkuMeta, amount: number, currency: string | null | undefined): number {
  return costOf(sku, toWalletAmount(meta, amount, currency));
}

/** The number's country when it follows that country's format and is the SKU's country; else a '501' refusal. */
export function numberRefusal(ctx: RouteContext, mobile: string, countryCode: string, field: string): Refusal | undefined {
  if (!ctx.env.behaviour.checkNumberFormat) return undefined;
  const country = validCountryOfNumber(ctx.env.data, mobile);
  if (country !== undefined && country.countryCode === countryCode) return undefined;
  const expected = ctx.env.data.index.countryByCode.get(countryCode);
  const shape =
    expected === undefined
      ? ''
      : ` (${expected.countryName}: ${expected.dialPrefixes.join(' or ')} followed by ${expected.nationalNumberLength} digits)`;
  return { refuse: 'invalidNumber', message: `The Subscriber number is not valid: ${field} must be a number of the SKU's country${shape}` };
}

/**
 * A SKU of `category` and an optional number of its country (PIN's recipient, a port-in's number): the number is
 * refused like a required one when given, and asks nothing when absent.
 */
export function skuWithOptionalNumber(
  ctx: RouteContext,
  skuId: number,
  category: CategoryName,
  number: { readonly value: unknown; readonly field: string },
): { sku: Sku; meta: SkuMeta } | Refusal {
  const found = resolveSku(ctx, skuId, ofCategory(category), `a ${category} SKU`);
  if (isRefusal(found) || typeof number.value !== 'string' || number.value === '') return found;
  return numberRefusal(ctx, number.value, found.sku.countryCode, number.field) ?? found;
}

/** The facts a trigger looks at. */
export interface TriggerInput {
  /** The write's purpose (`ctx.op.purpose`): a trigger row applies to the writes of its purpose only. */
  purpose: string;
  mobile: string;
  skuId: number;
  amount: number;
  bounds: AmountBounds;
}

/** The first trigger of the table that matches (sandbox mode only; production has no triggers). */
export function matchTrigger(env: SandboxEnv, input: TriggerInput): TriggerRule | undefined {
  if (env.mode !== 'sandbox') return undefined;
  const digits = normalizeMobile(input.mobile) ?? input.mobile;
  return env.behaviour.triggers.find(({ purpose, match }) => {
    if (purpose !== input.purpose) return false;
    if (match.mobileSuffix !== undefined && !digits.endsWith(match.mobileSuffix)) return false;
    if (match.mobilePrefix !== undefined && !digits.startsWith(match.mobilePrefix)) return false;
    if (match.skuId !== undefined && match.skuId !== input.skuId) return false;
    // The amount as sent: 4.995 is below a 5.00 minimum (sandbox/README.md, money rule).
    if (match.amountBelowMin === true && !(input.amount < input.bounds.min)) return false;
    return true;
  });
}

export function isAsync(env: SandboxEnv, purpose: AsyncPurpose): boolean {
  return env.behaviour.asyncOperations.includes(purpose);
}

// ---------------------------------------------------------------------------------------------------------------
// Payload pieces

/** "M/D/YYYY HH:mm" in UTC, as the observed top-up payload prints transactionDate ("12/9/2021 05:09"). */
export function transactionDate(epochMs: number): string {
  const d = new Date(epochMs);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** Deterministic digits for PINs, card numbers and ICCIDs: same seed and transaction id, same digits. */
export function digitsFor(env: SandboxEnv, transactionId: number, salt: number, length: number): string {
  const rng = createRng(env.data.seed * 7_919 + transactionId * 31 + salt);
  let out = String(rng.int(1, 9));
  while (out.length < length) out += String(rng.int(0, 9));
  return out;
}

/** The observed transaction result with every detail block null; each operation fills its own block. */
export function transactionPayload(
  env: SandboxEnv,
  txn: StoredTransaction,
  sku: Sku,
  amounts: { invoiceAmount: number; faceValue: number },
  blocks: Partial<Record<'topupDetail' | 'pins' | 'giftCardDetail' | 'simInfo' | 'billPaymentDetail' | 'esimDetail', unknown>>,
): Record<string, unknown> {
  return {
    transactionId: txn.transactionId,
    transactionDate: transactionDate(env.store.now()),
    // Exact, never rounded: the balance moves by exactly invoiceAmount (money rule).
    invoiceAmount: amounts.invoiceAmount,
    faceValue: amounts.faceValue,
    discount: sku.discount,
    fee: sku.fee,
    product: { skuId: sku.skuId, productName: sku.productName, faceValue: amounts.faceValue, instructions: sku.additionalInformation },
    topupDetail: blocks.topupDetail ?? null,
    pins: blocks.pins ?? null,
    giftCardDetail: blocks.giftCardDetail ?? null,
    simInfo: blocks.simInfo ?? null,
    billPaymentDetail: blocks.billPaymentDetail ?? null,
    esimDetail: blocks.esimDetail ?? null,
  };
}

/**
 * The face-currency value of an amount: as sent when it is in a face currency (or the face currency is the wallet's),
 * else converted from the wallet currency and rounded to the cent (a conversion, the money rule's one rounding).
 */
export function faceAmount(meta: SkuMeta, amount: number, currency: string | null | undefined): number {
  if (!isWalletCurrency(currency) && meta.faceValueCurrencies.includes(String(currency))) return amount;
  if (meta.walletPerFaceUnit === 1 || !(meta.walletPerFaceUnit > 0)) return amount;
  return round2(amount / meta.walletPerFaceUnit);
}

/** A valid number of the country (for SIM activations that assign one), deterministic per transaction. */
export function assignedNumber(env: SandboxEnv, countryCode: string, transactionId: number): string | null {
  const country = env.data.index.countryByCode.get(countryCode);
  const prefix = country?.dialPrefixes[0];
  if (country === undefined || prefix === undefined) return null;
  // A few salts: a random national number can fall into another country's prefix (US '1' vs Jamaica '1876').
  for (let salt = 5; salt < 15; salt += 1) {
    const mobile = `${prefix}${digitsFor(env, transactionId, salt, country.nationalNumberLength)}`;
    if (validCountryOfNumber(env.data, mobile)?.countryCode === countryCode) return mobile;
  }
  return null;
}

/**
 * The checks every amount-carrying write shares (a SKU the write accepts, currency allowed, amount within the
 * denomination's bounds) and, when all pass, the SKU with what the write costs in wallet currency and delivers in face
 * value. Bill pay and gift card use it.
 */
export function resolvePricedSku(
  ctx: RouteContext,
  body: { readonly skuId: number; readonly amount: number; readonly transactionCurrencyCode?: string | null },
  accepts: (meta: SkuMeta) => boolean,
  categoryText: string,
): Refusal | { readonly sku: Sku; readonly meta: SkuMeta; readonly cost: number; readonly face: number } {
  const found = resolveSku(ctx, body.skuId, accepts, categoryText);
  if (isRefusal(found)) return found;
  const { sku, meta } = found;
  const { amount, transactionCurrencyCode: currency } = body;
  const refused = currencyRefusal(ctx, meta, currency) ?? boundsRefusal(ctx, sku, meta, amount, currency);
  if (refused !== undefined) return refused;
  return { sku, meta, cost: walletCost(sku, meta, amount, currency), face: faceAmount(meta, amount, currency) };
}
