// Number-plan helpers: which country a mobile number belongs to and whether it follows that country's format.
// The spec: "Mobile top-up in the sandbox accepts any number, but it must follow the country's format (example: Jamaica
// country code 1876 followed by 7 digits).

import type { Country, SandboxData } from './types.ts';

const DIGITS = /^[0-9]{1,32}$/;

/** Digits of a number as sent (an optional leading '+' is tolerated); undefined when anything else is in it. */
export function normalizeMobile(mobile: string): string | undefined {
  const text = mobile.startsWith('+') ? mobile.slice(1) : mobile;
  return DIGITS.test(text) ? text : undefined;
}

/** The country whose dialing prefix is the longest match for the number (format not checked). */
export function countryOfNumber(data: SandboxData, mobile: string): Country | undefined {
  const digits = normalizeMobile(mobile);
  if (digits === undefined) return undefined;
  for (const entry of data.index.dialPrefixes) {
    if (digits.startsWith(entry.prefix)) return entry.country;
  }
  return undefined;
}

/** True when the number is one of the country's dialing prefixes followed by exactly nationalNumberLength digits. */
export function isValidNumberForCountry(country: Country, mobile: string): boolean {
  const digits = normalizeMobile(mobile);
  if (digits === undefined) return false;
  if (country.excludedPrefixes.some((p) => digits.startsWith(p))) return false;
  return country.dialPrefixes.some((prefix) => digits.startsWith(prefix) && digits.length === prefix.length + country.nationalNumberLength);
}

/** The digits after the country's dialing prefix, or undefined when the number is not valid for it. */
export function nationalNumber(country: Country, mobile: string): string | undefined {
  if (!isValidNumberForCountry(country, mobile)) return undefined;
  const digits = normalizeMobile(mobile) as string;
  const prefix = country.dialPrefixes.find((p) => digits.startsWith(p)) as string;
  return digits.slice(prefix.length);
}

/** The country of a number when the number also follows that country's format. */
export function validCountryOfNumber(data: SandboxData, mobile: string): Country | undefined {
  const country = countryOfNumber(data, mobile);
  return country !== undefined && isValidNumberForCountry(country, mobile) ? country : undefined;
}
