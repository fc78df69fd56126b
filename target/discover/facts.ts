// The facts the spec states that discovery matches payload values against, each with the spec's words: the category
// ids, SKU 193 and its 5.00 USD minimum, Jamaica's 1876, the four lookup countries. Nothing here is assumed of a target.

/** Sandbox simulation triggers: "Number starts with 1876 and ends with 888, skuId 193, amount below the minimum of that denomination (5.00 USD)". */
export const SKU_193 = Object.freeze({ skuId: 193, minimum: 5, currency: 'USD', dialingCode: '1876', nationalLength: 7 });

/**
 * "sandbox supports only numbers of four countries (Jamaica, India, Pakistan, Mexico)", with their ISO 3166 codes (the
 * gift card list's countryCode is "(ISO code)"); "Jamaica country code 1876 followed by 7 digits".
 */
export const LOOKUP_COUNTRIES = Object.freeze([
  { name: 'Jamaica', iso: 'JM' },
  { name: 'India', iso: 'IN' },
  { name: 'Pakistan', iso: 'PK' },
  { name: 'Mexico', iso: 'MX' },
] as const);
