// Representative inputs for every catalog operation, taken from the target's own catalog (never a hard-coded SKU id):
// several per operation where the catalog offers them, so an inferred schema sees more than one record of each kind.
import { readString, type FieldMapping } from '../api/field-mapping.ts';
import { CATEGORY_IDS, type ApiVersion, type CategoryName, type Operation } from '../api/operations.ts';
import type { RequestInput } from '../api/request-builder.ts';
import { SANDBOX_LOOKUP_COUNTRIES, validAmount } from '../api/catalog-facts.ts';
import type { Fixtures, SkuFixture } from '../conformance/fixtures.ts';
import type { ConformanceSettings } from '../conformance/settings.ts';

/** Why an operation gets no call: shown in reports, never counted as observed. */
export interface Unavailable {
  readonly unavailable: string;
}

export const isUnavailable = (value: unknown): value is Unavailable =>
  value !== null && typeof value === 'object' && 'unavailable' in (value as Record<string, unknown>);

export interface InputContext {
  readonly fixtures: Fixtures;
  readonly settings: ConformanceSettings;
  readonly mapping: FieldMapping;
  readonly newCorrelationId: () => string;
}

/** Reads that need an earlier transaction's id, and the write purposes that provide it. */
export const TRANSACTION_READS: Readonly<Record<string, { readonly from: readonly string[]; readonly what: string }>> = Object.freeze({
  'transaction.status': { from: ['transaction.topup', 'transaction.pin', 'transaction.billpay', 'transaction.giftcard', 'transaction.sim-activation', 'transaction.sim-portin', 'transaction.esim'], what: 'a correlationId of an earlier transaction' },
  'giftcard.fetch': { from: ['transaction.giftcard'], what: 'the transaction id of a gift card purchase' },
  'sim.portin-status': { from: ['transaction.sim-portin'], what: 'the transaction id of a SIM port-in' },
  'esim.status': { from: ['transaction.esim'], what: 'the ICCID of an eSIM order' },
});

export function needsTransaction(op: Operation): boolean {
  return TRANSACTION_READS[op.purpose] !== undefined;
}

/** Up to `n` SKUs of a category that have readable amount bounds (those first). */
function skusOf(fx: Fixtures, category: CategoryName, n: number): SkuFixture[] {
  const all = fx.skusOf(category);
  return [...all.filter((s) => validAmount(s) !== undefined), ...all.filter((s) => validAmount(s) === undefined)].slice(0, n);
}

/** An RTR SKU with a valid number, per lookup country (the spec's sandbox lookup countries; Jamaica first). */
function rtrTargets(fx: Fixtures, n: number): { sku: SkuFixture; mobile: string; country: string }[] {
  const out: { sku: SkuFixture; mobile: string; country: string }[] = [];
  for (const country of SANDBOX_LOOKUP_COUNTRIES) {
    const sku = fx.rtrSkus(country)[0];
    const mobile = fx.mobile(country);
    if (sku !== undefined && mobile !== undefined) out.push({ sku, mobile, country });
    if (out.length >= n) break;
  }
  return out;
}

/** The country of a number by the longest dialing prefix that starts it. */
function countryOfNumber(fx: Fixtures, mobile: string): string | undefined {
  let best: { code: string; length: number } | undefined;
  for (const c of fx.countries) {
    for (const prefix of c.prefixes) {
      if (mobile.startsWith(prefix) && (best === undefined || prefix.length > best.length)) best = { code: c.code, length: prefix.length };
    }
  }
  return best?.code;
}

/**
 * A product of the country whose bundles the number can fetch: one flagged `requireFetchBundle` (observed field name,
 * assumed), else the country's first RTR product (an empty bundle list is still a valid sample of the envelope).
 */
function bundleProduct(fx: Fixtures, country: string): number | undefined {
  const inCountry = fx.skus.filter((s) => s.countryCode === country && s.categoryId === CATEGORY_IDS.Rtr);
  const bundled = inCountry.find((s) => s.requireFetchBundle === true);
  return (bundled ?? inCountry[0])?.productId;
}

function firstPerCategory(fx: Fixtures): SkuFixture[] {
  const out: SkuFixture[] = [];
  for (const category of Object.keys(CATEGORY_IDS) as CategoryName[]) {
    const sku = fx.skusOf(category)[0];
    if (sku !== undefined) out.push(sku);
  }
  const gift = fx.giftcards[0];
  if (gift !== undefined) out.push(gift);
  return out;
}

const none = (what: string): Unavailable => ({ unavailable: `the target's catalog offers no ${what}` });

