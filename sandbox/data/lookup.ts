// Number-driven data: mobile lookup (operator by a hash of the number), outstanding loans and dynamic bundles.
// Loan rule (assumed, documented): a valid number of a country with bundle products whose national number ends "77d" owes d + 1 USD.

import { moneyAdd, round2 } from './money.ts';
import { nationalNumber, normalizeMobile, validCountryOfNumber } from './number-plan.ts';
import { hashString } from './rng.ts';
import type { Loan, LookupResult, SandboxData, Sku, SkuMeta } from './types.ts';

/**
 * The number's country and operator (chosen by a hash of the number among the country's RTR operators), with
 * precomputed v1/v2 payloads. Undefined when the number matches no country or breaks its format.
 * Which countries a lookup may answer for (sandbox: JM, IN, PK, MX) is the route's rule, not this function's.
 */
export function lookupNumber(data: SandboxData, mobile: string): LookupResult | undefined {
  const country = validCountryOfNumber(data, mobile);
  if (country === undefined) return undefined;
  const operators = data.index.rtrOperatorsByCountry.get(country.countryCode) ?? [];
  if (operators.length === 0) return undefined;
  const digits = normalizeMobile(mobile) as string;
  const operator = operators[hashString(digits) % operators.length];
  const entry = operator === undefined ? undefined : data.index.lookupByOperatorId.get(operator.operatorId);
  return entry === undefined ? undefined : { country, ...entry };
}

const LOAN_SUFFIX = /77([0-9])$/;

/** The outstanding loan of a number, or undefined when it has none (see the rule at the top of this file). */
export function loanFor(data: SandboxData, mobile: string): Loan | undefined {
  const country = validCountryOfNumber(data, mobile);
  if (country === undefined) return undefined;
  if ((data.index.bundleProductsByCountry.get(country.countryCode) ?? []).length === 0) return undefined;
  const national = nationalNumber(country, mobile);
  const m = national === undefined ? null : LOAN_SUFFIX.exec(national);
  if (m === null) return undefined;
  const wallet = Number(m[1]) + 1;
  const fx = data.index.fxPerUsd.get(country.currencyCode) ?? 1;
  return {
    mobile: normalizeMobile(mobile) as string,
    countryCode: country.countryCode,
    currencyCode: country.currencyCode,
    amountInLocalCurrency: round2(wallet * fx),
    amountInWalletCurrency: wallet,
  };
}

/** A number's loan expressed in a SKU's face value currency. */
export function loanInFaceCurrency(meta: SkuMeta, loan: Loan): number {
  return round2(loan.amountInWalletCurrency / meta.walletPerFaceUnit);
}

/**
 * The dynamic bundles of a product for a number: the product's bundle SKUs with the number's loan filled in
 * (loanAmountIn* stay 0 without dues). Undefined when the product is unknown or has no bundles
 * (requireFetchBundle false), or when the number is not a valid number of the product's country.
 */
export function bundlesFor(data: SandboxData, productId: number, mobile: string): Sku[] | undefined {
  const product = data.index.productById.get(productId);
  if (product === undefined || !product.requireFetchBundle) return undefined;
  const country = validCountryOfNumber(data, mobile);
  if (country === undefined || country.countryCode !== product.countryCode) return undefined;
  const skus = data.index.skusByProductId.get(productId) ?? [];
  const loan = loanFor(data, mobile);
  if (loan === undefined) return skus;
  return skus.map((sku) => {
    const meta = data.index.skuMetaById.get(sku.skuId) as SkuMeta;
    return {
      ...sku,
      loanAmountInFaceValueCurrency: loanInFaceCurrency(meta, loan),
      loanAmountInDeliveryCurrency: round2(loanInFaceCurrency(meta, loan) * meta.deliveryPerFaceUnit),
      loanAmountInWalletCurrency: loan.amountInWalletCurrency,
    };
  });
}

/**
 * The amount a top-up must carry to buy a bundle and clear the loan (spec: "an amount equal to the face value plus
 * the loan amount"), in the wallet currency or, when `currency` is given, in the face value currency.
 */
export function amountWithLoan(sku: Sku, meta: SkuMeta, loan: Loan, currency?: string | null): number {
  if (currency === undefined || currency === null || currency === '') {
    return moneyAdd(sku.min.faceValueInWalletCurrency, loan.amountInWalletCurrency);
  }
  return moneyAdd(sku.min.faceValue, loanInFaceCurrency(meta, loan));
}
