// Public surface of the sandbox catalog data: the generator, record types and the helpers the routes use.
// Pure and deterministic (no fastify, no Node built-ins), so tests and tools can generate data without a server.

export * from './types.ts';
export { generateSandboxData, ANCHOR_SKU_ID, MIN_GIFTCARD_SKUS, SAMPLE_LOAN_NUMBERS, SAMPLE_BILL_ACCOUNT } from './generate.ts';
export { countryOfNumber, isValidNumberForCountry, nationalNumber, normalizeMobile, validCountryOfNumber } from './number-plan.ts';
export { localizeSku, localizeLookup, parseAcceptLanguage, LOCALIZED_FIELDS } from './localize.ts';
export { lookupNumber, loanFor, bundlesFor, amountWithLoan, loanInFaceCurrency } from './lookup.ts';
export { billDetailFor, isPlausibleAccountNumber } from './billpay.ts';
export {
  amountBounds,
  withinBounds,
  denominationRangeMessage,
  toWalletAmount,
  costOf,
  priceOf,
  convert,
  moneyAdd,
  moneySub,
  shiftBounds,
  formatAmount,
  round2,
  isWalletCurrency,
  type AmountBounds,
} from './money.ts';
export { formatInTimeZone } from './dates.ts';
export { toV1Sku, denominationTypeOf } from './v1.ts';
export { COUNTRY_PLANS } from './countries.ts';