/** Inputs of a read that needs no earlier transaction (a list: one call each). */
export function readInputs(op: Operation, ctx: InputContext): RequestInput[] | Unavailable {
  const fx = ctx.fixtures;
  switch (op.purpose) {
    case 'lookup.mobile': {
      const mobiles = SANDBOX_LOOKUP_COUNTRIES.map((c) => fx.mobile(c)).filter((m): m is string => m !== undefined);
      return mobiles.length === 0 ? none('number plan of a lookup country (JM, IN, PK, MX)') : mobiles.map((mobile) => ({ path: { mobile } }));
    }
    case 'catalog.sku-exchange-rate': {
      const skus = firstPerCategory(fx);
      return skus.length === 0 ? none('SKU') : skus.map((s) => ({ path: { skuId: s.skuId } }));
    }
    case 'catalog.bundles': {
      const inputs: RequestInput[] = [];
      for (const { country, mobile } of rtrTargets(fx, SANDBOX_LOOKUP_COUNTRIES.length)) {
        const productId = bundleProduct(fx, country);
        if (productId !== undefined) inputs.push({ path: { productId, mobileNumber: mobile } });
      }
      // Numbers with an outstanding loan show the loan fields filled in.
      for (const mobile of ctx.settings.loanNumbers.slice(0, 2)) {
        const country = countryOfNumber(fx, mobile);
        const productId = country === undefined ? undefined : bundleProduct(fx, country);
        if (productId !== undefined) inputs.push({ path: { productId, mobileNumber: mobile } });
      }
      return inputs.length === 0 ? none('RTR product with a number plan') : inputs;
    }
    case 'billpay.fetch-account-detail': {
      const skus = fx.skusOf('Bill Pay').slice(0, 3);
      return skus.length === 0 ? none('Bill Pay SKU') : skus.map((s) => ({ query: { skuId: s.skuId, accountNumber: ctx.settings.billpayAccountNumber } }));
    }
    default:
      if (needsTransaction(op)) return { unavailable: `needs ${TRANSACTION_READS[op.purpose]?.what ?? 'an earlier transaction'}` };
      return [{}];
  }
}

/** Valid bodies of a write (a list: one transaction each); each call gets a fresh correlationId. */
export function writeBodies(op: Operation, ctx: InputContext): Record<string, unknown>[] | Unavailable {
  const fx = ctx.fixtures;
  const cid = ctx.newCorrelationId;
  switch (op.requestBody) {
    case 'topup': {
      const targets = rtrTargets(fx, 2);
      if (targets.length === 0) return none('RTR SKU with amount bounds in a lookup country (or no number plan)');
      return targets.map(({ sku, mobile }) => ({ skuId: sku.skuId, mobile, correlationId: cid(), ...validAmount(sku) }));
    }
    case 'pin': {
      const sku = skusOf(fx, 'Pin', 1)[0];
      return sku === undefined ? none('Pin SKU') : [{ skuId: sku.skuId, correlationId: cid() }];
    }
    case 'billpay': {
      const sku = skusOf(fx, 'Bill Pay', 1).find((s) => validAmount(s) !== undefined);
      return sku === undefined ? none('Bill Pay SKU with amount bounds') : [{ skuId: sku.skuId, accountNumber: ctx.settings.billpayAccountNumber, correlationId: cid(), ...validAmount(sku) }];
    }
    case 'giftcard': {
      const sku = fx.giftcards.find((s) => validAmount(s) !== undefined);
      return sku === undefined ? none('gift card SKU with amount bounds') : [{ skuId: sku.skuId, correlationId: cid(), ...validAmount(sku) }];
    }
    case 'sim-activation':
    case 'sim-portin': {
      const sku = skusOf(fx, 'Sim', 1)[0];
      if (sku === undefined) return none('Sim SKU');
      const body: Record<string, unknown> = { skuId: sku.skuId, simNumber: ctx.settings.simNumber, zipCode: ctx.settings.zipCode, correlationId: cid() };
      if (op.requestBody === 'sim-portin') {
        const mobile = fx.mobile(sku.countryCode ?? 'US') ?? fx.mobile('JM');
        if (mobile !== undefined) body.mobileNumber = mobile;
      }
      return [body];
    }
    case 'esim': {
      const sku = skusOf(fx, 'eSim', 1)[0];
      return sku === undefined ? none('eSim SKU') : [{ skuId: sku.skuId, correlationId: cid() }];
    }
    case 'estimated-cost': {
      const bodies = rtrTargets(fx, 2).map(({ sku }) => ({ skuId: sku.skuId, ...validAmount(sku) }));
      return bodies.length === 0 ? none('RTR SKU with amount bounds') : bodies;
    }
    default:
      return { unavailable: `no valid body known for ${op.id}` };
  }
}

/** What a finished write leaves for the reads that need it. */
export interface TransactionRef {
  readonly version: ApiVersion;
  readonly purpose: string;
  readonly correlationId: string;
  /** The final result payload (the submission's, or the status check's after polling). */
  readonly result: unknown;
}

/** Inputs of a transaction-dependent read from the writes made earlier in the same version. */
export function transactionReadInputs(op: Operation, refs: readonly TransactionRef[], ctx: InputContext): RequestInput[] | Unavailable {
  const need = TRANSACTION_READS[op.purpose];
  if (need === undefined) return { unavailable: `${op.id} needs no transaction` };
  const sources = refs.filter((r) => need.from.includes(r.purpose));
  const inputs: RequestInput[] = [];
  for (const ref of sources) {
    if (op.purpose === 'transaction.status') {
      inputs.push({ path: { correlationId: ref.correlationId } });
    } else if (op.purpose === 'esim.status') {
      const iccid = readString(ref.result, ctx.mapping.transaction.esimIccid);
      if (iccid !== undefined) inputs.push({ path: { Iccid: iccid } });
    } else {
      const id = readString(ref.result, ctx.mapping.transaction.transactionId);
      if (id !== undefined) inputs.push({ path: { id } });
    }
  }
  if (inputs.length > 0) return inputs;
  return { unavailable: `needs ${need.what}, and no successful ${need.from.join('/')} in this run gave one` };
}
